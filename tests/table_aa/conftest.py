"""Auf Achse tables on the reference map: driven by intents (``AATable``) or through the emulated
hardware (``HardwareAATable``: real mfrc522 code over emulated SPI, gpiozero mock buttons, LEDs decoded
from the emulated 74HC595 chain)."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from companion.engine.game import Game
from companion.games.auf_achse.data import load_aa_reference
from companion.games.auf_achse.engine import GameConfig, HouseRules, Undo, apply
from companion.games.auf_achse.engine.notation import position
from companion.games.auf_achse.table.controller import TRUCK, AATableController
from companion.intents import ButtonName, ButtonPressed, CardScanned, CityTapped, TagLifted, TagPlaced
from companion.ledframe import CityLight, LedFrame
from companion.table.session import TableSession
from companion.table.tags import BankCardTag, CardTag, MarkerTag, TagDirectory
from tests.emulated_driver import EmulatedTableDriver
from tests.thinking import think

BOARD, DECK = load_aa_reference()
CARD_IDS = [c.id for c in DECK.contracts] + [a.id for a in DECK.actions]


def directory(colours: tuple[str, ...]) -> TagDirectory:
    return TagDirectory.simulated(colours, CARD_IDS, markers_per_player=1)


def make_game(config: GameConfig, text: str | None) -> Game:  # type: ignore[type-arg]
    from companion.games.auf_achse.engine import new_game

    if text is None:
        return new_game(config)
    return Game(position(config, text), apply, undo_types=(Undo,))


@dataclass
class RecordingLeds:
    frames: list[LedFrame] = field(default_factory=list)

    def show(self, frame: LedFrame, now: float) -> None:
        self.frames.append(frame)


class AATable:
    """Drive an AA controller with intents and a fake clock, the way the loop does.
    ``text`` is a position (companion.games.auf_achse.engine.notation); None: a new game in set-up."""

    def __init__(
        self,
        text: str | None = None,
        colours: tuple[str, ...] = ("red", "blue"),
        rules: dict[str, object] | None = None,
        **kwargs: object,
    ) -> None:
        self.config = GameConfig(BOARD, DECK, colours, HouseRules.from_mapping(rules or {}), seed=3)
        self.tags = directory(colours)
        self.leds = RecordingLeds()
        self.now = 0.0
        self.ctl = AATableController(
            self.config,
            self.tags,
            leds=self.leds,
            game=make_game(self.config, text),
            **kwargs,  # type: ignore[arg-type]
        )
        for p in self.state.players:  # the table starts matching the engine
            if p.space is not None and BOARD.is_city(p.space):
                self.place(p.colour, p.space)

    def later(self, seconds: float = 0.5) -> None:
        self.now += seconds
        self.ctl.tick(self.now)

    def think(self, timeout: float = 60.0) -> list[str]:
        return think(self, timeout)  # MENU → Advice: until the search beside the loop is done

    def uid(self, tag: object) -> str:
        uid = self.tags.uid_of(tag)  # type: ignore[arg-type]
        assert uid is not None
        return uid

    def place(self, colour: str, city: str, settle: bool = True) -> None:
        self.ctl.handle(TagPlaced(city, self.uid(MarkerTag(colour, TRUCK))), self.now)
        if settle:
            self.later()

    def lift(self, colour: str, city: str) -> None:
        self.ctl.handle(TagLifted(city, self.uid(MarkerTag(colour, TRUCK))), self.now)

    def scan(self, card: str) -> None:
        self.ctl.handle(CardScanned(self.uid(CardTag(card))), self.now)

    def bank(self, colour: str) -> None:
        self.ctl.handle(CardScanned(self.uid(BankCardTag(colour))), self.now)

    def press(self, button: str, times: int = 1) -> None:
        for _ in range(times):
            self.ctl.handle(ButtonPressed(ButtonName(button)), self.now)

    def tap(self, space: str) -> None:
        self.ctl.handle(CityTapped(space), self.now)

    def lit(self, light: CityLight) -> set[str]:
        return {c for c, x in self.ctl.led_frame.cities if x is light}

    @property
    def ui(self):  # type: ignore[no-untyped-def]
        return self.ctl.ui

    @property
    def state(self):  # type: ignore[no-untyped-def]
        return self.ctl.state


class HardwareAATable(EmulatedTableDriver):
    """The same, through EmulatedTable: readers under all 37 cities, the card reader, buttons, LEDs."""

    def __init__(
        self, text: str | None = None, colours: tuple[str, ...] = ("red", "blue", "green"), **rules: object
    ) -> None:
        self.config = GameConfig(BOARD, DECK, colours, HouseRules.from_mapping(rules), seed=3)
        super().__init__(BOARD.cities, directory(colours))
        controller = AATableController(self.config, self.tags, leds=self.hw.rig, game=make_game(self.config, text))
        self.session = TableSession(controller, self.hw.rig, self.intents)
        for p in self.state.players:
            if p.space is not None and BOARD.is_city(p.space):
                self.place(p.colour, p.space)

    def place(self, colour: str, city: str) -> None:
        self.put_tag(city, MarkerTag(colour, TRUCK))

    def lift(self, colour: str, city: str) -> None:
        self.take_tag(city, MarkerTag(colour, TRUCK))

    def scan(self, card: str) -> None:
        self.scan_tag(CardTag(card))

    def bank(self, colour: str) -> None:
        self.scan_tag(BankCardTag(colour))

    def press(self, button: str, times: int = 1) -> None:  # type: ignore[override]
        for _ in range(times):
            super().press(button)


@pytest.fixture
def hardware_table():  # type: ignore[no-untyped-def]
    tables: list[HardwareAATable] = []

    def make(
        text: str | None = None, colours: tuple[str, ...] = ("red", "blue", "green"), **rules: object
    ) -> HardwareAATable:
        tables.append(HardwareAATable(text, colours, **rules))
        return tables[-1]

    yield make
    for t in tables:
        t.close()
