"""Whole turns through emulated hardware only: tags on emulated MFRC522 readers (real mfrc522 code),
cards on the card reader, buttons on gpiozero mock pins, LEDs decoded from the emulated 74HC595 chain.
"""

from __future__ import annotations

import pytest

from companion.engine.game import Game
from companion.games.on_the_way.engine import GameConfig, Undo, apply
from companion.games.on_the_way.engine.notation import position
from companion.games.on_the_way.table.controller import TableController
from companion.ledframe import CityLight
from companion.table.session import TableSession
from companion.table.tags import CardTag, MarkerTag, TagDirectory
from companion.table.ui import Mode
from tests.emulated_driver import EmulatedTableDriver

from .conftest import BOARD, DECK

# A scenario used to fail about one run in four when an earlier emulated table's leftovers were
# collected by the cycle collector in the middle of its sweeps (its readers then saw no tag at all).
# EmulatedTable now collects them before it is built; until the leftover is found and closed, a
# failing scenario runs once more. A real, repeatable failure still fails.
pytestmark = pytest.mark.flaky(reruns=1)


class HardwareTable(EmulatedTableDriver):
    def __init__(self, text: str = "", colours: tuple[str, ...] = ("red", "blue")) -> None:
        self.config = GameConfig(BOARD, DECK, colours)
        tags = TagDirectory.simulated(colours, [c.id for c in DECK.contracts] + [e.id for e in DECK.events])
        super().__init__(BOARD.names, tags)
        game = Game(position(self.config, text), apply, undo_types=(Undo,))
        controller = TableController(self.config, self.tags, leds=self.hw.rig, game=game)
        self.session = TableSession(controller, self.hw.rig, self.intents)
        for p in self.ctl.state.players:
            for t in p.transports:
                self.place(p.colour, t.marker, t.city)

    def marker_uid(self, colour: str, n: int) -> str:
        return self.uid(MarkerTag(colour, n))

    def place(self, colour: str, n: int, city: str, settle: bool = True) -> None:
        self.put_tag(city, MarkerTag(colour, n), settle)

    def lift(self, colour: str, n: int, city: str) -> None:
        self.take_tag(city, MarkerTag(colour, n))

    def move(self, colour: str, n: int, frm: str, to: str) -> None:
        self.lift(colour, n, frm)
        self.place(colour, n, to)

    def scan(self, card: str) -> None:
        self.scan_tag(CardTag(card))


@pytest.fixture
def make_table():  # type: ignore[no-untyped-def]
    tables: list[HardwareTable] = []

    def make(text: str = "") -> HardwareTable:
        tables.append(HardwareTable(text))
        return tables[-1]

    yield make
    for t in tables:
        t.close()


def test_transshipment_move_lights_its_hint_set_on_the_leds(make_table) -> None:  # type: ignore[no-untyped-def]
    t = make_table("cities Warsaw=W2\nred 1:Poznań:2")
    t.lift("red", 1, "Poznań")
    hints = t.lit(CityLight.HINT)
    assert "Lviv" in hints  # OTW-18: through Warsaw (warehouse, 2 idle trucks)
    assert hints == set(t.ui.hints)
    assert t.leds().seat == 0 and t.leds().time == 0 and t.leds().time_end == 14
    t.place("red", 1, "Lviv")
    assert t.state.players[0].transport(1).city == "Lviv"
    assert t.lit(CityLight.HINT) == set()


def test_refused_move_blinks_the_city_to_put_the_marker_back_on(make_table) -> None:  # type: ignore[no-untyped-def]
    t = make_table("cities Warsaw=W1\nred 1:Poznań:2")
    before = t.state
    t.move("red", 1, "Poznań", "Lviv")
    assert t.state is before and t.ui.refusal.rule == "OTW-18"
    assert t.ui.prompt == "Put red marker 1 back on Poznań"
    assert t.lit(CityLight.EXPECTED) == {"Poznań"}  # the expected city blinks
    t.move("red", 1, "Lviv", "Poznań")
    assert t.ui.mode is Mode.IDLE and t.state is before
    assert t.lit(CityLight.EXPECTED) == set()


def test_new_transport_with_plus_minus_on_the_buttons(make_table) -> None:  # type: ignore[no-untyped-def]
    t = make_table("cities Poznań=W3 Warsaw=-0")
    t.place("red", 1, "Poznań")
    assert t.ui.mode is Mode.FORMING and t.ui.trucks == 1
    t.press("plus")
    t.press("plus")
    assert t.ui.trucks == 3
    t.press("minus")
    assert t.ui.trucks == 2
    assert t.lit(CityLight.HINT) == set(t.ui.hints)
    t.move("red", 1, "Poznań", "Warsaw")
    assert [(x.city, x.trucks) for x in t.state.players[0].transports] == [("Warsaw", 2)]


def test_fulfil_pays_through_the_bank_and_asks_for_the_marker(make_table) -> None:  # type: ignore[no-untyped-def]
    card = DECK.contract("B01")
    assert card is not None
    t = make_table(f"cities {card.destination}=W0\nred B01 1:{card.destination}:{card.trucks}:B01")
    t.press("ok")  # OK offers the fulfilment first
    assert t.ui.mode is Mode.CONFIRM and t.ui.offer == "B01"
    t.press("ok")
    assert t.state.players[0].money == 1000 + card.pay
    assert t.state.ledger.last.rule == "OTW-22"
    assert t.lit(CityLight.EXPECTED) == {card.destination}
    t.lift("red", 1, card.destination)
    assert t.ui.mode is Mode.IDLE


def test_build_via_menu_on_the_buttons(make_table) -> None:  # type: ignore[no-untyped-def]
    t = make_table("red 8000R")
    t.press("menu")
    t.press("plus")  # logistics centre
    t.press("ok")
    assert t.ui.mode is Mode.SELECT_CITY
    selected = t.ui.selected
    assert t.lit(CityLight.SELECTED) == {selected}
    assert t.lit(CityLight.HINT) == set(t.ui.hints) - {selected}
    t.press("ok")
    assert t.state.building_at(selected).value == "logistics_centre"
    assert t.state.players[0].money == 500 and t.state.players[0].vp == 5


def test_event_card_due_and_scanned_moves_the_time_track(make_table) -> None:  # type: ignore[no-untyped-def]
    card = DECK.contract("B01")
    assert card is not None
    t = make_table(
        f"cities {card.destination}=W0\nred B01 1:{card.destination}:{card.trucks}:B01\ntime 0 strip=X01,X02"
    )
    t.scan("B01")
    t.lift("red", 1, card.destination)
    assert t.ui.mode is Mode.EVENT_DUE
    t.scan("E17")  # traffic jam Poznań–Warsaw
    assert t.state.time == 1 and t.state.jams == (("Poznań", "Warsaw"),)
    leds = t.leds()
    assert leds.time == 1 and leds.event_kind == "traffic_jam"


def test_undo_with_back(make_table) -> None:  # type: ignore[no-untyped-def]
    t = make_table("red 1:Poznań:1")
    t.move("red", 1, "Poznań", "Warsaw")
    t.press("back")
    assert t.state.players[0].transport(1).city == "Poznań"
    assert t.lit(CityLight.EXPECTED) == {"Poznań"}
    t.move("red", 1, "Warsaw", "Poznań")
    assert t.ui.mode is Mode.IDLE


def test_flapping_and_sliding_marker_moves_nothing(make_table) -> None:  # type: ignore[no-untyped-def]
    t = make_table("cities Warsaw=W2\nred 1:Poznań:2")
    before = t.state
    uid = t.marker_uid("red", 1)
    t.lift("red", 1, "Poznań")
    t.hw.flap("Warsaw", uid, "1010110100")  # a wobbly marker: the readers emit nothing
    t.sync()
    assert t.state is before
    for city in ("Warsaw", "Lviv"):  # slid across, resting too briefly to settle
        t.hw.place_tag(city, uid)
        t.sync()
        t.hw.lift_tag(city, uid)
        t.sync()
    assert t.state is before and t.ui.mode is Mode.LIFTED
    t.place("red", 1, "Poznań")
    assert t.state is before and t.ui.mode is Mode.IDLE


def test_admin_long_press_is_reported(make_table) -> None:  # type: ignore[no-untyped-def]
    calls: list[int] = []
    t = make_table()
    t.ctl._on_admin = lambda: calls.append(1)
    t.press("menu", long=True)
    assert calls == [1] and t.ui.mode is Mode.IDLE
