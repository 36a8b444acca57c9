"""``check(state, command)``: would the engine accept ``command`` now? Answered without a Game
(``companion.engine.game.check`` over On The Way's reducer)."""

from __future__ import annotations

from companion.engine.errors import IllegalAction
from companion.engine.game import check as check_with
from companion.games.on_the_way.engine.commands import Command
from companion.games.on_the_way.engine.rules import apply
from companion.games.on_the_way.engine.state import GameState


def check(state: GameState, command: Command) -> IllegalAction | None:
    """None if ``apply(state, command)`` would succeed, else the refusal it would raise (rule id and all)."""
    return check_with(apply, state, command)
