"""Hypothesis invariants over random legal games; undo and replay (issue: engine done-means)."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.auf_achse.engine import Roll, Undo, new_game
from companion.games.auf_achse.engine.queries import legal_commands
from companion.games.auf_achse.engine.state import FACE_UP, TRAILERS, GameState

from .conftest import config


def check_invariants(state: GameState) -> None:
    ledger = state.ledger
    # Money is conserved: every player-to-player payment nets to zero, so the players together hold
    # exactly what the bank has paid out, and each balance is the ledger's.
    assert sum(p.money for p in state.players) == state.bank_paid == sum(e.amount for e in ledger)
    for p in state.players:
        assert p.money == ledger.balance(p.colour) and p.money >= 0
        assert all(d.amount > 0 for d in p.debts)
        assert p.goods <= p.capacity  # cargo never over capacity
        assert all(0 <= n <= cap for n, cap in zip(p.load, p.vehicle_capacities(), strict=True))
        assert p.goods == sum(card.goods for c in p.loaded if (card := state.config.contract(c)) is not None)
    assert state.public_hidden >= 0 and 0 <= len(state.public) <= FACE_UP and state.spare_left >= 0
    held = [c for p in state.players for c in (*p.contracts, *p.delivered)] + list(state.public)
    assert len(held) == len(set(held)) and set(held) <= state.seen
    for size, left in state.trailers_left:
        bought = sum(p.trailers.count(size) for p in state.players)
        assert left >= 0 and left + bought == TRAILERS[size].count
    spaces = [p.space for p in state.players if p.space is not None]
    assert len(spaces) == len(set(spaces))  # AA-2, AA-8: never two trucks on a space


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), players=st.integers(2, 4), seed=st.integers(0, 10**6))
def test_random_legal_games_keep_the_invariants(data: st.DataObject, players: int, seed: int) -> None:
    colours = ("red", "blue", "green", "yellow")[:players]
    game = new_game(config(colours, seed=seed))
    for _ in range(220):
        state = game.state
        if state.finished:
            break
        options = list(legal_commands(state))
        assert options, "there is always a legal command"
        command = data.draw(st.sampled_from(options))
        if isinstance(command, Roll) and data.draw(st.booleans()):
            command = Roll(command.player)  # the companion rolls
        before = game.state
        game.push(command)
        check_invariants(game.state)
        if data.draw(st.integers(0, 9)) == 0:  # undo after any command restores the exact state
            game.push(Undo())
            restored = game.state
            assert restored.ledger.size >= before.ledger.size
            assert replace(restored, ledger=before.ledger) == before
            assert [p.money for p in restored.players] == [restored.ledger.balance(p.colour) for p in restored.players]
            game.push(command)
    replayed = new_game(game.state.config)
    replayed.replay(game.log)
    assert replayed.state == game.state
