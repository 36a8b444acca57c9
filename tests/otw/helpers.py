"""Small helpers for rule tests: apply a list of commands to a position and look at the result."""

from __future__ import annotations

import pytest

from companion.engine.errors import IllegalAction
from companion.engine.game import Game
from companion.games.on_the_way.engine import Command, apply
from companion.games.on_the_way.engine.state import GameState


def play(state: GameState, *commands: Command) -> GameState:
    for command in commands:
        state, _ = apply(state, command)
    return state


def game_at(state: GameState) -> Game[GameState]:
    from companion.games.on_the_way.engine import Undo

    return Game(state, apply, undo_types=(Undo,))


def refused(state: GameState, command: Command, rule: str, *words: str) -> IllegalAction:
    """Assert ``command`` is refused citing ``rule`` with ``words`` in the message."""
    with pytest.raises(IllegalAction) as info:
        apply(state, command)
    assert info.value.rule == rule, f"expected {rule}, got {info.value.rule}: {info.value.message}"
    for word in words:
        assert word in info.value.message, f"{word!r} not in {info.value.message!r}"
    return info.value
