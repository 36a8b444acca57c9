"""Controller scenarios around the typed prompts: the payout the offer shows is the one the engine books
(OTW-30), the previous player's half-formed transport does not survive the turn, a journal failure
leaves the prompt as it was."""

from __future__ import annotations

import pytest

from companion.games.on_the_way.engine.queries import payout
from companion.table.ui import Mode

from .conftest import DECK, Table

READY = "cities Warsaw=W0\nred B01 1:Warsaw:2:B01\ntime 1 event={event}"


@pytest.mark.parametrize(("event", "change"), [("E13", 0), ("E01", +500), ("E05", -500)])  # none, bonus, malus
def test_otw30_the_fulfil_offer_shows_what_the_bank_then_pays(event: str, change: int) -> None:
    b01 = DECK.contract("B01")
    assert b01 is not None
    t = Table(READY.format(event=event))
    quoted = payout(t.state, "B01")
    assert quoted is not None and quoted.amount == b01.pay + change
    t.press("ok")
    assert t.ui.mode is Mode.CONFIRM and t.ui.offer == "B01"
    shown = f"{quoted.amount:,}".replace(",", " ") + " R"
    assert shown in t.ui.prompt
    before = t.state.players[0].money
    t.press("ok")
    assert t.state.players[0].money - before == quoted.amount


def test_otw15_a_new_transport_left_forming_does_not_carry_into_the_next_turn() -> None:
    t = Table("cities Poznań=W3 Warsaw=W2")
    t.place("red", 2, "Poznań")
    assert t.ui.mode is Mode.FORMING
    t.press("menu")
    for _ in range(3):  # build warehouse, build logistics centre, expand, END TURN
        t.press("plus")
    t.press("ok")
    assert t.state.current.colour == "blue"
    assert t.ui.mode is Mode.MISMATCH and t.ui.prompt == "Take red marker 2 off Poznań"
    t.lift("red", 2, "Poznań")
    t.place("blue", 1, "Warsaw")  # blue can start his own transport
    assert t.ui.mode is Mode.FORMING and t.ui.lifted == ("blue", 1)


@pytest.mark.allow_error_logs  # the base logs the failed journal write
def test_a_journal_failure_keeps_the_prompt_and_says_so() -> None:
    def failing(command: object) -> None:
        raise OSError("disk full")

    t = Table("cities Warsaw=W0\nred B01 1:Warsaw:2:B01", on_command=failing)
    t.press("ok")
    assert t.ui.mode is Mode.CONFIRM
    before = t.state
    t.press("ok")
    assert t.state.players == before.players  # taken back (the ledger shows the reversal)
    assert t.ui.mode is Mode.CONFIRM and t.ui.offer == "B01"  # nothing happened: the question stands
    assert t.ui.refusal is not None and t.ui.refusal.rule == "journal"
