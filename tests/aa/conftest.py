"""A small synthetic board and deck, so rule tests do not depend on the reference data.

    Alpha ─a1─a2▲─a3─ Beta ─b1─b2─ Gamma
      │                 │            │
      d2               f1 (no signs) g1
      │                 │            g2
      d1              Flens          g3▲
      │                              g4
    Delta ───────────────────────────┘

Plain spaces are named ``A-B#n`` counted from the first city: ``Alpha-Beta#2`` is a1..a3's middle
one and carries a warning triangle (▲); so does ``Gamma-Delta#3``. ``Beta-Flens#1`` takes no sign.
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.auf_achse.engine import AADeck, ActionCard, ContractCard, Effect, GameConfig, HouseRules, new_game
from companion.games.auf_achse.engine.board import RoadSpec, Space, build_board
from companion.games.auf_achse.engine.notation import position
from companion.games.auf_achse.engine.state import GameState

CITIES = (
    Space("Alpha", True, x=0.1, y=0.1),
    Space("Beta", True, x=0.5, y=0.1),
    Space("Gamma", True, x=0.9, y=0.1),
    Space("Delta", True, x=0.1, y=0.9),
    Space("Flens", True, x=0.5, y=0.5),
)
ROADS = (
    RoadSpec("Alpha", "Beta", 3, triangles=(2,)),
    RoadSpec("Beta", "Gamma", 2),
    RoadSpec("Gamma", "Delta", 4, triangles=(3,)),
    RoadSpec("Delta", "Alpha", 2),
    RoadSpec("Beta", "Flens", 1, signs_allowed=False),
)
BOARD = build_board("Testland", CITIES, ROADS)


def _costs(payout: int) -> tuple[int, ...]:
    return tuple(payout * k // 10 for k in (1, 2, 3, 4, 5))


# C01..C36: every ordered pair of the 4 ring cities (12) three times over, goods 2..6.
PAIRS = [(a, b) for a in ("Alpha", "Beta", "Gamma", "Delta") for b in ("Alpha", "Beta", "Gamma", "Delta") if a != b]
CONTRACTS = tuple(
    ContractCard(f"C{i:02}", a, b, 2 + (i % 5), 2000 + 1000 * (i % 4), _costs(2000 + 1000 * (i % 4)))
    for i, (a, b) in enumerate(PAIRS * 3, 1)
)
ACTIONS = (
    ActionCard("A01", Effect.PAY, amount=500),
    ActionCard("A02", Effect.RECEIVE, amount=1000),
    ActionCard("A03", Effect.RECEIVE_FROM_EACH, amount=500),
    ActionCard("A04", Effect.PAY_EACH, amount=500),
    ActionCard("A05", Effect.PAY_PER_GOOD, amount=100),
    ActionCard("A06", Effect.MISS_TURNS, turns=1),
    ActionCard("A07", Effect.STAU),
    ActionCard("A08", Effect.ROADWORKS),
    ActionCard("A09", Effect.SPARE_CONTRACT),
)
DECK = AADeck(CONTRACTS, ACTIONS)


def config(colours: tuple[str, ...] = ("red", "blue"), seed: int = 0, **rules: object) -> GameConfig:
    return GameConfig(BOARD, DECK, colours, HouseRules.from_mapping(rules), seed)


def pos(text: str = "", colours: tuple[str, ...] = ("red", "blue"), **rules: Any) -> GameState:
    return position(config(colours, **rules), text)


@pytest.fixture
def game2():  # type: ignore[no-untyped-def]
    return new_game(config())
