"""The serial bridge (protocol v2) against the emulated bridge on a local socket (pyserial socket://)."""

from __future__ import annotations

import binascii
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.hardware.leds import LedMap, render_bits
from companion.hardware.serial_bridge import SerialBridge
from companion.hardware.serial_peer import REBOOT_KINDS, BridgePeer
from companion.hardware.serial_protocol import (
    BRIDGE_VERBS,
    BridgeLink,
    LineError,
    crc32,
    crc32_soft,
    encode,
    parse,
)
from companion.intents import CardScanned, DeviceFault, Intent, TagLifted, TagPlaced
from companion.ledframe import CityLight, LedFrame

CITIES = {0: "Bremen", 1: "Warsaw", 2: "Kyiv"}
NTAG = "04A1B2C3D4E5F6"
CLASSIC = "DEADBEEF"
MAP = LedMap.sequential(CITIES.values())


class Rig:
    """Peer and host on one virtual clock, stepped on a 10 ms grid (the bridge sweeps every 30 ms)."""

    def __init__(self, peer: BridgePeer, bridge: SerialBridge, got: list[Intent]) -> None:
        self.peer, self.bridge, self.got = peer, bridge, got
        self.now = 0.0

    def exchange(self, until: float) -> list[Intent]:
        t = self.now
        while True:
            for _ in range(2):
                self.peer.pump(0.0, now=t)  # loopback: what one side sent is there at once
                self.bridge.poll(t)
            if t >= until:
                break
            t = min(until, round(t + 0.01, 6))
        self.now = until
        out, self.got[:] = list(self.got), []
        return out


@pytest.fixture
def rig() -> Iterator[Rig]:
    got: list[Intent] = []
    with BridgePeer(now=0.0) as peer:
        peer.place(1, NTAG)  # already on the board when the box starts
        with SerialBridge(got.append, peer.url, cities=CITIES, card_channel=40, led_map=MAP).open() as bridge:
            yield Rig(peer, bridge, got)


def test_protocol_round_trip_and_crc() -> None:
    line = encode(0x2A, "TAG", "S1", 7, 3, NTAG)
    assert line.startswith(b"002A TAG S1 7 3 04A1B2C3D4E5F6*") and line.endswith(b"\n")
    payload = line[: line.rindex(b"*")]
    assert line[-9:-1] == b"%08X" % (binascii.crc32(payload) & 0xFFFFFFFF)
    assert parse(line, BRIDGE_VERBS).args == ("S1", "7", "3", NTAG)
    with pytest.raises(LineError) as exc:
        parse(line.replace(b"3", b"4", 1), BRIDGE_VERBS)
    assert exc.value.kind == "checksum"
    with pytest.raises(LineError):
        parse(b"\x00\xff\xfe", BRIDGE_VERBS)


@given(st.binary(max_size=300))
def test_soft_crc32_matches_binascii(data: bytes) -> None:
    """The firmware falls back to crc32_soft where binascii.crc32 is missing: both must agree."""
    assert crc32_soft(data) == crc32(data) == binascii.crc32(data) & 0xFFFFFFFF


@given(st.data())
def test_every_two_bit_flip_is_caught(data: st.DataObject) -> None:
    """Version 1's XOR missed two flips in the same bit column; CRC-32 catches all 1-3 bit errors."""
    line = bytearray(encode(0x10, "TAG", "S1", 12, 3, NTAG)[:-1])
    first = data.draw(st.integers(0, len(line) * 8 - 1))
    second = data.draw(st.integers(0, len(line) * 8 - 1).filter(lambda b: b != first))
    for bit in (first, second):
        line[bit // 8] ^= 1 << (bit % 8)
    with pytest.raises(LineError):
        parse(bytes(line), BRIDGE_VERBS)


def test_hello_and_initial_state(rig: Rig) -> None:
    assert rig.exchange(0.05) == []  # answered before the first sweep: every reader unsettled, nothing said
    assert rig.bridge.linked and rig.bridge.stats.unsettled == 41
    assert rig.exchange(0.3) == [TagPlaced("Warsaw", NTAG)]  # once its vote had K of N samples
    assert rig.bridge.stats.firmware == "emulated/3.0" and rig.bridge.stats.protocol == 4
    assert rig.bridge.stats.rf == "-"  # the test peer names no RF groups (protocol 4 reports them)
    assert rig.peer.host_lines[0] == f"HELLO 4 {rig.bridge.session}"


def test_live_tags_and_cards(rig: Rig) -> None:
    rig.exchange(0.3)
    rig.peer.place(0, "DEADBEEF")
    rig.peer.lift(1)
    rig.peer.scan_card("04C0FFEE123456")
    assert rig.exchange(0.6) == [  # a lift settles after M = 3 sweeps, a placement after K = 4
        CardScanned("04C0FFEE123456"),
        TagLifted("Warsaw", NTAG),
        TagPlaced("Bremen", "DEADBEEF"),
    ]
    assert rig.bridge.present() == {"Bremen": "DEADBEEF"}


def test_replayed_and_duplicated_lines_change_nothing(rig: Rig) -> None:
    rig.exchange(0.3)
    session = rig.bridge.session
    rig.peer.place(0, "DEADBEEF")
    got = rig.exchange(0.6)
    rig.peer.lift(0)
    got += rig.exchange(0.9)
    rig.peer.scan_card("04C0FFEE123456")
    got += rig.exchange(1.0)
    assert got == [TagPlaced("Bremen", "DEADBEEF"), TagLifted("Bremen", "DEADBEEF"), CardScanned("04C0FFEE123456")]
    gen = rig.peer.link.gen
    # The attack of issue #10: replay the TAG and CARD lines (new sequence numbers, old generations),
    # and the first snapshot (gen 1: only Warsaw) twice. Nothing may move.
    rig.peer.link.send("TAG", session, gen - 2, 0, "DEADBEEF")
    rig.peer.link.send("CARD", session, gen, 1, "04C0FFEE123456")
    rig.peer.link.send("SNAP", session, 1, f"1={NTAG}", "-", "-", "-")
    rig.peer.link.send("SNAP", session, 1, f"1={NTAG}", "-", "-", "-")
    assert rig.exchange(1.1) == []
    assert rig.bridge.present() == {"Warsaw": NTAG}
    assert rig.bridge.stats.outdated >= 1


def test_lost_line_is_recovered_by_resync_without_waiting_for_a_snapshot(rig: Rig) -> None:
    rig.exchange(0.3)
    conn = rig.peer._conn
    rig.peer._conn = None  # the TAG line is lost on the wire
    rig.peer.place(2, "DEADBEEF")
    rig.peer.pump(0.002, now=0.45)  # four sweeps: the vote places it
    rig.peer._conn = conn
    rig.peer.link.send("BEAT", rig.bridge.session, rig.peer.link.gen)  # announces a generation we missed
    rig.now = 0.45
    assert rig.exchange(0.49) == [TagPlaced("Kyiv", "DEADBEEF")]
    assert rig.bridge.stats.lost == 1 and rig.bridge.stats.resyncs == 1


def test_garbage_partial_lines_and_bad_checksums_are_counted_and_dropped(rig: Rig) -> None:
    rig.exchange(0.3)
    session = rig.bridge.session
    rig.peer.send_raw(b"\x00\xffnoise\n")
    rig.peer.send_raw(b"0005 TAG S 1 2 DEADBEEF*00000000\n")  # bad CRC
    rig.peer.send_raw(b"0006 TAG 2 DEAD")  # cut off ...
    rig.peer.send_raw(b"\n")  # ... and ended by a newline
    rig.peer.send_raw(b"x" * 3000)  # no newline at all
    rig.peer.send_raw(b"\n")
    rig.peer.send_raw(encode(0x30, "WHAT", 1))
    rig.peer.link.send("HELLO", "x", "y", "z", "w", session, "v")  # HELLO with bad fields: raised in v1
    rig.peer.link.send("TAG", session, "x", 2, "DEADBEEF")  # valid CRC, nonsense generation
    rig.peer.link.send("TAG", session, rig.peer.link.gen, 2, "NOTAUID!")
    rig.peer.link.seq += 5  # five lines lost on the wire
    rig.peer.place(2, "DEADBEEF")
    assert rig.exchange(0.45) == [TagPlaced("Kyiv", "DEADBEEF")]
    stats = rig.bridge.stats
    assert stats.bad_checksum == 1
    assert stats.garbage >= 4
    assert stats.malformed == 2
    assert stats.lost == 6  # the five, and the number of the HELLO dropped as stale
    assert stats.stale == 1


def test_a_bridge_that_misses_the_first_hello_is_asked_again() -> None:
    got: list[Intent] = []
    with BridgePeer(now=0.0) as peer:
        peer.place(0, NTAG)
        with SerialBridge(got.append, peer.url, cities=CITIES).open(0.0) as bridge:
            peer.pump(0.05, now=0.0)
            peer.link.session = "-"  # the board reset on connect and forgot the HELLO it got
            for t in (0.0, 0.5, 1.0, 1.5):
                bridge.poll(t)
                peer.pump(0.02, now=t)
            bridge.poll(1.5)
            assert bridge.linked and got == [TagPlaced("Bremen", NTAG)]
            assert bridge.stats.hellos == 2


def test_rebooted_bridge_is_noticed_and_what_moved_meanwhile_reported(rig: Rig) -> None:
    rig.exchange(0.3)
    rig.peer.place(2, CLASSIC)
    assert rig.exchange(0.5) == [TagPlaced("Kyiv", CLASSIC)]
    rig.peer.reboot("soft", now=0.5)  # the table stays; the firmware starts from nothing
    rig.peer.lift(1)  # moved while it rebooted
    rig.peer.place(0, "DEADBEEF")
    assert rig.exchange(1.2) == [TagPlaced("Bremen", "DEADBEEF"), TagLifted("Warsaw", NTAG)]
    assert rig.bridge.stats.stale >= 1 and rig.bridge.stats.unsettled > 0
    assert rig.bridge.present() == {"Bremen": "DEADBEEF", "Kyiv": CLASSIC}


@pytest.mark.parametrize("kind", REBOOT_KINDS)
def test_a_reboot_of_any_kind_moves_no_marker(kind: str) -> None:
    """Issue 19 §3: a HELLO answered before the votes settle must not lift and place every marker."""
    got: list[Intent] = []
    cities = {ch: f"City{ch}" for ch in range(8)}
    with BridgePeer(now=0.0) as peer:
        for channel in (0, 2, 5, 7):
            peer.place(channel, f"04A1B2C3D4E5{channel:02X}")
        with SerialBridge(got.append, peer.url, cities=cities, retry_interval_s=0.1).open(0.0) as bridge:
            rig = Rig(peer, bridge, got)
            assert len([g for g in rig.exchange(0.5) if isinstance(g, TagPlaced)]) == 4
            peer.reboot(kind, now=0.5, off_s=0.2)
            after = rig.exchange(2.0)
            assert [g for g in after if isinstance(g, TagPlaced | TagLifted)] == []
            assert bridge.linked and peer.device.boots == 2
            assert bridge.stats.unsettled > 0  # the host did ask before the readers settled
            if kind != "soft":  # the port went away with the chip's USB
                assert any(isinstance(g, DeviceFault) and g.recovered for g in after)


def test_a_version_2_bridge_is_still_understood() -> None:
    """Backwards compatibility: a bridge on the previous firmware answers HELLO 2 and sends snapshots
    without the unsettled field; the host links and reads the table."""

    class Version2Link(BridgeLink):
        def send(self, verb: str, *args: object) -> None:
            if verb == "HELLO":
                args = (2, *args[1:])
            elif verb == "SNAP":
                args = args[:5]
            super().send(verb, *args)

    got: list[Intent] = []
    with BridgePeer(now=0.0) as peer:
        peer.device.link = Version2Link(41, "rp2040/2.0", "B2", peer._write)
        peer.device.link.set_tag(2, NTAG)
        with SerialBridge(got.append, peer.url, cities=CITIES).open(0.0) as bridge:
            rig = Rig(peer, bridge, got)
            assert rig.exchange(0.05) == [TagPlaced("Kyiv", NTAG)]
            assert bridge.stats.protocol == 2 and bridge.stats.malformed == 0


def test_silent_bridge_is_a_device_fault_and_recovers(rig: Rig) -> None:
    rig.exchange(0.3)
    for t in (0.5, 1.0, 1.5, 2.0, 2.6):  # the bridge hangs: no lines at all
        rig.bridge.poll(t)
    assert rig.got == [DeviceFault("serial bridge", f"no heartbeat for 2 s on {rig.peer.url}")]
    rig.got.clear()
    rig.now = 2.6
    assert rig.exchange(3.0) == [DeviceFault("serial bridge", f"answering again on {rig.peer.url}", recovered=True)]


def test_bridge_darkens_leds_when_the_host_goes_silent(rig: Rig) -> None:
    rig.exchange(0.3)
    frame = LedFrame.build({"Kyiv": CityLight.HINT})
    rig.bridge.show(frame, 0.3)
    rig.exchange(0.31)
    assert any(rig.peer.led_bits)
    rig.peer.pump(0.02, now=4.0)  # 3.7 s without a host line
    assert rig.peer.led_bits and not any(rig.peer.led_bits)


def test_unplug_reconnect_and_rereport(rig: Rig) -> None:
    rig.exchange(0.3)
    rig.peer.unplug()
    events = rig.exchange(1.0)
    assert len(events) == 1 and isinstance(events[0], DeviceFault) and not events[0].recovered
    assert not rig.bridge.connected
    rig.exchange(3.5)  # retry fails: still unplugged, and not reported twice
    assert not rig.bridge.connected
    rig.peer.lift(1)  # lifted while unplugged
    rig.peer.place(2, "DEADBEEF")  # placed while unplugged
    rig.peer.scan_card("04C0FFEE123456")  # and a card: the snapshot still carries it
    rig.peer.replug()
    events = rig.exchange(6.0)
    assert events[0] == DeviceFault("serial bridge", f"reconnected on {rig.peer.url}", recovered=True)
    assert events[1:] == [TagLifted("Warsaw", NTAG), TagPlaced("Kyiv", "DEADBEEF"), CardScanned("04C0FFEE123456")]
    assert rig.bridge.stats.connects == 2


def test_led_frames_reach_the_bridge_blink_and_are_resent(rig: Rig) -> None:
    rig.exchange(0.3)
    frame = LedFrame.build({"Kyiv": CityLight.SELECTED}, seat=0)
    rig.bridge.show(frame, 0.3)
    rig.exchange(1.0)
    assert rig.peer.led_bits == render_bits(frame, MAP, 1.0)
    rig.exchange(1.6)
    assert rig.peer.led_bits == render_bits(frame, MAP, 1.6)
    assert rig.peer.led_bits != render_bits(frame, MAP, 1.0)  # it blinks
    steady = LedFrame.build({"Kyiv": CityLight.HINT}, seat=1)
    rig.bridge.show(steady, 1.6)
    rig.exchange(1.61)
    leds = sum(line.startswith("LED") for line in rig.peer.host_lines)
    rig.peer.led_bits = ()  # the bridge lost its LED state (brown-out of the LED chain)
    rig.exchange(2.3)  # nothing changed: not sent again yet
    assert sum(line.startswith("LED") for line in rig.peer.host_lines) == leds
    rig.exchange(2.7)  # a second has passed: the same bits again
    assert sum(line.startswith("LED") for line in rig.peer.host_lines) == leds + 1
    assert rig.peer.led_bits == render_bits(steady, MAP, 2.7)
    assert rig.peer.host_bad_lines == 0


def test_fault_lines_are_state_too(rig: Rig) -> None:
    rig.exchange(0.3)
    rig.peer.fault(2, "not answering (version 0x00)")
    rig.peer.link.send("FAULT", rig.bridge.session, rig.peer.link.gen, 2, 1, "again")  # duplicate
    rig.peer.fault(2, None)
    assert rig.exchange(0.4) == [
        DeviceFault("bridge reader 2 (Kyiv)", "not answering (version 0x00)"),
        DeviceFault("bridge reader 2 (Kyiv)", "answering again", recovered=True),
    ]


def test_port_that_cannot_be_opened_is_reported_not_raised() -> None:
    got: list[Intent] = []
    bridge = SerialBridge(got.append, "socket://127.0.0.1:1", cities=CITIES).open(0.0)
    assert not bridge.connected and isinstance(got[0], DeviceFault)
    bridge.close()
    bridge.close()


def test_loop_url_opens() -> None:
    got: list[Intent] = []
    with SerialBridge(got.append, "loop://", cities=CITIES).open() as bridge:
        assert bridge.connected
        bridge.poll(0.0)  # reads back its own HELLO: a host verb, dropped as garbage
        assert got == [] and bridge.stats.garbage == 1


def test_bridge_over_a_pty() -> None:
    from companion.hardware.serial_peer import PtyBridgePeer

    got: list[Intent] = []
    with PtyBridgePeer(now=0.0) as peer:
        peer.place(2, NTAG)
        with SerialBridge(got.append, peer.url, cities=CITIES).open() as bridge:
            for step in range(30):
                peer.pump(0.005, now=step * 0.01)
                bridge.poll(step * 0.01)
            peer.place(0, "DEADBEEF")
            for step in range(30, 60):
                peer.pump(0.005, now=step * 0.01)
                bridge.poll(step * 0.01)
    assert got == [TagPlaced("Kyiv", NTAG), TagPlaced("Bremen", "DEADBEEF")]
