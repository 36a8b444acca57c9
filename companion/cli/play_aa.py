"""Auf Achse behind ``companion play --game auf-achse``.

``--board``, ``--contracts`` and ``--events`` (the action cards) default to the reference data;
``--seed`` seeds the companion's die (default 0); ``--rule NAME=VALUE`` sets a house rule.
"""

from __future__ import annotations

import argparse
from typing import Any

from companion.engine.game import Game
from companion.engine.jsonio import event_to_json
from companion.games.auf_achse.engine import GameConfig, GameState, HouseRules, new_game
from companion.games.auf_achse.engine.serialize import command_from_json, state_to_json


def build_config(args: argparse.Namespace) -> GameConfig:
    """The game config from the command line; raises DataError (with file/line/field) or ValueError."""
    from companion.cli.play import house_rules
    from companion.games.auf_achse.data import AA_ACTIONS, AA_BOARD, AA_CONTRACTS, load_aa_board, load_aa_deck

    colours = tuple(c.strip() for c in args.players.split(",") if c.strip())
    board = load_aa_board(args.board or AA_BOARD)
    deck = load_aa_deck(args.contracts or AA_CONTRACTS, args.events or AA_ACTIONS, board=board)
    seed = args.seed if args.seed is not None else 0
    return GameConfig(board, deck, colours, HouseRules.from_mapping(house_rules(args)), seed)


class AufAchse:
    def new_game(self, args: argparse.Namespace) -> Game[Any]:
        return new_game(build_config(args))

    def command_from_json(self, data: object) -> object:
        return command_from_json(data)

    def event_to_json(self, event: object) -> dict[str, object]:
        return event_to_json(event)

    def state_to_json(self, state: GameState) -> dict[str, object]:
        return state_to_json(state)


ADAPTER = AufAchse()
