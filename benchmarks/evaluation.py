"""How well does the bots' static evaluation predict the game? Against a model fitted to complete games.

    python benchmarks/evaluation.py [--samples N] [--seed S] [--horizon H] [--quick]

Each sample is a greedy 2-player kernel game (the playouts' own policy, ``policy.policy_action``,
from the set-up): played a random number of actions (10-450) to a seat's turn, then ``--horizon``
more (where a ranking playout stops, ``advisor.RANK_HORIZON``), where the features of every seat are
read (``features``: VP, money as VP, loaded contracts as VP, as ``search.evaluate`` counts them) and
the phase (time track / its end); then played to its end, whose result (1 won, 1/k shared, 0 lost)
is what an evaluation should predict for the seat. A logistic regression by Newton's method fits

    logit(win) = sum over the features f of (early_f + late_f * phase) * (mine_f - rival's_f)

on the first two thirds of the samples; on the last third it prints the log loss and the Brier score
of the bots' hand-set ``search.evaluate`` (the VP margin through a logistic of scale 3, loaded
contracts at half) and of the fit, and the fit's weights. Samples whose game ended before the
horizon are skipped (a playout that reaches the end is scored by its result, not by the evaluation).
``--quick``: 300 samples.

The fit predicts better (docs/bots.md, "Eighth to tenth sessions"), and the advisor ranked closer to complete
playouts with it, but a follower using it won fewer whole games against medium: it is not shipped.
The benchmark stays as the instrument for the next evaluation.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent))

from calibrate import _solve

from companion.games.on_the_way.bots.kernel import Kernel
from companion.games.on_the_way.bots.policy import policy_action
from companion.games.on_the_way.bots.search import evaluate, loaded_contracts, money_per_vp
from companion.games.on_the_way.data import load_reference
from companion.games.on_the_way.engine import GameConfig
from companion.games.on_the_way.engine.state import initial_state

FEATURES = 3


class Weights(NamedTuple):
    """Logit per VP of margin, per feature (VP, money, loaded contracts): ``early`` at the start of the
    time track, plus ``late`` times its share run (0 at the start, 1 at the end)."""

    early: tuple[float, float, float]
    late: tuple[float, float, float]


def features(k: Kernel, seat: int) -> tuple[float, float, float]:
    """``seat``'s VP, money as VP (1 500 R per VP while anything can be built, OTW-23..25, else 3 000 R at
    the end, OTW-33) and its loaded contracts' pay and VP (as VP)."""
    t = k.t
    rate = money_per_vp(k)
    loaded = sum(t.c_pay[c] / rate + t.c_vp[c] for c in loaded_contracts(k, seat))
    return (float(k.vp[seat]), k.money[seat] / rate, loaded)


RIDGE = 1e-3  # keeps Newton's matrix invertible when a feature is nearly constant in a small sample


class Sample(NamedTuple):
    margin: tuple[float, ...]  # the seat's features minus its rival's
    phase: float
    hand_set: float  # search.evaluate's value
    result: float  # 1 won, 1/k shared by k, 0 lost


def sample(start: Kernel, seed: int, horizon: int) -> Sample | None:
    """One greedy game from ``start``, read ``horizon`` actions after a random turn (None: it ended first)."""
    rng = random.Random(seed)
    k = start.copy()
    for _ in range(rng.randrange(10, 450)):
        if k.finished:
            return None
        k.step(policy_action(k, rng))
    if k.finished or k.awaiting:
        return None
    seat = k.seat
    for _ in range(horizon):
        if k.finished:
            return None
        k.step(policy_action(k, rng))
    if k.finished:
        return None
    mine, rival = features(k, seat), features(k, 1 - seat)
    margin = tuple(a - b for a, b in zip(mine, rival, strict=True))
    phase = min(1.0, k.time / k.t.time_end)
    hand_set = evaluate(k, seat)
    while not k.finished:
        k.step(policy_action(k, rng))
    winners = k.winners()
    return Sample(margin, phase, hand_set, 1.0 / len(winners) if seat in winners else 0.0)


def design(s: Sample) -> list[float]:
    return [*s.margin, *(m * s.phase for m in s.margin)]


def fit(samples: list[Sample]) -> Weights:
    """Maximum likelihood (with a tiny ridge) of the logistic model, by Newton's method."""
    rows = [(design(s), s.result) for s in samples]
    n = 2 * FEATURES
    w = [0.0] * n
    for _ in range(50):
        grad = [RIDGE * x for x in w]
        hess = [[RIDGE if i == j else 0.0 for j in range(n)] for i in range(n)]
        for x, y in rows:
            q = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, sum(a * b for a, b in zip(w, x, strict=True))))))
            for i in range(n):
                grad[i] += (q - y) * x[i]
                for j in range(n):
                    hess[i][j] += q * (1.0 - q) * x[i] * x[j]
        step = _solve(hess, grad)
        w = [a - b for a, b in zip(w, step, strict=True)]
        if max(abs(d) for d in step) < 1e-9:
            break
    rounded = [round(x, 3) for x in w]
    return Weights(early=tuple(rounded[:FEATURES]), late=tuple(rounded[FEATURES:]))  # type: ignore[arg-type]


def predict(weights: Weights) -> Callable[[Sample], float]:
    def chance(s: Sample) -> float:
        z = sum((e + late * s.phase) * m for e, late, m in zip(weights.early, weights.late, s.margin, strict=True))
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    return chance


def scores(samples: list[Sample], chance: Callable[[Sample], float]) -> tuple[float, float]:
    """(log loss, Brier score) of ``chance`` on ``samples``."""
    loss = brier = 0.0
    for s in samples:
        p = min(1 - 1e-9, max(1e-9, chance(s)))
        loss -= s.result * math.log(p) + (1 - s.result) * math.log(1 - p)
        brier += (p - s.result) ** 2
    return loss / len(samples), brier / len(samples)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", type=int, default=30_000, help="greedy games to sample (default 30000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--horizon", type=int, default=40, help="actions after the seat's turn (default 40)")
    parser.add_argument("--quick", action="store_true", help="a smoke run: 300 samples")
    args = parser.parse_args(argv)
    count = 300 if args.quick else args.samples
    if count < 3 or args.horizon < 0:
        parser.error("--samples must be at least 3 and --horizon not negative")
    board, deck = load_reference()
    start = Kernel.from_state(initial_state(GameConfig(board, deck, ("red", "blue"))))
    found = [sample(start, args.seed * 1_000_003 + g, args.horizon) for g in range(count)]
    samples = [s for s in found if s is not None]
    cut = 2 * len(samples) // 3
    train, check = samples[:cut], samples[cut:]
    if not train or not check:
        print(f"only {len(samples)} of {count} games lasted past the horizon: too few to fit and check")
        return 1
    new = fit(train)
    print(f"samples: {len(samples)} of {count} games ({len(train)} fit, {len(check)} check), horizon {args.horizon}")
    for name, chance in (
        ("search.evaluate (hand-set)", lambda s: s.hand_set),
        ("this fit", predict(new)),
    ):
        loss, brier = scores(check, chance)
        print(f"{name}: log loss {loss:.4f}, brier {brier:.4f} on the check samples")
    print(f"the fit's weights: {new}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
