"""A small synthetic board ("Testland") and deck, so rule tests do not depend on the reference data.

Alpha ── Beta ── Gamma ── Delta ── Echo
  │        │       │                 │
Foxtrot ─ Golf ── Hotel ── India ── Juliet
"""

from __future__ import annotations

import pytest

from companion.games.on_the_way.engine import GameConfig, HouseRules, new_game
from companion.games.on_the_way.engine.board import Board, City, Road
from companion.games.on_the_way.engine.cards import ContractCard, Deck, EventCard, EventKind, Tier
from companion.games.on_the_way.engine.notation import position
from companion.games.on_the_way.engine.state import GameState

NAMES = ["Alpha", "Beta", "Gamma", "Delta", "Echo", "Foxtrot", "Golf", "Hotel", "India", "Juliet"]
ROADS = [
    ("Alpha", "Beta"), ("Beta", "Gamma"), ("Gamma", "Delta"), ("Delta", "Echo"),
    ("Alpha", "Foxtrot"), ("Beta", "Golf"), ("Gamma", "Hotel"), ("Echo", "Juliet"),
    ("Foxtrot", "Golf"), ("Golf", "Hotel"), ("Hotel", "India"), ("India", "Juliet"),
]  # fmt: skip

TESTLAND = Board(
    name="Testland",
    game="on-the-way",
    cities=tuple(City(n, (i % 5) / 4, 0.2 if i < 5 else 0.8) for i, n in enumerate(NAMES)),
    roads=tuple(Road(a, b) for a, b in ROADS),
    setup={
        2: ("Alpha", "Gamma", "Echo", "Foxtrot", "Hotel", "Juliet"),
        3: ("Alpha", "Gamma", "Echo", "Foxtrot", "Hotel", "Juliet", "Beta", "India"),
        4: ("Alpha", "Gamma", "Echo", "Foxtrot", "Hotel", "Juliet", "Beta", "India", "Delta", "Golf"),
    },
)


def _contracts() -> tuple[ContractCard, ...]:
    cards = []
    pairs = [(a, b) for a in NAMES for b in NAMES if a < b]
    basic = [(a, b) for a, b in pairs if TESTLAND.distance(a, b) == 2]
    extended = [(a, b) for a, b in pairs if TESTLAND.distance(a, b) == 3]
    pro = [(a, b) for a, b in pairs if (TESTLAND.distance(a, b) or 0) >= 4]
    for i, (a, b) in enumerate(basic, 1):
        cards.append(ContractCard(f"B{i:02}", Tier.BASIC, a, b, 2, 1 + i % 2, 1500 + 500 * ((i + 1) % 2)))
    for i, (a, b) in enumerate(extended, 1):
        cards.append(ContractCard(f"X{i:02}", Tier.EXTENDED, a, b, 3, 2, 2500))
    for i, (a, b) in enumerate(pro, 1):
        d = TESTLAND.distance(a, b) or 4
        cards.append(ContractCard(f"P{i:02}", Tier.PROFESSIONAL, a, b, d, 2, 3500, i % 2))
    return tuple(cards)


EVENTS = (
    EventCard("E01", EventKind.BONUS, 500),
    EventCard("E02", EventKind.MALUS, 500),
    EventCard("E03", EventKind.CHEAPER_BUILD, 500),
    EventCard("E04", EventKind.EXTRA_STEP),
    EventCard("E05", EventKind.TRAFFIC_JAM, road=("Beta", "Gamma")),
    EventCard("E06", EventKind.TRAFFIC_JAM, road=("Gamma", "Delta")),
    EventCard("E07", EventKind.TRAFFIC_JAM, road=("Hotel", "India")),
    EventCard("E08", EventKind.TRAFFIC_JAM, road=("Alpha", "Beta")),
    *(EventCard(f"E{i:02}", EventKind.BONUS, 500) for i in range(9, 23)),
)

DECK = Deck(_contracts(), EVENTS)


def config(colours: tuple[str, ...] = ("red", "blue"), **rules: object) -> GameConfig:
    end_at = rules.pop("end_at", None)
    return GameConfig(TESTLAND, DECK, colours, HouseRules.from_mapping(rules), end_at)  # type: ignore[arg-type]


def pos(text: str = "", colours: tuple[str, ...] = ("red", "blue"), **rules: object) -> GameState:
    return position(config(colours, **rules), text)


@pytest.fixture
def game2():  # type: ignore[no-untyped-def]
    return new_game(config())
