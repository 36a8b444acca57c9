"""On The Way (Raben): rules OTW-1..34 as pure functions over an immutable state.

>>> from companion.games.on_the_way.engine import new_game, TakeContract        # doctest: +SKIP
>>> game = new_game(GameConfig(board, deck, ("red", "blue")))       # doctest: +SKIP
>>> game.push(TakeContract("red", "B01"))                           # doctest: +SKIP
"""

from __future__ import annotations

from companion.engine.game import Game
from companion.games.on_the_way.engine.commands import (
    Build,
    Cancel,
    Command,
    Expand,
    Fulfil,
    LayOut,
    Move,
    Pass,
    PlayerCommand,
    RevealEvent,
    TakeContract,
    Undo,
)
from companion.games.on_the_way.engine.options import ContractOffer, HouseRules
from companion.games.on_the_way.engine.rules import apply
from companion.games.on_the_way.engine.state import Building, GameConfig, GameState, initial_state


def new_game(config: GameConfig) -> Game[GameState]:
    return Game(initial_state(config), apply, undo_types=(Undo,))


__all__ = [
    "Build",
    "Building",
    "Cancel",
    "Command",
    "ContractOffer",
    "Expand",
    "Fulfil",
    "Game",
    "GameConfig",
    "GameState",
    "HouseRules",
    "LayOut",
    "Move",
    "Pass",
    "PlayerCommand",
    "RevealEvent",
    "TakeContract",
    "Undo",
    "apply",
    "initial_state",
    "new_game",
]
