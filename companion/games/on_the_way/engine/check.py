"""``check(state, command)``: would the engine accept ``command`` now? Answered without a Game.

The table asks this before it pushes (style point 18) instead of pushing and popping. It runs the
reducer itself — ``apply`` is pure, so the state passed in is untouched and the outcome is simply
dropped — so a check can never disagree with what ``apply`` (and therefore ``Game.push``) does.
"""

from __future__ import annotations

from companion.engine.errors import IllegalAction
from companion.games.on_the_way.engine.commands import Command
from companion.games.on_the_way.engine.rules import apply
from companion.games.on_the_way.engine.state import GameState


def check(state: GameState, command: Command) -> IllegalAction | None:
    """None if ``apply(state, command)`` would succeed, else the refusal it would raise (rule id and all)."""
    try:
        apply(state, command)
    except IllegalAction as refusal:
        return refusal
    return None
