"""The maps from the advisor's lead share to a chance of winning the whole game, per player count and
opponent kind (``companion/games/calibration.py``). Where none was fitted the advice has no chance of
winning to tell (``Advice.chance`` is None) and the table tells the lead share as what it is."""

from __future__ import annotations

from companion.games.calibration import PERSON, Logistic, Maps

# Fitted by benchmarks/calibrate.py --game auf-achse on whole games of benchmarks/advice.py --game
# auf-achse at the real budget; the runs and the check on games the fit did not see:
# docs/bots-auf-achse.md, "Calibration against the opponents".
FITTED: Maps = {}

MAPS: Maps = {
    **FITTED,
    # A person: as medium (calibration.py says why).
    **{(n, PERSON): m for (n, kind), m in FITTED.items() if kind == "medium"},
}

__all__ = ["FITTED", "MAPS", "Logistic"]
