"""The maps from the advisor's win rate to the chance it tells, per player count and opponent kind
(``companion/games/calibration.py``). Where no map was fitted the advice has no ``chance`` and the
table tells the win rate: its own model (every seat plays the greedy policy) is a chance of winning
against opponents as strong as the advice."""

from __future__ import annotations

from companion.games.calibration import PERSON, Logistic, Maps

# Fitted by benchmarks/calibrate.py on whole games of benchmarks/advice.py at the real budgets; the runs
# and the check on games the fit did not see: docs/bots.md, "Seventh session".
FITTED: Maps = {}

MAPS: Maps = {
    **FITTED,
    # A person: as medium (calibration.py says why).
    **{(n, PERSON): m for (n, kind), m in FITTED.items() if kind == "medium"},
    # Hard decides as the advisor does (players.choose): the win rate's own model, the identity.
    **{(n, "hard"): Logistic(0.0, 1.0) for n in (2, 3, 4)},
}
