"""Undo through the shared Game, ledger reversals and replay (style point 6)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.engine.game import Game, Undone
from companion.games.auf_achse.engine import Bid, Move, OpenAuction, PassBid, Roll, Undo, apply
from companion.games.auf_achse.engine.queries import legal_destinations

from .conftest import pos
from .helpers import refused

AUCTION = """
red    @Alpha
blue   @Gamma-Delta#4
public C10,C11,C12,C13
turn   red stage=act exact
"""


def game_at(text: str, **rules: Any) -> Game:  # type: ignore[type-arg]
    return Game(pos(text, **rules), apply, undo_types=(Undo,))


def test_undo_of_an_auction_payment_books_a_reversal() -> None:
    game = game_at(AUCTION)
    game.push(OpenAuction("red", "C10"))
    before = game.state
    game.push(Bid("blue", 2))
    game.push(PassBid("red"))
    assert game.state.players[1].money == 4200
    events = game.push(Undo())
    assert isinstance(events[0], Undone) and events[0].reversals == 1
    game.push(Undo())
    restored = game.state
    assert replace(restored, ledger=before.ledger) == before
    last = restored.ledger.entries()[-1]
    assert last.amount == 800 and last.reverses is not None and last.reason.startswith("undo: ")
    assert restored.players[1].money == restored.ledger.balance("blue") == 5000


def test_undoing_a_companion_roll_gives_the_same_roll_again() -> None:
    game = game_at("red @Alpha-Beta#1\nblue @Gamma-Delta#4")
    game.push(Roll("red"))
    first = game.state.turn.roll
    game.push(Undo())
    game.push(Roll("red"))
    assert game.state.turn.roll == first and game.state.rolls == 1


def test_a_log_replays_to_the_same_state() -> None:
    game = game_at("red @Alpha-Beta#1\nblue @Gamma-Delta#4", stau_removal="round_end")
    game.push(Roll("red", 3))
    game.push(Move("red", next(iter(legal_destinations(game.state, "red")))))
    game.push(Undo())
    game.push(Move("red", "Beta"))
    again = game_at("red @Alpha-Beta#1\nblue @Gamma-Delta#4", stau_removal="round_end")
    again.replay(game.log)
    assert again.state == game.state and again.state.current.space == "Beta"


def test_undo_needs_a_game() -> None:
    refused(pos(AUCTION), Undo(), "AA-6", "history")
