"""Majority-vote presence: K of N to place, M misses in a row to lift (pure, no clock)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.hardware.debounce import UNKNOWN, Change, DebounceSettings, Sample, TagVote

A, B = "04AAAAAAAAAAAA", "04BBBBBBBBBBBB"


def run(samples: Sequence[Sample], settings: DebounceSettings | None = None) -> list[Change]:
    vote = TagVote(settings or DebounceSettings())
    return [c for c in (vote.add(s) for s in samples) if c != Change()]


def test_placed_after_k_of_n() -> None:
    assert run([A, A, A]) == []
    assert run([A, A, A, A]) == [Change(placed=A)]
    assert run([A, None, A, A, A]) == [Change(placed=A)]


def test_lifted_after_m_misses_in_a_row() -> None:
    assert run([A] * 4 + [None, None]) == [Change(placed=A)]
    assert run([A] * 4 + [None] * 3) == [Change(placed=A), Change(lifted=A)]


def test_flapping_tag_produces_nothing() -> None:
    assert run([A, None] * 10) == []
    assert run([A] * 4 + [None, None, A] * 5)[1:] == []


def test_read_errors_do_not_vote() -> None:
    assert run([A, UNKNOWN, A, UNKNOWN, A, UNKNOWN, A]) == [Change(placed=A)]
    assert run([A] * 4 + [UNKNOWN] * 10) == [Change(placed=A)]


def test_swap_lifts_then_places() -> None:
    assert run([A] * 4 + [B] * 4) == [Change(placed=A), Change(lifted=A), Change(placed=B)]
    assert run([A] * 4 + [B] * 4, DebounceSettings(3, 5, 3)) == [Change(placed=A), Change(lifted=A, placed=B)]


def test_settings_are_checked() -> None:
    with pytest.raises(ValueError, match="place_votes"):
        DebounceSettings(place_votes=6, window=5)


@given(st.lists(st.sampled_from([A, B, None, UNKNOWN]), max_size=60))
def test_events_alternate_and_match(samples: list[Sample]) -> None:
    vote = TagVote()
    current = None
    for sample in samples:
        change = vote.add(sample)
        if change.lifted is not None:
            assert change.lifted == current
            current = None
        if change.placed is not None:
            assert current is None
            current = change.placed
        assert vote.current == current
