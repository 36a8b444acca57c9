"""``step(prompt, intent, state)``, prompt by prompt, on the reference board (rule ids cited).

Pure: no controller, no hardware. A position in the compact notation, a prompt value, an intent;
out come the next prompt and what the table must do (a checked command, a refusal, or nothing).
"""

from __future__ import annotations

from typing import cast

from companion.engine.errors import IllegalAction
from companion.games.on_the_way.engine import (
    Build,
    Building,
    Cancel,
    Expand,
    Fulfil,
    GameConfig,
    GameState,
    HouseRules,
    Move,
    Pass,
    RevealEvent,
    TakeContract,
    Undo,
)
from companion.games.on_the_way.engine.notation import position
from companion.games.on_the_way.engine.rules import apply
from companion.games.on_the_way.table.prompts import (
    MENU,
    Applied,
    BuildPurpose,
    CardShown,
    Confirm,
    Forming,
    GameOver,
    Idle,
    Lifted,
    MarkerLifted,
    MarkerPlaced,
    Menu,
    MenuItem,
    SelectCity,
    ToggleLanguage,
    hand_of,
    settle,
    step,
)
from companion.intents import ButtonName, ButtonPressed, CityTapped
from companion.table.tags import CardTag, MarkerTag

from .conftest import BOARD, DECK

RED1, RED2, BLUE1 = MarkerTag("red", 1), MarkerTag("red", 2), MarkerTag("blue", 1)
OK, BACK, PLUS, MINUS, MENU_KEY = (ButtonPressed(b) for b in ButtonName)


def at(text: str = "", **rules: object) -> GameState:
    return position(GameConfig(BOARD, DECK, ("red", "blue"), HouseRules.from_mapping(rules)), text)


def refusal_of(outcome: object, rule: str) -> IllegalAction:
    assert isinstance(outcome, IllegalAction), outcome
    assert outcome.rule == rule, (outcome.rule, outcome.message)
    return outcome


# -- Idle ------------------------------------------------------------------------------------------


def test_idle_ok_offers_to_end_the_turn_otw11() -> None:
    assert step(Idle(), OK, at()) == (Confirm(Pass("red")), None)


def test_idle_ok_offers_a_ready_contract_first_otw21() -> None:
    state = at("cities Warsaw=W0\nred B01 1:Warsaw:2:B01")
    assert step(Idle(), OK, state) == (Confirm(Fulfil("red", "B01")), None)


def test_idle_ok_does_nothing_while_the_table_is_wrong_or_an_event_is_due_otw28() -> None:
    assert step(Idle(), OK, at(), misplaced=True) == (Idle(), None)
    assert step(Idle(), OK, at("time 0 awaiting")) == (Idle(), None)


def test_idle_back_asks_for_an_undo_and_menu_opens_the_menu() -> None:
    assert step(Idle(), BACK, at()) == (Idle(), Undo())
    assert step(Idle(), MENU_KEY, at()) == (Menu(MENU, 0, Idle()), None)
    assert step(Idle(), PLUS, at()) == (Idle(), None)


def test_otw14_lifting_the_marker_of_a_transport_on_the_road() -> None:
    state = at("red 1:Poznań:2")
    assert step(Idle(), MarkerLifted(RED1, "Poznań"), state) == (Lifted(RED1, "Poznań", 2), None)


def test_otw16_otw10_another_players_marker_or_a_wrong_table_is_not_lifted() -> None:
    state = at("red 1:Poznań:1\nblue 1:Warsaw:1")
    assert step(Idle(), MarkerLifted(BLUE1, "Warsaw"), state) == (Idle(), None)  # red's turn
    assert step(Idle(), MarkerLifted(RED1, "Poznań"), state, misplaced=True) == (Idle(), None)
    assert step(Idle(), MarkerLifted(RED2, "Poznań"), state) == (Idle(), None)  # not on the road


def test_otw15_a_free_marker_on_idle_trucks_forms_a_transport_sized_for_the_contracts() -> None:
    state = at("cities Kaunas=W3\nred B01")  # B01 Kaunas→Warsaw needs 2 trucks
    assert step(Idle(), MarkerPlaced(RED1, "Kaunas"), state) == (Forming(RED1, "Kaunas", 2), None)
    plain = at("cities Kaunas=W3")
    assert step(Idle(), MarkerPlaced(RED1, "Kaunas"), plain) == (Forming(RED1, "Kaunas", 1), None)


def test_otw15_no_idle_trucks_no_transport() -> None:
    prompt, outcome = step(Idle(), MarkerPlaced(RED2, "Warsaw"), at("cities Warsaw=-0"))
    assert prompt == Idle()
    assert "Warsaw has 0 trucks idle" in refusal_of(outcome, "OTW-15").message  # the engine's sentence


def test_otw12_scanning_a_free_contract_takes_it() -> None:
    assert step(Idle(), CardShown(CardTag("B03")), at()) == (Idle(), TakeContract("red", "B03"))


def test_otw12_scanning_another_players_contract_is_refused() -> None:
    prompt, outcome = step(Idle(), CardShown(CardTag("B03")), at("blue B03"))
    assert prompt == Idle() and "blue's contract" in refusal_of(outcome, "OTW-12").message


def test_otw21_rescanning_a_held_contract_fulfils_it_or_says_why_not() -> None:
    ready = at("cities Warsaw=W0\nred B01 1:Warsaw:2:B01")
    assert step(Idle(), CardShown(CardTag("B01")), ready) == (Idle(), Fulfil("red", "B01"))
    prompt, outcome = step(Idle(), CardShown(CardTag("B01")), at("red B01"))
    assert prompt == Idle()
    refusal_of(outcome, "OTW-21")


def test_otw28_an_event_card_is_revealed_only_when_due() -> None:
    refusal_of(step(Idle(), CardShown(CardTag("E13")), at())[1], "OTW-28")
    assert step(Idle(), CardShown(CardTag("E13")), at("time 0 awaiting")) == (Idle(), RevealEvent("E13"))


def test_otw27_a_marker_over_the_card_reader_asks_to_cancel_its_transport() -> None:
    state = at("red 1:Warsaw:2")
    assert step(Idle(), CardShown(RED1), state) == (Confirm(Cancel("red", 1), Idle()), None)
    refusal_of(step(Idle(), CardShown(RED2), state)[1], "OTW-27")  # marker 2 is not on the road
    refusal_of(step(Idle(), CardShown(BLUE1), at("blue 1:Poznań:1"))[1], "OTW-10")  # not blue's turn


def test_cards_wait_while_the_table_is_wrong() -> None:
    assert step(Idle(), CardShown(CardTag("B03")), at(), misplaced=True) == (Idle(), None)


# -- Lifted -------------------------------------------------------------------------------------------


def test_otw19_plus_joins_idle_trucks_at_the_start_city_and_otw17_minus_keeps_the_own_ones() -> None:
    state = at("cities Poznań=W1\nred 1:Poznań:2")
    lifted = Lifted(RED1, "Poznań", 2)
    assert step(lifted, PLUS, state) == (Lifted(RED1, "Poznań", 3), None)
    assert step(Lifted(RED1, "Poznań", 3), PLUS, state)[0] == Lifted(RED1, "Poznań", 3)  # 1 idle only
    assert step(lifted, MINUS, state)[0] == lifted  # never fewer than the transport has


def test_otw14_placing_a_lifted_marker_moves_its_transport() -> None:
    state = at("red 1:Poznań:1")
    assert step(Lifted(RED1, "Poznań", 1), MarkerPlaced(RED1, "Warsaw"), state) == (Idle(), Move("red", 1, "Warsaw"))


def test_otw19_the_move_takes_the_joined_trucks_along() -> None:
    state = at("cities Poznań=W1\nred 1:Poznań:2")
    prompt, outcome = step(Lifted(RED1, "Poznań", 3), MarkerPlaced(RED1, "Warsaw"), state)
    assert (prompt, outcome) == (Idle(), Move("red", 1, "Warsaw", trucks=3))
    after, _ = apply(state, cast(Move, outcome))  # the engine moves all three trucks (OTW-19)
    red = after.player("red")
    assert red is not None
    moved = red.transport(1)
    assert moved is not None and moved.trucks == 3


def test_putting_the_lifted_marker_back_is_no_move() -> None:
    state = at("red 1:Poznań:1")
    assert step(Lifted(RED1, "Poznań", 1), MarkerPlaced(RED1, "Poznań"), state) == (Idle(), None)


def test_otw18_a_move_out_of_reach_is_refused_by_the_engine_and_nothing_is_pushed() -> None:
    state = at("cities Warsaw=W1\nred 1:Poznań:2")
    prompt, outcome = step(Lifted(RED1, "Poznań", 2), MarkerPlaced(RED1, "Lviv"), state)
    assert prompt == Idle()  # the marker is down: reconciliation asks for it back
    assert "Warsaw has 1 truck idle" in refusal_of(outcome, "OTW-18").message


def test_lifted_ignores_ok_and_back_and_menu_drops_the_lift() -> None:
    state = at("red 1:Poznań:1")
    lifted = Lifted(RED1, "Poznań", 1)
    assert step(lifted, OK, state) == (lifted, None)
    assert step(lifted, BACK, state) == (lifted, None)  # the marker is in the hand: put it back
    assert step(lifted, MENU_KEY, state) == (Menu(MENU, 0, Idle()), None)


def test_otw21_after_a_move_to_the_end_city_the_table_offers_to_fulfil() -> None:
    after = at("cities Warsaw=W0\nred B01 1:Warsaw:2:B01")  # the move has just been applied
    prompt, _ = step(Idle(), Applied(Move("red", 1, "Warsaw")), after)
    assert prompt == Confirm(Fulfil("red", "B01"), Idle())
    assert step(Idle(), Applied(Move("red", 2, "Warsaw")), after) == (Idle(), None)  # not that transport


def test_otw27_holding_the_lifted_marker_over_the_reader_then_back_returns_to_the_lift() -> None:
    state = at("red 1:Warsaw:2")
    lifted = Lifted(RED1, "Warsaw", 2)
    confirm, _ = step(lifted, CardShown(RED1), state)
    assert confirm == Confirm(Cancel("red", 1), lifted) and hand_of(confirm) == lifted
    assert step(confirm, BACK, state) == (lifted, None)
    assert step(confirm, OK, state) == (lifted, Cancel("red", 1))  # settle() drops the lift after


# -- Forming ------------------------------------------------------------------------------------------


def test_otw15_plus_minus_choose_between_one_truck_and_the_idle_trucks() -> None:
    state = at("cities Poznań=W3")
    forming = Forming(RED1, "Poznań", 1)
    assert step(forming, MINUS, state)[0] == forming
    assert step(Forming(RED1, "Poznań", 3), PLUS, state)[0] == Forming(RED1, "Poznań", 3)
    assert step(forming, PLUS, state)[0] == Forming(RED1, "Poznań", 2)


def test_otw15_placing_the_forming_marker_elsewhere_starts_and_moves_the_transport() -> None:
    state = at("cities Poznań=W3 Warsaw=-0")
    forming = Forming(RED1, "Poznań", 2)
    assert step(forming, MarkerLifted(RED1, "Poznań"), state) == (forming, None)  # on its way
    assert step(forming, MarkerPlaced(RED1, "Poznań"), state) == (forming, None)
    assert step(forming, MarkerPlaced(RED1, "Warsaw"), state) == (Idle(), Move("red", 1, "Warsaw", "Poznań", 2))


def test_otw18_a_refused_new_transport_keeps_the_form_open() -> None:
    state = at("cities Poznań=W3 Warsaw=-0")
    prompt, outcome = step(Forming(RED1, "Poznań", 2), MarkerPlaced(RED1, "Lviv"), state)
    assert prompt == Forming(RED1, "Poznań", 2)
    refusal_of(outcome, "OTW-18")


def test_forming_back_gives_up_the_new_transport() -> None:
    assert step(Forming(RED1, "Poznań", 1), BACK, at()) == (Idle(), None)


def test_menu_over_a_forming_transport_returns_to_it() -> None:
    forming = Forming(RED1, "Poznań", 1)
    menu, _ = step(forming, MENU_KEY, at())
    assert menu == Menu(MENU, 0, forming)
    assert step(menu, BACK, at()) == (forming, None)
    assert step(menu, MENU_KEY, at()) == (forming, None)


# -- Confirm --------------------------------------------------------------------------------------------


def test_confirm_ok_sends_the_checked_command_and_back_declines() -> None:
    confirm = Confirm(Pass("red"))
    assert step(confirm, OK, at()) == (Idle(), Pass("red"))
    assert step(confirm, BACK, at()) == (Idle(), None)
    assert step(confirm, PLUS, at()) == (confirm, None)


def test_otw11_confirm_ok_with_passing_off_shows_the_engines_refusal() -> None:
    prompt, outcome = step(Confirm(Pass("red")), OK, at(allow_pass=False))
    assert prompt == Idle()
    refusal_of(outcome, "OTW-11")


def test_a_marker_intent_that_changes_nothing_keeps_the_dialog_open() -> None:
    state = at("red 1:Poznań:1\nblue 1:Warsaw:1")
    confirm = Confirm(Pass("red"))
    assert step(confirm, MarkerLifted(BLUE1, "Warsaw"), state) == (confirm, None)
    assert step(confirm, MarkerLifted(RED1, "Poznań"), state) == (Lifted(RED1, "Poznań", 1), None)


# -- Menu -----------------------------------------------------------------------------------------------


def test_menu_plus_minus_wrap_around() -> None:
    menu = Menu()
    assert step(menu, MINUS, at())[0] == Menu(MENU, len(MENU) - 1)
    assert step(menu, PLUS, at())[0] == Menu(MENU, 1)


def test_otw23_build_a_warehouse_selects_among_the_cities_with_no_building() -> None:
    state = at("red 5000R")
    prompt, outcome = step(Menu(MENU, MENU.index(MenuItem.BUILD_WAREHOUSE)), OK, state)
    assert outcome is None and isinstance(prompt, SelectCity)
    assert prompt.purpose is BuildPurpose.WAREHOUSE
    assert "Warsaw" in prompt.candidates and "Poznań" not in prompt.candidates  # Poznań has a warehouse
    assert list(prompt.candidates) == sorted(prompt.candidates)


def test_otw24_expand_selects_among_the_warehouses() -> None:
    state = at("red 5000R")
    prompt, _ = step(Menu(MENU, MENU.index(MenuItem.EXPAND)), OK, state)
    assert isinstance(prompt, SelectCity) and set(prompt.candidates) == set(BOARD.setup[2])


def test_otw25_a_logistics_centre_too_dear_is_explained_by_the_engine() -> None:
    menu = Menu(MENU, MENU.index(MenuItem.BUILD_LOGISTICS_CENTRE))
    prompt, outcome = step(menu, OK, at("red 5000R"))
    assert prompt == menu
    assert "costs 7 500 R" in refusal_of(outcome, "OTW-25").message


def test_otw23_nothing_to_build_says_why_with_the_rule() -> None:
    prompt, outcome = step(Menu(), OK, at())
    assert prompt == Menu()
    assert "costs 3 000 R" in refusal_of(outcome, "OTW-23").message


def test_menu_end_turn_and_language() -> None:
    state = at()
    assert step(Menu(MENU, MENU.index(MenuItem.END_TURN)), OK, state) == (Idle(), Pass("red"))
    assert step(Menu(MENU, MENU.index(MenuItem.LANGUAGE)), OK, state) == (Idle(), ToggleLanguage())


# -- SelectCity -------------------------------------------------------------------------------------------


def _selecting(state: GameState) -> SelectCity:
    prompt, _ = step(Menu(), OK, state)
    assert isinstance(prompt, SelectCity)
    return prompt


def test_select_city_by_plus_minus_touch_or_a_tag() -> None:
    state = at("red 5000R")
    select = _selecting(state)
    assert step(select, PLUS, state)[0] == SelectCity(select.purpose, select.candidates, 1)
    assert step(select, MINUS, state)[0].city == select.candidates[-1]  # type: ignore[union-attr]
    warsaw = select.candidates.index("Warsaw")
    assert step(select, CityTapped("Warsaw"), state)[0] == SelectCity(select.purpose, select.candidates, warsaw)
    assert step(select, MarkerPlaced(RED2, "Warsaw"), state)[0] == SelectCity(select.purpose, select.candidates, warsaw)


def test_otw23_ok_builds_on_the_selected_city() -> None:
    state = at("red 5000R")
    select = SelectCity(BuildPurpose.WAREHOUSE, ("Warsaw",))
    assert step(select, OK, state) == (Idle(), Build("red", "Warsaw", Building.WAREHOUSE))
    expand = SelectCity(BuildPurpose.EXPANSION, ("Poznań",))
    assert step(expand, OK, state) == (Idle(), Expand("red", "Poznań"))


def test_otw23_touching_a_city_that_is_no_candidate_shows_the_engines_reason() -> None:
    state = at("red 5000R")
    select = _selecting(state)
    prompt, outcome = step(select, CityTapped("Poznań"), state)
    assert prompt == select
    assert "already has a warehouse" in refusal_of(outcome, "OTW-23").message


def test_select_city_back_returns_to_its_menu_item() -> None:
    select = SelectCity(BuildPurpose.EXPANSION, ("Poznań",))
    assert step(select, BACK, at()) == (Menu(MENU, MENU.index(MenuItem.EXPAND)), None)


# -- GameOver and settling ---------------------------------------------------------------------------------


def test_otw31_a_finished_game_answers_game_over_to_everything() -> None:
    from dataclasses import replace

    over = replace(at(), finished=True)
    for intent in (OK, BACK, MarkerLifted(RED1, "Poznań"), CardShown(CardTag("B03")), CityTapped("Warsaw")):
        assert step(Idle(), intent, over) == (GameOver(), None)
    assert settle(Idle(), over) == GameOver()
    assert settle(GameOver(), at()) == Idle()


def test_settle_drops_a_lift_whose_transport_is_gone() -> None:
    gone = at()  # e.g. after an undo or a cancel: no red transport
    assert settle(Lifted(RED1, "Poznań", 1), gone) == Idle()
    assert settle(Confirm(Pass("red"), Lifted(RED1, "Poznań", 1)), gone) == Confirm(Pass("red"), Idle())
    kept = at("red 1:Poznań:1")
    assert settle(Lifted(RED1, "Poznań", 1), kept) == Lifted(RED1, "Poznań", 1)
