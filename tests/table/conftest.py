"""A table driven by intents on the reference board (the hardware-level scenarios use the emulators)."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from companion.engine.game import Game
from companion.games.on_the_way.data import load_reference
from companion.games.on_the_way.engine import GameConfig, Undo, apply
from companion.games.on_the_way.engine.notation import position
from companion.games.on_the_way.table.controller import TableController
from companion.intents import ButtonName, ButtonPressed, CardScanned, CityTapped, TagLifted, TagPlaced
from companion.ledframe import LedFrame
from companion.table.tags import CardTag, MarkerTag, TagDirectory
from tests.thinking import think

BOARD, DECK = load_reference()


@dataclass
class RecordingLeds:
    frames: list[LedFrame] = field(default_factory=list)

    def show(self, frame: LedFrame, now: float) -> None:
        self.frames.append(frame)


class Table:
    """Drive a controller with intents and a fake clock, the way the loop does."""

    def __init__(self, text: str = "", colours: tuple[str, ...] = ("red", "blue"), **kwargs: object) -> None:
        self.config = GameConfig(BOARD, DECK, colours)
        self.tags = TagDirectory.simulated(colours, [c.id for c in DECK.contracts] + [e.id for e in DECK.events])
        self.leds = RecordingLeds()
        self.now = 0.0
        game = Game(position(self.config, text), apply, undo_types=(Undo,))
        self.ctl = TableController(self.config, self.tags, leds=self.leds, game=game, **kwargs)  # type: ignore[arg-type]
        for p in self.ctl.state.players:  # the table starts matching the engine
            for t in p.transports:
                self.place(p.colour, t.marker, t.city)

    def uid(self, colour: str, n: int) -> str:
        uid = self.tags.uid_of(MarkerTag(colour, n))
        assert uid is not None
        return uid

    def later(self, seconds: float = 0.5) -> None:
        self.now += seconds
        self.ctl.tick(self.now)

    def think(self, timeout: float = 60.0) -> list[str]:
        return think(self, timeout)  # MENU → Advice: until the search beside the loop is done

    def place(self, colour: str, n: int, city: str, settle: bool = True) -> None:
        self.ctl.handle(TagPlaced(city, self.uid(colour, n)), self.now)
        if settle:
            self.later()

    def lift(self, colour: str, n: int, city: str) -> None:
        self.ctl.handle(TagLifted(city, self.uid(colour, n)), self.now)

    def move(self, colour: str, n: int, frm: str, to: str) -> None:
        self.lift(colour, n, frm)
        self.place(colour, n, to)

    def scan(self, card: str) -> None:
        uid = self.tags.uid_of(CardTag(card))
        assert uid is not None
        self.ctl.handle(CardScanned(uid), self.now)

    def press(self, button: str, long: bool = False) -> None:
        self.ctl.handle(ButtonPressed(ButtonName(button), long), self.now)

    def tap(self, city: str) -> None:
        self.ctl.handle(CityTapped(city), self.now)

    @property
    def ui(self):  # type: ignore[no-untyped-def]
        return self.ctl.ui

    @property
    def state(self):  # type: ignore[no-untyped-def]
        return self.ctl.state


@pytest.fixture
def table() -> type[Table]:
    return Table
