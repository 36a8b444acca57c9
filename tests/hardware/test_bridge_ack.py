"""The bridge acknowledges a placement itself, in the sweep its vote placed it (issue 19, §7): the
host says which LEDs are each reader's SEEN light; the light holds until the host's table draws it."""

from __future__ import annotations

from companion.hardware.leds import LedMap
from companion.hardware.serial_bridge import SerialBridge
from companion.hardware.serial_peer import BridgePeer
from companion.hardware.serial_protocol import BridgeLink, encode
from companion.intents import Intent, TagPlaced
from companion.ledframe import CityLight, LedFrame

NTAG = "04A1B2C3D4E5F6"


class Link:
    def __init__(self) -> None:
        self.leds: list[bytes] = []
        self.link = BridgeLink(4, "t/3", "B1", lambda data: None, on_led=self.on_led, led_bits=16, seen_ms=1000)
        self.seq = 0
        self.line("HELLO", 3, "S1")
        self.line("SEEN", "S1", "0=0+1,1=2+3,2=4")
        self.line("LED", "S1", 16, "0080", 0)  # the host's frame: bit 15 lit
        for channel in range(4):
            self.link.set_tag(channel, None)  # every reader settled, empty

    def on_led(self, nbits: int, data: bytes) -> None:
        self.leds.append(data)

    def line(self, verb: str, *args: object) -> None:
        self.link.host_line(encode(self.seq, verb, *args)[:-1], 0)
        self.seq += 1


def test_a_placement_lights_its_seen_leds_until_the_host_draws_it() -> None:
    link = Link()
    link.link.set_tag(1, NTAG)
    assert link.leds[-1] == b"\x0c\x80"  # bits 2 and 3 on top of the host's frame, at once
    placed_at = link.link.gen
    link.line("LED", "S1", 16, "0080", placed_at - 1)  # a frame drawn before the host knew: kept on top
    assert link.leds[-1] == b"\x0c\x80"
    link.line("LED", "S1", 16, "0400", placed_at)  # the host's table draws it now (its own SEEN)
    assert link.leds[-1] == b"\x04\x00"


def test_a_lift_or_time_ends_the_acknowledgement_and_boot_settling_is_not_acknowledged() -> None:
    link = Link()
    link.link.set_tag(2, NTAG)
    assert link.leds[-1] == b"\x10\x80"
    link.link.set_tag(2, None)  # slid off again
    assert link.leds[-1] == b"\x00\x80"
    link.link.set_tag(0, NTAG)
    link.link.tick(999)
    assert link.leds[-1] == b"\x03\x80"
    link.link.tick(1001)  # a host that never draws it (no LEDs at its table): not lit for ever
    assert link.leds[-1] == b"\x00\x80"
    fresh = BridgeLink(4, "t/3", "B2", lambda data: None, on_led=link.on_led)
    fresh.seen_bits = {0: (0, 1)}
    fresh.led_nbits, fresh.led_data, fresh.host_silent = 16, b"\x00\x00", False
    fresh.set_tag(0, NTAG)  # what lay there when it booted: not a person's move
    assert fresh.acks == {}


def test_seen_maps_out_of_bounds_are_refused() -> None:
    for bad in ("4=0", "0=16", "0=1+2+3", "0=x", "=1", "0"):
        link = Link()
        link.line("SEEN", "S1", bad)
        assert link.link.bad_lines == 1 and link.link.seen_bits == {0: (0, 1), 1: (2, 3), 2: (4,)}


def test_the_host_tells_the_bridge_its_seen_lights_and_the_bridge_lights_a_placement_unasked() -> None:
    cities = {0: "Bremen", 1: "Warsaw", 2: "Kyiv"}
    led_map = LedMap.sequential(cities.values())
    got: list[Intent] = []
    with (
        BridgePeer(now=0.0) as peer,
        SerialBridge(got.append, peer.url, cities=cities, led_map=led_map).open(0.0) as bridge,
    ):
        t = 0.0
        while t < 0.3:
            peer.pump(0.0, now=t)
            bridge.poll(t)
            t = round(t + 0.01, 6)
        assert peer.link.seen_bits == {ch: led_map.cities[city] for ch, city in cities.items()}
        bridge.show(LedFrame.build({"Bremen": CityLight.HINT}), t)
        peer.place(2, NTAG)
        while not peer.tags:  # the bridge alone: the host is not polled meanwhile
            t = round(t + 0.01, 6)
            peer.pump(0.0, now=t)
        a, b = led_map.cities["Kyiv"]
        assert b is not None and peer.led_bits[a] and peer.led_bits[b]  # SEEN, in the sweep that placed it
        assert peer.led_bits[led_map.cities["Bremen"][0]]  # the host's own frame underneath
        bridge.poll(t)
        assert got == [TagPlaced("Kyiv", NTAG)]
