"""Undo and the bank ledger: an undone payment shows as a reversal; the state comes back exactly."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.engine.errors import IllegalAction
from companion.games.on_the_way.engine import Build, Building, Fulfil, Move, TakeContract, Undo

from .conftest import pos
from .helpers import game_at


def test_undo_restores_the_state_and_books_a_reversal() -> None:
    before = pos("red 4000R")
    game = game_at(before)
    game.push(Build("red", "Delta", Building.WAREHOUSE))
    assert game.state.players[0].money == 1000
    game.push(Undo())
    after = game.state
    assert replace(after, ledger=before.ledger) == before
    entries = [(e.amount, e.rule, e.reverses) for e in after.ledger.since(before.ledger.size)]
    assert entries == [(-3000, "OTW-23", None), (3000, "OTW-23", before.ledger.size + 1)]
    assert after.ledger.balance("red") == 4000 == after.players[0].money


def test_two_undos_take_back_two_commands_without_double_reversals() -> None:
    game = game_at(pos("cities Gamma=W0\nred 4000R B01 1:Gamma:2:B01"))
    game.push(Fulfil("red", "B01"))
    game.push(Build("red", "Delta", Building.WAREHOUSE))
    game.push(Undo())
    game.push(Undo())
    amounts = [e.amount for e in game.state.ledger.entries()[-4:]]
    assert amounts == [1500, -3000, 3000, -1500]
    assert game.state.players[0].money == 4000
    assert game.state.players[0].contracts == ("B01",)


def test_undo_with_nothing_to_undo_is_refused() -> None:
    with pytest.raises(IllegalAction, match="nothing to undo"):
        game_at(pos()).push(Undo())


def test_the_log_replays_to_the_same_state_including_undos() -> None:
    start = pos("cities Alpha=W3")
    game = game_at(start)
    for command in (TakeContract("red", "B01"), Undo(), Move("red", 1, "Beta", "Alpha", 2), TakeContract("red", "B02")):
        game.push(command)
    again = game_at(start)
    again.replay(game.log)
    assert again.state == game.state
