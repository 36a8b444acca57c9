"""The wizard step by step: what each intent does, BACK taking the last thing back, the LEDs, the check."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import replace

from companion.games.digitise.model import (
    CityMoved,
    FieldTapped,
    NameTyped,
    SaveFailed,
    SpaceTapped,
    Step,
    WizardState,
)
from companion.games.digitise.profile import profile
from companion.intents import ButtonName, ButtonPressed, CardScanned, CityTapped, TagLifted, TagPlaced
from companion.ledframe import CityLight
from companion.setup_box.machine import WizardIntent, enter, review, start, step
from companion.setup_box.view import leds, prompt
from companion.setup_box.words import words

OK, BACK, PLUS, MINUS, MENU = (ButtonPressed(ButtonName(b)) for b in ("ok", "back", "plus", "minus", "menu"))
NEXT = ButtonPressed(ButtonName.OK, long=True)
PREVIOUS = ButtonPressed(ButtonName.BACK, long=True)
M = "04AA0000000001"
OTW_CITIES = ("Poznań", "Warsaw", "Lviv", "Kyiv", "Kraków")


def shown(text: str) -> str:
    """A stored message as the English screen shows it."""
    return words("en").show(text)


def run(state: WizardState, intents: Iterable[WizardIntent]) -> WizardState:
    for intent in intents:
        state = step(state, intent)
        assert WizardState.from_json(json.loads(json.dumps(state.to_json()))) == state  # the codec is exact
    return state


def put(n: int) -> TagPlaced:
    return TagPlaced(f"channel {n}", M)


def otw_with_readers() -> WizardState:
    return run(start("on-the-way", "test", OTW_CITIES), [put(n) for n in range(5)] + [NEXT])


def otw_with_roads() -> WizardState:
    # Poznań–Warsaw–Lviv–Kyiv, Warsaw–Kraków–Lviv
    state = run(otw_with_readers(), [put(0), put(1), put(2), put(3), OK, put(1), put(4), put(2)])
    assert len(state.roads) == 5
    return state


def test_readers_take_the_named_city_and_back_frees_it() -> None:
    state = start("on-the-way", "test", OTW_CITIES)
    assert prompt(state).doing == "Put a marker on Poznań."
    state = run(state, [put(7), PLUS, put(3)])
    assert state.readers == (("channel 7", "Poznań"), ("channel 3", "Lviv"))
    assert state.flash == ("Lviv",) and leds(state).city("Lviv") is CityLight.EXPECTED
    assert leds(state).city("Poznań") is CityLight.HINT
    state = run(state, [put(7)])
    assert shown(state.message) == "That reader is already Poznań." and len(state.readers) == 2
    state = run(state, [BACK])
    assert state.cities == ("Poznań",) and prompt(state).doing == "Put a marker on Lviv."
    state = run(state, [NameTyped("Lutsk"), put(9), CityTapped("Kyiv"), put(10)])
    assert state.reader_map == {"channel 7": "Poznań", "channel 9": "Lutsk", "channel 10": "Kyiv"}
    assert shown(run(start("on-the-way", "t", ()), [put(1)]).message) == "Type the name of this city first."


def test_a_step_cannot_be_left_too_early() -> None:
    state = run(start("on-the-way", "test", OTW_CITIES), [put(0), NEXT])
    assert state.step is Step.READERS and "two cities" in shown(state.message)
    state = run(state, [put(1), NEXT, NEXT])
    assert state.step is Step.ROADS and "one road" in shown(state.message)
    assert run(state, [PREVIOUS]).step is Step.READERS


def test_roads_are_traced_as_a_chain_and_back_takes_the_last_one_back() -> None:
    state = otw_with_readers()
    state = run(state, [put(0)])
    assert state.head == "Poznań" and leds(state).city("Poznań") is CityLight.SELECTED
    state = run(state, [put(1)])
    assert [(r.a, r.b) for r in state.roads] == [("Poznań", "Warsaw")] and set(state.flash) == {"Poznań", "Warsaw"}
    state = run(state, [TagLifted("channel 1", M), CityTapped("Lviv")])  # a touch works as a marker
    assert len(state.roads) == 2 and state.head == "Lviv"
    state = run(state, [put(1)])  # back along a known road: no duplicate, the chain moves on
    assert len(state.roads) == 2 and state.head == "Warsaw"
    state = run(state, [BACK])  # the head is not the end of the last road: the chain is lifted
    assert state.head is None and len(state.roads) == 2
    state = run(state, [BACK])
    assert [(r.a, r.b) for r in state.roads] == [("Poznań", "Warsaw")] and state.head == "Warsaw"
    state = run(state, [put(0)])  # Warsaw–Poznań exists: the chain moves
    assert len(state.roads) == 1
    assert shown(run(state, [TagPlaced("channel 99", M)]).message).startswith("That reader has no city")


def test_auf_achse_roads_take_spaces_triangles_and_signs() -> None:
    cities = ("Hamburg", "Flensburg", "Bremen")
    state = run(start("auf-achse", "t", cities), [put(0), put(1), put(2), NEXT, put(0), put(1)])
    road = state.roads[-1]
    assert (road.a, road.b, road.spaces, road.signs) == ("Hamburg", "Flensburg", 2, True)
    state = run(state, [MINUS, MENU, MENU, PLUS])  # 1 space; focus: space 1, then signs; signs off
    assert (state.roads[-1].spaces, state.roads[-1].signs) == (1, False)
    state = run(state, [put(2), PLUS, PLUS, SpaceTapped(3), SpaceTapped(1), SpaceTapped(3), MENU, MENU, PLUS])
    road = state.roads[-1]
    assert (road.a, road.b, road.spaces, road.triangles) == ("Flensburg", "Bremen", 4, (1, 2))
    state = run(state, [MENU, MINUS, MINUS])  # focus on space 3 then spaces... cycles: 0 spaces? no: space 3
    assert state.roads[-1].triangles == (1, 2)
    state = run(state, [OK, PLUS])  # OK ends the road: PLUS no longer changes it
    assert state.roads[-1].spaces == 4 and not state.editing_road


def test_the_layout_places_every_city_and_keeps_dragged_ones() -> None:
    state = run(otw_with_roads(), [NEXT])
    assert state.step is Step.LAYOUT and {c for c, _, _ in state.positions} == set(OTW_CITIES)
    assert all(0 <= x <= 1 and 0 <= y <= 1 for _, x, y in state.positions)
    again = enter(replace(state, positions=()), Step.LAYOUT, profile("on-the-way"))
    assert again.positions == state.positions  # deterministic
    state = run(state, [CityMoved("Kyiv", 0.9, 0.5), OK])
    assert state.position("Kyiv") == (0.9, 0.5)
    turned = run(state, [PLUS])
    assert turned.position("Kyiv") == (0.5, 0.9)
    assert run(turned, [PLUS, PLUS, PLUS]).positions == state.positions
    state = run(state, [BACK])
    assert state.moved == () and state.position("Kyiv") != (0.9, 0.5)


def test_the_start_cities_are_prefilled_from_the_rulebook_and_toggled_by_a_marker() -> None:
    state = run(otw_with_roads(), [NEXT, NEXT])
    assert state.step is Step.SETUP
    assert state.setup_of(2) == ("Poznań", "Lviv") and state.setup_of(4) == ("Poznań", "Lviv")
    state = run(state, [PLUS, put(1)])  # Warsaw for 3+ players
    assert "Warsaw" in state.setup_of(3) and "Warsaw" in state.setup_of(4) and "Warsaw" not in state.setup_of(2)
    state = run(state, [MINUS, put(0)])  # Poznań off the 2-player list: off every list
    assert all("Poznań" not in state.setup_of(p) for p in (2, 3, 4))
    state = run(state, [BACK, BACK])
    assert state.setup_of(3) == ("Poznań", "Lviv")


def otw_contracts() -> WizardState:
    state = run(otw_with_roads(), [NEXT, NEXT, NEXT])
    assert state.step is Step.CONTRACTS
    return state


def test_a_contract_card_in_four_actions_when_it_is_on_the_scale() -> None:
    state = otw_contracts()
    assert shown(run(state, [OK]).message) == "Scan a contract card first."
    state = run(state, [CardScanned("04C1"), put(0), put(2)])  # Poznań -> Lviv: 2 roads
    form = state.form
    assert form is not None and form.focus == "trucks"
    assert form.card.as_dict == {"from": "Poznań", "to": "Lviv", "trucks": 2, "tier": "basic", "pay": 1500, "vp": 0}
    assert leds(state).city("Poznań") is CityLight.SELECTED
    state = run(state, [PLUS, PLUS])  # 4 trucks: the pay follows the scale
    assert state.form is not None and state.form.card.get("pay") == 2500
    state = run(state, [MENU, MENU, MINUS])  # the pay is 500 less than the scale on this card
    assert state.form is not None and state.form.focus == "pay" and state.form.card.get("pay") == 2000
    state = run(state, [MENU, MENU, PLUS])  # vp, then trucks again: 5 trucks; the pay stays as changed
    assert state.form is not None and state.form.card.get("pay") == 2000
    state = run(state, [OK])
    assert state.form is None and state.cards[0].id == "B01" and state.cards[0].uid == "04C1"
    assert set(state.flash) == {"Poznań", "Lviv"}


def test_back_takes_the_card_back_piece_by_piece_and_reopens_the_last_card() -> None:
    state = run(otw_contracts(), [CardScanned("04C1"), put(0), put(3)])  # Poznań -> Kyiv: 3 roads
    assert state.form is not None and state.form.card.get("tier") == "extended"
    state = run(state, [BACK])
    assert state.form is not None and state.form.card.get("to") is None
    state = run(state, [put(2), FieldTapped("tier"), PLUS, OK])  # the printed tier is the authority
    assert state.cards[0].id == "X01" and state.cards[0].get("tier") == "extended"
    state = run(state, [CardScanned("04C2"), BACK])  # no city yet: the card is taken back
    assert state.form is None and state.card_by_uid("04C2") is None
    state = run(state, [BACK])  # reopen the last card
    assert state.form is not None and state.form.original is not None
    state = run(state, [FieldTapped("tier"), MINUS, OK])
    assert [c.id for c in state.cards] == ["B01"]
    state = run(state, [CardScanned("04C1")])  # scanning a known card opens it for a correction
    assert state.form is not None and state.form.card.id == "B01"
    assert shown(run(state, [CardScanned("04C9")]).message).startswith("Confirm the card in hand")
    assert run(state, [BACK]).cards == state.cards  # BACK leaves a reopened card as it was


def test_a_card_between_unconnected_cities_cannot_be_confirmed() -> None:
    state = run(otw_contracts(), [CardScanned("04C1"), put(0), put(0)])
    assert state.form is not None and state.form.card.get("to") is None  # a new city pair starts over
    state = run(state, [PREVIOUS])
    assert state.step is Step.CONTRACTS and "Confirm the card in hand" in shown(state.message)


def test_event_cards_follow_the_previous_kind_and_a_jam_takes_a_road() -> None:
    state = run(otw_contracts(), [NEXT])
    assert state.step is Step.EVENTS
    state = run(state, [CardScanned("04E1"), PLUS, OK])  # bonus -> malus, amount 500
    assert state.cards[0].as_dict == {"kind": "malus", "amount": 500} or state.cards[0].get("kind") == "malus"
    state = run(state, [CardScanned("04E2"), OK])  # the same as the last: scan and OK
    assert state.cards[-1].get("kind") == "malus" and state.cards[-1].id == "E02"
    state = run(state, [CardScanned("04E3"), MINUS, MINUS, OK])  # malus -> bonus -> traffic_jam
    assert state.form is not None and "markers on the two cities" in shown(state.message).lower()
    state = run(state, [put(0), put(3), OK])  # Poznań–Kyiv is no road
    assert state.form is not None and "no road" in shown(state.message)
    state = run(state, [BACK, put(1), OK])
    assert state.cards[-1].get("road") == ("Poznań", "Warsaw")
    assert run(state, [CardScanned("04E1")]).form is not None


def test_the_check_lists_problems_and_the_rulebooks_facts_then_saves() -> None:
    state = run(otw_contracts(), [NEXT, NEXT])
    assert state.step is Step.CHECK
    assert any("2 players start on 6 cities" in p for p in map(shown, state.problems))
    assert any("the rulebook names" in w for w in map(shown, state.warnings))
    assert any("OTW-34" in w for w in map(shown, state.warnings))
    draft = run(state, [OK])  # problems left: OK keeps the box as a draft, nothing is lost
    assert draft.step is Step.DONE and draft.draft and draft.problems == state.problems
    assert prompt(draft).title == "Kept as a draft" and "draft" in prompt(draft).doing
    assert run(draft, [PREVIOUS]).step is Step.CHECK  # and the wizard goes on from the check
    fixed = replace(state, setup=((2, ("a",) * 0),))
    problems, _ = review(fixed, profile("on-the-way"))
    assert problems
    failed = run(replace(state, step=Step.DONE), [SaveFailed(("x.toml:3: roads: bad",))])
    assert failed.step is Step.CHECK and failed.problems == ("x.toml:3: roads: bad",)
    assert run(failed, [PREVIOUS]).step is Step.EVENTS


def test_every_step_has_a_prompt() -> None:
    state = otw_contracts()
    for target in Step:
        shown = prompt(replace(state, step=target))
        assert shown.title and shown.doing
    shown = prompt(run(state, [CardScanned("04C1"), put(0)]))
    assert ("from", "Poznań", False) in shown.form and any(focused for _, _, focused in shown.form)


def test_at_a_desk_cities_need_no_reader_and_cards_no_tag() -> None:
    from companion.setup_box.writer import tags_toml

    state = run(start("on-the-way", "desk", ("Poznań", "Warsaw")), [OK, NameTyped("Lviv"), OK, OK])
    assert state.readers == (("Poznań", "Poznań"), ("Lviv", "Lviv"), ("Warsaw", "Warsaw"))
    state = run(state, [NEXT, CityTapped("Poznań"), TagPlaced("Warsaw", M), CityTapped("Lviv"), NEXT, NEXT, NEXT])
    assert len(state.roads) == 2 and state.step is Step.CONTRACTS
    state = run(state, [MENU, CityTapped("Poznań"), CityTapped("Lviv"), OK])
    assert state.cards[0].uid == "untagged-1" and state.cards[0].id == "B01"
    assert "untagged" not in tags_toml(state)


def test_the_layout_of_a_few_cities() -> None:
    from companion.setup_box.layout import stress_layout

    assert stress_layout([], []) == {}
    assert stress_layout(["Kiel"], []) == {"Kiel": (0.5, 0.5)}
    two = stress_layout(["Kiel", "Lübeck"], [])
    assert two["Kiel"] != two["Lübeck"]
    fixed = stress_layout(["Kiel", "Lübeck", "Hamburg"], [("Kiel", "Lübeck"), ("Lübeck", "Hamburg")],
                          {"Kiel": (0.2, 0.2), "Hamburg": (0.8, 0.8)})  # fmt: skip
    assert fixed["Kiel"] == (0.2, 0.2) and fixed["Hamburg"] == (0.8, 0.8)
    assert 0.3 < fixed["Lübeck"][0] < 0.7
