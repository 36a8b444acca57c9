"""Whatever the table sends, in any order, the wizard neither crashes nor loses its codec."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.digitise.model import CityMoved, FieldTapped, NameTyped, SpaceTapped, WizardState
from companion.games.digitise.profile import profile
from companion.intents import ButtonName, ButtonPressed, CardScanned, CityTapped, DeviceFault, TagLifted, TagPlaced
from companion.setup_box.machine import WizardIntent, review, start, step
from companion.setup_box.view import leds, prompt

CITIES = ("Hamburg", "Flensburg", "Bremen", "Hanover")
readers = st.sampled_from([*(f"channel {n}" for n in range(5)), *CITIES])
intents: st.SearchStrategy[WizardIntent] = st.one_of(
    st.builds(TagPlaced, readers, st.just("04AA0000000001")),
    st.builds(TagLifted, readers, st.just("04AA0000000001")),
    st.builds(CardScanned, st.sampled_from(["04C1", "04C2", "04C3"])),
    st.builds(ButtonPressed, st.sampled_from(list(ButtonName)), st.booleans()),
    st.builds(CityTapped, st.sampled_from([*CITIES, "Atlantis"])),
    st.builds(NameTyped, st.sampled_from(["Kiel", "", "Hamburg", "Fine ticket"])),
    st.builds(CityMoved, st.sampled_from(CITIES), st.floats(-1, 2), st.floats(-1, 2)),
    st.builds(SpaceTapped, st.integers(-1, 6)),
    st.builds(FieldTapped, st.sampled_from(["goods", "payout", "cost3", "effect", "amount", "nope"])),
    st.builds(DeviceFault, st.just("reader 3"), st.just("no answer"), st.booleans()),
)


@settings(max_examples=60, deadline=None)
@given(game=st.sampled_from(["on-the-way", "auf-achse"]), sequence=st.lists(intents, max_size=80))
def test_any_sequence_of_intents_is_safe(game: str, sequence: list[WizardIntent]) -> None:
    state = start(game, "fuzz", CITIES)
    prof = profile(game)
    for intent in sequence:
        state = step(state, intent)
        assert WizardState.from_json(json.loads(json.dumps(state.to_json()))) == state
        prompt(state)
        leds(state)
        assert len({c for c in state.cities}) == len(state.cities)
        assert len({frozenset((r.a, r.b)) for r in state.roads}) == len(state.roads)
        assert len({c.uid for c in state.cards}) == len(state.cards)
        assert len({c.id for c in state.cards}) == len(state.cards)
    review(state, prof)
    assert state.seq == len(sequence)


def _traced(game: str) -> WizardState:
    ok, next_step = ButtonPressed(ButtonName.OK), ButtonPressed(ButtonName.OK, True)
    prefix: list[WizardIntent] = [ok, ok, ok, ok, next_step]
    prefix += [CityTapped(c) for c in ("Flensburg", "Hamburg", "Bremen", "Hanover", "Hamburg")] + [next_step]
    state = start(game, "fuzz", CITIES)
    for intent in prefix:
        state = step(state, intent)
    return state


@settings(max_examples=150, deadline=None)
@given(game=st.sampled_from(["on-the-way", "auf-achse"]), sequence=st.lists(intents, min_size=30, max_size=120))
def test_any_sequence_after_the_board_is_safe(game: str, sequence: list[WizardIntent]) -> None:
    state = _traced(game)
    assert len(state.roads) == 4
    for intent in sequence:
        state = step(state, intent)
        assert WizardState.from_json(json.loads(json.dumps(state.to_json()))) == state
        prompt(state)
        leds(state)
        assert len({c.uid for c in state.cards}) == len(state.cards)
        assert len({c.id for c in state.cards}) == len(state.cards)
    review(state, profile(game))
