"""OTW-1, OTW-4..11: components, set-up, contracts offer and the turn structure."""

from __future__ import annotations

import pytest

from companion.games.on_the_way.engine import Build, Building, Cancel, Move, Pass, TakeContract
from companion.games.on_the_way.engine.state import initial_state

from .conftest import TESTLAND, config, pos
from .helpers import play, refused


def test_otw1_supply_counts_after_setup() -> None:
    state = initial_state(config())
    assert state.supply_trucks == 33 - 6
    assert state.supply_warehouses == 14 - 6
    assert state.supply_logistics_centres == 18


@pytest.mark.parametrize(("colours", "cities"), [(("r", "b"), 6), (("r", "b", "g"), 8), (("r", "b", "g", "y"), 10)])
def test_otw8_start_network_by_player_count(colours: tuple[str, ...], cities: int) -> None:
    state = initial_state(config(colours))
    warehouses = [n for n, b in zip(TESTLAND.names, state.buildings, strict=True) if b is Building.WAREHOUSE]
    assert len(warehouses) == cities
    assert all(state.idle_at(c) == 1 for c in warehouses)
    assert sum(state.idle) == cities


def test_otw7_each_player_starts_with_1000_booked_in_the_ledger() -> None:
    state = initial_state(config(("red", "blue", "green")))
    assert [p.money for p in state.players] == [1000, 1000, 1000]
    assert [(e.player, e.amount, e.rule) for e in state.ledger] == [
        ("red", 1000, "OTW-7"),
        ("blue", 1000, "OTW-7"),
        ("green", 1000, "OTW-7"),
    ]


def test_otw7_two_markers_per_player() -> None:
    state = pos("cities Alpha=W3")
    refused(state, Move("red", 3, "Beta", "Alpha", 1), "OTW-15", "markers 1 and 2")


def test_otw9_any_unused_card_may_be_taken_even_a_professional_first() -> None:
    state = play(pos(), TakeContract("red", "P01"))
    assert state.players[0].contracts == ("P01",)


def test_otw12_a_card_cannot_be_taken_twice_or_invented() -> None:
    state = play(pos(), TakeContract("red", "B01"))
    refused(state, TakeContract("red", "B01"), "OTW-12", "already been taken")
    refused(state, TakeContract("red", "Z99"), "OTW-12", "no contract card Z99")


def test_otw4_no_more_cards_of_a_tier_than_the_player_count_keeps() -> None:
    # Testland has 14 basic cards; a 2-player game returns 3 to the box, so 11 are in play.
    used = ",".join(f"B{i:02}" for i in range(1, 12))
    state = pos(f"time 0 used={used}")
    refused(state, TakeContract("red", "B12"), "OTW-4", "all 11 basic contracts", "returned to the box")


def test_otw5_tier_order_house_rule_keeps_higher_tiers_under_the_basics() -> None:
    state = pos(contract_offer="tier_order")
    refused(state, TakeContract("red", "X01"), "OTW-5", "tier_order")
    used = ",".join(f"B{i:02}" for i in range(1, 9))  # 11 in play - 8 taken = 3 = the 2-player offer
    state = pos(f"time 0 used={used}", contract_offer="tier_order")
    assert play(state, TakeContract("red", "X01")).players[0].contracts == ("X01",)


def test_otw10_two_steps_then_the_next_player() -> None:
    state = play(pos(), TakeContract("red", "B01"), TakeContract("red", "B02"))  # OTW-10: same action twice
    assert state.current.colour == "blue"
    assert state.steps_left == 2
    assert state.turn.round == 1
    state = play(state, Pass("blue"))
    assert (state.current.colour, state.turn.round) == ("red", 2)


def test_otw10_only_the_player_on_turn_acts() -> None:
    refused(pos(), TakeContract("blue", "B01"), "OTW-10", "red's turn")
    refused(pos(), TakeContract("pink", "B01"), "OTW-10", "no pink player")


def test_otw11_pass_ends_the_turn_and_can_be_switched_off() -> None:
    state = play(pos(), TakeContract("red", "B01"), Pass("red"))
    assert state.current.colour == "blue"
    refused(pos(allow_pass=False), Pass("red"), "OTW-11", "allow_pass")


def test_otw11_every_action_kind_uses_one_step() -> None:
    state = pos("cities Alpha=W2\nred 9000R 1:Beta:1")
    for command in (
        TakeContract("red", "B01"),
        Move("red", 2, "Beta", "Alpha", 1),
        Build("red", "Delta", Building.WAREHOUSE),
        Cancel("red", 1),
    ):
        assert play(state, command).steps_left == 1, command
