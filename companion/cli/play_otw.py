"""On The Way behind ``companion play --game on-the-way``."""

from __future__ import annotations

import argparse
from typing import Any

from companion.engine.game import Game
from companion.engine.jsonio import event_to_json
from companion.games.on_the_way.engine import GameConfig, GameState, HouseRules, new_game
from companion.games.on_the_way.engine.serialize import command_from_json, state_to_json


def build_config(args: argparse.Namespace) -> GameConfig:
    """The game config from the command line; raises DataError (with file/line/field) or ValueError."""
    from companion.cli.play import house_rules
    from companion.games.on_the_way.data import (
        REFERENCE_BOARD,
        REFERENCE_CONTRACTS,
        REFERENCE_EVENTS,
        load_board,
        load_deck,
    )

    colours = tuple(c.strip() for c in args.players.split(",") if c.strip())
    board = load_board(args.board or REFERENCE_BOARD)
    deck = load_deck(args.contracts or REFERENCE_CONTRACTS, args.events or REFERENCE_EVENTS, board=board)
    return GameConfig(board, deck, colours, HouseRules.from_mapping(house_rules(args)), args.end_at)


class OnTheWay:
    def new_game(self, args: argparse.Namespace) -> Game[Any]:
        return new_game(build_config(args))

    def command_from_json(self, data: object) -> object:
        return command_from_json(data)

    def event_to_json(self, event: object) -> dict[str, object]:
        return event_to_json(event)

    def state_to_json(self, state: GameState) -> dict[str, object]:
        return state_to_json(state)


ADAPTER = OnTheWay()
