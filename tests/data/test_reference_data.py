"""The shipped reference data: loads, checks clean and agrees with the rulebook's facts."""

from __future__ import annotations

import unicodedata
from collections import Counter

import pytest

from companion.games.on_the_way.data import (
    REFERENCE_BOARD,
    REFERENCE_CONTRACTS,
    REFERENCE_EVENTS,
    REFERENCE_FILES,
    check_files,
    load_board,
    load_reference,
)
from companion.games.on_the_way.engine.board import Board
from companion.games.on_the_way.engine.cards import ContractCard, Deck, EventKind, Tier


@pytest.fixture(scope="module")
def reference() -> tuple[Board, Deck]:
    return load_reference()


@pytest.fixture(scope="module")
def board(reference: tuple[Board, Deck]) -> Board:
    return reference[0]


@pytest.fixture(scope="module")
def deck(reference: tuple[Board, Deck]) -> Deck:
    return reference[1]


def test_reference_files_check_clean() -> None:
    assert check_files(list(REFERENCE_FILES)) == []


def test_reference_files_are_marked_as_reference_data() -> None:
    for path in (REFERENCE_BOARD, REFERENCE_CONTRACTS, REFERENCE_EVENTS):
        head = path.read_text(encoding="utf-8")[:1500]
        assert "REFERENCE DATA" in head, path


def test_otw2_card_counts(deck: Deck) -> None:
    """OTW-2: 20 basic, 31 extended, 33 professional contracts and 22 events."""
    tiers = Counter(card.tier for card in deck.contracts)
    assert tiers == {Tier.BASIC: 20, Tier.EXTENDED: 31, Tier.PROFESSIONAL: 33}
    assert len(deck.events) == 22


def test_card_ids_are_unique(deck: Deck) -> None:
    ids = [c.id for c in deck.contracts] + [e.id for e in deck.events]
    assert len(ids) == len(set(ids))


def test_board_has_at_least_34_cities(board: Board) -> None:
    assert len(board.cities) >= 34


def test_board_facts_named_cities(board: Board) -> None:
    """Rules digest, "Facts about the board": every named city is on the map (Kiev as Kyiv)."""
    for name in (
        "Bremen",
        "Poznań",
        "Vilnius",
        "Lviv",
        "Bratislava",
        "Mönchengladbach",
        "Prague",
        "Riga",
        "Oss",
        "Bucharest",
        "Warsaw",
        "Kyiv",
        "Žilina",
    ):
        assert name in board.index, name


def test_city_names_keep_their_diacritics_in_nfc(board: Board) -> None:
    assert "Žilina" in board.names
    for name in board.names:
        assert unicodedata.normalize("NFC", name) == name


@pytest.mark.parametrize(
    ("a", "b"),
    [("Poznań", "Warsaw"), ("Warsaw", "Lviv"), ("Lviv", "Kyiv"), ("Oss", "Bremen")],
)
def test_board_facts_implied_roads(board: Board, a: str, b: str) -> None:
    """OTW-18 and OTW-19 examples imply these roads."""
    assert board.has_road(a, b)


def test_otw34_moenchengladbach_lviv_is_5_roads(board: Board) -> None:
    assert board.distance("Mönchengladbach", "Lviv") == 5


def test_otw34_moenchengladbach_lviv_pays_3000(deck: Deck) -> None:
    cards = [c for c in deck.contracts if {c.origin, c.destination} == {"Mönchengladbach", "Lviv"}]
    assert len(cards) == 1
    card = cards[0]
    assert (card.tier, card.distance, card.pay) == (Tier.PROFESSIONAL, 5, 3000)


def test_otw8_setup_lists(board: Board) -> None:
    two = ("Bremen", "Poznań", "Vilnius", "Lviv", "Bratislava", "Mönchengladbach")
    assert set(board.setup[2]) == set(two)
    assert set(board.setup[3]) == {*two, "Prague", "Riga"}
    assert set(board.setup[4]) == {*two, "Prague", "Riga", "Oss", "Bucharest"}


def test_map_is_connected_with_degree_at_least_2(board: Board) -> None:
    assert board.is_connected()
    assert min(len(n) for n in board.neighbours.values()) >= 2
    average = 2 * len(board.roads) / len(board.cities)
    assert 2.5 <= average <= 4.0


def test_positions_look_like_europe(board: Board) -> None:
    """x grows eastward, y grows southward (the screen's convention)."""
    for city in board.cities:
        assert 0.0 <= city.x <= 1.0 and 0.0 <= city.y <= 1.0
    pos = {c.name: c for c in board.cities}
    assert pos["Oss"].x < pos["Bremen"].x < pos["Poznań"].x < pos["Warsaw"].x < pos["Kyiv"].x
    assert pos["Riga"].y < pos["Vilnius"].y < pos["Warsaw"].y < pos["Lviv"].y < pos["Bucharest"].y


def test_otw13_contract_distance_is_shortest_path_and_fits_tier(board: Board, deck: Deck) -> None:
    allowed = {Tier.BASIC: {2}, Tier.EXTENDED: {3}, Tier.PROFESSIONAL: {4, 5}}
    for card in deck.contracts:
        assert board.distance(card.origin, card.destination) == card.distance, card
        assert card.distance in allowed[card.tier], card


def test_contracts_are_distinct_and_spread(board: Board, deck: Deck) -> None:
    triples = [(c.origin, c.destination, c.trucks) for c in deck.contracts]
    assert len(triples) == len(set(triples))
    assert all(c.origin != c.destination for c in deck.contracts)
    used = {c.origin for c in deck.contracts} | {c.destination for c in deck.contracts}
    assert used == set(board.names)


def _expected_pay(card: ContractCard) -> int:
    return 500 * (card.distance + card.trucks - 1)


def test_reference_payout_scale(deck: Deck) -> None:
    """docs/data.md: pay = 500 x (distance + trucks - 1); vp = trucks - 2 on distance-5, 3-4 truck cards."""
    for card in deck.contracts:
        assert 1 <= card.trucks <= 4
        assert card.pay == _expected_pay(card), card
        expected_vp = max(0, card.trucks - 2) if card.distance == 5 else 0
        assert card.vp == expected_vp, card
    assert any(card.vp for card in deck.contracts)


def test_otw30_event_kinds(board: Board, deck: Deck) -> None:
    kinds = Counter(e.kind for e in deck.events)
    assert kinds == {
        EventKind.BONUS: 4,
        EventKind.MALUS: 4,
        EventKind.CHEAPER_BUILD: 4,
        EventKind.EXTRA_STEP: 4,
        EventKind.TRAFFIC_JAM: 6,
    }
    for event in deck.events:
        if event.kind in (EventKind.BONUS, EventKind.MALUS, EventKind.CHEAPER_BUILD):
            assert event.amount == 500
        if event.kind is EventKind.TRAFFIC_JAM:
            assert event.road is not None and board.has_road(*event.road)
        else:
            assert event.road is None


def test_load_board_defaults_to_the_reference() -> None:
    assert load_board().name == load_board(REFERENCE_BOARD).name
