"""The maps from the advisor's lead share to a chance of winning the whole game, per player count and
opponent kind (``companion/games/calibration.py``). Where none was fitted the advice has no chance of
winning to tell (``Advice.chance`` is None) and the table tells the lead share as what it is."""

from __future__ import annotations

from companion.games.calibration import PERSON, Logistic, Maps, with_stand_ins

# benchmarks/calibrate.py --game auf-achse pairs_aa_14501.jsonl pairs_aa_14601.jsonl: the --pairs files
# of `benchmarks/advice.py --game auf-achse --seed 14501` and `--seed 14601` (follower vs easy and vs
# medium, the real budget, 114 games). The check on games the fit did not see: docs/bots-auf-achse.md,
# "Calibration against the opponents".
FITTED: Maps = {
    (2, "easy"): Logistic(0.952, 0.69),  # 58 games, 11 871 advices
    (2, "medium"): Logistic(0.104, 0.569),  # 56 games, 11 129 advices
}

# A person as medium (calibration.py says why); the casual baseline is the easy level in Auf Achse
# (nothing to build: benchmarks/advice.py).
MAPS = with_stand_ins(FITTED, {PERSON: "medium", "casual": "easy"})

__all__ = ["FITTED", "MAPS", "Logistic"]
