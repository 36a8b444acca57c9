"""Auf Achse at the table, driven by intents (rule ids cited)."""

from __future__ import annotations

import pytest

from companion.games.auf_achse.engine.serialize import view_for
from companion.ledframe import CityLight
from companion.table.ui import Mode

from .conftest import AATable

PUBLIC = "public C10,C11,C12,C13"


def test_aa2_aa4_aa5_setup_at_the_table_keeps_private_contracts_secret() -> None:
    t = AATable(None)
    assert t.ui.mode is Mode.SELECT_SPACE and t.ui.player == "red"
    assert t.ui.selected is not None and not t.state.board.is_city(t.ui.selected)
    assert t.lit(CityLight.HINT) == set()  # plain spaces have no LEDs
    t.press("ok")  # red's truck on the first free plain space
    t.tap("Hamburg-Bremen#1")  # a touch on the map picks blue's space
    assert t.ui.selected == "Hamburg-Bremen#1"
    t.press("ok")
    assert t.state.players[1].space == "Hamburg-Bremen#1"
    assert t.ui.mode is Mode.SETUP and t.ui.prompt == "Red: scan your 3 private contracts (0/3)"
    shown: list[str] = []
    for card in ("C01", "C02", "C03"):
        t.scan(card)
        shown += [t.ui.prompt, t.ui.message, t.ui.detail]
    assert t.ui.prompt == "Blue: scan your 3 private contracts (0/3)"
    t.bank("blue")  # whoever scans his bank card is dealt to next
    for card in ("C04", "C05", "C06"):
        t.scan(card)
        shown += [t.ui.prompt, t.ui.message]
    assert t.state.players[0].hand == ("C01", "C02", "C03") and t.state.players[1].hand == ("C04", "C05", "C06")
    assert not any(c in text for text in shown for c in ("C01", "C02", "C03", "C04", "C05", "C06"))
    assert "Red took a private contract (3/3)" in shown
    shared = view_for(t.state, None)
    assert [p["hand"] for p in shared["players"]] == [3, 3]  # type: ignore[index]
    t.scan("C07")  # hands full: now the face-up public contracts
    assert t.state.public == ("C07",) and "C07" in t.ui.message
    for card in ("C08", "C09", "C10"):
        t.scan(card)
    assert t.ui.mode is Mode.SETUP and t.ui.choices == ("Red", "Blue")  # the players by name
    t.press("plus")
    t.press("ok")  # blue rolled highest (AA-5)
    assert t.state.current.colour == "blue" and t.ui.mode is Mode.ROLL


def test_aa7_die_entered_with_plus_minus_then_ok_and_back_undoes_the_roll() -> None:
    t = AATable(f"red @Hamburg-Bremen#1\nblue @Berlin\n{PUBLIC}")
    t.press("ok")  # no value yet: nothing happens
    assert t.state.turn.roll is None and t.ui.mode is Mode.ROLL
    t.press("minus")  # MINUS starts from 6
    assert t.ui.die == 6 and "Red rolled 6?" in t.ui.prompt
    t.press("minus", 3)
    assert t.ui.die == 3
    t.press("ok")
    assert t.state.turn.roll == 3 and t.ui.mode is Mode.MOVE and t.ui.die == 3
    assert "Flensburg" in t.ui.hints
    assert t.lit(CityLight.HINT) | t.lit(CityLight.SELECTED) == {c for c in t.ui.hints if t.state.board.is_city(c)}
    t.press("back")  # undo the roll (within the turn)
    assert t.state.turn.roll is None and "Undone: roll 3" in t.ui.message


def test_aa7_menu_roll_for_me_uses_the_engines_seeded_die() -> None:
    t = AATable(f"red @Hamburg-Bremen#1\nblue @Berlin\n{PUBLIC}")
    t.press("menu")
    assert t.ui.mode is Mode.MENU and t.ui.choice == "Roll for me"
    t.press("ok")
    assert t.state.turn.roll is not None and t.state.rolls == 1
    assert "(the companion's die)" in t.ui.message


def test_aa7_a_plain_space_is_chosen_on_screen_and_the_truck_must_leave_its_city() -> None:
    t = AATable(f"red @Hamburg\nblue @Berlin\n{PUBLIC}\nturn red roll=1")
    assert t.ui.mode is Mode.MOVE
    candidates = set(t.ui.hints)
    assert candidates == {"Hamburg-Berlin#1", "Hamburg-Bremen#1", "Hamburg-Flensburg#1", "Hamburg-Hanover#1"}
    t.press("plus")
    target = t.ui.selected
    assert target in candidates
    t.press("ok")
    assert t.state.players[0].space == target
    towards = target.partition("-")[2].partition("#")[0]  # the space named as a person would, not by its id
    expected = f"Take the red truck off Hamburg: it stands on the 1st space from Hamburg towards {towards}"
    assert t.ui.mode is Mode.MISMATCH and t.ui.prompt == expected
    assert t.lit(CityLight.EXPECTED) == {"Hamburg"}
    t.lift("red", "Hamburg")
    assert t.ui.mode is Mode.IDLE


def test_aa14_aa16_arriving_in_a_city_offers_load_and_unload() -> None:
    # C04 Berlin→Klagenfurt (4 goods), C44 Berlin→Flensburg (5 goods): both start in Berlin.
    t = AATable(f"red @Hamburg-Berlin#4 hand=C04,C44\nblue @Hamburg\n{PUBLIC}\nturn red roll=1")
    t.place("red", "Berlin")  # the truck tag arrives on Berlin's reader
    assert t.state.players[0].space == "Berlin"
    assert t.ui.mode is Mode.CHOOSE and t.ui.prompt == "Red in Berlin: load or unload?"
    assert t.ui.choices == ("Load C04 Berlin→Klagenfurt (4 goods)", "Load C44 Berlin→Flensburg (5 goods)")
    t.press("ok")
    assert t.state.players[0].loaded == ("C04",)
    assert t.ui.choices == ("Load C44 (5 goods) — needs a trailer",)  # 4 + 5 > 6 (AA-15)
    t.press("ok")
    assert t.ui.refusal is not None and t.ui.refusal.rule == "AA-15"
    t.press("back")
    assert t.ui.mode is Mode.IDLE
    # C21 Venice→Hamburg: unloading pays out through the bank.
    t = AATable(f"red @Hamburg-Bremen#1 loaded=C21\nblue @Berlin\n{PUBLIC}\nturn red roll=1")
    t.place("red", "Hamburg")
    assert t.ui.choices == ("Unload C21 → Hamburg: +6 500 DM",)
    t.press("ok")
    assert t.state.players[0].money == 5000 + 6500 and t.state.ledger.last.rule == "AA-16"
    t.press("ok")  # nothing left to load or unload: OK asks to end the turn
    assert t.ui.mode is Mode.CONFIRM and t.ui.prompt == "End Red's turn?"
    t.press("ok")
    assert t.state.current.colour == "blue"


def test_scanning_a_contract_in_its_start_city_loads_it() -> None:
    t = AATable(f"red @Berlin hand=C04\nblue @Hamburg\n{PUBLIC}\nturn red stage=act roll=2")
    t.scan("C04")
    assert t.state.players[0].loaded == ("C04",)


def test_aa12_an_action_card_is_scanned_and_applied_to_the_bank() -> None:
    t = AATable(f"red @Hamburg-Berlin#1\nblue @Hamburg\n{PUBLIC}\nturn red roll=1")
    t.tap("Hamburg-Berlin#2")  # a warning triangle
    assert t.ui.selected == "Hamburg-Berlin#2"
    t.press("ok")
    assert t.ui.mode is Mode.CARD_DUE and t.ui.prompt == "Red: draw an action card and scan it"
    t.scan("A13")
    assert t.state.players[0].money == 7000 and "Haulier of the year" in t.ui.message


def test_aa17_trailers_are_bought_from_the_menu() -> None:
    t = AATable(f"red @Berlin\nblue @Hamburg\n{PUBLIC}\nturn red stage=act roll=2")
    t.press("menu")
    labels = t.ui.choices
    t.press("plus", labels.index("Buy a large trailer (6 goods, 3 000 DM)"))
    t.press("ok")
    red = t.state.players[0]
    assert red.capacity == 12 and red.money == 2000 and "bought a large trailer" in t.ui.message


def test_aa10_roadworks_after_a_one_from_the_menu() -> None:
    t = AATable(f"red @Berlin\nblue @Hamburg\n{PUBLIC}\nturn red stage=act roll=1 roadworks")
    t.press("menu")
    t.press("plus", t.ui.choices.index("Place the roadworks sign"))
    t.press("ok")
    assert t.ui.mode is Mode.SELECT_SPACE and t.ui.selected is not None
    t.tap("Hamburg-Bremen#2")
    t.press("ok")
    assert t.state.roadworks == "Hamburg-Bremen#2"


def test_both_games_implement_the_game_table_protocol_and_run_in_a_session() -> None:
    import queue

    from companion.table.base import GameTable
    from companion.table.session import TableSession
    from tests.table.conftest import Table

    aa, otw = AATable(f"red @Berlin\nblue @Hamburg\n{PUBLIC}"), Table()
    for controller in (aa.ctl, otw.ctl):
        assert isinstance(controller, GameTable)
        session = TableSession(controller, None, queue.Queue())
        assert session.step(1.0) == 0 and session.controller.led_frame is controller.led_frame
    assert aa.ctl.led_frame.time is None and aa.ctl.led_frame.event_kind is None  # no time track in Auf Achse


def test_the_menu_switches_the_language_of_the_auf_achse_table() -> None:
    t = AATable(f"red @Berlin\nblue @Hamburg\n{PUBLIC}\nturn red stage=act roll=2")
    t.press("menu")
    t.press("minus")  # the last item: Advice
    assert t.ui.choice == "Advice"
    t.press("minus")  # the one before it: the language
    assert t.ui.choice == "Čeština"
    t.press("ok")
    assert t.ui.prompt == "Červený: nakládka, vykládka, dražba, nákup — OK ukončí tah"


def test_menu_advice_at_the_auf_achse_table_thinks_then_says_what_to_do() -> None:
    """MENU → Advice: "thinking" at once, the advisor's sentence with its chance a frame later; the game
    itself is not touched (the advice is read-only)."""
    t = AATable(f"red @Berlin hand=C01\nblue @Hamburg hand=C02\n{PUBLIC} hidden=8\nturn red stage=act roll=2")
    depth = t.ctl.game.depth
    t.press("menu")
    t.press("minus")  # the last item
    assert t.ui.choice == "Advice"
    t.press("ok")
    assert t.ui.message == "Thinking about the best action…" and t.ctl.next_deadline() is not None
    shown = t.think()
    shares = [int(m.split()[-2]) for m in shown if m.startswith("Thinking about the best action… ")]
    assert shares and shares == sorted(shares) and 0 < max(shares) <= 100, shown  # it went on, never back
    # The other seat is a person: the chance against a person (medium's map, chances.py), said as one.
    assert "win chance" in t.ui.message and "%" in t.ui.message and "Thinking" not in t.ui.message
    assert t.ctl.game.depth == depth and t.ctl.next_deadline() is None


def test_menu_advice_is_not_given_for_a_position_that_has_passed() -> None:
    """Asked, then the player acts before the search runs: no advice for the old position, and the
    "thinking" line does not stay on the screen."""
    t = AATable(f"red @Berlin hand=C01\nblue @Hamburg hand=C02\n{PUBLIC} hidden=8\nturn red stage=act roll=2")
    asked = t.ctl.game.depth
    t.press("menu")
    t.press("minus")
    t.press("ok")
    t.press("menu")
    t.press("minus", 3)  # past Advice and the language to End turn
    assert t.ui.choice == "End turn"
    t.press("ok")
    t.press("ok")  # confirm
    moved = t.ctl.game.depth
    assert moved > asked and t.state.current.colour == "blue"  # red's turn ended before the search ran
    t.later(0.05)
    assert t.ctl.game.depth == moved and "win chance" not in t.ui.message and "trial runs" not in t.ui.message
    assert t.ui.message != "Thinking about the best action…"


def test_menu_advice_tells_a_win_chance_against_the_boxs_bot_where_a_map_was_fitted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # With a map for the box's bot level (companion/games/calibration.py) the lead share becomes a
    # chance of winning the game, said as one; without one the lead share is said as what it is.
    from companion import games
    from companion.games.auf_achse.bots import chances
    from companion.games.auf_achse.bots.advisor import advise
    from companion.games.calibration import Logistic
    from companion.games.seats import bot_player

    monkeypatch.setattr(chances, "MAPS", {(2, "easy"): Logistic(1.5, 1.0)})
    position = f"red @Berlin hand=C01\nblue @Hamburg hand=C02\n{PUBLIC} hidden=8\nturn red stage=act roll=2"
    for level, said in (("easy", "win chance"), ("medium", "of the trial runs")):
        t = AATable(position, bot=bot_player(games.get("auf-achse"), {"blue": level}, seed=0))
        t.ctl.advice_budget_s = 0.2
        t.press("menu")
        t.press("minus")
        t.press("ok")
        t.think()
        assert said in t.ui.message, (level, t.ui.message)
        top = advise(t.ctl.state, None, budget_s=0.2, seed=t.ctl.game.depth, opponents={"blue": level})[0]
        percent = round((top.chance if top.chance is not None else top.win_rate) * 100)
        assert f"{percent} %" in t.ui.message and (top.chance is None) == (level == "medium")
