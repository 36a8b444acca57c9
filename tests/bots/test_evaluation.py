"""The advisor's fitted static evaluation (``bots/evaluation.py``): a win chance, for positions of real
greedy kernel games in 2, 3 and 4 players."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.on_the_way.bots.evaluation import WEIGHTS, Weights, features, fitted
from companion.games.on_the_way.bots.kernel import Kernel
from companion.games.on_the_way.bots.policy import policy_action
from companion.games.on_the_way.engine.state import initial_state
from tests.bots.helpers import config_for


def greedy_position(players: int, seed: int, actions: int) -> Kernel:
    rng = random.Random(seed)
    k = Kernel.from_state(initial_state(config_for(players)))
    for _ in range(actions):
        if k.finished:
            break
        if k.awaiting:
            k.step(rng.choice(k.legal_reveals()))
        else:
            k.step(policy_action(k, rng))
    return k


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 4), st.integers(0, 10**6), st.integers(0, 600))
def test_the_fitted_evaluation_is_a_chance_that_rises_with_a_seats_margin(
    players: int, seed: int, actions: int
) -> None:
    k = greedy_position(players, seed, actions)
    chances = [fitted(k, s) for s in range(players)]
    assert all(0.0 < p < 1.0 for p in chances)
    if players == 2:  # one seat's margin is the other's loss
        assert abs(sum(chances) - 1.0) < 1e-9
    leader = max(range(players), key=lambda s: chances[s])
    assert chances[leader] >= 0.5 - 1e-9  # the leader's margin over its best rival is not negative
    # More VP, more money or no money lost: never a lower chance; VP a little more so late in the game.
    richer = k.copy()
    richer.vp[0] += 1
    assert fitted(richer, 0) > fitted(k, 0) or fitted(k, 0) > 1 - 1e-9
    assert features(richer, 0)[0] == features(k, 0)[0] + 1


def test_a_point_of_margin_weighs_more_late_in_the_game() -> None:
    """The fit's point: much can change early, little late (each late weight is positive)."""
    assert all(w > 0 for w in WEIGHTS.late) and all(w > 0 for w in WEIGHTS.early)
    k = greedy_position(2, 3, 40)
    k.vp[0] = k.vp[1] + 2
    early = fitted(k, 0)
    k.time = k.t.time_end - 1
    assert fitted(k, 0) > early > 0.5
    flat = Weights(early=(0.0, 0.0, 0.0), late=(0.0, 0.0, 0.0))
    assert fitted(k, 0, flat) == 0.5
