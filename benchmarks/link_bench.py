"""The serial link's figures for issue 19: placement → LED acknowledgement and → command accepted,
end to end through the emulated bridge, and the reboot property test.

    python benchmarks/link_bench.py [--quick]

**Acknowledgement.** The RP2040 firmware itself (``firmware/rp2040`` on the CPython ``machine`` shim,
:class:`~companion.hardware.firmware_host.FirmwareHost`: 44 + 1 emulated MFRC522s, the reference RF
groups, the 30 ms sweep, the K-of-N vote) talks over a pseudo-terminal to the host's real
``SerialBridge``, which feeds On The Way's real ``TableController`` (its LEDs are the same bridge).
The host's loop runs every ``poll_interval`` of the reference hardware file (20 ms), at its own phase,
in the middle of the firmware's sweeps (``FirmwareHost.at``). A marker is moved to a neighbouring
city, landing at a random moment; measured on the bus clock:

- *placement to led acknowledgement*: until the firmware hands its LED driver a frame with the city
  SEEN (both colours on). With protocol 3 the bridge lights it itself in the sweep its vote placed the
  marker (the host told it each reader's SEEN LEDs); otherwise it is the host's round trip: TAG line,
  the host's next loop, the table's frame, the LED line, the firmware's next read;
- *placement to command accepted*: until the engine took the move (the 0.35 s settle included).

Pi estimate: the host's loop costs no bus time here, so when the light came through the host, the
CPU time of the loop iteration that wrote the LED line, measured on this machine, is added times
``PI4_PER_X86`` (4: a Pi 4 runs this Python about four times slower than a laptop core; a guess, as in
benchmarks/readers.py).

**Reboots.** :func:`companion.hardware.link_sim.simulate_reboots` over seeded random plans: reboot
kind (power, replug, watchdog, soft; one to three in a row), outage, the host's loop period, retry
and HELLO intervals, markers moved meanwhile, read errors; every other run on a hostile wire (drops,
duplicates, reorderings, bit flips, cut lines, garbage up to 8 % each, both ways). A phantom is a
TagLifted/TagPlaced for a marker that did not move.
"""

from __future__ import annotations

import argparse
import functools
import logging
import random
import statistics
import time
from collections.abc import Callable

from companion import games
from companion.engine.game import Game
from companion.games.on_the_way.data import load_reference
from companion.games.on_the_way.engine import GameConfig, Undo, apply
from companion.games.on_the_way.engine.notation import position
from companion.games.on_the_way.table.controller import TableController
from companion.hardware.config import REFERENCE, load
from companion.hardware.firmware_host import FirmwareHost
from companion.hardware.link_sim import FAULTS, FaultRates, RebootPlan, simulate_reboots
from companion.hardware.serial_bridge import SerialBridge
from companion.hardware.serial_peer import REBOOT_KINDS
from companion.hardware.spi_readers import rf_scan_groups
from companion.intents import Intent, TagLifted
from companion.table.tags import MarkerTag, TagDirectory

PI4_PER_X86 = 4.0
RP2040_XFER_S = 40e-6  # benchmarks/readers.py: one register transaction of the firmware, all in
ROUTES = {"red": ("Poznań", "Warsaw"), "blue": ("Bremen", "Oss")}


def figure(name: str, value: float, unit: str, digits: int = 0) -> None:
    print(f"{name}: {value:.{digits}f} {unit}")


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


def acknowledgement_latency(samples: int, seed: int = 1) -> tuple[list[float], list[float], list[float]]:
    """Per move, ms: placement → SEEN on the LED driver (Pi estimate); the same when the host's table
    draws it (what a version 2 bridge gives); placement → move accepted."""
    plugin = games.get("on-the-way")
    hardware = load(REFERENCE, env={})
    led_map = hardware.leds.led_map
    channel_of = {city: ch for ch, city in hardware.readers.items()}
    groups = rf_scan_groups(hardware, plugin.neighbours())
    board, deck = load_reference()
    config = GameConfig(board, deck, ("red", "blue"))
    tags = TagDirectory.simulated(config.colours, [c.id for c in deck.contracts] + [e.id for e in deck.events])
    rnd = random.Random(seed)
    acks: list[float] = []
    via_host: list[float] = []
    accepted: list[float] = []
    firmware_config = {"GROUPS": groups, "LED_BITS": led_map.size}
    with FirmwareHost(config=firmware_config, xfer_overhead_s=RP2040_XFER_S) as fw:
        assert fw.bridge is not None
        intents: list[Intent] = []
        host = SerialBridge(
            intents.append, fw.url, cities=hardware.readers, card_channel=hardware.card_channel, led_map=led_map
        ).open(fw.now)
        start = position(config, "red 1:Poznań:1\nblue 1:Bremen:1")
        table = TableController(config, tags, leds=host, game=Game(start, apply, undo_types=(Undo,)))
        # (bus time, LED bytes, channels the bridge lights SEEN itself) as the firmware's driver got them
        frames: list[tuple[float, bytes, frozenset[int]]] = []
        link = fw.bridge.link
        to_driver = link.on_led

        def on_led(nbits: int, data: bytes) -> None:
            frames.append((fw.now, bytes(data), frozenset(link.acks)))
            if to_driver is not None:
                to_driver(nbits, data)

        fw.bridge.link.on_led = on_led
        loop_cpu: list[tuple[float, float]] = []  # (bus time, CPU seconds) of each host loop iteration
        moves: list[float] = []  # bus time of each host loop iteration in which the engine took a move
        poll_s = hardware.poll_interval_s

        def host_loop() -> None:  # the Pi's main loop: poll the link, apply intents, let moves settle
            cpu = time.process_time()
            depth = table.game.depth
            host.poll(fw.now)
            while intents:
                table.handle(intents.pop(0), fw.now)
            table.tick(fw.now)
            loop_cpu.append((fw.now, time.process_time() - cpu))
            if table.game.depth > depth:
                moves.append(fw.now)
            fw.at(fw.now + poll_s, host_loop)

        fw.at(fw.now + rnd.uniform(0, poll_s), host_loop)

        def run_until(done: Callable[[], bool], limit: float) -> None:
            until = fw.now + limit
            while not done() and fw.now < until:
                fw.step()

        def uid(colour: str) -> str:
            found = tags.uid_of(MarkerTag(colour, 1))
            assert found is not None
            return found

        where = {"red": "Poznań", "blue": "Bremen"}
        for colour, city in where.items():
            fw.place(channel_of[city], uid(colour))
        run_until(lambda: False, 1.0)
        a_bit = {city: bits for city, bits in led_map.cities.items()}
        for _ in range(samples):
            colour = table.state.current.colour
            here = where[colour]
            there = next(c for c in ROUTES[colour] if c != here)
            fw.lift(channel_of[here])

            def lifted(here: str = here) -> bool:
                return any(isinstance(i, TagLifted) and i.city == here for i in intents)

            run_until(lifted, 1.0)
            run_until(lambda: False, 0.1 + rnd.uniform(0, 0.05))
            depth = table.game.depth
            placed_at = fw.now + rnd.uniform(0.0, 0.06)
            fw.at(placed_at, functools.partial(fw.place, channel_of[there], uid(colour)))
            seen_before, sent_before = len(frames), len(fw.sent)

            def deeper(depth: int = depth) -> bool:
                return table.game.depth > depth

            run_until(deeper, 2.0)
            assert table.game.depth > depth, f"the move of {colour} to {there} was not accepted"
            accepted_at = moves[-1]
            a, b = a_bit[there]
            assert b is not None

            def lit(data: bytes, bit: int) -> bool:
                return bool(data[bit // 8] >> (bit % 8) & 1)

            seen = [
                (t, own) for t, data, own in frames[seen_before:] if t >= placed_at and lit(data, a) and lit(data, b)
            ]
            tag = f" {channel_of[there]} {uid(colour)}*".encode()
            reported_at = next(t for t, data in fw.sent[sent_before:] if tag in data)
            # lit through the host: add the Pi's cost of the loop iteration that wrote the LED line
            by_host = seen[0][0] > reported_at + 0.001
            cpu = max((c for t, c in loop_cpu if reported_at <= t <= seen[0][0]), default=0.0)
            acks.append((seen[0][0] - placed_at + (cpu if by_host else 0.0) * PI4_PER_X86) * 1000)
            host_at = next(t for t, own in seen if channel_of[there] not in own)  # the table's own SEEN
            via_host.append((host_at - placed_at + cpu * PI4_PER_X86) * 1000)
            accepted.append((accepted_at - placed_at) * 1000)
            where[colour] = there
            run_until(lambda: False, 0.2)
        host.close()
    return acks, via_host, accepted


def reboot_property(runs: int, seed: int = 19) -> tuple[int, int, int, int]:
    """(runs, phantom intents, runs with a wrong or missing real move or final view, runs where a
    snapshot came before the readers settled) over seeded random reboot plans."""
    rnd = random.Random(seed)
    phantoms = wrong = early = 0
    for i in range(runs):
        markers = rnd.randint(1, 6)
        plan = RebootPlan(
            kinds=tuple(rnd.choice(REBOOT_KINDS) for _ in range(rnd.randint(1, 3))),
            gaps_s=tuple(rnd.uniform(0.0, 0.4) for _ in range(3)),
            off_s=rnd.uniform(0.0, 1.5),
            markers=markers,
            moved=rnd.randint(0, min(2, markers)),
            poll_s=rnd.choice([0.01, 0.02, 0.05, 0.1]),
            phase_s=rnd.uniform(0.0, 0.1),
            retry_s=rnd.uniform(0.0, 2.0),
            hello_s=rnd.uniform(0.05, 1.0),
            read_errors=rnd.uniform(0.0, 0.3),
            wire=FaultRates(*(rnd.uniform(0.0, 0.08) for _ in FAULTS)) if i % 2 else FaultRates(),
            seed=seed * 100_000 + i,
        )
        result = simulate_reboots(plan)
        phantoms += len(result.phantoms)
        wrong += bool(result.wrong) or result.host_view != result.true_view
        early += result.unsettled_seen > 0
    return runs, phantoms, wrong, early


def main(quick: bool = False) -> None:
    logging.disable(logging.WARNING)  # the test tags are not all in the reference TOML
    acks, via_host, accepted = acknowledgement_latency(6 if quick else 150)
    figure("placement to led acknowledgement, bridge, p99", p99(acks), "ms")
    figure("placement to led acknowledgement, bridge, median", statistics.median(acks), "ms")
    figure("placement to led acknowledgement, bridge, max", max(acks), "ms")
    figure("placement to led acknowledgement drawn by the host's table, bridge, p99", p99(via_host), "ms")
    figure("placement to command accepted, bridge, p99", p99(accepted), "ms")
    figure("placement to command accepted, bridge, median", statistics.median(accepted), "ms")
    figure("placement to led acknowledgement, bridge, moves", len(acks), "moves")
    runs, phantoms, wrong, early = reboot_property(10 if quick else 300)
    figure("reboot property test, runs", runs, "runs")
    figure("reboot property test, runs answered before the readers settled", early, "runs")
    figure("reboot property test, phantom intents", phantoms, "intents")
    figure("reboot property test, runs with a real move misreported", wrong, "runs")
    logging.disable(logging.NOTSET)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a few moves and reboot runs (the test suite runs this)")
    main(parser.parse_args().quick)
