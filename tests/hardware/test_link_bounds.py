"""Every field a line can carry is bounded before use; a reader whose state went wrong recovers within
one snapshot period without a reboot; a Pico at the MicroPython REPL is restarted (issue 19, §2)."""

from __future__ import annotations

import contextlib
import tracemalloc
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.hardware.serial_bridge import RESTART_FIRMWARE, SerialBridge
from companion.hardware.serial_peer import BridgePeer
from companion.hardware.serial_protocol import HOST_VERBS, BridgeLink, encode
from companion.intents import DeviceFault, Intent, TagPlaced

CITIES = {ch: f"City{ch}" for ch in range(6)}
NTAG = "04A1B2C3D4E5F6"


class Link:
    """A BridgeLink fed directly (no transport), with what it sent and the LED frames it took."""

    def __init__(self, led_bits: int = 104) -> None:
        self.out: list[bytes] = []
        self.leds: list[tuple[int, bytes]] = []
        self.link = BridgeLink(8, "t/3", "B1", self.out.append, on_led=self.on_led, led_bits=led_bits)
        self.seq = 0
        self.line("HELLO", 3, "S1")

    def on_led(self, nbits: int, data: bytes) -> None:
        self.leds.append((nbits, data))

    def line(self, verb: str, *args: object) -> None:
        self.link.host_line(encode(self.seq, verb, *args)[:-1], 0)
        self.seq += 1


def test_an_led_frame_longer_than_the_chain_is_refused_before_anything_is_allocated() -> None:
    link = Link(led_bits=104)
    tracemalloc.start()
    link.line("LED", "S1", 10_000_000, "FF")
    link.line("LED", "S1", 10**30, "FF")
    link.line("LED", "S1", 105, "FF" * 14)  # one more than the chain
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert link.leds == [] and link.link.bad_lines == 3
    assert peak < 20_000  # a 10 000 000-bit frame would take 1.25 MB
    link.line("LED", "S1", 104, "0F" * 13)
    assert link.leds == [(104, b"\x0f" * 13)]


@pytest.mark.parametrize(
    ("verb", "args"),
    [
        ("LED", ("S1", 16, "FFFF00")),  # more hex than bits
        ("LED", ("S1", 16, "F")),  # odd hex
        ("LED", ("S1", 16, "0x0F")),
        ("LED", ("S1", -1, "00")),
        ("BEAT", ("S1", "9" * 40)),  # a card number that would be a long int on the Pico
        ("BEAT", ("S1", "+1")),
        ("HELLO", ("3", "S" * 17)),  # a session longer than 16
        ("HELLO", ("3", "-")),  # the bridge's "no session"
        ("HELLO", ("99999999999", "S2")),
    ],
)
def test_out_of_bounds_host_lines_are_dropped_and_counted(verb: str, args: tuple[object, ...]) -> None:
    link = Link()
    link.line(verb, *args)
    assert link.link.bad_lines == 1 and link.leds == [] and link.link.session == "S1"


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(sorted(HOST_VERBS)),
    st.lists(st.one_of(st.text("0123456789ABCDEFx-+S ", max_size=30), st.integers(-(10**40), 10**40)), max_size=4),
)
def test_no_host_line_raises_or_overruns_the_led_chain(verb: str, args: list[object]) -> None:
    link = Link(led_bits=104)
    link.line(verb, *args)
    link.line("BEAT", "S1", 0)
    for nbits, data in link.leds:
        assert 0 <= nbits <= 104 and len(data) == (nbits + 7) // 8


# --- the host ---------------------------------------------------------------------------------
class Rig:
    def __init__(self, peer: BridgePeer, bridge: SerialBridge, got: list[Intent]) -> None:
        self.peer, self.bridge, self.got = peer, bridge, got
        self.now = 0.0

    def run(self, until: float) -> list[Intent]:
        t = self.now
        while t < until:
            t = round(t + 0.01, 6)
            self.peer.pump(0.0, now=t)  # loopback: what one side sent is there at once
            self.bridge.poll(t)
        self.now = until
        out, self.got[:] = list(self.got), []
        return out


@pytest.fixture
def rig() -> Iterator[Rig]:
    got: list[Intent] = []
    with BridgePeer(readers=7, now=0.0, card_channel=6) as peer:
        peer.place(1, NTAG)
        with SerialBridge(got.append, peer.url, cities=CITIES, card_channel=6).open(0.0) as bridge:
            r = Rig(peer, bridge, got)
            r.run(0.4)
            yield r


def test_a_generation_out_of_bounds_does_not_block_its_reader(rig: Rig) -> None:
    """Issue 19: a CRC-valid generation of 10**30 kept a reader's later lines "outdated" until the
    next reboot. Out of range it is malformed; in range but more than the bridge can have reached it
    is implausible; either way the reader's next real change comes through."""
    session, gen = rig.bridge.session, rig.peer.link.gen
    rig.peer.link.send("TAG", session, 10**30, 2, "DEADBEEF")
    rig.peer.link.send("TAG", session, 2**30 - 1, 2, "DEADBEEF")
    rig.peer.link.send("TAG", session, gen + 50, 2, "DEADBEEF")
    assert rig.run(0.5) == []
    assert rig.bridge.stats.malformed == 1 and rig.bridge.stats.implausible == 2
    rig.peer.place(2, NTAG)
    assert rig.run(0.8) == [TagPlaced("City2", NTAG)]


state_lines = st.tuples(
    st.sampled_from(["TAG", "FAULT", "SNAP", "BEAT", "CARD"]),
    st.integers(-5, 60) | st.sampled_from([2**30 - 1, 2**30, 10**30]),  # generation, relative to the bridge's
    st.integers(0, 9) | st.sampled_from([255, 10**12]),  # channel / card number
    st.sampled_from(["-", NTAG, "DEADBEEF", "XYZ", "1=DEADBEEF", "0,3", "99=DEADBEEF"]),
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(lines=st.lists(state_lines, min_size=1, max_size=6))
def test_a_host_fed_wrong_state_recovers_within_one_snapshot_period(
    rig: Rig, lines: list[tuple[str, int, int, str]]
) -> None:
    """Lines with a valid CRC and sequence number but wrong content (a bridge bug, a corrupted line
    that passed the CRC): no exception, and within one snapshot period (2 s) of the last of them the
    host sees the table as it is again, without a reboot."""
    session = rig.bridge.session
    base = rig.peer.link.gen
    for verb, gen, channel, text in lines:
        g = gen if gen >= 2**30 else max(0, base + gen)
        if verb == "TAG":
            rig.peer.link.send("TAG", session, g, channel, text)
        elif verb == "FAULT":
            rig.peer.link.send("FAULT", session, g, channel, channel % 2, "bug")
        elif verb == "SNAP":
            rig.peer.link.send("SNAP", session, g, text if "=" in text else "-", "-", text if "," in text else "-", "-")
        elif verb == "CARD":
            rig.peer.link.send("CARD", session, g, channel, NTAG)
        else:
            rig.peer.link.send("BEAT", session, g)
    start = rig.now
    rig.run(start + 2.0 + 0.1)
    truth = {CITIES[ch]: uid for ch, uid in rig.peer.device.table.items()}
    assert rig.bridge.present() == truth
    assert rig.bridge._faults == set()  # every reader answers in truth: a fault a bad line claimed is cleared
    rig.got.clear()


def test_a_pico_at_the_repl_is_restarted_and_reported_once() -> None:
    """The firmware crashed to the MicroPython prompt: the host sends Ctrl-C, Ctrl-B, Ctrl-D (a soft
    reset runs main.py again), reports one DeviceFault, and the recovery once the firmware answers."""
    got: list[Intent] = []
    with BridgePeer(readers=7, now=0.0, card_channel=6) as peer:
        peer.place(1, NTAG)
        with SerialBridge(got.append, peer.url, cities=CITIES, card_channel=6).open(0.0) as bridge:
            rig = Rig(peer, bridge, got)
            assert rig.run(0.4) == [TagPlaced("City1", NTAG)]
            crashed = b'Traceback (most recent call last):\r\n  File "main.py", line 3, in <module>\r\n'
            crashed += b"OSError: [Errno 5] EIO\r\nMicroPython v1.24.1 on 2024-11-29; Raspberry Pi Pico with RP2040\r\n"
            crashed += b'Type "help()" for more information.\r\n>>> '
            peer.send_raw(crashed)
            peer.device.boot_at = 10**6  # the firmware is not running: nothing answers
            received = b""
            for t in (0.41, 0.5, 1.0, 2.5, 4.0):
                bridge.poll(t)
                assert peer._conn is not None
                peer._conn.setblocking(False)
                with contextlib.suppress(BlockingIOError):
                    received += peer._conn.recv(4096)
                peer.send_raw(b">>> ")  # still at the prompt: not reported again
            assert received.count(RESTART_FIRMWARE) == 1  # at most every repl_retry_s (5 s)
            faults = [g for g in got if isinstance(g, DeviceFault)]
            assert len(faults) == 1 and "MicroPython prompt after OSError: [Errno 5] EIO" in faults[0].message
            got.clear()
            peer.reboot("soft", now=4.0)  # what Ctrl-D does: main.py runs again
            rig.now = 4.0
            events = rig.run(5.5)  # the host's next HELLO (every 1 s) is answered
            assert events == [DeviceFault("serial bridge", f"answering again on {peer.url}", recovered=True)]
            assert bridge.present() == {"City1": NTAG} and bridge.stats.repl == 1
            assert bridge.stats.link_faults == 1  # the stop is counted like any other stop of the link


def test_a_firmware_panic_is_one_fault_and_the_reboot_moves_nothing(rig: Rig) -> None:
    """The firmware's last words before machine.reset() (PANIC), then a watchdog-style reboot."""
    rig.peer.link.send("PANIC", rig.bridge.session, "MemoryError:", "memory", "allocation", "failed")
    rig.peer.reboot("watchdog", now=rig.now)
    events = rig.run(rig.now + 3.5)
    faults = [e for e in events if isinstance(e, DeviceFault)]
    assert faults[0] == DeviceFault(
        "serial bridge", "the firmware stopped (MemoryError: memory allocation failed); it restarts"
    )
    assert faults[-1].recovered and not any(isinstance(e, TagPlaced) for e in events)
    assert rig.bridge.present() == {"City1": NTAG} and rig.bridge.stats.link_faults == 1
