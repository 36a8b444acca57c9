"""The maps from the advisor's win rate to the chance it tells, per player count and opponent kind
(``companion/games/calibration.py``). Where no map was fitted the chance told is the win rate: its own
model (every seat plays the greedy policy) is a chance of winning, right against an opponent as strong
as the follower; hard decides as the advisor does, so it has no map."""

from __future__ import annotations

from companion.games.calibration import Logistic, Maps

# Fitted by benchmarks/calibrate.py on whole games of benchmarks/advice.py at the real budgets; the runs
# and the check on games the fit did not see: docs/bots.md, "Calibration against the opponents".
MAPS: Maps = {}

__all__ = ["MAPS", "Logistic"]
