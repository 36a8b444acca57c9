"""Bot players: ``choose(state, colour, level, seed) -> Command | None``, the commands a person issues.

- easy: the greedy policy (``policy.py``), no search;
- medium: the policy's plan, replaced by a better candidate where short Monte-Carlo playouts through
  the validated engine find one (``search.py``): where to move (AA-7), which public contract to
  auction (AA-18) and how high to bid (AA-19). A fixed count of engine commands per decision.
- hard: the same search over more candidates with three times the playouts.

None means nothing is ``colour``'s to do now: another player's turn, a card another player must
scan, an auction he is out of (or opened and nobody has bid yet, AA-20). In an auction (AA-19: any
order) a bot seat still in answers with a bid or a pass whoever's turn it is.

Deterministic: the same state, colour, level and seed give the same command; the seed is mixed with
the position so that a fixed per-game seed still varies from move to move.
"""

from __future__ import annotations

import random
from enum import StrEnum

from companion.games.auf_achse.bots.policy import easy_command
from companion.games.auf_achse.bots.search import Effort, search
from companion.games.auf_achse.engine.commands import Bid, Command, EndTurn, Move, OpenAuction, PassBid
from companion.games.auf_achse.engine.state import GameState


class Level(StrEnum):
    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


# Hard compares more candidates on three times the playouts: about 4x medium's engine commands per
# decision (~0.25 s of CPU on the development machine, On The Way hard's budget there).
EFFORT = {Level.MEDIUM: Effort(), Level.HARD: Effort(candidates=6, playouts=24)}


LEVELS: tuple[str, ...] = tuple(level.value for level in Level)


def position_key(state: GameState) -> str:
    """What tells one position from another, for seeding (cheap; not a full state hash)."""
    t = state.turn
    a = state.auction
    auction = "" if a is None else f"{a.card}:{a.level}:{a.leader}:{sorted(a.passed)}"
    waiting = "" if state.awaiting is None else f"{state.awaiting.kind}:{state.awaiting.player}"
    return f"{state.phase}:{t.round}:{t.seat}:{t.stage}:{t.roll}:{state.rolls}:{state.ledger.size}:{auction}:{waiting}"


def choose(state: GameState, colour: str, level: Level | str, seed: int) -> Command | None:
    """The bot's command for ``colour`` now, or None when nothing is his to do.

    Raises ValueError for a level this game's bots do not have.
    """
    try:
        level = Level(level)
    except ValueError:
        raise ValueError(f"Auf Achse bot levels are {', '.join(LEVELS)}, not {level!r}") from None
    rng = random.Random(f"{seed}:{level}:{colour}:{position_key(state)}")
    plan = easy_command(state, colour, rng)
    if plan is None or level is Level.EASY or not isinstance(plan, Move | OpenAuction | EndTurn | Bid | PassBid):
        return plan
    best, _scores, _work = search(state, colour, plan, rng, EFFORT[level])
    return best
