"""The maps from the advisor's win rate to the chance it tells, per player count and opponent kind
(``companion/games/calibration.py``). Where no map was fitted the advice has no ``chance`` and the
table tells the win rate: its own model (every seat plays the greedy policy) is a chance of winning
against opponents as strong as the advice."""

from __future__ import annotations

from companion.games.calibration import PERSON, Logistic, Maps, with_stand_ins

# benchmarks/calibrate.py pairs_14101.jsonl pairs_14201.jsonl val_15101.jsonl val_15201.jsonl
# pairs_16201.jsonl pairs_16301.jsonl route_17001.jsonl route_17201.jsonl route_casual_17001.jsonl: the
# --pairs files of `benchmarks/advice.py --seed S` (follower pairings, real budgets) for seeds 14101 and
# 14201 (seventh session), 15101 and 15201 (the seventh session's check on fresh seeds), 16201 (44
# games, three pairings), 16301 (30 games against medium), 17001 (easy, casual) and 17201 (medium; the
# tenth session's check on fresh seeds): 352 two-player games, each a different deal. Checked on seed
# 17401 (120 games no fit saw): docs/bots.md, "Eleventh session".
FITTED: Maps = {
    (2, "casual"): Logistic(3.029, 1.252),  # 102 games, 18 379 advices
    (2, "easy"): Logistic(2.082, 1.01),  # 105 games, 18 938 advices
    (2, "medium"): Logistic(0.064, 1.048),  # 145 games, 27 352 advices
}

# A person as medium (calibration.py says why). Hard decides as the advisor does (players.choose): the
# win rate's own model, the identity; an assumption, not a fit (no follower games against hard).
MAPS = with_stand_ins(FITTED, {PERSON: "medium"}, identity=("hard",))
