"""Rolling and moving: AA-6..12."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.games.auf_achse.engine import (
    DrawAction,
    EndTurn,
    Load,
    Move,
    PlaceSign,
    Roll,
    Sign,
    StauRemoval,
    Unload,
    apply,
)
from companion.games.auf_achse.engine.queries import legal_destinations
from companion.games.auf_achse.engine.rules import roll_value
from companion.games.auf_achse.engine.state import Stage, Waiting

from .conftest import pos
from .helpers import play, refused

BASE = """
red  @Alpha-Beta#1
blue @Gamma-Delta#4
"""


def test_aa6_roll_before_moving_and_once_per_turn() -> None:
    state = pos(BASE)
    refused(state, Move("red", "Beta"), "AA-6", "roll")
    refused(state, EndTurn("red"), "AA-6", "roll and move")
    state = play(state, Roll("red", 3))
    refused(state, Roll("red", 3), "AA-6", "already rolled")


def test_aa7_a_roll_of_1_to_5_moves_exactly_that_far() -> None:
    state = play(pos(BASE), Roll("red", 3))
    assert set(legal_destinations(state, "red")) == {"Beta", "Delta-Alpha#1"}
    refused(state, Move("red", "Alpha-Beta#3"), "AA-7", "exactly 3")
    state = play(state, Move("red", "Beta"))
    assert state.current.space == "Beta" and state.turn.stage is Stage.ACT and state.turn.exact_city
    refused(state, Move("red", "Beta-Gamma#1"), "AA-7", "already moved")


def test_aa7_a_six_moves_one_to_six_spaces() -> None:
    state = play(pos(BASE), Roll("red", 6))
    dests = legal_destinations(state, "red")
    assert {"Alpha-Beta#2", "Alpha", "Beta", "Beta-Gamma#2", "Beta-Flens#1", "Flens", "Delta"} <= set(dests)
    assert all(d.exact for d in dests.values())


def test_aa7_the_companion_rolls_reproducibly_from_the_seed() -> None:
    a = play(pos(BASE), Roll("red"))
    b = play(pos(BASE), Roll("red"))
    assert a.turn.roll == b.turn.roll and 1 <= (a.turn.roll or 0) <= 6 and a.rolls == 1
    values = set()
    state = pos(BASE)
    for _ in range(30):  # the counter moves on with each roll; the turn is reset to roll again
        state = replace(play(state, Roll("red")), turn=pos(BASE).turn)
        values.add(roll_value(replace(state, rolls=state.rolls - 1)))
    assert values == {1, 2, 3, 4, 5, 6} and state.rolls == 30


def test_aa7_a_physical_die_is_entered_and_checked() -> None:
    refused(pos(BASE), Roll("red", 7), "AA-7", "1 to 6")


def test_aa8_no_ending_on_a_truck_but_passing_it_is_fine() -> None:
    state = play(pos("red @Alpha-Beta#1\nblue @Alpha-Beta#3"), Roll("red", 2))
    refused(state, Move("red", "Alpha-Beta#3"), "AA-8", "blue's truck")
    # may stop on the space before
    dest = legal_destinations(state, "red")["Alpha-Beta#2"]
    assert dest.rule == "AA-8" and not dest.exact
    # passing blue to reach Beta with a 3
    state = play(pos("red @Alpha-Beta#1\nblue @Alpha-Beta#3"), Roll("red", 3))
    assert legal_destinations(state, "red")["Beta"].exact


def test_aa8_an_early_stop_in_a_city_allows_no_auction() -> None:
    state = play(pos("red @Alpha-Beta#2\nblue @Beta-Gamma#1"), Roll("red", 3), Move("red", "Beta"))
    assert not state.turn.exact_city


def test_aa9_early_stop_in_an_own_contract_city_then_must_serve_it() -> None:
    state = play(pos("red @Alpha-Beta#3 hand=C04\nblue @Delta-Alpha#1"), Roll("red", 4))
    card = state.config.contract("C04")
    assert card is not None and card.start == "Beta"
    dests = legal_destinations(state, "red")
    assert "Beta" in dests and dests["Beta"].rule == "AA-9"
    state = play(state, Move("red", "Beta"))
    refused(state, EndTurn("red"), "AA-9", "load or unload")


def test_aa9_unloading_serves_the_early_stop() -> None:
    state = play(pos("red @Alpha-Beta#3 loaded=C01\nblue @Delta-Alpha#1"), Roll("red", 4), Move("red", "Beta"))
    assert state.turn.must_serve == "Beta" and not state.turn.exact_city
    state = play(state, Unload("red", "C01"), EndTurn("red"))
    assert state.current.colour == "blue"


def test_aa9_no_early_stop_in_a_city_without_own_contracts() -> None:
    state = play(pos("red @Alpha-Beta#3\nblue @Delta-Alpha#1"), Roll("red", 4))
    refused(state, Move("red", "Beta"), "AA-7")


def test_aa9_loading_serves_the_early_stop() -> None:
    state = play(pos("red @Delta-Alpha#1 hand=C01\nblue @Gamma-Delta#1"), Roll("red", 4), Move("red", "Alpha"))
    assert state.turn.must_serve == "Alpha"
    state = play(state, Load("red", "C01"), EndTurn("red"))
    assert state.current.colour == "blue"


def test_aa10_a_roll_of_1_may_place_the_roadworks_sign() -> None:
    state = play(pos(BASE), Roll("red", 1))
    refused(state, PlaceSign("red", Sign.ROADWORKS, "Beta-Gamma#1"), "AA-10", "move first")
    state = play(state, Move("red", "Alpha"))
    refused(state, PlaceSign("red", Sign.ROADWORKS, "Beta"), "AA-10", "city")
    refused(state, PlaceSign("red", Sign.ROADWORKS, "Gamma-Delta#4"), "AA-10", "occupied")
    refused(state, PlaceSign("red", Sign.ROADWORKS, "Beta-Flens#1"), "AA-10", "Flensburg")
    state = play(state, PlaceSign("red", Sign.ROADWORKS, "Beta-Gamma#1"))
    assert state.roadworks == "Beta-Gamma#1"
    refused(state, PlaceSign("red", Sign.ROADWORKS, "Beta-Gamma#2"), "AA-10", "placed it")


def test_aa10_only_after_a_1() -> None:
    state = play(pos(BASE), Roll("red", 2), Move("red", "Delta-Alpha#2"))
    refused(state, PlaceSign("red", Sign.ROADWORKS, "Beta-Gamma#1"), "AA-10", "did not roll a 1")
    refused(state, PlaceSign("red", Sign.STAU, "Beta-Gamma#1"), "AA-11", "action card")


def test_aa10_roadworks_block_the_road() -> None:
    state = play(pos(BASE + "signs roadworks=Alpha-Beta#3"), Roll("red", 3))
    assert "Beta" not in legal_destinations(state, "red")
    refused(state, Move("red", "Alpha-Beta#3"), "AA-10", "roadworks")


def test_aa11_stau_blocks_and_leaves_when_its_placer_starts_his_next_turn() -> None:
    state = pos("red @Alpha-Beta#1\nblue @Gamma-Delta#4\nsigns stau=Alpha-Beta#3:red")
    state = play(state, Roll("red", 3))
    assert "Beta" not in legal_destinations(state, "red")
    state = play(state, Move("red", "Delta-Alpha#1"), EndTurn("red"))
    assert state.stau == "Alpha-Beta#3"  # blue's turn: still there
    state = play(state, Roll("blue", 2), Move("blue", "Gamma-Delta#2"), EndTurn("blue"))
    assert state.stau is None


def test_aa11_house_rule_stau_leaves_at_the_round_end() -> None:
    text = "red @Alpha-Beta#1\nblue @Gamma-Delta#4\nsigns stau=Alpha-Beta#3:blue\nturn red"
    state = pos(text, stau_removal=StauRemoval.ROUND_END.value)
    state = play(state, Roll("red", 3), Move("red", "Delta-Alpha#1"), EndTurn("red"))
    assert state.stau == "Alpha-Beta#3"
    state = play(state, Roll("blue", 2), Move("blue", "Gamma-Delta#2"), EndTurn("blue"))
    assert state.stau is None


def test_aa12_ending_on_a_triangle_draws_an_action_card() -> None:
    state = play(pos(BASE), Roll("red", 1), Move("red", "Alpha-Beta#2"))
    assert state.awaiting is not None and state.awaiting.kind is Waiting.ACTION_CARD
    refused(state, EndTurn("red"), "AA-12", "draw")
    state = play(state, DrawAction("A02"))
    assert state.current.money == 6000 and state.actions_used == ("A02",)


def test_aa12_used_cards_leave_until_the_deck_is_reshuffled() -> None:
    state = play(pos(BASE), Roll("red", 1), Move("red", "Alpha-Beta#2"))
    used = tuple(f"A{i:02}" for i in range(1, 10))
    again = replace(state, actions_used=("A02",))
    refused(again, DrawAction("A02"), "AA-12", "used since the last shuffle")
    full = replace(state, actions_used=used)
    after, events = apply(full, DrawAction("A02"))
    assert after.actions_used == ("A02",) and events[0].reshuffled  # type: ignore[union-attr]


@pytest.mark.parametrize("roll", [1, 2, 3, 4, 5])
def test_aa7_every_destination_offered_is_accepted(roll: int) -> None:
    state = play(pos(BASE), Roll("red", roll))
    for space in legal_destinations(state, "red"):
        play(state, Move("red", space))


def test_aa7_a_truck_with_nowhere_to_go_stays() -> None:
    state = pos("red @Beta-Flens#1\nblue @Beta-Gamma#2\nsigns roadworks=Alpha-Beta#3 stau=Beta-Gamma#1:blue")
    state = play(state, Roll("red", 3))
    assert state.turn.stage is Stage.ACT and state.current.space == "Beta-Flens#1"


def test_aa3_the_action_deck_order_is_unknown_any_unused_card_may_come() -> None:
    state = play(pos(BASE), Roll("red", 1), Move("red", "Alpha-Beta#2"))
    for card in ("A01", "A05", "A09"):
        play(state, DrawAction(card))
    refused(state, DrawAction("Z99"), "AA-12", "no action card")


def test_aa9_no_early_stop_where_the_contract_cannot_be_served() -> None:
    # C04 Beta→Alpha has 6 goods; red's truck is full and he cannot afford a trailer.
    text = "red @Alpha-Beta#3 hand=C04 loaded=C07 0DM\nblue @Delta-Alpha#1"
    state = play(pos(text), Roll("red", 4))
    assert "Beta" not in legal_destinations(state, "red")
    state = play(pos(text.replace("0DM", "2000DM")), Roll("red", 4))
    assert legal_destinations(state, "red")["Beta"].rule == "AA-9"  # a small trailer makes room


def test_a_state_keeps_its_destinations_and_a_changed_state_finds_its_own() -> None:
    """``destinations`` is kept on the (immutable) state: asked again it is the same answer, and a
    state with a sign moved (``replace``, as every rule makes a new state) is walked afresh (AA-10)."""
    from companion.games.auf_achse.engine.movement import destinations

    state = play(pos(BASE), Roll("red", 3))
    free = destinations(state, "red", 3)
    assert destinations(state, "red", 3) is free and "Beta" in free
    blocked = replace(state, roadworks="Alpha-Beta#3")
    assert "Beta" not in destinations(blocked, "red", 3)
    assert "Beta" in destinations(state, "red", 3)  # the first state's answer is untouched
