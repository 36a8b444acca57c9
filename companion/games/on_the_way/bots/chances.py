"""The maps from the advisor's win rate to the chance it tells, per player count and opponent kind
(``companion/games/calibration.py``). Where no map was fitted the advice has no ``chance`` and the
table tells the win rate: its own model (every seat plays the greedy policy) is a chance of winning
against opponents as strong as the advice."""

from __future__ import annotations

from companion.games.calibration import PERSON, Logistic, Maps, with_stand_ins

# benchmarks/calibrate.py pairs_14101.jsonl pairs_14201.jsonl: the --pairs files of `benchmarks/advice.py
# --games 60 --seed 14101` and `--seed 14201` (follower pairings only, real budgets, stopped after 112
# two-player games: 36-38 per opponent). The check on games the fit did not see: docs/bots.md,
# "Seventh session".
FITTED: Maps = {
    (2, "casual"): Logistic(2.803, 1.236),  # 36 games, 6 422 advices
    (2, "easy"): Logistic(1.987, 0.593),  # 38 games, 6 761 advices
    (2, "medium"): Logistic(0.721, 1.094),  # 38 games, 6 945 advices
}

# A person as medium (calibration.py says why). Hard decides as the advisor does (players.choose): the
# win rate's own model, the identity; an assumption, not a fit (no follower games against hard).
MAPS = with_stand_ins(FITTED, {PERSON: "medium"}, identity=("hard",))
