"""Monte-Carlo search over the kernel: candidate actions, playouts, sequential halving, Wilson intervals.

The budget is counted in kernel actions played, not in seconds, so a search is deterministic given its
seed on any machine; ``budget.py`` converts seconds of a Raspberry Pi 4 core into actions.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from companion.games.on_the_way.bots.kernel import (
    BUILD_LC,
    BUILD_WH,
    CANCEL,
    EXPAND,
    FULFIL,
    MOVE,
    PASS,
    TAKE,
    Action,
    Kernel,
)
from companion.games.on_the_way.bots.policy import MAX_HELD, policy_action

MAX_CANDIDATES = 10
BUILD_KINDS = (BUILD_LC, EXPAND, BUILD_WH)
# A complete playout: greedy 2-player games end within ~500 actions; a playout still running after this
# many is stalling (nobody fulfils, OTW-28) and is scored by ``evaluate`` instead of running on.
FULL_HORIZON = 3000
KEEP = 3  # sequential halving stops narrowing at the top three (what the advisor shows)


@dataclass
class Arm:
    """One candidate action and what its playouts found (wins are win-probability sums)."""

    action: Action
    playouts: int = 0
    wins: float = 0.0
    actions: int = 0  # kernel actions its playouts used

    @property
    def mean(self) -> float:
        return self.wins / self.playouts if self.playouts else 0.0


def clearly_better(a: Arm, b: Arm, margin: float = 0.05) -> bool:
    """Is ``a`` better than ``b`` beyond noise? Means smoothed by one win and one loss (so one lucky
    playout proves nothing), the difference above ``margin`` and one standard error."""
    pa = (a.wins + 1) / (a.playouts + 2)
    pb = (b.wins + 1) / (b.playouts + 2)
    se = math.sqrt(pa * (1 - pa) / (a.playouts + 2) + pb * (1 - pb) / (b.playouts + 2))
    return pa - pb > max(margin, se)


def obvious(k: Kernel, action: Action) -> bool:
    """Is ``action`` the step any player would take, with nothing to weigh: fulfilling a contract, or a
    loaded transport driving on towards its end city? The bots play it without searching, and the
    advisor advises it whatever the playouts' noise says."""
    if action[0] == FULFIL:
        return True
    if action[0] != MOVE or action[3] >= 0:
        return False
    tp = k.tr[k.seat][action[1] - 1]
    return tp is not None and any(tp[2] >> c & 1 for c in k.contracts[k.seat])


def pass_only_if_planned(k: Kernel, rng: random.Random, plan: Action, actions: list[Action]) -> list[Action]:
    """``actions`` without passing, unless the greedy policy itself would pass here (``plan`` or one of
    five more draws of it). Against a developing step the playouts' noise alone made passing look
    better: the advisor advised it in 5 of 30 opening positions, and the hard bot passed in 1 of 24
    mid-game positions of greedy games (0 with this rule). In real greedy games passing early lowers
    the win rate (0.53 to 0.32, issue 22): the preference for it was the model's. One rule for the
    bots and the advisor."""
    if len(actions) <= 1 or plan[0] == PASS:
        return actions
    if any(policy_action(k, rng, take_chance=1.0)[0] == PASS for _ in range(5)):
        return actions
    return [a for a in actions if a[0] != PASS] or actions


# The time track moves only when contracts are fulfilled (OTW-28). In 2 000 complete greedy kernel games per
# player count (2, 3, 4; policy_action from the set-up, seeds random.Random(10_000 + g), g < 2 000) the
# round never exceeded 28 + 8 x the track's position (the most rounds at one position: 27 at the start,
# 18 later); a game 12 rounds behind that is stalling. A reviewer's runs (other seeds, every house
# rule, casual opponents) stayed at or below 28 too.
PACE_ROUNDS = 8
PACE_SLACK = 40


def behind_pace(k: Kernel) -> bool:
    """Is the game stalling: the round far past where greedy games have the time track? Then the bots
    and the advisor play the greedy plan, which moves it on: searching players that each found it
    better to keep a transport wandering held one game at time 3 from round 30 to 160."""
    return k.rnd > PACE_SLACK + PACE_ROUNDS * k.time


SWITCH_MARGIN = 0.05  # the win-rate gain the search needs to overrule the greedy plan


def overrules(k: Kernel, plan: Action, best: Arm, default: Arm | None) -> bool:
    """Does the search's ``best`` arm replace the greedy ``plan`` (whose arm is ``default``; None when
    the plan is not a candidate, e.g. a refused pass)? Only when it is clearly better and the plan is
    not an obvious step: noise between near-equal moves made a transport wander back and forth.
    Medium's rule; the advisor's and hard's (``advisor.keeps_plan``) leaves the plan more readily."""
    if default is None:
        return True
    return best is not default and not obvious(k, plan) and clearly_better(best, default, SWITCH_MARGIN)


def money_per_vp(k: Kernel) -> int:
    """What money is worth in VP now: 1 500 R per VP while anything can still be built (OTW-23..25),
    else 3 000 R per VP at the end (OTW-33)."""
    builds_left = k.sup_trucks > 0 and (k.sup_wh > 0 or k.sup_lc > 0)
    return 1500 if builds_left else 3000


def loaded_contracts(k: Kernel, seat: int) -> Iterator[int]:
    """The contracts ``seat`` holds whose goods are already on one of its trucks."""
    for c in k.contracts[seat]:
        if any(tp is not None and tp[2] >> c & 1 for tp in k.tr[seat]):
            yield c


def evaluate(k: Kernel, seat: int) -> float:
    """A win-probability proxy for an unfinished game: VP now, money as the VP it can still buy, held
    contracts already loaded at half their pay; the margin over the best rival through a logistic.
    (A contract not yet loaded is worth nothing yet: valuing it makes a search hoard cards.)"""
    t = k.t
    rate = money_per_vp(k)
    values = []
    for s in range(t.players):
        v = k.vp[s] + k.money[s] / rate
        for c in loaded_contracts(k, s):
            v += 0.5 * (t.c_pay[c] / rate + t.c_vp[c])
        values.append(v)
    mine = values[seat]
    best_other = max(v for s, v in enumerate(values) if s != seat)
    return 1.0 / (1.0 + math.exp(-(mine - best_other) / 3.0))


def rollout(k: Kernel, seat: int, rng: random.Random, horizon: int) -> tuple[float, int]:
    """Play ``k`` in place with the policy for at most ``horizon`` actions: (value for ``seat``, actions)."""
    played = 0
    while not k.finished and played < horizon:
        k.step(policy_action(k, rng))
        played += 1
    if k.finished:
        return (1.0 if seat in k.winners() else 0.0), played
    return evaluate(k, seat), played


def candidates(k: Kernel, rng: random.Random, limit: int = MAX_CANDIDATES, first: Action | None = None) -> list[Action]:
    """A short list of sensible actions for the player on turn, best guesses first.

    All fulfils; what the policy would do (sampled a few times); the best contracts to take; for each
    transport the moves that make most progress towards its cards; the affordable builds; cancel; pass.
    """
    legal = k.legal_actions()
    if len(legal) <= 1:
        return legal
    legal_set = set(legal)
    t = k.t
    seat = k.seat
    out: list[Action] = []

    def add(action: Action) -> None:
        if action in legal_set and action not in out:
            out.append(action)

    if first is not None:
        add(first)

    for a in legal:
        if a[0] == FULFIL:
            add(a)
    for _ in range(6):
        add(policy_action(k, rng))
    held = k.contracts[seat]
    takes = [a for a in legal if a[0] == TAKE and k.offered(a[1])]  # OTW-9: what lies open
    if takes and len(held) < MAX_HELD:
        sources = [tp[0] for tp in k.tr[seat] if tp is not None] or [c for c, n in enumerate(k.idle) if n > 0]

        def take_value(a: Action) -> float:
            c = a[1]
            approach = min((t.dist[s][t.c_origin[c]] for s in sources), default=99)
            return (t.c_pay[c] + 3000 * t.c_vp[c]) / (t.c_distance[c] + approach + 1)

        for a in sorted(takes, key=take_value, reverse=True)[:3]:
            add(a)
    targets = {t.c_origin[c] for c in held} | {t.c_dest[c] for c in held}
    if targets:
        moves = [a for a in legal if a[0] == MOVE and a[3] < 0]
        for target in sorted(targets):
            best = min(moves, key=lambda a: (t.dist[a[2]][target], a), default=None)
            if best is not None:
                add(best)
    near = {c for tp in k.tr[seat] if tp is not None for c in (tp[0], *t.nbrs[tp[0]])}
    for kind in BUILD_KINDS:
        builds = [a for a in legal if a[0] == kind]
        if builds:
            close = [a for a in builds if a[1] in near]
            add(rng.choice(close or builds))
    for a in legal:
        if a[0] == CANCEL:
            add(a)
    add((PASS, 0, 0, 0, 0))
    return out[:limit] if len(out) > limit else out


def best_builds(
    k: Kernel,
    actions: list[Action],
    work: int,
    rng: random.Random,
    horizon: int,
    keep: Action | None = None,
    progress: Callable[[float], None] | None = None,
) -> list[Action]:
    """``actions`` with the builds chosen by playouts rather than by chance: for each kind of building
    among them, every legal city of that kind is screened (playouts of ``horizon`` actions, then
    ``evaluate``; the same random streams for every city, so their differences are steadier than their
    values) in about ``work`` kernel actions, and the best city replaces the kind's other builds
    (``keep``, the greedy plan, stays). Which city a building goes to moves the win rate by up to 29
    points in one position (new trucks start there, OTW-23..25), and no simple rule of distance to the
    player's contracts picked the best one (docs/bots.md, "Twentieth session"). ``progress`` is told
    the share of ``work`` spent after every playout, as ``search`` tells it."""
    legal = k.legal_actions()
    options = {kind: [a for a in legal if a[0] == kind] for kind in BUILD_KINDS if any(a[0] == kind for a in actions)}
    screened = sum(len(cities) for cities in options.values() if len(cities) > 1)
    if screened == 0 or work <= 0:
        return actions
    streams = [rng.getrandbits(64) for _ in range(max(1, work // (screened * (horizon + 1))))]
    seat = k.seat
    used = 0

    def value(action: Action) -> float:
        nonlocal used
        start = k.copy()
        start.step(action)
        total = 0.0
        for s in streams:
            won, played = rollout(start.copy(), seat, random.Random(s), horizon)
            total += won
            used += played + 1
            if progress is not None:  # a table shows it, and may cancel here
                progress(min(1.0, used / work))
        return total

    best = {kind: max(cities, key=value) for kind, cities in options.items() if len(cities) > 1}
    out: list[Action] = []
    for a in actions:
        chosen = best.get(a[0])
        if chosen is None or a == keep:
            out.append(a)
        elif chosen not in out:
            out.append(chosen)
    out.extend(chosen for chosen in best.values() if chosen not in out)  # the plan was the kind's only build
    return out


def search(
    k: Kernel,
    actions: list[Action],
    work: int,
    rng: random.Random,
    horizon: int = FULL_HORIZON,
    keep: int = KEEP,
    protect: Action | None = None,
    progress: Callable[[float], None] | None = None,
    common_randomness: bool = False,
) -> list[Arm]:
    """Sequential halving over ``actions`` for the player on turn in ``k``, spending about ``work``
    kernel actions of playouts; returns the arms best first (the survivors of the last round first).

    The ``protect``-ed action is never dropped, so it ends with as many playouts as the best.
    ``progress`` is told the share of ``work`` spent after every playout. With
    ``common_randomness`` the n-th playout of every arm draws from the same random stream, so the
    arms' difference is less noisy than their values (common random numbers).
    """
    seat = k.seat
    arms = [Arm(a) for a in actions]
    if not arms:
        return []
    starts = []
    for arm in arms:
        child = k.copy()
        child.step(arm.action)
        starts.append(child)
    alive = list(range(len(arms)))
    rounds = 1
    n = len(arms)
    while n > keep:
        n = max(keep, (n + 1) // 2)
        rounds += 1
    spent = 0
    salt = rng.getrandbits(32)
    for r in range(rounds):
        share = (work - spent) // (rounds - r) // len(alive)
        for i in alive:
            arm, start = arms[i], starts[i]
            used = 0
            while True:
                stream = random.Random(salt + arm.playouts) if common_randomness else rng
                value, played = rollout(start.copy(), seat, stream, horizon)
                arm.playouts += 1
                arm.wins += value
                arm.actions += played + 1
                used += played + 1
                if progress is not None:  # after every playout: a table shows it, and may cancel here
                    progress(min(1.0, (spent + used) / max(1, work)))
                if used >= share:
                    break
            spent += used
        alive.sort(key=lambda i: (-arms[i].mean, i))
        if r < rounds - 1:
            survivors = alive[: max(keep, (len(alive) + 1) // 2)]
            alive = survivors + [i for i in alive if arms[i].action == protect and i not in survivors]
    dropped = [i for i in range(len(arms)) if i not in alive]
    dropped.sort(key=lambda i: (-arms[i].playouts, -arms[i].mean, i))
    return [arms[i] for i in alive + dropped]
