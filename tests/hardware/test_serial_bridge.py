"""The serial bridge against an emulated microcontroller on a local socket (pyserial socket://)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion.hardware.leds import LedMap, render_bits
from companion.hardware.serial_bridge import SerialBridge
from companion.hardware.serial_peer import BridgePeer
from companion.hardware.serial_protocol import BRIDGE_VERBS, LineError, encode, parse
from companion.intents import CardScanned, DeviceFault, Intent, TagLifted, TagPlaced
from companion.ledframe import CityLight, LedFrame

CITIES = {0: "Bremen", 1: "Warsaw", 2: "Kyiv"}
NTAG = "04A1B2C3D4E5F6"
MAP = LedMap.sequential(CITIES.values())


class Rig:
    def __init__(self, peer: BridgePeer, bridge: SerialBridge, got: list[Intent]) -> None:
        self.peer, self.bridge, self.got = peer, bridge, got

    def exchange(self, now: float, rounds: int = 4) -> list[Intent]:
        for _ in range(rounds):
            self.peer.pump(0.02)
            self.bridge.poll(now)
        out, self.got[:] = list(self.got), []
        return out


@pytest.fixture
def rig() -> Iterator[Rig]:
    got: list[Intent] = []
    with BridgePeer() as peer:
        peer.tags[1] = NTAG  # already on the board when the box starts
        with SerialBridge(got.append, peer.url, cities=CITIES, card_channel=40, led_map=MAP).open() as bridge:
            rig = Rig(peer, bridge, got)
            yield rig


def test_protocol_round_trip_and_checksum() -> None:
    line = encode(0x2A, "TAG", 3, NTAG)
    assert line.startswith(b"2A TAG 3 04A1B2C3D4E5F6*") and line.endswith(b"\n")
    assert parse(line, BRIDGE_VERBS).args == ("3", NTAG)
    with pytest.raises(LineError) as exc:
        parse(line.replace(b"3", b"4", 1), BRIDGE_VERBS)
    assert exc.value.kind == "checksum"
    with pytest.raises(LineError):
        parse(b"\x00\xff\xfe", BRIDGE_VERBS)


def test_hello_and_initial_state(rig: Rig) -> None:
    assert rig.exchange(0.0) == [TagPlaced("Warsaw", NTAG)]
    assert rig.bridge.stats.firmware == "emulated/1.0"
    assert rig.peer.host_lines[0] == "HELLO 1"


def test_live_tags_and_cards(rig: Rig) -> None:
    rig.exchange(0.0)
    rig.peer.place(0, "DEADBEEF")
    rig.peer.lift(1)
    rig.peer.scan_card("04C0FFEE123456")
    assert rig.exchange(0.1) == [
        TagPlaced("Bremen", "DEADBEEF"),
        TagLifted("Warsaw", NTAG),
        CardScanned("04C0FFEE123456"),
    ]
    assert rig.bridge.present() == {"Bremen": "DEADBEEF"}


def test_garbage_partial_lines_and_bad_checksums_are_counted_and_dropped(rig: Rig) -> None:
    rig.exchange(0.0)
    rig.peer.send_raw(b"\x00\xffnoise\n")
    rig.peer.send_raw(b"05 TAG 2 DEADBEEF*00\n")  # bad checksum
    rig.peer.send_raw(b"06 TAG 2 DEAD")  # cut off ...
    rig.peer.send_raw(b"\n")  # ... and ended by a newline
    rig.peer.send_raw(b"x" * 300)  # no newline at all
    rig.peer.send_raw(b"\n")
    rig.peer.send_raw(encode(0x30, "WHAT", 1))
    rig.peer._seq += 5  # five lines lost on the wire
    rig.peer.place(2, "DEADBEEF")
    assert rig.exchange(0.1) == [TagPlaced("Kyiv", "DEADBEEF")]
    stats = rig.bridge.stats
    assert stats.bad_checksum == 1
    assert stats.garbage >= 4
    assert stats.lost == 5


def test_unplug_reconnect_and_rereport(rig: Rig) -> None:
    rig.exchange(0.0)
    rig.peer.unplug()
    events = rig.exchange(1.0)
    assert len(events) == 1 and isinstance(events[0], DeviceFault) and not events[0].recovered
    assert not rig.bridge.connected
    rig.exchange(3.5)  # retry fails: still unplugged, and not reported twice
    assert not rig.bridge.connected
    rig.peer.tags.pop(1)  # lifted while unplugged
    rig.peer.tags[2] = "DEADBEEF"  # placed while unplugged
    rig.peer.replug()
    events = rig.exchange(6.0)
    assert events[0] == DeviceFault("serial bridge", f"reconnected on {rig.peer.url}", recovered=True)
    assert events[1:] == [TagLifted("Warsaw", NTAG), TagPlaced("Kyiv", "DEADBEEF")]
    assert rig.bridge.stats.connects == 2


def test_led_frames_reach_the_bridge_and_blink(rig: Rig) -> None:
    rig.exchange(0.0)
    frame = LedFrame.build({"Kyiv": CityLight.SELECTED}, seat=0)
    rig.bridge.show(frame, 0.0)
    rig.exchange(0.0)
    assert rig.peer.led_bits == render_bits(frame, MAP, 0.0)
    rig.exchange(0.6)
    assert rig.peer.led_bits == render_bits(frame, MAP, 0.6)
    assert rig.peer.led_bits != render_bits(frame, MAP, 0.0)
    assert rig.peer.host_bad_lines == 0


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
    with PtyBridgePeer() as peer:
        peer.tags[2] = NTAG
        with SerialBridge(got.append, peer.url, cities=CITIES).open() as bridge:
            for _ in range(4):
                peer.pump(0.02)
                bridge.poll(0.0)
            peer.place(0, "DEADBEEF")
            for _ in range(4):
                peer.pump(0.02)
                bridge.poll(0.1)
    assert got == [TagPlaced("Kyiv", NTAG), TagPlaced("Bremen", "DEADBEEF")]
