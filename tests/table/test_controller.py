"""Table controller scenarios driven by intents (table.md, action by action; rule ids cited)."""

from __future__ import annotations

from companion.intents import TagPlaced
from companion.ledframe import CityLight
from companion.table.ui import Mode

from .conftest import DECK, Table


def hinted(t: Table) -> set[str]:
    return {c for c, light in t.ctl.led_frame.cities if light is CityLight.HINT}


def test_otw18_lifting_a_marker_lights_exactly_the_reachable_cities() -> None:
    t = Table("cities Warsaw=W2\nred 1:Poznań:2")
    t.lift("red", 1, "Poznań")
    assert t.ui.mode is Mode.LIFTED
    neighbours = set(t.state.board.neighbours["Poznań"])
    assert "Lviv" in t.ui.hints  # through Warsaw's warehouse and 2 idle trucks
    assert neighbours <= t.ui.hints
    assert hinted(t) == set(t.ui.hints)
    t.place("red", 1, "Lviv")
    red = t.state.players[0]
    assert [(x.city, x.trucks) for x in red.transports] == [("Lviv", 2)]
    assert t.ui.mode is Mode.IDLE and not hinted(t)
    assert "red marker 1 → Lviv" in t.ui.message


def test_otw18_a_refused_move_changes_nothing_until_the_marker_is_back() -> None:
    t = Table("cities Warsaw=W1\nred 1:Poznań:2")
    before = t.state
    t.lift("red", 1, "Poznań")
    assert "Lviv" not in t.ui.hints
    t.place("red", 1, "Lviv")
    assert t.state is before
    assert t.ui.refusal is not None and t.ui.refusal.rule == "OTW-18"
    assert "Warsaw has 1 truck idle" in t.ui.refusal.message
    assert t.ui.mode is Mode.MISMATCH and t.ui.prompt == "Put red marker 1 back on Poznań"
    assert t.ctl.led_frame.city("Poznań") is CityLight.EXPECTED
    t.scan("B01")  # nothing else is accepted while the table is wrong
    assert t.state is before
    t.move("red", 1, "Lviv", "Poznań")
    assert t.ui.mode is Mode.IDLE and t.state is before


def test_lift_and_put_back_is_no_move() -> None:
    t = Table("red 1:Poznań:1")
    before = t.state
    t.move("red", 1, "Poznań", "Poznań")
    assert t.state is before and t.ui.mode is Mode.IDLE


def test_sliding_a_marker_across_cities_moves_nothing_until_it_settles() -> None:
    t = Table("cities Warsaw=W2\nred 1:Poznań:2")
    before = t.state
    t.lift("red", 1, "Poznań")
    for city in ("Warsaw", "Lviv", "Warsaw"):  # slid over, never resting 0.35 s
        t.place("red", 1, city, settle=False)
        t.later(0.1)
        t.lift("red", 1, city)
    assert t.state is before
    t.place("red", 1, "Lviv", settle=False)
    t.later(0.2)
    assert t.state is before  # still settling
    t.later(0.2)
    assert t.state.players[0].transport(1).city == "Lviv"


def test_otw15_new_transport_with_plus_minus_then_a_move() -> None:
    t = Table("cities Poznań=W3 Warsaw=-0")
    t.place("red", 1, "Poznań")
    assert t.ui.mode is Mode.FORMING
    assert t.ui.trucks == 1
    t.press("plus")
    t.press("plus")
    t.press("plus")  # capped at the 3 idle trucks
    assert t.ui.trucks == 3
    t.press("minus")
    assert t.ui.trucks == 2 and t.ui.choice == "2 trucks"
    assert "Warsaw" in t.ui.hints and "Lviv" not in t.ui.hints  # Warsaw: no building now
    t.move("red", 1, "Poznań", "Warsaw")
    red = t.state.players[0]
    assert [(x.marker, x.city, x.trucks) for x in red.transports] == [(1, "Warsaw", 2)]
    assert t.state.idle_at("Poznań") == 1


def test_otw15_no_idle_trucks_no_transport() -> None:
    t = Table("cities Warsaw=-0")
    t.place("red", 2, "Warsaw")
    assert t.ui.refusal is not None and t.ui.refusal.rule == "OTW-15"
    assert t.ui.mode is Mode.MISMATCH and t.ui.prompt == "Take red marker 2 off Warsaw"


def test_otw12_scan_takes_a_contract_and_otw22_fulfil_pays() -> None:
    b01 = DECK.contract("B01")
    assert b01 is not None and b01.distance == 2
    t0 = Table()
    mid = _path(t0, b01.origin, b01.destination)[1]
    t = Table(f"cities {mid}=-0 {b01.destination}=-0\nred 1:{b01.origin}:{b01.trucks}")
    t.scan("B01")
    assert t.state.players[0].contracts == ("B01",)
    assert "Red took B01" in t.ui.message
    t.move("red", 1, b01.origin, mid)  # the second step: blue's turn
    assert t.state.current.colour == "blue"
    t.press("ok")
    assert t.ui.mode is Mode.CONFIRM and "End Blue's turn" in t.ui.prompt
    t.press("ok")
    t.move("red", 1, mid, b01.destination)
    assert t.ui.mode is Mode.CONFIRM and t.ui.offer == "B01"
    t.press("ok")
    assert t.state.players[0].money == 1000 + b01.pay
    assert t.ui.mode is Mode.MISMATCH and t.ui.prompt == f"Take red marker 1 off {b01.destination}"
    t.lift("red", 1, b01.destination)
    assert t.ui.mode is Mode.IDLE


def _path(t: Table, a: str, b: str) -> list[str]:
    board = t.state.board
    dist = board.distances_from(b)
    path = [a]
    while path[-1] != b:
        path.append(min(board.neighbours[path[-1]], key=lambda c: dist[c]))
    return path


def test_otw21_fulfil_by_rescanning_the_card() -> None:
    card = DECK.contract("B02")
    assert card is not None
    t = Table(f"cities {card.destination}=W0\nred B02 1:{card.destination}:{card.trucks}:B02")
    t.scan("B02")
    assert t.state.players[0].contracts == ()
    assert t.state.players[0].money == 1000 + card.pay


def test_otw23_build_through_the_menu_with_city_selection() -> None:
    t = Table("red 5000R")
    t.press("menu")
    assert t.ui.mode is Mode.MENU and t.ui.choice == "Build a warehouse (3 000 R)"
    t.press("ok")
    assert t.ui.mode is Mode.SELECT_CITY
    assert "Warsaw" in t.ui.hints and "Poznań" not in t.ui.hints  # Poznań already has a warehouse
    first = t.ui.selected
    t.press("plus")
    assert t.ui.selected != first
    assert t.ctl.led_frame.city(t.ui.selected) is CityLight.SELECTED
    t.tap("Warsaw")
    assert t.ui.selected == "Warsaw"
    t.press("ok")
    assert t.state.building_at("Warsaw").value == "warehouse"
    assert t.state.players[0].money == 2000
    assert "put 1 truck there" in t.ui.message


def test_otw23_menu_explains_why_nothing_can_be_built() -> None:
    t = Table()
    t.press("menu")
    t.press("ok")
    assert t.ui.refusal is not None and t.ui.refusal.rule == "OTW-23"
    assert "costs 3 000 R" in t.ui.refusal.message


def test_otw28_event_card_due_and_scanned() -> None:
    card = DECK.contract("B01")
    assert card is not None
    t = Table(f"cities {card.destination}=W0\nred B01 1:{card.destination}:{card.trucks}:B01\ntime 0 strip=X01,X02")
    t.scan("B01")
    t.lift("red", 1, card.destination)
    assert t.ui.mode is Mode.EVENT_DUE
    t.scan("B04")
    assert t.ui.refusal is not None and t.ui.refusal.rule == "OTW-28"
    t.scan("E13")  # extra step
    assert t.state.event == "E13" and t.state.time == 1
    assert t.ctl.led_frame.time == 1 and t.ctl.led_frame.event_kind == "extra_step"
    assert t.state.steps_left == 2  # OTW-29: applies at once


def test_back_undoes_within_the_turn_and_asks_for_the_marker_back() -> None:
    t = Table("red 1:Poznań:1")
    t.move("red", 1, "Poznań", "Warsaw")
    assert t.state.players[0].transport(1).city == "Warsaw"
    balance = t.state.ledger.size
    t.press("back")
    assert t.state.players[0].transport(1).city == "Poznań"
    assert t.ui.mode is Mode.MISMATCH and t.ui.prompt == "Put red marker 1 back on Poznań"
    t.move("red", 1, "Warsaw", "Poznań")
    assert t.ui.mode is Mode.IDLE and t.state.ledger.size == balance


def test_back_does_not_reach_into_the_previous_turn() -> None:
    t = Table()
    t.press("ok")
    t.press("ok")  # red passes
    assert t.state.current.colour == "blue"
    t.press("back")
    assert t.state.current.colour == "blue"
    assert t.ui.message == "Nothing to undo this turn"


def test_cancel_by_holding_the_marker_over_the_card_reader() -> None:
    t = Table("cities Warsaw=0\nred 1:Warsaw:2")
    t.lift("red", 1, "Warsaw")
    uid = t.uid("red", 1)
    from companion.intents import CardScanned

    t.ctl.handle(CardScanned(uid), t.now)
    assert t.ui.mode is Mode.CONFIRM and "Cancel red transport 1 at Warsaw" in t.ui.prompt
    t.press("ok")
    assert t.state.players[0].transports == () and t.state.idle_at("Warsaw") == 2
    assert t.ui.mode is Mode.IDLE


def test_wrong_players_marker_and_unknown_tags_are_prompted_not_played() -> None:
    t = Table("blue 1:Poznań:1")
    before = t.state
    t.move("blue", 1, "Poznań", "Warsaw")  # it is red's turn
    assert t.state is before
    assert t.ui.mode is Mode.MISMATCH and t.ui.prompt == "Put blue marker 1 back on Poznań"
    t.move("blue", 1, "Warsaw", "Poznań")
    t.ctl.handle(TagPlaced("Riga", "DEADBEEF"), t.now)
    t.later()
    assert t.ui.prompt == "Take the unknown tag off Riga"
    assert "DEADBEEF" in t.ui.message


def test_led_frame_sent_only_when_it_changes() -> None:
    t = Table("red 1:Poznań:1")
    n = len(t.leds.frames)
    t.later()
    t.later()
    assert len(t.leds.frames) == n
    t.lift("red", 1, "Poznań")
    assert len(t.leds.frames) == n + 1
    assert t.leds.frames[-1].seat == 0


def test_czech_messages_from_the_same_catalogue() -> None:
    t = Table("red 1:Poznań:1", language="cs")
    t.lift("red", 1, "Poznań")
    t.place("red", 1, "Riga")
    assert t.ui.prompt == "Vrať figurku 1 (červená) na Poznań"  # the colour in Czech too


def test_a_czech_table_explains_a_refusal_in_czech_with_the_rule_id() -> None:
    t = Table("cities Warsaw=W1\nred 1:Poznań:2", language="cs")
    t.move("red", 1, "Poznań", "Lviv")
    assert t.ui.refusal is not None and t.ui.refusal.rule == "OTW-18"
    assert t.ui.refusal.message.startswith("Překládka jen přes město")
