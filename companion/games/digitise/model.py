"""The wizard's state: immutable values with a JSON codec (what ``store.py`` saves after every intent).

Everything the owner has confirmed lives here — readers, roads, positions, start cities, cards and
their tags — plus what is in hand (the chain head of the road tracing, the card being entered), so a
power cut loses nothing and the wizard resumes exactly where it was.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from companion.intents import ButtonName, ButtonPressed

FORMAT = 1  # of the saved progress file

Value = int | str | tuple[str, ...] | None


class Step(StrEnum):
    READERS = "readers"  # 1. readers -> cities
    ROADS = "roads"  # 2. roads traced with a marker (Auf Achse: spaces, triangles)
    LAYOUT = "layout"  # 3. the screen map
    SETUP = "setup"  # the start cities per player count (games that have them: OTW-8)
    CONTRACTS = "contracts"  # 4. contract cards
    EVENTS = "events"  # 5. event / action cards
    CHECK = "check"  # 6. board check + the rulebook's facts, warnings to accept
    DONE = "done"  # saved as a data set (or, with problems left, kept as a draft)


# -- the wizard's own intents (on top of companion.intents) ------------------------------------------


@dataclass(frozen=True, slots=True)
class NameTyped:
    """Text typed on the touch screen's keyboard or at a desk: a city name, an action card's text."""

    text: str


@dataclass(frozen=True, slots=True)
class CityMoved:
    """A city dragged on the screen map to (x, y), 0..1 from the left and the top."""

    city: str
    x: float
    y: float


@dataclass(frozen=True, slots=True)
class SpaceTapped:
    """A space of the road being traced tapped on the screen: toggles its warning triangle."""

    index: int  # 1-based, counted from the road's first city


@dataclass(frozen=True, slots=True)
class FieldTapped:
    """A field of the card form tapped on the screen: it takes the focus (PLUS/MINUS change it)."""

    name: str


@dataclass(frozen=True, slots=True)
class SaveFailed:
    """The runner could not save the data set (``board check`` found problems): back to the check."""

    problems: tuple[str, ...]


# -- the data ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RoadEntry:
    a: str  # traced from a ...
    b: str  # ... to b (Auf Achse counts spaces and triangles from a)
    spaces: int | None = None  # Auf Achse: plain spaces on the road
    triangles: tuple[int, ...] = ()
    signs: bool = True  # False: no roadworks / Stau sign (AA-10)

    def joins(self, x: str, y: str) -> bool:
        return {self.a, self.b} == {x, y}

    def to_json(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "spaces": self.spaces, "triangles": list(self.triangles),
                "signs": self.signs}  # fmt: skip

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> RoadEntry:
        return RoadEntry(data["a"], data["b"], data.get("spaces"), tuple(data.get("triangles", ())),
                         bool(data.get("signs", True)))  # fmt: skip


def _value_to_json(value: Value) -> Any:
    return list(value) if isinstance(value, tuple) else value


def _value_from_json(value: Any) -> Value:
    return tuple(value) if isinstance(value, list) else value


@dataclass(frozen=True, slots=True)
class CardEntry:
    """One card: its printed values (field name -> value), its tag and its id (given on confirming)."""

    section: str  # "contracts", "events", "actions": the TOML section
    uid: str  # the tag enrolled when the card was scanned
    values: tuple[tuple[str, Value], ...]
    id: str | None = None

    def get(self, name: str) -> Value:
        for key, value in self.values:
            if key == name:
                return value
        return None

    @property
    def as_dict(self) -> dict[str, Value]:
        return dict(self.values)

    def to_json(self) -> dict[str, Any]:
        return {"section": self.section, "uid": self.uid, "id": self.id,
                "values": {k: _value_to_json(v) for k, v in self.values}}  # fmt: skip

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> CardEntry:
        values = tuple((k, _value_from_json(v)) for k, v in data["values"].items())
        return CardEntry(data["section"], data["uid"], values, data.get("id"))


@dataclass(frozen=True, slots=True)
class CardForm:
    """The card in hand: its values so far, which the owner changed (the rest follow the prefill),
    the order city slots were filled (BACK takes the last one back), the focused field."""

    card: CardEntry
    touched: tuple[str, ...] = ()
    filled: tuple[str, ...] = ()
    focus: str | None = None
    original: CardEntry | None = None  # a confirmed card reopened for a correction

    def to_json(self) -> dict[str, Any]:
        return {"card": self.card.to_json(), "touched": list(self.touched), "filled": list(self.filled),
                "focus": self.focus, "original": self.original.to_json() if self.original else None}  # fmt: skip

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> CardForm:
        original = data.get("original")
        return CardForm(CardEntry.from_json(data["card"]), tuple(data.get("touched", ())),
                        tuple(data.get("filled", ())), data.get("focus"),
                        CardEntry.from_json(original) if original else None)  # fmt: skip


@dataclass(frozen=True)
class WizardState:
    game: str
    name: str  # the data set's name, e.g. "my 2014 edition"
    step: Step = Step.READERS
    seq: int = 0  # intents applied: a resumed driver continues from here
    candidates: tuple[str, ...] = ()  # city names proposed for the readers, in order
    cursor: int = 0  # into the candidates not yet given a reader
    readers: tuple[tuple[str, str], ...] = ()  # (reader label, city), in the order assigned
    roads: tuple[RoadEntry, ...] = ()
    head: str | None = None  # the city the marker stands on while tracing
    editing_road: bool = False  # Auf Achse: the last road's spaces / triangles take PLUS and MINUS
    road_focus: int = 0  # 0 = spaces, 1..n = space n's triangle, n + 1 = signs
    positions: tuple[tuple[str, float, float], ...] = ()  # the screen map (0..1)
    moved: tuple[tuple[str, float, float], ...] = ()  # cities dragged by hand (undo: BACK)
    setup: tuple[tuple[int, tuple[str, ...]], ...] = ()  # players -> start cities (OTW-8)
    setup_players: int = 0
    setup_undo: tuple[tuple[tuple[int, tuple[str, ...]], ...], ...] = ()
    cards: tuple[CardEntry, ...] = ()
    form: CardForm | None = None
    problems: tuple[str, ...] = ()  # errors found by the check (or by saving)
    warnings: tuple[str, ...] = ()  # rulebook facts the data does not agree with
    message: str = ""  # the last thing the wizard said (``setup_box.words.said``: put into words when shown)
    draft: bool = False  # DONE with problems left: kept as a draft (not a playable data set)
    scroll: int = 0  # the check step: the first problem or warning shown (the list scrolls)
    flash: tuple[str, ...] = field(default=())  # cities whose LEDs confirm the last entry

    # -- derived ------------------------------------------------------------------------------
    @property
    def cities(self) -> tuple[str, ...]:
        return tuple(city for _, city in self.readers)

    @property
    def reader_map(self) -> dict[str, str]:
        return dict(self.readers)

    @property
    def remaining(self) -> tuple[str, ...]:
        taken = set(self.cities)
        return tuple(c for c in self.candidates if c not in taken)

    def position(self, city: str) -> tuple[float, float] | None:
        for name, x, y in self.positions:
            if name == city:
                return (x, y)
        return None

    def road(self, a: str, b: str) -> RoadEntry | None:
        for road in self.roads:
            if road.joins(a, b):
                return road
        return None

    def cards_of(self, section: str) -> tuple[CardEntry, ...]:
        return tuple(c for c in self.cards if c.section == section)

    def card_by_uid(self, uid: str) -> CardEntry | None:
        for card in self.cards:
            if card.uid == uid:
                return card
        return None

    def setup_of(self, players: int) -> tuple[str, ...]:
        return dict(self.setup).get(players, ())

    # -- JSON -----------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "game": self.game,
            "name": self.name,
            "step": self.step.value,
            "seq": self.seq,
            "candidates": list(self.candidates),
            "cursor": self.cursor,
            "readers": [list(r) for r in self.readers],
            "roads": [r.to_json() for r in self.roads],
            "head": self.head,
            "editing_road": self.editing_road,
            "road_focus": self.road_focus,
            "positions": [list(p) for p in self.positions],
            "moved": [list(p) for p in self.moved],
            "setup": [[p, list(c)] for p, c in self.setup],
            "setup_players": self.setup_players,
            "setup_undo": [[[p, list(c)] for p, c in s] for s in self.setup_undo],
            "cards": [c.to_json() for c in self.cards],
            "form": self.form.to_json() if self.form else None,
            "problems": list(self.problems),
            "warnings": list(self.warnings),
            "message": self.message,
            "flash": list(self.flash),
            "draft": self.draft,
            "scroll": self.scroll,
        }

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> WizardState:
        if data.get("format") != FORMAT:
            raise ValueError(f"unknown wizard progress format {data.get('format')!r} (expected {FORMAT})")

        def setup(items: Any) -> tuple[tuple[int, tuple[str, ...]], ...]:
            return tuple((int(p), tuple(c)) for p, c in items)

        form = data.get("form")
        return WizardState(
            game=data["game"],
            name=data["name"],
            step=Step(data["step"]),
            seq=int(data["seq"]),
            candidates=tuple(data["candidates"]),
            cursor=int(data["cursor"]),
            readers=tuple((r, c) for r, c in data["readers"]),
            roads=tuple(RoadEntry.from_json(r) for r in data["roads"]),
            head=data.get("head"),
            editing_road=bool(data.get("editing_road")),
            road_focus=int(data.get("road_focus", 0)),
            positions=tuple((c, float(x), float(y)) for c, x, y in data["positions"]),
            moved=tuple((c, float(x), float(y)) for c, x, y in data["moved"]),
            setup=setup(data["setup"]),
            setup_players=int(data.get("setup_players", 0)),
            setup_undo=tuple(setup(s) for s in data.get("setup_undo", ())),
            cards=tuple(CardEntry.from_json(c) for c in data["cards"]),
            form=CardForm.from_json(form) if form else None,
            problems=tuple(data.get("problems", ())),
            warnings=tuple(data.get("warnings", ())),
            message=data.get("message", ""),
            flash=tuple(data.get("flash", ())),
            draft=bool(data.get("draft", False)),
            scroll=int(data.get("scroll", 0)),
        )


def with_value(card: CardEntry, name: str, value: Value) -> CardEntry:
    values = dict(card.values)
    values[name] = value
    return replace(card, values=tuple(values.items()))


def press(button: ButtonName, long: bool = False) -> ButtonPressed:
    return ButtonPressed(button, long)
