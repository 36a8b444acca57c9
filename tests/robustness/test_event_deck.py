"""OTW-28: the event deck never runs out, so no deck size deadlocks the game.

The previous card goes under the deck (OTW-28). Until every card has been revealed once, a card
seen before is a mis-scan and refused; after that the cards come round again in any order the owner
draws them (OTW-6 shuffled them; the companion does not insist on an order), any but the active one
— and a one-card deck's only card comes straight back. The whole game plays to its end.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from companion.engine.errors import IllegalAction
from companion.games.on_the_way.data import load_reference
from companion.games.on_the_way.engine import GameConfig, RevealEvent, apply, new_game
from companion.games.on_the_way.engine.cards import Deck
from companion.games.on_the_way.engine.playout import choose_command
from companion.games.on_the_way.engine.state import GameState

BOARD, DECK = load_reference()


def play_to_the_end(events: int, seed: int, end_at: int = 4) -> tuple[GameState, list[str]]:
    """A seeded playout with a deck of ``events`` event cards; reveals the card due, in deck order."""
    deck = Deck(DECK.contracts, DECK.events[:events])
    state = new_game(GameConfig(BOARD, deck, ("red", "blue"), end_at=end_at)).state
    rng = random.Random(seed)
    revealed: list[str] = []
    order = [e.id for e in deck.events]
    for _ in range(3000):
        if state.finished:
            break
        if state.awaiting_event:
            card = order[len(revealed) % len(order)]  # the deck cycles: what went under comes back
            revealed.append(card)
            command: object = RevealEvent(card)
        else:
            command = choose_command(state, rng)
        state, _ = apply(state, command)  # type: ignore[arg-type]
    return state, revealed


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events=st.integers(1, 3), seed=st.integers(0, 10**6))
def test_a_small_event_deck_plays_to_the_end(events: int, seed: int) -> None:
    full, _ = play_to_the_end(len(DECK.events), seed)
    assume(full.finished)  # the heuristic playout sometimes passes for ever, whatever the deck
    state, revealed = play_to_the_end(events, seed)
    assert state.finished, "the game must end, not wait for an event card forever"
    assert len(revealed) >= state.config.time_end > events  # the deck came round


def test_a_one_card_deck_reveals_its_card_again() -> None:
    deck = Deck(DECK.contracts, DECK.events[:1])
    state = new_game(GameConfig(BOARD, deck, ("red", "blue"))).state
    only = deck.events[0].id
    state = state.evolve(awaiting_event=True)
    state, _ = apply(state, RevealEvent(only))
    state = state.evolve(awaiting_event=True)
    state, _ = apply(state, RevealEvent(only))  # the second event: the same card, no deadlock
    assert state.event == only and state.time == 2 and state.revealed == (only, only)


def test_with_more_cards_the_active_one_and_cards_of_the_first_round_are_refused() -> None:
    deck = Deck(DECK.contracts, DECK.events[:3])
    a, b, c = (e.id for e in deck.events)
    state = new_game(GameConfig(BOARD, deck, ("red", "blue"))).state
    for card in (a, b):
        state, _ = apply(state.evolve(awaiting_event=True), RevealEvent(card))
    with pytest.raises(IllegalAction, match="already been revealed") as info:
        apply(state.evolve(awaiting_event=True), RevealEvent(a))  # first round: a is under the deck
    assert info.value.rule == "OTW-28"
    state, _ = apply(state.evolve(awaiting_event=True), RevealEvent(c))
    with pytest.raises(IllegalAction, match="already been revealed"):
        apply(state.evolve(awaiting_event=True), RevealEvent(c))  # the active card cannot come again
    state, _ = apply(state.evolve(awaiting_event=True), RevealEvent(a))  # round two
    assert state.event == a and state.time == 4
