"""Hypothesis invariants over long random legal games (issue: engine done-means)."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.on_the_way.engine import Command, RevealEvent, Undo, new_game
from companion.games.on_the_way.engine.queries import legal_commands
from companion.games.on_the_way.engine.state import (
    TOTAL_LOGISTICS_CENTRES,
    TOTAL_TRUCKS,
    TOTAL_WAREHOUSES,
    Building,
    GameState,
)

from .conftest import config


def check_invariants(state: GameState) -> None:
    idle = sum(state.idle)
    assert idle + state.trucks_on_road() + state.supply_trucks == TOTAL_TRUCKS
    assert state.buildings.count(Building.WAREHOUSE) + state.supply_warehouses == TOTAL_WAREHOUSES
    assert state.buildings.count(Building.LOGISTICS_CENTRE) + state.supply_logistics_centres == TOTAL_LOGISTICS_CENTRES
    assert state.supply_trucks >= 0 and state.supply_warehouses >= 0 and state.supply_logistics_centres >= 0
    for p in state.players:
        assert p.money >= 0
        assert p.money == state.ledger.balance(p.colour)
        assert len(p.transports) <= 2
        assert all(t.trucks >= 1 for t in p.transports)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), players=st.integers(2, 4), end_at=st.sampled_from([None, 2, 3]))
def test_random_legal_games_keep_the_invariants(data: st.DataObject, players: int, end_at: int | None) -> None:
    colours = ("red", "blue", "green", "yellow")[:players]
    game = new_game(config(colours, end_at=end_at))
    for _ in range(160):
        state = game.state
        if state.finished:
            break
        if state.awaiting_event:
            unseen = [e.id for e in state.config.deck.events if e.id not in state.revealed]
            command: Command = RevealEvent(data.draw(st.sampled_from(unseen)))
        else:
            options = list(legal_commands(state))
            assert options, "a player on turn always has a legal command (at least pass)"
            command = data.draw(st.sampled_from(options))
        before = game.state
        game.push(command)
        check_invariants(game.state)
        if data.draw(st.integers(0, 9)) == 0:  # undo after any command restores the exact state
            game.push(Undo())
            restored = game.state
            assert restored.ledger.size >= before.ledger.size
            assert replace(restored, ledger=before.ledger) == before
            check_invariants(restored)
            game.push(command)
    replayed = new_game(game.state.config)
    replayed.replay(game.log)
    assert replayed.state == game.state
