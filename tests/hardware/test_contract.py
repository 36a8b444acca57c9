"""One contract for every reader/LED adapter: the SPI array (emulated MFRC522s) and the serial bridge
(emulated microcontroller). A new backend gets a ``Harness`` here and must pass the same tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

import pytest

from companion.hardware.emulated import EmulatedTable
from companion.hardware.leds import DECODE_PHASES, LedMap, decode_bits
from companion.hardware.protocols import CardReader, CityReaders, LedOutput
from companion.hardware.serial_bridge import SerialBridge
from companion.hardware.serial_peer import BridgePeer
from companion.intents import CardScanned, Intent, TagLifted, TagPlaced
from companion.ledframe import CityLight, LedFrame

CITIES = ["Bremen", "Poznań", "Vilnius", "Lviv"]
NTAG, CARD = "04A1B2C3D4E5F6", "04C0FFEE123456"


class Harness(Protocol):
    @property
    def readers(self) -> CityReaders: ...
    @property
    def leds(self) -> LedOutput: ...

    def place(self, city: str, uid: str) -> None: ...
    def lift(self, city: str) -> None: ...
    def scan(self, uid: str) -> None: ...
    def settle(self) -> list[Intent]: ...
    def decoded(self, frame: LedFrame) -> LedFrame: ...


class SpiHarness:
    def __init__(self, table: EmulatedTable) -> None:
        self.table, self.readers, self.leds = table, table.readers, table.leds

    def place(self, city: str, uid: str) -> None:
        self.table.place_tag(city, uid, settle=False)

    def lift(self, city: str) -> None:
        self.table.lift_tag(city, settle=False)

    def scan(self, uid: str) -> None:
        self.table.scan_card(uid)

    def settle(self) -> list[Intent]:
        self.table.step(self.table.settle_polls)
        return self.table.intents()

    def decoded(self, frame: LedFrame) -> LedFrame:
        self.table.show(frame)
        return self.table.decoded_leds()


class SerialHarness:
    def __init__(self, peer: BridgePeer, bridge: SerialBridge, got: list[Intent]) -> None:
        self.peer, self.readers, self.leds, self.got = peer, bridge, bridge, got
        self.channel = {city: i for i, city in enumerate(CITIES)}
        self.now = 0.0

    def place(self, city: str, uid: str) -> None:
        self.peer.place(self.channel[city], uid)

    def lift(self, city: str) -> None:
        self.peer.lift(self.channel[city])

    def scan(self, uid: str) -> None:
        self.peer.scan_card(uid)

    def settle(self) -> list[Intent]:
        for _ in range(12):  # 0.6 s: the bridge's votes need K = 4 sweeps of 30 ms to place a tag
            self.peer.pump(0.005, now=self.now)
            self.readers.poll(self.now)
            self.now += 0.05
        out, self.got[:] = list(self.got), []
        return out

    def decoded(self, frame: LedFrame) -> LedFrame:
        samples = []
        start = float(int(self.now) + 1)  # a whole second: the blink phases start there
        for phase in DECODE_PHASES:
            self.leds.show(frame, start + phase)
            self.peer.pump(0.02, now=start + phase)
            samples.append(self.peer.led_bits)
        return decode_bits(samples, LedMap.sequential(CITIES))


@pytest.fixture(params=["spi", "serial"])
def harness(request: pytest.FixtureRequest) -> Iterator[Harness]:
    if request.param == "spi":
        with EmulatedTable(CITIES) as table:
            yield SpiHarness(table)
    else:
        got: list[Intent] = []
        with (
            BridgePeer(now=0.0) as peer,
            SerialBridge(
                got.append,
                peer.url,
                cities=dict(enumerate(CITIES)),
                card_channel=4,
                led_map=LedMap.sequential(CITIES),
            ) as bridge,
        ):
            h = SerialHarness(peer, bridge, got)
            h.settle()
            yield h


def test_satisfies_the_protocols(harness: Harness) -> None:
    assert isinstance(harness.readers, CityReaders)
    assert isinstance(harness.readers, CardReader)
    assert isinstance(harness.leds, LedOutput)


def test_place_and_lift(harness: Harness) -> None:
    harness.place("Vilnius", NTAG)
    assert harness.settle() == [TagPlaced("Vilnius", NTAG)]
    assert harness.readers.present() == {"Vilnius": NTAG}
    harness.lift("Vilnius")
    assert harness.settle() == [TagLifted("Vilnius", NTAG)]
    assert harness.readers.present() == {}


def test_card_scanned(harness: Harness) -> None:
    harness.scan(CARD)
    assert harness.settle() == [CardScanned(CARD)]


def test_led_frame_round_trip(harness: Harness) -> None:
    frame = LedFrame.build(
        {"Lviv": CityLight.EXPECTED, "Bremen": CityLight.HINT, "Poznań": CityLight.SELECTED},
        time=5,
        time_end=13,
        event_kind="bonus",
        seat=2,
    )
    assert harness.decoded(frame) == frame


def test_close_twice(harness: Harness) -> None:
    harness.leds.close()
    harness.leds.close()
    harness.readers.close()
    harness.readers.close()
