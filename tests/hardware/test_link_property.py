"""Property: a hostile wire can delay the board on the host, never invent or lose a move (issue #10, §4)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.hardware.link_sim import FaultRates, ForgetfulBridge, simulate

rate = st.floats(0.0, 0.12)
SNAPSHOT_S = 2.0
STEP_S = 0.05


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    rates=st.builds(FaultRates, drop=rate, duplicate=rate, reorder=rate, flip=rate, cut=rate, garbage=rate),
)
def test_host_view_equals_the_table_within_one_snapshot_period_and_no_phantoms(seed: int, rates: FaultRates) -> None:
    result = simulate(seed, rates, snapshot_ms=int(SNAPSHOT_S * 1000), step_s=STEP_S)
    assert result.phantoms == []
    assert result.host_view == result.true_view
    assert result.converged_after_s is not None and result.converged_after_s <= SNAPSHOT_S + STEP_S
    assert result.cards_host == result.cards_true  # none invented, none lost, none twice


def test_the_checker_catches_a_host_that_applies_stale_lines() -> None:
    """The property can fail: without generations, duplicated and reordered lines move the board back."""
    broken = [simulate(seed, FaultRates(duplicate=0.1, reorder=0.1), host_class=ForgetfulBridge) for seed in range(10)]
    assert any(result.phantoms for result in broken)
    assert all(simulate(seed, FaultRates(duplicate=0.1, reorder=0.1)).phantoms == [] for seed in range(10))
