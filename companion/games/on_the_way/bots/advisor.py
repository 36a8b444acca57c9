"""The advisor: the top three actions for the player on turn, with win chances from playouts.

    advice = advise(state, "red", budget_s=1.0, seed=7, earlier=turn_so_far(game))
    advice[0].command, advice[0].win_rate, advice[0].sentence

Read-only: it never changes the game. Deterministic given the seed: the budget is seconds of a
Raspberry Pi 4 core converted to kernel actions (``budget.py``), not a clock.

Judged the way a person uses it (ask, do what it says, ask again), three rules hold:

- **only what the player can know**: the face-up offer (it asks for the offer to be laid out and scanned
  before it advises, OTW-9), the held contracts, the board; the event deck and the pile are imagined by
  the playouts from the cards not yet seen, never read;
- **no circles**: given the earlier states of the same turn (``earlier``), it never advises a step that
  returns to one of them, nor cancelling a transport started this turn unless something new came up
  since (an event card, a card laid out);
- **the pick's value is unbiased**: the best of noisy estimates overstates its value (the winner's
  curse), so the pick is re-evaluated on fresh playouts and that is the win chance it reports.

What the chances mean: ``win_rate`` is the share of complete playouts won with every seat playing the
greedy policy from here. The model treats the player and the opponents alike, so it is the chance
against opponents who play as well as the player will by following the advice; weaker opponents lose
more often than it says. ``chance`` (what the table tells) is the win rate mapped to whole games
against the opponents at the table (``companion/games/calibration.py``, the maps in ``chances.py``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.engine.errors import IllegalAction
from companion.engine.stats import wilson
from companion.games.advice import Advice as AdviceBase
from companion.games.advice import in_english
from companion.games.calibration import chance, rivals
from companion.games.on_the_way.bots import chances
from companion.games.on_the_way.bots.budget import work_for
from companion.games.on_the_way.bots.explain import PACKAGE, words
from companion.games.on_the_way.bots.kernel import CANCEL, PASS, Action, Kernel
from companion.games.on_the_way.bots.policy import policy_action
from companion.games.on_the_way.bots.search import (
    FULL_HORIZON,
    Arm,
    behind_pace,
    best_builds,
    candidates,
    obvious,
    pass_only_if_planned,
    rollout,
    search,
)
from companion.games.on_the_way.engine.commands import LayOut, PlayerCommand, RevealEvent, Undo
from companion.games.on_the_way.engine.queries import offer_missing
from companion.games.on_the_way.engine.serialize import command_to_json
from companion.games.on_the_way.engine.state import GameState

DEFAULT_BUDGET_S = 0.85  # Pi-4 seconds of search: ~1 s per advice on a Pi 4 with the overheads (benchmarks/advice.py)
TOP = 3
# Kernel actions per ranking playout (about four turns of each player, 2 players), then the static
# evaluation: as the bots. Over 12 positions x 4 seeds (positions of benchmarks/advice.py --regret 12
# --seed 9201, 1 000 complete playouts per candidate) the picks ranked on 40 actions were the closest
# to the best: 15-19 % more than 5 points below it, against 27 % on 120 actions, 40 % on complete games.
RANK_HORIZON = 40
# The win-rate gain (mean of the ranking playouts, on common random numbers) by which the best-ranked
# candidate must beat the greedy plan to replace it.
SWITCH_GAIN = 0.03
# Of the ranking's work: every city of each kind of building among the candidates, screened
# (``search.best_builds``), instead of one city drawn at random.
SCREEN_SHARE = 0.2
CHECK_SHARE = 0.25  # of the budget: fresh playouts of the pick, for a value without the winner's curse
Progress = Callable[[float], None]  # called with the share of the budget spent so far (0..1)


@dataclass(frozen=True, slots=True)
class Advice(AdviceBase):
    command: PlayerCommand

    def command_json(self) -> dict[str, object]:
        return command_to_json(self.command)


def check_to_move(state: GameState, player: str) -> None:
    """Refuse (as the engine would) unless ``player`` is the one to choose a player command now."""
    if state.finished:
        raise IllegalAction("OTW-31", "the game is over")
    if state.config.seat_of(player) is None:
        raise IllegalAction("OTW-10", f"there is no {player} player in this game")
    current = state.current.colour
    if state.awaiting_event:
        raise IllegalAction("OTW-28", f"the strip is full: {current} must first reveal the next event card")
    if current != player:
        raise IllegalAction("OTW-10", f"it is {current}'s turn, not {player}'s")


def check_offer_known(state: GameState) -> None:
    """OTW-9: advice names only cards that lie face up, so the offer must be laid out and scanned first."""
    missing = offer_missing(state)
    if missing:
        cards = "1 face-up contract" if missing == 1 else f"{missing} face-up contracts"
        raise IllegalAction(
            "OTW-9",
            f"lay out and scan the {cards} first (lay_out): the advice names only cards that lie open",
        )


def turn_so_far(initial: GameState, applied: Sequence[Any]) -> tuple[GameState, ...]:
    """The states of the current turn before the last one: ``applied`` (the commands of the game from
    ``initial``, undone ones left out) replayed, kept from the first state of the last state's turn."""
    from companion.games.on_the_way.engine.rules import apply

    states = [initial]
    for command in applied:
        states.append(apply(states[-1], command)[0])
    return same_turn(states[:-1], states[-1])


def same_turn(seen: Sequence[GameState], now: GameState) -> tuple[GameState, ...]:
    """The states at the end of ``seen`` (oldest first) that belong to ``now``'s turn: what ``earlier``
    is for ``advise`` and the hard bot. A bot seat passes the states it was asked in."""
    turn = (now.turn.round, now.turn.seat)
    earlier: list[GameState] = []
    for s in reversed(seen):
        if (s.turn.round, s.turn.seat) != turn:
            break
        earlier.append(s)
    return tuple(reversed(earlier))


def not_undone(earlier: Sequence[GameState], now: GameState) -> tuple[GameState, ...]:
    """``earlier`` (a bot seat's memory of this turn, ``same_turn``) without what an undo took back.
    A bot never steps back to a position of its turn (``no_circles``), so ``now`` in the position of one
    of them means the steps after it were undone: they are not earlier any more, and the bot decides
    as it did there before (it may take the undone step again)."""
    if not earlier:
        return ()
    seat = now.turn.seat

    def where(s: GameState) -> tuple[object, ...]:  # the position and the steps spent (an undo restores both)
        k = Kernel.from_state(s)
        return (_position(k, seat), k.steps_used)

    here = where(now)
    seen = [where(s) for s in earlier]
    last = len(seen)
    while last and seen[last - 1] == here:  # asked again here, or a card revealed or laid out: no undo
        last -= 1
    for i in range(last - 1, -1, -1):
        if seen[i] == here:
            return tuple(earlier[:i])
    return tuple(earlier)


def _position(k: Kernel, seat: int) -> tuple[object, ...]:
    """What a circle returns to: the player's transports, contracts and money, and the board's trucks."""
    return (tuple(k.tr[seat]), tuple(sorted(k.contracts[seat])), k.money[seat], tuple(k.idle), tuple(k.bld))


def _news(before: GameState, now: GameState) -> bool:
    """Did the player learn something since ``before``: an event card, or a card laid out face up?"""
    laid = set(now.offer or ()) - set(before.offer or ())
    return len(now.revealed) != len(before.revealed) or bool(laid)


def no_circles(k: Kernel, state: GameState, earlier: Sequence[GameState], actions: list[Action]) -> list[Action]:
    """``actions`` without the steps that would go round in a circle this turn (see the module doc)."""
    if not earlier:
        return actions
    seat = k.seat
    colour = state.current.colour
    seen = {_position(Kernel.from_state(s), seat) for s in earlier}
    seen.add(_position(k, seat))
    started: set[int] = set()  # markers put on trucks this turn with nothing new learnt since
    for marker in (1, 2):
        for s in reversed(earlier):
            player = s.player(colour)
            if player is not None and all(t.marker != marker for t in player.transports):
                if not _news(s, state):
                    started.add(marker)
                break
    out = []
    for a in actions:
        if a[0] == CANCEL and a[1] in started:
            continue
        if a[0] != PASS:
            child = k.copy()
            child.step(a)
            if _position(child, seat) in seen:
                continue
        out.append(a)
    if out:
        return out
    # Every candidate goes round: end the turn where the rules allow it (OTW-12), else the last one.
    passing = (PASS, 0, 0, 0, 0)
    return [passing] if passing in k.legal_actions() else actions[-1:]


def keeps_plan(k: Kernel, plan: Action, best: Arm, default: Arm) -> bool:
    """Does the advice stay with the greedy ``plan`` (whose ranking arm is ``default``) rather than the
    best-ranked ``best``? When the plan is obvious (fulfilling, a loaded truck driving on: only fulfilling
    moves the time track, OTW-28), the game is stalling (``search.behind_pace``: the plan moves the time
    track on), or ``best`` is not more than ``SWITCH_GAIN`` above it on the ranking's means (common random
    numbers: their difference is steadier than either). Looser than medium's ``overrules`` (5 points and
    one standard error), which almost never let the advice leave the plan; why not looser still: see
    ``advise``.

    An obvious plan never yields, not even to a step the ranking finds clearly better. Letting a loaded
    truck's route yield (sessions 8-10) lowered the regret against the greedy reference (33.1 -> 28.1 %,
    seed 9101) but lost whole games against medium on the same deals: 36.5 of 80 with it, 47.5 without
    (seeds 17201, 17401; 24 deals better without it, 9 worse), easy level (66 against 67 of 70).
    Letting fulfilling yield too lost more (87.5 against 94 of 136). docs/bots.md, "Eleventh session"."""
    return best is default or obvious(k, plan) or behind_pace(k) or best.mean - default.mean <= SWITCH_GAIN


def weighed(
    kernel: Kernel, state: GameState, earlier: Sequence[GameState], rng: random.Random, plan_rng: random.Random
) -> tuple[Action, list[Action]]:
    """The greedy plan and the candidate steps ``rank`` weighs: ``search.candidates`` with the plan
    first, passing only when planned (``pass_only_if_planned``), none that goes round in a circle."""
    plan = policy_action(kernel, plan_rng, take_chance=1.0)
    actions = pass_only_if_planned(kernel, rng, plan, candidates(kernel, rng, first=plan))
    return plan, no_circles(kernel, state, earlier, actions)


def considered(
    state: GameState, seed: int = 0, earlier: Sequence[GameState] = (), budget_s: float = DEFAULT_BUDGET_S
) -> list[Action]:
    """The candidate steps ``advise(state, seed=seed, earlier=earlier, budget_s=budget_s)`` ranks (the
    regret benchmark tells a pick ranked below the best from a best it never weighed)."""
    kernel = Kernel.from_state(state)
    rng, plan_rng = _streams(seed)
    plan, actions = weighed(kernel, state, earlier, rng, plan_rng)
    return screened(kernel, plan, actions, _ranking_work(budget_s), rng)[0]


def screened(
    kernel: Kernel,
    plan: Action,
    actions: list[Action],
    work: int,
    rng: random.Random,
    progress: Progress | None = None,
) -> tuple[list[Action], int]:
    """``weighed``'s ``actions`` with every build's city screened (``search.best_builds``) in
    SCREEN_SHARE of ``work``, and the work left to rank them with; ``progress`` is told the share of the
    screen done. No circle filter again: a build adds a building, and no earlier position of the turn had
    it (OTW-23..25), so a screened city never goes round."""
    screen = int(work * SCREEN_SHARE)
    return best_builds(kernel, actions, screen, rng, RANK_HORIZON, keep=plan, progress=progress), work - screen


def within(progress: Progress | None, start: float, width: float) -> Progress | None:
    """``progress`` for a part of the advice that spans ``start`` .. ``start + width`` of the table's
    bar: the part tells its own share done (0..1), the table sees where the whole advice is."""
    return None if progress is None else (lambda done: progress(start + width * done))


def _ranking_work(budget_s: float) -> int:
    """The kernel actions ``advise`` ranks its candidates with: the budget less the pick's fresh check."""
    work = work_for(budget_s)
    return work - int(work * CHECK_SHARE)


def _streams(seed: int) -> tuple[random.Random, random.Random]:
    """The advice's random streams for ``seed``: the search's, and the greedy plan's."""
    return random.Random(f"advise:{seed}"), random.Random(f"plan:{seed}")


def rank(
    kernel: Kernel,
    state: GameState,
    earlier: Sequence[GameState],
    work: int,
    rng: random.Random,
    plan_rng: random.Random,
    progress: Progress | None = None,
    only_first: bool = False,
) -> list[Arm]:
    """The candidates for the player on turn, ranked: the first is what to do (``advise``'s pick, the
    hard bot's command). ``work`` kernel actions of playouts; ``earlier`` as in ``advise``; ``progress``
    is told the share of the ranking done after every playout (the screen's first). With
    ``only_first`` (a bot, which needs no second and third) an obvious plan is not searched.
    SCREEN_SHARE of ``work`` first screens every city of each kind of building among the candidates
    (``screened``): for the advice since the twentieth session, for the hard bot since the twenty-second
    (hard vs medium 81.7 % -> 92.1 % on the same 120 deals, docs/bots.md).

    The greedy plan (the step the playouts themselves would take) is always a candidate. Keeping it
    unless another was clearly better (5 points and one standard error, as medium) left 50 % of the
    advice more than 5 points below the best candidate (benchmarks/advice.py --regret 10, seed 9101):
    at the advice's budget a better step is rarely *clearly* better. Always taking the best-ranked
    instead (12.5 %) lost whole games: a follower that postpones fulfilling stalls the time track,
    one that re-decides every step wanders. So the plan stays when it is obvious (fulfilling, a loaded
    truck driving on), when the game is stalling, or when the best is not more than SWITCH_GAIN above
    it (``keeps_plan``; docs/bots.md).
    """
    plan, actions = weighed(kernel, state, earlier, rng, plan_rng)
    if only_first and (len(actions) <= 1 or (plan in actions and (obvious(kernel, plan) or behind_pace(kernel)))):
        return [Arm(plan if plan in actions or not actions else actions[0])]
    # The screen's part of the progress, then the ranking's (a skipped screen's part is passed at once).
    actions, work = screened(kernel, plan, actions, work, rng, within(progress, 0.0, SCREEN_SHARE))
    # Ranking: playouts of RANK_HORIZON actions then the static evaluation, the arms on common random
    # numbers (less noisy than complete games). A static evaluation fitted to complete games ranked
    # closer to the complete playouts but lost whole games: docs/bots.md, "Eighth to tenth sessions".
    arms = search(
        kernel,
        actions,
        work,
        rng,
        horizon=RANK_HORIZON,
        progress=within(progress, SCREEN_SHARE, 1.0 - SCREEN_SHARE),
        common_randomness=True,
        protect=plan if plan in actions else None,
    )
    default = next((a for a in arms if a.action == plan), None)
    if default is not None and keeps_plan(kernel, plan, arms[0], default):
        arms.remove(default)
        arms.insert(0, default)
    return arms


def advise(
    state: GameState,
    player: str | None = None,
    *,
    budget_s: float = DEFAULT_BUDGET_S,
    seed: int = 0,
    earlier: Sequence[GameState] = (),
    progress: Progress | None = None,
    opponents: Mapping[str, str] | None = None,
) -> tuple[Advice, ...]:
    """Up to three commands for ``player`` (default: the player to move), best first.

    Sequential halving over the candidates (playouts of ``RANK_HORIZON`` actions, then the static
    evaluation) ranks them, the greedy plan among them, each kind of building at the city a screen of
    every city found best (``SCREEN_SHARE`` of the work, ``search.best_builds``); the best-ranked
    replaces the plan when it is more than ``SWITCH_GAIN`` better, the plan is not obvious
    (fulfilling, a loaded truck driving on: ``search.obvious``) and the game is not stalling
    (``search.behind_pace``): ``keeps_plan``. The pick is re-evaluated on fresh complete playouts
    (its reported chance, no winner's curse).
    ``earlier``: the states of this turn before ``state`` (``turn_so_far``), to avoid circles.
    ``opponents``: colour -> the bot level of a seat the box plays (or ``"casual"``, the benchmarks'
    baseline); every other seat is a person. They set the pick's ``chance`` (``chances.py``; None
    where no map was fitted for them: its ``win_rate`` is then the chance), never the advice.
    Raises ``IllegalAction`` when the player cannot act now, or the face-up offer is not known (OTW-9).
    """
    if player is None:
        if state.finished:
            raise IllegalAction("OTW-31", "the game is over")
        player = state.current.colour
    check_to_move(state, player)
    check_offer_known(state)
    kernel = Kernel.from_state(state)
    rng, plan_rng = _streams(seed)
    ranking = _ranking_work(budget_s)
    check = work_for(budget_s) - ranking
    ranked = within(progress, 0.0, 1.0 - CHECK_SHARE)
    arms = rank(kernel, state, earlier, ranking, rng, plan_rng, ranked)
    if not arms:
        return ()
    pick = _fresh(kernel, arms[0].action, check, rng, progress)
    if progress is not None:
        progress(1.0)
    against = rivals((seat.colour for seat in state.players), player, opponents)
    out = []
    for arm in [pick, *arms[1:TOP]]:
        low, high = wilson(arm.wins, arm.playouts)
        command = kernel.to_command(arm.action)
        assert not isinstance(command, RevealEvent | LayOut | Undo)  # candidates are player commands
        said = words(kernel, arm.action)
        # The maps were fitted on the pick's win rate (fresh complete playouts), not on the others'
        # ranking means (short playouts and the static evaluation): only the pick has a chance to tell.
        told = chance(arm.mean, arm.playouts, against, chances.MAPS, elapsed(state)) if arm is pick else None
        out.append(Advice(command, arm.mean, low, high, arm.playouts, in_english(said, PACKAGE), said, told))
    return tuple(out)


def elapsed(state: GameState) -> float:
    """The share of the game gone, as the table knows it: the time track over its end (OTW-28, OTW-31).
    Two-player chances are told by phase of the game (``chances.py``)."""
    return min(1.0, state.time / state.config.time_end)


def _fresh(k: Kernel, action: Action, work: int, rng: random.Random, progress: Progress | None = None) -> Arm:
    """``action``'s value from new complete playouts only (none of those that made it the pick); the
    last ``CHECK_SHARE`` of the advice's ``progress``."""
    arm = Arm(action)
    start = k.copy()
    start.step(action)
    seat = k.seat
    used = 0
    told = within(progress, 1.0 - CHECK_SHARE, CHECK_SHARE)
    while used < work or arm.playouts < 2:
        value, played = rollout(start.copy(), seat, rng, FULL_HORIZON)
        arm.playouts += 1
        arm.wins += value
        used += played + 1
        if told is not None:
            told(min(1.0, used / max(1, work)))
    return arm
