"""Set-up: AA-1..5."""

from __future__ import annotations

import pytest

from companion.engine.errors import DataError
from companion.games.auf_achse.engine import (
    DealContract,
    EndTurn,
    Move,
    PlaceTruck,
    RevealPublic,
    Roll,
    StartGame,
    new_game,
)
from companion.games.auf_achse.engine.queries import legal_destinations
from companion.games.auf_achse.engine.state import PUBLIC_DECK, Phase, initial_state

from .conftest import config
from .helpers import play, refused


def setup_done(colours: tuple[str, ...] = ("red", "blue")):  # type: ignore[no-untyped-def]
    state = initial_state(config(colours))
    spaces = iter(["Alpha-Beta#1", "Beta-Gamma#1", "Gamma-Delta#1", "Delta-Alpha#1", "Alpha-Beta#3", "Gamma-Delta#4"])
    cards = iter(f"C{i:02}" for i in range(1, 25))
    for colour in colours:
        state = play(state, PlaceTruck(colour, next(spaces)))
        state = play(state, *(DealContract(colour, next(cards)) for _ in range(3)))
    return play(state, *(RevealPublic(next(cards)) for _ in range(4)))


def test_aa1_two_to_six_players() -> None:
    with pytest.raises(DataError, match="AA-1"):
        config(("red",))
    with pytest.raises(DataError, match="2 to 6"):
        config(tuple(f"p{i}" for i in range(7)))


def test_aa1_deck_must_hold_enough_contracts_for_the_player_count() -> None:
    with pytest.raises(DataError, match="AA-4"):
        config(("a", "b", "c", "d", "e"))  # 15 private + 24 public > 36 test cards


def test_aa2_trucks_start_on_a_free_plain_space() -> None:
    state = initial_state(config())
    refused(state, PlaceTruck("red", "Alpha"), "AA-2", "city")
    refused(state, PlaceTruck("red", "Nowhere"), "AA-2", "no space")
    state = play(state, PlaceTruck("red", "Alpha-Beta#1"))
    refused(state, PlaceTruck("blue", "Alpha-Beta#1"), "AA-2", "red's truck")
    refused(state, PlaceTruck("green", "Alpha-Beta#2"), "AA-1")


def test_aa4_three_private_contracts_each_scanned_once() -> None:
    state = initial_state(config())
    state = play(state, DealContract("red", "C01"), DealContract("red", "C02"), DealContract("red", "C03"))
    refused(state, DealContract("red", "C04"), "AA-4", "already has 3")
    refused(state, DealContract("blue", "C01"), "AA-4", "already been scanned")
    refused(state, DealContract("blue", "X99"), "AA-4", "no contract card")


@pytest.mark.parametrize(("players", "public"), [(2, 12), (3, 16), (4, 20), (5, 24), (6, 24)])
def test_aa4_public_deck_size_by_player_count(players: int, public: int) -> None:
    assert PUBLIC_DECK[players] == public


def test_aa4_public_deck_counted_off_and_four_face_up() -> None:
    state = initial_state(config())
    assert state.public_hidden == 12 and state.spare_left == 36 - 6 - 12
    state = play(state, *(RevealPublic(f"C{i:02}") for i in range(10, 14)))
    assert state.public == ("C10", "C11", "C12", "C13") and state.public_hidden == 8
    refused(state, RevealPublic("C14"), "AA-4", "4 public contracts")


def test_aa5_five_thousand_dm_each_from_the_bank() -> None:
    state = initial_state(config())
    assert [p.money for p in state.players] == [5000, 5000]
    assert [e.rule for e in state.ledger] == ["AA-5", "AA-5"]


def test_aa5_start_needs_a_complete_setup_then_the_chosen_player_starts() -> None:
    state = initial_state(config())
    refused(state, StartGame(), "AA-5", "place the truck")
    refused(state, Roll("red"), "AA-5", "set-up is not finished")
    state = setup_done()
    state = play(state, StartGame("blue"))
    assert state.phase is Phase.PLAY and state.current.colour == "blue" and state.turn.round == 1
    refused(state, PlaceTruck("red", "Beta-Gamma#2"), "AA-5", "started")
    refused(state, Roll("red"), "AA-6", "blue's turn")


def test_aa5_play_is_clockwise() -> None:
    state = setup_done(("red", "blue", "green"))
    state = play(state, StartGame("blue"))
    for expected in ("blue", "green", "red", "blue"):
        assert state.current.colour == expected
        state = play(state, Roll(expected, 1))
        to = next(s for s, d in legal_destinations(state, expected).items() if not state.board.space(s).triangle)
        state = play(state, Move(expected, to))
        state = play(state, EndTurn(expected))
    assert state.turn.round == 2


def test_new_game_starts_in_setup(game2) -> None:  # type: ignore[no-untyped-def]
    assert game2.state.phase is Phase.SETUP
    assert new_game(config()).state == game2.state
