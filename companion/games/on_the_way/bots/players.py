"""Bot players: ``choose(state, colour, level, seed) -> Command``, the same commands a person issues.

- easy: the greedy playout policy itself (no search);
- medium: Monte-Carlo search with short playouts (a few rounds, then a static evaluation), 0.25 s of a
  Pi 4; it keeps the greedy policy's step unless the search finds one clearly better (beyond a margin
  and one standard error);
- hard: the advisor's first suggestion (``advisor.rank``) at four times medium's budget, 1 s of a Pi 4:
  the same screen of every city of a building, the same short playouts on common random numbers, leaving
  the plan for a step 3 points better, and never a step back to a position of the same turn
  (``earlier``: the states it was asked in this turn).

Both fulfil and deliver without searching, and play the plan in a game far behind the time track's pace.

When the game waits for an event card and the bot is the player who must reveal it, ``choose``
returns a ``RevealEvent`` of a random card not yet revealed (the shuffled event deck, OTW-6/28): for
all-virtual games. At a physical table the real card is flipped and scanned instead.
Deterministic: the same state, level, seed (and, for hard, ``earlier``) give the same command.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from enum import StrEnum

from companion.games.on_the_way.bots.advisor import check_to_move, not_undone, rank
from companion.games.on_the_way.bots.budget import work_for
from companion.games.on_the_way.bots.kernel import Kernel
from companion.games.on_the_way.bots.policy import policy_action, reveal_action
from companion.games.on_the_way.bots.search import (
    behind_pace,
    candidates,
    obvious,
    overrules,
    pass_only_if_planned,
    search,
)
from companion.games.on_the_way.engine.commands import Command
from companion.games.on_the_way.engine.state import GameState


class Level(StrEnum):
    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


BUDGET_S = {Level.EASY: 0.0, Level.MEDIUM: 0.25, Level.HARD: 1.0}  # seconds of a Pi 4 core per command
HORIZON = 40  # kernel actions per medium playout (about four turns of each player in a 2-player game)
# Hard ranks on the advisor's playouts (``advisor.RANK_HORIZON``, also 40) at four times the budget. At
# the levels' real budgets (what the product always plays: a budget is kernel actions, so a loaded Pi is
# slower, never shallower) longer playouts lost: the search-based hard (before it played the advisor's
# pick) scored 41.2 % [27.4, 56.6] vs medium with 120 actions, 56.2 % [41.0, 70.4] with 40 (40 games each,
# the same seeds, benchmarks/bots.py --pair hard:medium --offer --offset 7000).


def choose(
    state: GameState,
    colour: str,
    level: Level | str,
    seed: int,
    *,
    budget_s: float | None = None,
    earlier: Sequence[GameState] = (),
) -> Command:
    """The bot's command for ``colour`` now. ``budget_s`` overrides the level's budget (benchmarks).
    ``earlier``: the states of this turn before ``state`` (``advisor.same_turn``): hard steps back to none
    of them, except those an undo took back (``advisor.not_undone``).

    Raises ``IllegalAction`` when ``colour`` has nothing to do now (not its turn, game over).
    """
    level = Level(level)
    kernel = Kernel.from_state(state)
    # The seed is mixed with the position so that a fixed seed still varies from move to move.
    rng = random.Random(f"{seed}:{level}:{kernel.rnd}:{kernel.seat}:{kernel.steps_used}:{kernel.used}:{kernel.time}")
    if state.awaiting_event and not state.finished and state.current.colour == colour:
        return kernel.to_command(reveal_action(kernel, rng))
    check_to_move(state, colour)
    if level is Level.EASY:
        return kernel.to_command(policy_action(kernel, rng))
    budget = BUDGET_S[level] if budget_s is None else budget_s
    if level is Level.HARD:
        plan_rng = random.Random(rng.getrandbits(64))
        arms = rank(kernel, state, not_undone(earlier, state), work_for(budget), rng, plan_rng, only_first=True)
        return kernel.to_command(arms[0].action)
    plan = policy_action(kernel, rng)
    # No search for an obvious step, nor in a stalling game (the time track stands still, OTW-28): the
    # plan moves it on.
    if obvious(kernel, plan) or behind_pace(kernel):
        return kernel.to_command(plan)
    actions = pass_only_if_planned(kernel, rng, plan, candidates(kernel, rng, first=plan))
    if len(actions) <= 1:
        return kernel.to_command(actions[0] if actions else plan)
    arms = search(kernel, actions, work_for(budget), rng, horizon=HORIZON, protect=plan)
    default = next((a for a in arms if a.action == plan), None)  # None: the plan is not legal (a refused pass)
    if overrules(kernel, plan, arms[0], default):
        return kernel.to_command(arms[0].action)
    return kernel.to_command(plan)
