"""The table's modes as prompts: ``step(prompt, intent, state)`` is pure and matched on types; rules
stay in the engine (style point 18). Unit tests per prompt, then hypothesis over random intents."""

from __future__ import annotations

from dataclasses import replace
from typing import cast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine.errors import IllegalAction
from companion.games.auf_achse.engine import (
    Bid,
    BuyTrailer,
    EndTurn,
    GameConfig,
    HouseRules,
    Load,
    Move,
    OpenAuction,
    PassBid,
    PlaceSign,
    Roll,
    Sign,
    TrailerSize,
    apply,
    check,
    new_game,
)
from companion.games.auf_achse.engine.notation import position
from companion.games.auf_achse.engine.state import Waiting
from companion.games.auf_achse.table.prompts import (
    Act,
    AskAdvice,
    Bidding,
    CardDue,
    Choose,
    ChoosePurpose,
    ClearRefusal,
    Confirm,
    DieEntry,
    Idle,
    Menu,
    MenuItem,
    PlaceTrucks,
    Press,
    ScanBank,
    ScanCard,
    SelectSpace,
    ShowRefusal,
    SpacePurpose,
    ToggleLanguage,
    Touch,
    TruckOn,
    UndoLast,
    space_candidates,
)
from companion.games.auf_achse.table.step import settle, step
from companion.intents import ButtonName

from .conftest import BOARD, DECK, AATable

OK, BACK, PLUS, MINUS, MENU = (Press(b) for b in ButtonName)
COLOURS = ("red", "blue", "green")
PUBLIC = "public C10,C11,C12,C13"
ACT = f"red @Hamburg hand=C01\nblue @Bremen-Hanover#1\ngreen @Berlin\n{PUBLIC}\nturn red stage=act roll=3 exact"


def pos(text: str, **rules: object):  # type: ignore[no-untyped-def]
    return position(GameConfig(BOARD, DECK, COLOURS, HouseRules.from_mapping(rules), seed=3), text)


def test_settle_follows_the_game_set_up_stage_auction_and_awaited_cards() -> None:
    assert isinstance(settle(Idle(), new_game(GameConfig(BOARD, DECK, COLOURS)).state), PlaceTrucks)
    roll = pos(f"red @Hamburg\nblue @Berlin\ngreen @Bremen\n{PUBLIC}")
    assert settle(Idle(), roll) == DieEntry() and settle(DieEntry(4), roll) == DieEntry(4)
    moving = pos(f"red @Hamburg\nblue @Berlin\ngreen @Bremen\n{PUBLIC}\nturn red roll=1")
    assert settle(Idle(), moving) == SelectSpace(SpacePurpose.MOVE, "red")
    state = pos(ACT)
    assert settle(Idle(), state) == Act()
    state, _ = apply(state, OpenAuction("red", "C10"))
    assert settle(Act(), state) == Bidding()  # an auction overrides any dialog
    state, _ = apply(state, PassBid("blue"))
    state, _ = apply(state, PassBid("green"))
    assert settle(Bidding("blue", 1), state) == CardDue(Waiting.PUBLIC_CARD, "red")


def test_ok_on_act_offers_cargo_or_confirms_the_end_of_the_turn() -> None:
    state = pos(ACT)
    assert step(Act(), OK, state) == (Confirm(EndTurn("red")), None)  # C01 does not load in Hamburg
    assert step(Confirm(EndTurn("red")), OK, state) == (Idle(), EndTurn("red"))
    # C04 Berlin→Klagenfurt: arriving in Berlin, OK offers to load it (the engine's cargo options).
    berlin = pos(f"red @Hamburg-Berlin#4 hand=C04\nblue @Hamburg\ngreen @Bremen\n{PUBLIC}\nturn red roll=1")
    berlin, _ = apply(berlin, Move("red", "Berlin"))
    assert settle(Choose(ChoosePurpose.CARGO, ()), berlin) == Choose(ChoosePurpose.CARGO, (Load("red", "C04"),))
    assert step(Act(), OK, berlin) == (Choose(ChoosePurpose.CARGO, (Load("red", "C04"),)), None)


def test_menu_items_are_typed_and_back_returns_to_what_was_under_it() -> None:
    state = pos(ACT)
    menu, action = step(Act(), MENU, state)
    assert action is None and isinstance(menu, Menu) and menu.under == Act()
    assert MenuItem.END_TURN in menu.items and MenuItem.AUCTION in menu.items
    assert step(menu, BACK, state) == (Act(), None)
    large = replace_index(menu, menu.items.index(MenuItem.TRAILER_LARGE))
    assert step(large, OK, state) == (Act(), BuyTrailer("red", TrailerSize.LARGE))
    auction, _ = step(replace_index(menu, menu.items.index(MenuItem.AUCTION)), OK, state)
    assert auction == Choose(ChoosePurpose.AUCTION, tuple(OpenAuction("red", c) for c in state.public))
    assert step(auction, BACK, state)[0] == Menu(menu.items)  # back to the menu, not out of it
    assert step(step(menu, MINUS, state)[0], OK, state) == (Act(), AskAdvice())  # the last item
    language = step(step(menu, MINUS, state)[0], MINUS, state)[0]
    assert step(language, OK, state) == (Act(), ToggleLanguage())


def replace_index(menu: Menu, index: int) -> Menu:
    return replace(menu, index=index)


def test_die_entry_plus_starts_at_1_minus_at_6_clamped_ok_rolls_back_clears() -> None:
    state = pos(f"red @Hamburg\nblue @Berlin\ngreen @Bremen\n{PUBLIC}")
    assert step(DieEntry(), OK, state) == (DieEntry(), None)
    assert step(DieEntry(), PLUS, state)[0] == DieEntry(1) and step(DieEntry(), MINUS, state)[0] == DieEntry(6)
    assert step(DieEntry(6), PLUS, state)[0] == DieEntry(6)
    assert step(DieEntry(3), OK, state) == (DieEntry(3), Roll("red", 3))
    assert step(DieEntry(3), BACK, state) == (DieEntry(), None)
    assert step(DieEntry(), BACK, state) == (DieEntry(), UndoLast())


def test_a_space_selection_has_its_purpose_and_the_engines_candidates() -> None:
    state = pos(f"red @Hamburg\nblue @Berlin\ngreen @Bremen\n{PUBLIC}\nturn red roll=1")
    prompt = SelectSpace(SpacePurpose.MOVE, "red")
    candidates = space_candidates(prompt, state)
    assert set(candidates) == {"Hamburg-Berlin#1", "Hamburg-Bremen#1", "Hamburg-Flensburg#1", "Hamburg-Hanover#1"}
    following, command = step(prompt, OK, state)
    assert command == Move("red", candidates[0]) and following == Choose(ChoosePurpose.CARGO, ())
    picked, none = step(prompt, Touch(candidates[2]), state)
    assert none is None and picked == SelectSpace(SpacePurpose.MOVE, "red", 2)
    # A touch that is no candidate still goes to the engine, which says why not (AA-7).
    assert step(prompt, Touch("Vienna"), state)[1] == Move("red", "Vienna")
    assert step(prompt, TruckOn("blue", "Hamburg"), state) == (prompt, None)  # not blue's move
    roadworks = SelectSpace(SpacePurpose.ROADWORKS_ROLL, "red")
    space = space_candidates(roadworks, state)[0]
    assert step(roadworks, OK, state)[1] == PlaceSign("red", Sign.ROADWORKS, space)
    assert isinstance(step(roadworks, BACK, state)[0], Menu)


def test_aa19_bank_cards_identify_the_bidder_and_the_engine_says_who_may_not() -> None:
    state, _ = apply(pos(ACT), OpenAuction("red", "C10"))
    assert step(Bidding(), ScanBank("green"), state) == (Bidding("green", 1), ClearRefusal())
    assert step(Bidding("green", 1), PLUS, state)[0] == Bidding("green", 2)
    assert step(Bidding("green", 2), OK, state) == (Bidding("green", 2), Bid("green", 2))
    assert step(Bidding("green", 2), BACK, state) == (Bidding(), PassBid("green"))
    state, _ = apply(state, Bid("green", 2))
    _, refusal = step(Bidding(), ScanBank("green"), state)
    assert isinstance(refusal, ShowRefusal) and refusal.rule == "AA-19" and "holds the high bid" in refusal.message
    assert step(Bidding(), ScanBank("red"), state)[0] == Bidding("red", 2)  # the opener matches
    assert step(Bidding(), ScanBank("purple"), state) == (Bidding(), None)  # no such player
    assert step(Bidding(), MENU, state) == (Bidding(), None)  # no menu during an auction


def test_scanning_cards_proposes_what_the_card_means_the_engine_decides() -> None:
    state = pos(ACT)
    assert step(Act(), ScanCard("C10"), state) == (Confirm(OpenAuction("red", "C10")), None)
    assert step(Act(), ScanCard("C01"), state) == (Choose(ChoosePurpose.CARGO, ()), Load("red", "C01"))
    assert check(state, Load("red", "C01")) is not None  # C01 does not start in Hamburg: refused


# -- hypothesis: random intents through the controller ---------------------------------------------

POSITIONS = [
    None,  # set-up
    f"red @Hamburg-Bremen#1\nblue @Berlin\ngreen @Bremen\n{PUBLIC}",
    f"red @Hamburg-Berlin#1 hand=C04,C44\nblue @Hamburg\ngreen @Bremen\n{PUBLIC}\nturn red roll=1",
    ACT,
    f"red @Hamburg hand=C01 loaded=C21\nblue @Bremen-Hanover#1 900DM\ngreen @Berlin\n{PUBLIC}\n"
    "turn red stage=act roll=1 exact roadworks",
]
SPACES = sorted(BOARD.index)
CARDS = ["C01", "C04", "C10", "C11", "C20", "C21", "C44", "A01", "A07", "A13"]


def intents(colours: tuple[str, ...]) -> st.SearchStrategy[tuple[str, object]]:
    return st.one_of(
        st.tuples(st.just("press"), st.sampled_from(["ok", "back", "plus", "minus", "menu"])),
        st.tuples(st.just("scan"), st.sampled_from(CARDS)),
        st.tuples(st.just("bank"), st.sampled_from(colours)),
        st.tuples(st.just("tap"), st.sampled_from(SPACES)),
        st.tuples(st.just("place"), st.tuples(st.sampled_from(colours), st.sampled_from(BOARD.cities))),
    )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(), which=st.integers(0, len(POSITIONS) - 1), order=st.sampled_from(["any_order", "round_the_table"])
)
def test_random_intents_never_raise_and_every_refusal_is_shown(data: st.DataObject, which: int, order: str) -> None:
    t = AATable(POSITIONS[which], colours=COLOURS, rules={"auction_order": order})
    game = t.ctl.game
    pushed: list[tuple[object, IllegalAction | None]] = []
    real_push = game.push

    def recording_push(command: object):  # type: ignore[no-untyped-def]
        try:
            events = real_push(command)
        except IllegalAction as refusal:
            pushed.append((command, refusal))
            raise
        pushed.append((command, None))
        return events

    game.push = recording_push  # type: ignore[method-assign]
    for _ in range(data.draw(st.integers(5, 40))):
        kind, value = data.draw(intents(COLOURS))
        pushed.clear()
        match kind:
            case "press":
                t.press(str(value))
            case "scan":
                t.scan(str(value))
            case "bank":
                t.bank(str(value))
            case "tap":
                t.tap(str(value))
            case _:
                colour, city = cast(tuple[str, str], value)
                t.place(colour, city)
        refused = [r for _, r in pushed if r is not None]
        if pushed and pushed[-1][1] is not None:  # a refused command: the table shows why, with the rule
            assert t.ui.refusal is not None and t.ui.refusal.rule == refused[-1].rule
        assert t.ui.mode is not None and t.ctl.led_frame is not None
    assert t.ctl.prompt == settle(t.ctl.prompt, t.state)  # the prompt is always in line with the game


@pytest.mark.parametrize("text", POSITIONS[1:])
def test_step_is_pure_the_state_is_untouched(text: str) -> None:
    state = pos(text)
    prompt = settle(Idle(), state)
    for intent in (OK, BACK, PLUS, MINUS, MENU, ScanCard("C10"), ScanBank("blue"), Touch("Hamburg")):
        assert step(prompt, intent, state) == step(prompt, intent, state)
