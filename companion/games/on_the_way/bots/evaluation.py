"""The advisor's static evaluation: a win chance for an unfinished game, fitted to complete games.

The ranking playouts stop after ``advisor.RANK_HORIZON`` kernel actions and score the position here.
``search.evaluate`` (the bots') is a hand-set guess: the VP margin over the best rival through a
logistic of scale 3, whatever the phase of the game. This one is a logistic model of the outcome of
the greedy game played on to its end (``benchmarks/evaluation.py`` fits it and checks it on games the
fit did not see):

    logit(win) = sum over the features f of (early_f + late_f * phase) * (mine_f - best rival's_f)

with phase = time track / its end (OTW-31), and the features each in VP: the VP, the money as the
VP it can still buy, the held contracts already loaded at their pay and VP. A point of margin is
worth less early (much can still change) than late.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from companion.games.on_the_way.bots.kernel import Kernel


class Weights(NamedTuple):
    """Logit per VP of margin, per feature (VP, money, loaded contracts): ``early`` at the start of the
    time track, plus ``late`` times its share run (0 at the start, 1 at the end)."""

    early: tuple[float, float, float]
    late: tuple[float, float, float]


# benchmarks/evaluation.py --samples 30000 --seed 1 (2 players; 2/3 of the samples fit, 1/3 check):
# docs/bots.md, "Eighth session".
WEIGHTS = Weights(early=(0.171, 0.16, 0.105), late=(0.852, 0.865, 0.518))


def features(k: Kernel, seat: int) -> tuple[float, float, float]:
    """``seat``'s VP, money as VP (1 500 R per VP while anything can be built, OTW-23..25, else 3 000 R at
    the end, OTW-33) and its loaded contracts' pay and VP (as VP)."""
    t = k.t
    builds_left = k.sup_trucks > 0 and (k.sup_wh > 0 or k.sup_lc > 0)
    rate = 1500 if builds_left else 3000
    loaded = 0.0
    for c in k.contracts[seat]:
        if any(tp is not None and tp[2] >> c & 1 for tp in k.tr[seat]):
            loaded += t.c_pay[c] / rate + t.c_vp[c]
    return (float(k.vp[seat]), k.money[seat] / rate, loaded)


def fitted(k: Kernel, seat: int, weights: Weights = WEIGHTS) -> float:
    """The win chance of ``seat`` in ``k`` by the fitted model (the margin over the best rival: with
    three or four players, the rival whose weighted features are highest)."""
    phase = min(1.0, k.time / k.t.time_end)
    coef = [early + late * phase for early, late in zip(weights.early, weights.late, strict=True)]
    values = [sum(c * f for c, f in zip(coef, features(k, s), strict=True)) for s in range(k.t.players)]
    z = values[seat] - max(v for s, v in enumerate(values) if s != seat)
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
