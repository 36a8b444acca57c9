"""OTW-2, OTW-3, OTW-6, OTW-8, OTW-13, OTW-34 on the reference data, and whole games on it."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from companion.games.on_the_way.data import load_reference
from companion.games.on_the_way.engine import Fulfil, GameConfig, RevealEvent, apply
from companion.games.on_the_way.engine.cards import Tier
from companion.games.on_the_way.engine.notation import position
from companion.games.on_the_way.engine.playout import play_out
from companion.games.on_the_way.engine.scoring import ranking, score
from companion.games.on_the_way.engine.state import initial_state

BOARD, DECK = load_reference()


def test_otw2_the_reference_deck_has_the_boxed_card_counts() -> None:
    assert Counter(c.tier for c in DECK.contracts) == {Tier.BASIC: 20, Tier.EXTENDED: 31, Tier.PROFESSIONAL: 33}
    assert len(DECK.events) == 22


def test_otw13_tiers_match_shortest_paths_on_the_reference_board() -> None:
    allowed = {Tier.BASIC: {2}, Tier.EXTENDED: {3}, Tier.PROFESSIONAL: {4, 5}}
    for card in DECK.contracts:
        assert BOARD.distance(card.origin, card.destination) == card.distance, card
        assert card.distance in allowed[card.tier], card


def test_otw34_moenchengladbach_lviv_is_distance_5_and_pays_3000() -> None:
    card = next(c for c in DECK.contracts if (c.origin, c.destination) == ("Mönchengladbach", "Lviv"))
    assert (card.distance, card.pay) == (5, 3000)


def test_otw8_reference_setup_lists() -> None:
    assert BOARD.setup[2] == ("Bremen", "Poznań", "Vilnius", "Lviv", "Bratislava", "Mönchengladbach")
    assert BOARD.setup[3] == (*BOARD.setup[2], "Prague", "Riga")
    assert BOARD.setup[4] == (*BOARD.setup[3], "Oss", "Bucharest")


def test_otw6_events_are_shuffled_so_any_unrevealed_card_may_come() -> None:
    config = GameConfig(BOARD, DECK, ("red", "blue"))
    card = DECK.contract("B01")
    assert card is not None
    text = f"cities {card.destination}=W0\nred B01 1:{card.destination}:{card.trucks}:B01\ntime 0 strip=X01,X02"
    due, _ = apply(position(config, text), Fulfil("red", "B01"))
    for event in DECK.events:
        after, _ = apply(due, RevealEvent(event.id))
        assert after.event == event.id


def test_otw3_the_winner_has_the_most_vp_including_money() -> None:
    config = GameConfig(BOARD, DECK, ("red", "blue"))
    state = position(config, "red 2999R 4VP\nblue 6000R 3VP")
    assert [score(p) for p in state.players] == [4, 5]
    assert ranking(state)[0].colour == "blue"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_whole_reference_games_end_by_the_time_track(players: int) -> None:
    config = GameConfig(BOARD, DECK, ("red", "blue", "green", "yellow")[:players])
    result = play_out(initial_state(config), random.Random(players))
    state = result.state
    assert state.finished
    assert state.time == config.time_end  # OTW-31
    assert sum(1 for _ in result.commands if isinstance(_, RevealEvent)) == config.time_end
    assert state.ledger.balance("red") == state.players[0].money
