"""Helpers for the Auf Achse bot tests: reference configurations and whole bot games through ``apply``."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from companion import games
from companion.engine.errors import IllegalAction
from companion.games.auf_achse.data import load_aa_reference
from companion.games.auf_achse.engine import Command, GameConfig, HouseRules, apply
from companion.games.auf_achse.engine.state import GameState, initial_state
from companion.games.seats import BotSeats

COLOURS = ("red", "blue", "green", "yellow")


@cache
def config_for(players: int = 2, rules: tuple[tuple[str, object], ...] = (), seed: int = 0) -> GameConfig:
    board, deck = load_aa_reference()
    return GameConfig(board, deck, COLOURS[:players], HouseRules.from_mapping(dict(rules)), seed)


def next_bot_command(state: GameState, levels: Mapping[str, str], seed: int) -> Command | None:
    """What the bot seats play now, asked as every table and script asks them (``seats.BotSeats``)."""
    return BotSeats(games.get("auf-achse"), levels, seed)(state)  # type: ignore[return-value]


def play_game(
    levels: Mapping[str, str],
    seed: int,
    rules: tuple[tuple[str, object], ...] = (),
    max_commands: int = 5000,
) -> tuple[GameState, list[Command], int]:
    """A whole game of bots from set-up, every command through the validated engine:
    (final state, commands, refused). A refusal, or nobody with anything to do, stops the game."""
    state = initial_state(config_for(len(levels), rules, seed))
    log: list[Command] = []
    refused = 0
    while not state.finished and len(log) < max_commands:
        command = next_bot_command(state, levels, seed)
        if command is None:
            refused += 1  # a stuck game: as bad as a refusal
            break
        try:
            state, _ = apply(state, command)
        except IllegalAction:
            refused += 1
            break
        log.append(command)
    return state, log, refused
