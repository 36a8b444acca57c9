"""Auf Achse (F.X. Schmid 1987): rules AA-1..24 as pure functions over an immutable state.

>>> from companion.games.auf_achse.engine import new_game, GameConfig, Roll, Move    # doctest: +SKIP
>>> game = new_game(GameConfig(board, deck, ("red", "blue"), seed=1))   # doctest: +SKIP
>>> game.push(Roll("red"))                                             # doctest: +SKIP
"""

from __future__ import annotations

from companion.engine.game import Game
from companion.games.auf_achse.engine.board import AABoard, Space
from companion.games.auf_achse.engine.cards import AADeck, ActionCard, ContractCard, Effect
from companion.games.auf_achse.engine.commands import (
    Bid,
    BuyTrailer,
    Command,
    DealContract,
    DrawAction,
    EndTurn,
    Load,
    Move,
    OpenAuction,
    PassBid,
    PayDebt,
    PlaceSign,
    PlaceTruck,
    RevealPublic,
    Roll,
    StartGame,
    TakeSpare,
    Undo,
    Unload,
)
from companion.games.auf_achse.engine.options import HouseRules, StauRemoval, TieBreak
from companion.games.auf_achse.engine.rules import apply, check
from companion.games.auf_achse.engine.state import GameConfig, GameState, Sign, TrailerSize, initial_state


def new_game(config: GameConfig) -> Game[GameState]:
    return Game(initial_state(config), apply, undo_types=(Undo,))


__all__ = [
    "AABoard",
    "AADeck",
    "ActionCard",
    "Bid",
    "BuyTrailer",
    "Command",
    "ContractCard",
    "DealContract",
    "DrawAction",
    "Effect",
    "EndTurn",
    "Game",
    "GameConfig",
    "GameState",
    "HouseRules",
    "Load",
    "Move",
    "OpenAuction",
    "PassBid",
    "PayDebt",
    "PlaceSign",
    "PlaceTruck",
    "RevealPublic",
    "Roll",
    "Sign",
    "Space",
    "StartGame",
    "StauRemoval",
    "TakeSpare",
    "TieBreak",
    "TrailerSize",
    "Undo",
    "Unload",
    "apply",
    "check",
    "initial_state",
    "new_game",
]
