"""Latency from a tag event to the LED frame written and the UI model updated, on the reference board.

    python benchmarks/latency.py [--events 1000]

Two red and blue transports shuttle between neighbouring cities, lifted and placed on emulated
MFRC522 readers (the real ``mfrc522`` code over the emulated SPI bus, 44 city readers + the card
reader on a 74HC138-style decoder) with LEDs on the emulated 74HC595 chain. For every tag event:

- ``controller``: from the intent leaving the reader layer to the LED frame written to the chain
  and the UI model updated (``TableSession.step``: queue, controller, reachable-set hints, frame);
- ``with sweep``: the same plus the reader sweep in which the debounced event came out (in
  emulation the sweep costs CPU; on a Pi it is SPI time, see ``benchmarks/readers.py``).

Placements are measured at the step that accepts them after the 0.35 s settle time (that wait is
deliberate and not counted: it is what keeps a sliding marker from moving anything).
"""

from __future__ import annotations

import argparse
import queue
import statistics
import time

from companion.engine.game import Game
from companion.games.on_the_way.data import load_reference
from companion.games.on_the_way.engine import GameConfig, Undo, apply
from companion.games.on_the_way.engine.notation import position
from companion.games.on_the_way.table.controller import TableController
from companion.hardware.emulated import EmulatedTable
from companion.intents import Intent
from companion.table.tags import MarkerTag, TagDirectory

ROUTES = {"red": ("Poznań", "Warsaw"), "blue": ("Bremen", "Oss")}


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=1000)
    parser.add_argument(
        "--quick", action="store_true", help="small counts, for the test suite (tests/test_benchmarks.py)"
    )
    args = parser.parse_args()
    if args.quick:
        args.events = 20
    board, deck = load_reference()
    config = GameConfig(board, deck, ("red", "blue"))
    tags = TagDirectory.simulated(config.colours, [c.id for c in deck.contracts] + [e.id for e in deck.events])
    intents: queue.Queue[Intent] = queue.Queue()
    hw = EmulatedTable(board.names, sink=intents.put)
    start = position(config, "red 1:Poznań:1\nblue 1:Bremen:1")
    # The loop of TableSession.step, split so the reader sweep and the controller are timed apart.
    controller = TableController(config, tags, leds=hw.rig, game=Game(start, apply, undo_types=(Undo,)))

    def handle_queued() -> int:
        n = 0
        while not intents.empty():
            controller.handle(intents.get_nowait(), hw.now)
            n += 1
        controller.tick(hw.now)
        return n

    where = {"red": "Poznań", "blue": "Bremen"}

    def uid(colour: str) -> str:
        found = tags.uid_of(MarkerTag(colour, 1))
        assert found is not None
        return found

    def step_until_intent() -> tuple[float, float]:
        """Poll until the reader layer emits; time the sweep+step and the step alone."""
        while True:
            t0 = time.perf_counter()
            hw.rig.poll(hw.now)
            t1 = time.perf_counter()
            emitted = handle_queued()
            t2 = time.perf_counter()
            hw.now += hw.config.poll_interval_s
            if emitted:
                return (t2 - t1) * 1e3, (t2 - t0) * 1e3

    for colour, city in where.items():
        hw.chip(city).place(_tag(uid(colour)))
        step_until_intent()
    hw.now += 0.5
    handle_queued()

    controller_ms: list[float] = []
    sweep_ms: list[float] = []
    events = 0
    while events < args.events:
        colour = controller.state.current.colour
        a, b = ROUTES[colour]
        here = where[colour]
        there = b if here == a else a
        hw.chip(here).tags.clear()
        c, s = step_until_intent()  # lift: hints lit
        controller_ms.append(c)
        sweep_ms.append(s)
        hw.chip(there).place(_tag(uid(colour)))
        step_until_intent()  # placed: settling starts
        deadline = hw.now + controller.settle_s
        while hw.now < deadline:
            hw.now += hw.config.poll_interval_s
        t0 = time.perf_counter()
        hw.rig.poll(hw.now)
        t1 = time.perf_counter()
        handle_queued()  # the move is applied, the frame written
        t2 = time.perf_counter()
        controller_ms.append((t2 - t1) * 1e3)
        sweep_ms.append((t2 - t0) * 1e3)
        moved = controller.state.players[config.colours.index(colour)].transport(1)
        assert moved is not None and moved.city == there
        where[colour] = there
        events += 2
    hw.close()
    for name, values in (("controller", controller_ms), ("with sweep", sweep_ms)):
        print(
            f"{name:>10}: p50 {statistics.median(values):.3f} ms, p99 {percentile(values, 0.99):.3f} ms, "
            f"max {max(values):.3f} ms over {len(values)} tag events"
        )


def _tag(uid: str):  # type: ignore[no-untyped-def]
    from companion.hardware.emulated_mfrc522 import EmulatedTag

    return EmulatedTag.from_hex(uid)


if __name__ == "__main__":
    main()
