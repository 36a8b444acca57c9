"""Follow the advice and win? Whole games through the validated engine (issue 22, style point 23).

    python benchmarks/advice.py [--game on-the-way|auf-achse] [--games N] [--seed S] [--scale F] [--jobs J] [--quick]
                                [--players 2|3|4] [--pairs FILE] [--regret N] [--reference N] [--pairings LIST]
                                [--reference-playouts N] [--first-game K]

An "advice follower" seat asks the advisor at every decision (with the states of its turn so far, as
``companion play`` passes them) and does its first suggestion; it plays against easy, medium and the
fixed casual baseline (``casual_policy.py``: easy as it was, plus "build whenever affordable"); then
hard plays medium. Seats alternate; the face-up offer is dealt and laid out as at a table (OTW-4/5/9).
Prints exactly these lines (read by checks outside the repo), then a few more:

    advice follower vs easy, 2 players: N % [lo, hi] over G games       (also vs medium, vs casual)
    hard vs medium, 2 players: N % [lo, hi] over G games
    stalled games: N
    circles: N
    inconsistent successive advices: N %
    brier score: N

With ``--players 3`` or ``4`` (On The Way) the first kind sits in one seat (rotating from game to
game) and the second in all the others, and the lines say "3 players". A win shared by k players
scores 1/k (a 2-player tie: half); intervals are 95 % Wilson. ``--scale`` multiplies every budget (the
advice's 1 s and the levels' own) so that runs fit in minutes; ``--quick`` (< 20 s) plays one short
game (time track ending at 2) per pairing at a fiftieth of the budgets: a smoke run, not a measurement.
Circles: a follower's step returns to a position it had earlier in the same turn, or cancels a
transport started in the same turn with nothing new learnt since. Consistency: after a step with no new
information, the next advice's win rate lies inside the previous advice's 95 % interval. The Brier
score and the deciles are of the chance the advice tells (``Advice.told_chance``: the win rate mapped
against the opponent, ``companion/games/calibration.py``); the win rate's own follow them.
``--pairings`` plays only the pairings named (and prints only their lines). In Auf Achse the casual
baseline is the easy level (nothing to build), so "vs casual" reports the easy games, played once.
``--regret N`` (On The Way): the advice's pick in N mid-game positions of greedy games, 4 seeds each,
against a reference of ``--reference`` complete playouts per candidate (``search.candidates``, every
step the advice weighed and every legal build); the picks more than 5 points below the best are
counted by cause: the best was passing (weighed only when the greedy plan passes), not weighed at all, or
weighed and ranked lower.
``--pairings reference:medium`` (or ``reference:easy``; On The Way, never in the default run) seats a
*reference follower* instead: at every decision it does what that reference rates best
(``reference_pick``, ``--reference-playouts`` complete playouts per candidate), so whole games tell
whether agreeing with the reference wins (docs/bots.md, "Thirteenth session": it lost 20 of 20 to
medium). ``--pairings follower:hard`` (never in the default run) plays the follower against hard: the
chance a table is told against hard. ``--first-game K`` plays games K.. of the seed: a longer run's deals,
split across processes.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bots import pile_for
from casual_policy import casual_action

from companion.engine.stats import wilson
from companion.games.on_the_way.bots import BUDGET_S, DEFAULT_BUDGET_S, KERNEL_BUILD, Kernel, Level, advise, choose
from companion.games.on_the_way.bots.advisor import considered, no_circles, same_turn
from companion.games.on_the_way.bots.kernel import PASS, Action
from companion.games.on_the_way.bots.policy import reveal_action
from companion.games.on_the_way.bots.search import BUILD_KINDS, FULL_HORIZON, candidates, rollout
from companion.games.on_the_way.data import load_reference
from companion.games.on_the_way.engine import Cancel, GameConfig, LayOut, TakeContract, apply
from companion.games.on_the_way.engine.commands import Command
from companion.games.on_the_way.engine.queries import offer_missing
from companion.games.on_the_way.engine.scoring import winners
from companion.games.on_the_way.engine.state import GameState, initial_state

COLOURS = ("red", "blue")
SEATS = ("red", "blue", "green", "yellow")  # --players 3 and 4: the first kind in one seat, the second in the rest
MAX_COMMANDS = 3000  # a 2-player game still running after this many commands is stalled (× players / 2)
MAX_COMMANDS_AA = 5000  # Auf Achse: greedy 2-player games take ~450 commands
AA_CARDS = ("DealContract", "RevealPublic", "DrawAction", "TakeSpare")  # drawn from the deck, never advised
PAIRINGS = (("follower", "easy"), ("follower", "medium"), ("follower", "casual"), ("hard", "medium"))
# Played only when named in --pairings (not part of the default run nor of its specified lines): a seat
# that does what the regret's reference rates best (``reference_pick``) -- regret 0 by construction, so
# whole games tell whether agreeing with the reference wins; and the follower against hard, for the chance
# a table is told against hard (chances.py).
EXTRA_PAIRINGS = (("reference", "medium"), ("reference", "easy"), ("follower", "hard"))
ALL_PAIRINGS = PAIRINGS + EXTRA_PAIRINGS
FOLLOWERS = {"follower": "advice follower", "reference": "reference follower"}  # seat kind -> its line's name


class Job(NamedTuple):
    """One game to play: which pairing, which of its games, the seed, the budgets' scale, the end (a
    short game's time track, or Auf Achse's command cap), the seats, the follower's extra advice scale."""

    pairing: int
    game: int
    seed: int
    scale: float
    end_at: int | None
    players: int
    advice_scale: float = 1.0
    reference: int = 200  # a "reference" seat's complete playouts per candidate


class Asked(NamedTuple):
    """One follower advice, as the pairs lines record it."""

    win_rate: float  # its playouts' win rate
    told: float  # the chance it told (the win rate mapped to the opponents)
    playouts: int  # the fresh playouts behind the win rate
    round: int  # when it was asked: the round,
    time: int | None  # and the time track (On The Way; None: Auf Achse)
    cpu: float  # the CPU seconds the advice took (this game's process)


@dataclass
class Result:
    pairing: int
    score: float  # for the first seat kind: 1 win, 0.5 tie, 0 loss
    rounds: int
    finished: bool
    circles: int = 0
    consistent: list[bool] = field(default_factory=list)
    by_noise: list[float] = field(default_factory=list)  # each check: its chance to fail by noise alone (_noise)
    asked: list[Asked] = field(default_factory=list)  # each follower advice
    time_end: int | None = None  # where the time track ends the game (On The Way, OTW-31; None: Auf Achse)
    game: int = 0
    capped: bool = False  # a quick run stopped it early on purpose (not a stall)
    players: int = 2
    colour: str = ""  # the first kind's seat


def _position(state: GameState, colour: str) -> tuple[object, ...]:
    player = state.player(colour)
    assert player is not None
    return (player.transports, player.contracts, player.money, state.idle, state.buildings)


def _noise(p1: float, low: float, high: float, n1: int, p2: float, n2: int) -> float:
    """How often a second estimate of the *same* value falls outside the first's interval by chance:
    both are shares of fresh playouts, so their difference has the variance of both (normal
    approximation at the pooled share). With equal playouts and a 95 % interval this is 17 %, not 5 %:
    the consistency check fails that often on a perfectly consistent advisor."""
    pooled = (p1 * n1 + p2 * n2) / max(1, n1 + n2)
    spread = math.sqrt(max(pooled * (1 - pooled), 1e-9) * (1 / max(1, n1) + 1 / max(1, n2)))
    half = (high - low) / 2
    return 1.0 - math.erf(half / spread / math.sqrt(2))


def _news(before: GameState, now: GameState) -> bool:
    return len(now.revealed) != len(before.revealed) or bool(set(now.offer or ()) - set(before.offer or ()))


def play(job: tuple[int, int, int, float, int | None, int] | Job) -> Result:
    """One On The Way game of ``players`` seats: the pairing's first kind in seat ``game % players``
    (so seats rotate), its second kind in every other seat. A win shared by k players scores 1/k."""
    pairing, game, seed, scale, end_at, players, advice_scale, reference = Job(*job)
    first, second = ALL_PAIRINGS[pairing]
    board, deck = load_reference()
    colours = SEATS[:players]
    config = GameConfig(board, deck, colours, end_at=end_at)
    mine = colours[game % players]
    kinds = {colour: first if colour == mine else second for colour in colours}
    state = initial_state(config)
    pile = pile_for(config, random.Random(f"pile:{seed}:{game}"))
    rng = random.Random(f"casual:{seed}:{game}")
    result = Result(pairing, 0.0, 0, False, game=game, players=players, colour=mine, time_end=config.time_end)
    turn: list[GameState] = []  # the follower's states of its current turn, oldest first
    started: dict[int, GameState] = {}  # marker -> the state before the follower started it this turn
    last: tuple[float, float, float, GameState, int] | None = None  # previous advice: value, low, high, after, playouts
    asked: list[GameState] = []  # the states a bot seat was asked in this turn (as a table's seat remembers)
    commands = 0
    while not state.finished and commands < MAX_COMMANDS * players // 2:
        while pile and offer_missing(state):
            state, _ = apply(state, LayOut(pile.pop(0)))
        colour = state.current.colour
        kind = kinds[colour]
        command: Command
        if kind in FOLLOWERS and not state.awaiting_event:
            if turn and (turn[-1].turn.round, turn[-1].turn.seat) != (state.turn.round, state.turn.seat):
                turn, started = [], {}
            seed_now = seed * 100_003 + commands
            if kind == "reference":
                command = reference_pick(state, turn, seed_now, reference)
            else:
                rivals = {c: k for c, k in kinds.items() if c != colour}  # what the chance is against
                spend = DEFAULT_BUDGET_S * scale * advice_scale
                t0 = time.process_time()
                top = advise(state, budget_s=spend, seed=seed_now, earlier=turn, opponents=rivals)[0]
                cpu = time.process_time() - t0
                result.asked.append(
                    Asked(top.win_rate, top.told_chance, top.playouts, state.turn.round, state.time, cpu)
                )
                if last is not None and last[3] is state and turn:
                    result.consistent.append(last[1] <= top.win_rate <= last[2])
                    result.by_noise.append(_noise(last[0], last[1], last[2], last[4], top.win_rate, top.playouts))
                command = top.command
            before = state
            if isinstance(command, Cancel) and command.marker in started and not _news(started[command.marker], state):
                result.circles += 1
            player = state.player(colour)
            assert player is not None
            free = {1, 2} - {t.marker for t in player.transports}
            turn.append(state)
            state, _ = apply(state, command)
            after = state.player(colour)
            assert after is not None
            for t in after.transports:
                if t.marker in free:
                    started[t.marker] = before
            in_turn = (state.turn.round, state.turn.seat) == (before.turn.round, before.turn.seat)
            if in_turn and not state.finished and any(_position(s, colour) == _position(state, colour) for s in turn):
                result.circles += 1
            if kind == "follower":
                last = (top.win_rate, top.low, top.high, state, top.playouts)
        else:
            if kind == "casual":
                k = Kernel.from_state(state)
                action = reveal_action(k, rng) if k.awaiting else casual_action(k, rng)
                command = k.to_command(action)
            else:
                level = Level("easy" if kind in FOLLOWERS else kind)  # a follower's event reveal: random
                earlier = same_turn(asked, state)
                asked = [*earlier, state]
                spend = BUDGET_S[level] * scale
                command = choose(state, colour, level, seed=seed * 7919 + game, budget_s=spend, earlier=earlier)
            state, _ = apply(state, command)
        if isinstance(command, TakeContract) and command.card in pile:
            pile.remove(command.card)
        commands += 1
    won = winners(state)
    result.score = 1.0 / len(won) if mine in won else 0.0
    result.rounds = state.turn.round
    result.finished = state.finished
    return result


def play_aa(job: tuple[int, int, int, float, int | None, int] | Job) -> Result:
    """One Auf Achse game: the follower does the advisor's first suggestion at every decision it
    advises (moves, auctions, bids, loads); cards and the set-up are the easy policy's (a random unseen
    card: the shuffled deck). In Auf Achse there is nothing to build: the casual proxy is easy."""
    from companion.games.auf_achse.bots import choose as aa_choose
    from companion.games.auf_achse.bots.advisor import advise as aa_advise
    from companion.games.auf_achse.data import load_aa_reference
    from companion.games.auf_achse.engine import GameConfig as AAConfig
    from companion.games.auf_achse.engine import HouseRules as AARules
    from companion.games.auf_achse.engine import apply as aa_apply
    from companion.games.auf_achse.engine.scoring import winners as aa_winners
    from companion.games.auf_achse.engine.state import Phase
    from companion.games.auf_achse.engine.state import initial_state as aa_initial

    # end_at: in Auf Achse a command cap (quick runs); 2 players
    pairing, game, seed, scale, end_at, _players, advice_scale, _reference = Job(*job)
    first, second = ALL_PAIRINGS[pairing]
    board, deck = load_aa_reference()
    state = aa_initial(AAConfig(board, deck, COLOURS, AARules(), seed=seed * 1009 + game))
    kinds = {COLOURS[0]: first, COLOURS[1]: second} if game % 2 == 0 else {COLOURS[0]: second, COLOURS[1]: first}
    mine = COLOURS[0] if game % 2 == 0 else COLOURS[1]
    result = Result(pairing, 0.0, 0, False, game=game)
    last: tuple[float, float, Any] | None = None  # the previous advice's interval and the state after it
    commands = 0
    cap = MAX_COMMANDS_AA if end_at is None else end_at
    while not state.finished and commands < cap:
        command = None
        for colour in COLOURS:
            kind = kinds[colour]
            level = "easy" if kind in ("follower", "casual") else kind
            command = aa_choose(state, colour, level, seed * 7919 + game)
            if command is None:
                continue
            if kind == "follower" and state.phase is Phase.PLAY and type(command).__name__ not in AA_CARDS:
                rivals = {c: k for c, k in kinds.items() if c != colour}  # what the chance is against
                spend = DEFAULT_BUDGET_S * scale * advice_scale
                t0 = time.process_time()
                top = aa_advise(state, colour, budget_s=spend, seed=seed * 100_003 + commands, opponents=rivals)[0]
                cpu = time.process_time() - t0
                result.asked.append(Asked(top.win_rate, top.told_chance, top.playouts, state.turn.round, None, cpu))
                if last is not None and last[2] is state:
                    result.consistent.append(last[0] <= top.win_rate <= last[1])
                command = top.command
                state, _ = aa_apply(state, command)
                last = (top.low, top.high, state) if type(command).__name__ != "Roll" else None
                command = None  # applied
            break
        else:
            break  # nobody has anything to do: a bug (the game counts as stalled)
        if command is not None:
            state, _ = aa_apply(state, command)
        commands += 1
    won = aa_winners(state)
    result.score = 0.5 if len(won) > 1 and mine in won else float(mine in won)
    result.rounds = state.turn.round
    result.finished = state.finished
    result.capped = not state.finished and end_at is not None
    return result


PI4_NBODY_US = 31.6 / 3.0  # µs per n-body step on a Pi 4 with CPython 3.11 (published 3.7 figure / 3.0, docs/bots.md)


def advice_time(positions: int) -> tuple[float, float, float]:
    """CPU seconds per ``advise`` at the table's budget (1 s of a Pi 4) over positions of a greedy game,
    with the turn so far rebuilt as ``companion play`` does; the n-body µs/step measured alongside; and
    the Pi 4 estimate (CPU × Pi 4 n-body / n-body here)."""
    from engine import nbody_us_per_step

    from companion.games.on_the_way.bots.advisor import turn_so_far

    board, deck = load_reference()
    config = GameConfig(board, deck, COLOURS)
    state = initial_state(config)
    pile = pile_for(config, random.Random("timing"))
    applied: list[Command] = []
    samples: list[tuple[GameState, list[Command]]] = []
    while not state.finished and len(samples) < positions:
        while pile and offer_missing(state):
            applied.append(LayOut(pile.pop(0)))
            state, _ = apply(state, applied[-1])
        if len(applied) % 53 == 10 and not state.awaiting_event:
            samples.append((state, list(applied)))
        applied.append(choose(state, state.current.colour, Level.EASY, seed=1))
        state, _ = apply(state, applied[-1])
        if isinstance(applied[-1], TakeContract) and applied[-1].card in pile:
            pile.remove(applied[-1].card)
    first = initial_state(config)
    nbody = nbody_us_per_step(100_000)
    t0 = time.process_time()
    for s, commands in samples:
        advise(s, budget_s=DEFAULT_BUDGET_S, seed=3, earlier=turn_so_far(first, commands))
    cpu = (time.process_time() - t0) / max(1, len(samples))
    nbody = (nbody + nbody_us_per_step(100_000)) / 2
    return cpu, nbody, cpu * PI4_NBODY_US / nbody


def in_game_time(spent: list[float], quick: bool) -> str:
    """The advice time over every follower advice of the games (CPU seconds): mean, p90 and the
    slowest, here and on a Pi 4 by the n-body factor. A game's process measures its own CPU, so a run
    with ``--jobs`` > 1 counts each advice once; a loaded machine still stretches it (CPU, not wall)."""
    from engine import nbody_us_per_step
    from latency import percentile

    nbody = nbody_us_per_step(20_000 if quick else 200_000)
    mean, p90, slowest = statistics.fmean(spent), percentile(spent, 0.9), max(spent)
    pi4 = PI4_NBODY_US / nbody
    return (
        f"advice time in the games: mean {mean:.2f} s CPU, p90 {p90:.2f} s, slowest {slowest:.2f} s over "
        f"{len(spent)} advices here (n-body {nbody:.2f} µs/step); about {mean * pi4:.2f} / {p90 * pi4:.2f} / "
        f"{slowest * pi4:.2f} s on a Pi 4 (n-body factor: {PI4_NBODY_US:.1f} µs/step there, docs/bots.md)"
    )


def greedy_positions(count: int, seed: int) -> list[GameState]:
    """Mid-game positions (rounds 5 to 80) from greedy games with the face-up offer laid out."""
    board, deck = load_reference()
    config = GameConfig(board, deck, COLOURS)
    out: list[GameState] = []
    game = 0
    while len(out) < count:
        state = initial_state(config)
        pile = pile_for(config, random.Random(f"regret:{seed}:{game}"))
        wanted = random.Random(f"regret:{seed}:{game}").randrange(5, 80)
        while not state.finished:
            while pile and offer_missing(state):
                state, _ = apply(state, LayOut(pile.pop(0)))
            if state.turn.round >= wanted and not state.awaiting_event:
                out.append(state)
                break
            command = choose(state, state.current.colour, Level.EASY, seed=seed + game)
            state, _ = apply(state, command)
            if isinstance(command, TakeContract) and command.card in pile:
                pile.remove(command.card)
        game += 1
    return out


def reference_noise(values: list[float], playouts: int, draws: int = 4000, seed: int = 0) -> float:
    """How often the regret's reference, by its own noise alone, puts the truly best candidate more than
    5 points below its best: ``values`` taken as the truth, each re-estimated from ``playouts`` playouts
    (normal approximation of a share). The floor under the regret a perfect advisor would be given;
    approximate: the reference's own noise spreads near-equal candidates apart, so it is a little low."""
    rng = random.Random(seed)
    top = max(range(len(values)), key=lambda i: values[i])
    sd = [math.sqrt(max(v * (1 - v), 1e-6) / playouts) for v in values]
    below = 0
    for _ in range(draws):
        noisy = [v + rng.gauss(0.0, s) for v, s in zip(values, sd, strict=True)]
        below += max(noisy) - noisy[top] > 0.05
    return below / draws


def complete_wins(kernel: Kernel, action: Action, streams: Iterable[random.Random]) -> float:
    """The wins of the player on turn over complete playouts after ``action``, one per stream: the
    regret's reference and the reference follower value a step alike (the advisor's own model)."""
    start = kernel.copy()
    start.step(action)
    return sum(rollout(start.copy(), kernel.seat, rng, FULL_HORIZON)[0] for rng in streams)


def share_won(kernel: Kernel, action: Action, playouts: int, streams: str) -> float:
    """The share of ``playouts`` complete playouts after ``action`` that the player on turn wins, on one
    random stream per action and per name ``streams`` (the reference's, or a fresh one), drawn on."""
    rng = random.Random(f"{streams}:{action}")
    return complete_wins(kernel, action, (rng for _ in range(playouts))) / playouts


def reference_pool(kernel: Kernel, rng: random.Random, weighed: Iterable[list[Action]]) -> set[Action]:
    """The steps the regret's reference values: ``search.candidates`` (drawn with ``rng``), every step
    in ``weighed`` (what the advice weighed) and every legal build, whether or not the advice's own
    candidate lists name it: which city a building goes to is the choice they missed most (docs/bots.md,
    "Twentieth session"), so the reference must not share their draw."""
    builds = (a for a in kernel.legal_actions() if a[0] in BUILD_KINDS)
    return {*candidates(kernel, rng), *(a for w in weighed for a in w), *builds}


def reference_pick(state: GameState, earlier: list[GameState], seed: int, playouts: int) -> Command:
    """What the regret's reference rates best: the candidates ``regret`` values (``reference_pool``,
    passing included), less the steps that go round in a circle this
    turn (issue 22's "no circles", a goal of its own), each valued by ``playouts`` complete playouts of
    the advisor's own model on common random numbers (the same streams for every candidate, so their
    differences are steadier than the reference's independent ones). A seat doing this has no regret
    against the reference beyond its noise; ``--pairings reference:medium`` plays it in whole games."""
    kernel = Kernel.from_state(state)
    pool = reference_pool(kernel, random.Random(seed), [considered(state, seed=seed, earlier=earlier)])
    actions = no_circles(kernel, state, earlier, sorted(pool))
    if len(actions) == 1:
        return kernel.to_command(actions[0])

    def value(action: Action) -> float:  # common random numbers: the same streams for every candidate
        return complete_wins(kernel, action, (random.Random(f"reference-pick:{seed}:{i}") for i in range(playouts)))

    return kernel.to_command(max(actions, key=value))


class Regret(NamedTuple):
    """The advisor's picks against the reference (``regret``): shares of picks, points of win rate."""

    below: float  # share of picks more than 5 points below the best candidate
    mean: float  # mean regret
    bias: float  # mean reported minus reference value of the pick
    picks: int
    floor: float  # the share a perfect advisor would get from the reference's noise alone
    passing: int  # picks below, where the best was passing, weighed only when the greedy plan passes
    unweighed: int  # ... where the best was not among the steps the advisor weighed
    ranked: int  # ... where the advisor weighed the best and ranked it lower
    fair_below: float  # share of picks more than 5 points below the best's fresh value (no winner's curse)
    fair_mean: float  # mean regret against the best's fresh value


def regret(positions: int, seeds: int, reference: int, seed: int, scale: float = 1.0) -> Regret:
    """The advisor's pick (at ``scale`` × its budget) against a reference of ``reference`` complete
    playouts per candidate (its own model), the candidates those of ``search.candidates``, every step
    the advisor weighed and every legal build; each pick more than 5 points below the best counted by
    its cause.

    The best of the reference's values is itself the best of noisy estimates (the winner's curse the
    advice corrects for its own pick): with some 35 warehouse cities within a few points of each other,
    it stands 2-3 points above its true value. So the best is also valued afresh, on ``reference`` new
    streams, and the regret against that value is reported beside (``fair_below``, ``fair_mean``); the
    pick's own reference value is unbiased already (the advice chose it by its own playouts)."""
    below = total = bias = floor = fair_below = fair_total = 0.0
    picks = 0
    causes: Counter[str] = Counter()
    for state in greedy_positions(positions, seed):
        kernel = Kernel.from_state(state)
        values: dict[Action, float] = {}

        def value(action: Action, kernel: Kernel = kernel, values: dict[Action, float] = values) -> float:
            if action not in values:
                values[action] = share_won(kernel, action, reference, "reference")
            return values[action]

        weighed = [considered(state, seed=s, budget_s=DEFAULT_BUDGET_S * scale) for s in range(seeds)]
        for action in reference_pool(kernel, random.Random(0), weighed):
            value(action)
        fresh: dict[Action, float] = {}
        for s in range(seeds):
            top = advise(state, budget_s=DEFAULT_BUDGET_S * scale, seed=s)[0]
            mine = value(kernel.from_command(top.command))
            best_action = max(values, key=lambda a: values[a])
            best = values[best_action]
            if best - mine > 0.05:
                below += 1
                if best_action[0] == PASS and best_action not in weighed[s]:
                    causes["passing"] += 1
                else:
                    causes["ranked" if best_action in weighed[s] else "unweighed"] += 1
            total += best - mine
            if best_action not in fresh:  # on streams none of the reference's values used
                fresh[best_action] = share_won(kernel, best_action, reference, "fresh")
            fair_below += fresh[best_action] - mine > 0.05
            fair_total += fresh[best_action] - mine
            bias += top.win_rate - mine
            picks += 1
        floor += seeds * reference_noise(list(values.values()), reference)
    return Regret(
        below / picks,
        total / picks,
        bias / picks,
        picks,
        floor / picks,
        causes["passing"],
        causes["unweighed"],
        causes["ranked"],
        fair_below / picks,
        fair_total / picks,
    )


def deciles(pairs: list[tuple[float, float]]) -> list[tuple[int, float, float, int]]:
    """(decile, mean predicted chance, share won, advices) for each decile of the predicted chance that has advices."""
    out = []
    for d in range(10):
        cell = [(p, o) for p, o in pairs if min(9, int(p * 10)) == d]
        if cell:
            out.append((d, statistics.fmean(p for p, _ in cell), statistics.fmean(o for _, o in cell), len(cell)))
    return out


def brier(pairs: list[tuple[float, float]]) -> float:
    """The mean squared difference between the predicted chance and the outcome (1 won, 0.5 tied, 0 lost)."""
    return statistics.fmean((p - o) ** 2 for p, o in pairs)


def calibration_line(name: str, pairs: list[tuple[float, float]], least: int = 50) -> str:
    """``name: predicted N %, won N %, brier N, largest decile gap N points (deciles of >= least advices)``."""
    gaps = [abs(p - o) for _, p, o, n in deciles(pairs) if n >= least]
    gap = f"{max(gaps) * 100:.1f} points" if gaps else "none"
    return (
        f"{name}: predicted {statistics.fmean(p for p, _ in pairs) * 100:.1f} %, "
        f"won {statistics.fmean(o for _, o in pairs) * 100:.1f} %, brier {brier(pairs):.3f}, "
        f"largest decile gap {gap} (deciles of >= {least} advices), {len(pairs)} advices"
    )


def _append_pairs(path: Path, r: Result, seed: int, scale: float) -> None:
    """One ``"kind": "game"`` line per game (every pairing, hard vs medium included: a run stopped early
    still gives each pairing's games, rounds and circles), then one ``"kind": "advice"`` line per
    follower advice: ``"chance"`` the playouts' win rate (the key of earlier files; what
    ``calibrate.py`` fits on), ``"told"`` the chance the advice told, its playouts, the game's result,
    and when it was asked: ``"round"`` and ``"time"`` (On The Way's time track; null in Auf Achse), what a
    table knows of the game's progress (docs/bots.md, "Sixteenth session": the maps miss by phase), and
    ``"time_end"``, where the track ends this game (OTW-31: shorter in a quick run's short game); ``"cpu"``,
    the CPU seconds the advice took (added in the nineteenth session; older files lack it)."""
    with path.open("a", encoding="utf-8") as out:
        game = {"kind": "game", "seed": seed, "scale": scale, "pairing": r.pairing, "game": r.game, "advice": None}
        game["players"] = r.players
        outcome = {"score": r.score, "rounds": r.rounds, "finished": r.finished, "capped": r.capped}
        checks = {"circles": r.circles, "inconsistent": r.consistent.count(False), "checked": len(r.consistent)}
        out.write(json.dumps({**game, **outcome, **checks}) + "\n")
        for k, a in enumerate(r.asked):
            row = {"kind": "advice", "seed": seed, "scale": scale, "pairing": r.pairing, "game": r.game, "advice": k}
            row["players"] = r.players
            end = {"score": r.score, "finished": r.finished, "capped": r.capped}
            # "chance": the playouts' win rate (as in earlier files); "told": the chance the table tells
            rates = {"chance": a.win_rate, "told": a.told, "playouts": a.playouts}
            when = {"round": a.round, "time": a.time, "time_end": r.time_end}
            out.write(json.dumps({**row, **rates, **when, **end, "cpu": a.cpu}) + "\n")


def _line(name: str, results: list[Result], players: int = 2) -> str:
    games = len(results)
    points = sum(r.score for r in results)
    low, high = wilson(points, games) if games else (0.0, 1.0)
    share = points / games if games else 0.0
    return f"{name}, {players} players: {share * 100:.1f} % [{low * 100:.1f}, {high * 100:.1f}] over {games} games"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="on-the-way", choices=("on-the-way", "auf-achse"))
    parser.add_argument("--games", type=int, default=50, help="games per pairing (default 50)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and the bots (default 1)")
    parser.add_argument("--scale", type=float, default=1.0, help="every budget × this (default 1: the real ones)")
    parser.add_argument(
        "--advice-scale",
        type=float,
        default=1.0,
        help="the follower's advice budget × this on top of --scale (its opponents' stay; default 1)",
    )
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--first-game",
        type=int,
        default=0,
        metavar="K",
        help="play games K .. K+N-1 of the seed (the same deals as a longer run's; default 0)",
    )
    parser.add_argument("--quick", action="store_true", help="a < 20 s smoke run: 1 short game per pairing")
    parser.add_argument("--regret", type=int, default=0, metavar="N", help="also the pick's regret over N positions")
    parser.add_argument(
        "--pairs",
        type=Path,
        metavar="FILE",
        help="append a line per game and per follower advice (its chance and the game's result), as JSON lines",
    )
    parser.add_argument("--reference", type=int, default=1000, help="playouts per candidate of the regret's reference")
    parser.add_argument(
        "--reference-playouts",
        type=int,
        default=200,
        help="a reference follower's complete playouts per candidate (--pairings reference:medium; default 200)",
    )
    parser.add_argument(
        "--players",
        type=int,
        default=2,
        choices=(2, 3, 4),
        help="seats per game (On The Way): the follower (or hard) against 1-3 of the opponent kind (default 2)",
    )
    parser.add_argument(
        "--pairings",
        default=",".join(f"{a}:{b}" for a, b in PAIRINGS),
        help="which pairings to play, comma-separated (default all: "
        + ",".join(f"{a}:{b}" for a, b in PAIRINGS)
        + "); only their lines are printed",
    )
    args = parser.parse_args(argv)
    names = [f"{a}:{b}" for a, b in ALL_PAIRINGS]
    chosen = [n.strip() for n in args.pairings.split(",") if n.strip()]
    unknown = [n for n in chosen if n not in names]
    if unknown or not chosen:
        parser.error(f"--pairings: {', '.join(unknown) or 'none given'}; choose from {', '.join(names)}")
    playing = [p for p, n in enumerate(names) if n in chosen]
    aa = args.game == "auf-achse"
    if aa and any(ALL_PAIRINGS[p][0] == "reference" for p in playing):
        parser.error("--pairings: the reference follower plays On The Way only")
    if aa and args.players != 2:
        parser.error("--players: the Auf Achse follower benchmark plays 2-player games")
    games, scale, end_at = (1, 0.02, 2) if args.quick else (args.games, args.scale, None)
    if aa and args.quick:
        end_at = 60  # no short game in Auf Achse: the first 60 commands (ranked there), few playouts
    # Interleaved (a game of each pairing in turn), so that a run stopped early still covers every pairing.
    # Auf Achse has nothing to build: the casual baseline is the easy level on the same seeds, so its
    # games would repeat easy's move for move. Its line reports easy's games, played once.
    easy, casual = names.index("follower:easy"), names.index("follower:casual")
    repeats = aa and easy in playing and casual in playing
    jobs = [
        Job(p, g, args.seed, scale, end_at, args.players, args.advice_scale, args.reference_playouts)
        for g in range(args.first_game, args.first_game + games)
        for p in playing
        if not (repeats and p == casual)
    ]
    t0 = time.perf_counter()
    results: list[Result] = []
    with multiprocessing.Pool(max(1, args.jobs)) as pool:
        for r in pool.imap_unordered(play_aa if aa else play, jobs):
            results.append(r)  # progress on stderr: the lines on stdout stay exactly the specified ones
            if args.pairs is not None:  # per game, so that a run stopped early keeps what it played
                _append_pairs(args.pairs, r, args.seed, scale)
            first, second = ALL_PAIRINGS[r.pairing]
            print(f"{len(results)}/{len(jobs)} {first} vs {second}: {r.score} in {r.rounds} rounds", file=sys.stderr)
    by_pairing = [
        [r for r in results if r.pairing == (easy if repeats and p == casual else p)] for p in range(len(ALL_PAIRINGS))
    ]
    for p, ((first, second), rs) in enumerate(zip(ALL_PAIRINGS, by_pairing, strict=True)):
        if p not in playing:
            continue
        print(_line(f"{FOLLOWERS.get(first, first)} vs {second}", rs, args.players))
    print(f"stalled games: {sum(not r.finished and not r.capped for r in results)}")
    print(f"circles: {sum(r.circles for r in results)}")
    checks = [c for r in results for c in r.consistent]
    bad = 100.0 * sum(not c for c in checks) / len(checks) if checks else 0.0
    print(f"inconsistent successive advices: {bad:.1f} %")
    noise = [x for r in results for x in r.by_noise]
    pairs = [(a.told, r.score) for r in results for a in r.asked]  # the chance the table tells
    print(f"brier score: {brier(pairs) if pairs else 0.0:.3f}")
    raw = [(a.win_rate, r.score) for r in results for a in r.asked]
    if raw:
        print(f"win rate brier score (the playouts' own, before the map): {brier(raw):.3f}")
    # More than the lines above (for the notes): calibration per decile, game lengths, the run.
    for d, mean_p, mean_o, n in deciles(pairs):
        print(
            f"calibration decile {d * 10}-{d * 10 + 10} %: predicted {mean_p * 100:.1f} %, "
            f"won {mean_o * 100:.1f} % over {n} advices"
        )
    # Per opponent: the playouts model every seat with the same greedy policy, so the win rate is the
    # chance against an opponent who plays as well as the follower (see advisor.py); the told chance maps
    # it to the opponent (calibration.py).
    for p, (_, second) in enumerate(ALL_PAIRINGS):
        mine = [(a.told, r.score) for r in results if r.pairing == p for a in r.asked]
        if mine:
            print(calibration_line(f"calibration vs {second}", mine))
            rate = [(a.win_rate, r.score) for r in results if r.pairing == p for a in r.asked]
            print(calibration_line(f"win rate calibration vs {second}", rate))
    rounds = sorted(r.rounds for r in results if r.finished)
    if rounds:
        print(
            f"game length: median {statistics.median(rounds)} rounds, max {rounds[-1]} ({len(rounds)} finished games)"
        )
    print(f"successive advices checked: {len(checks)}; advices: {len(pairs)}")
    if noise:  # what the same check gives an advisor whose successive values agree exactly (see _noise)
        expected = 100 * statistics.fmean(noise)
        print(f"inconsistent successive advices expected from the estimates' noise alone: {expected:.1f} %")
    spent = [a.cpu for r in results for a in r.asked]
    if spent:  # every advice of the games, as a table asks them (the line above: fixed positions, On The Way)
        print(in_game_time(spent, args.quick))
    if not aa:
        cpu, nbody, pi4 = advice_time(1 if args.quick else 8)
        print(
            f"advice time: {cpu:.2f} s CPU per advice here (n-body {nbody:.2f} µs/step), "
            f"about {pi4:.2f} s on a Pi 4 (n-body factor: {PI4_NBODY_US:.1f} µs/step there, docs/bots.md)"
        )
        print(f"playout kernel build: {KERNEL_BUILD}")
    if args.regret and not aa:
        reg = regret(args.regret, 4, args.reference, args.seed, scale)
        print(
            f"regret: {reg.below * 100:.1f} % of picks more than 5 points below the best candidate, mean "
            f"{reg.mean * 100:.1f} points; reported minus reference value of the pick {reg.bias * 100:+.1f} points "
            f"({reg.picks} picks: {args.regret} positions x 4 seeds, {args.reference} playouts per candidate)"
        )
        print(f"regret expected from the reference's noise alone (a perfect advisor, about): {reg.floor * 100:.1f} %")
        print(
            f"regret against a fresh value of the reference's best (its winner's curse removed): "
            f"{reg.fair_below * 100:.1f} % of picks more than 5 points below it, mean {reg.fair_mean * 100:.1f} points"
        )
        print(
            f"regret by cause (picks more than 5 points below): the best was passing, which the advice weighs "
            f"only when the greedy plan passes: {reg.passing}; the best was not among the steps it weighed: "
            f"{reg.unweighed}; it weighed the best and ranked it lower: {reg.ranked}"
        )
    print(
        f"run: {games} games per pairing, seed {args.seed}, budgets × {scale}, "
        + (f"the follower's advice × {args.advice_scale} more, " if args.advice_scale != 1 else "")
        + f"{time.perf_counter() - t0:.0f} s wall, {args.jobs} job(s)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
