"""Action cards, debts, the end and the ranking: AA-12, AA-22..24."""

from __future__ import annotations

from typing import Any

from companion.games.auf_achse.engine import (
    DrawAction,
    EndTurn,
    Move,
    OpenAuction,
    PassBid,
    PayDebt,
    PlaceSign,
    Roll,
    Sign,
    TakeSpare,
    TieBreak,
    Unload,
    apply,
)
from companion.games.auf_achse.engine import events as ev
from companion.games.auf_achse.engine.scoring import ranking, winners
from companion.games.auf_achse.engine.state import Debt, Waiting

from .conftest import pos
from .helpers import play, refused

# red ends on the triangle Alpha-Beta#2 with a roll of 1 and must draw.
DRAW = "red @Alpha-Beta#1 {red}\nblue @Gamma-Delta#4 {blue}\n"


def drawn(card: str, red: str = "", blue: str = "", **rules: Any):  # type: ignore[no-untyped-def]
    state = play(pos(DRAW.format(red=red, blue=blue), **rules), Roll("red", 1), Move("red", "Alpha-Beta#2"))
    return apply(state, DrawAction(card))


def test_aa12_pay_and_receive_go_through_the_bank() -> None:
    state, _ = drawn("A01")
    assert state.players[0].money == 4500 and state.bank_paid == 9500
    state, _ = drawn("A02")
    assert state.players[0].money == 6000


def test_aa12_receive_from_every_player_is_two_entries_each() -> None:
    state, events = drawn("A03")
    entries = [e.entry for e in events if isinstance(e, ev.MoneyBooked)]
    assert [(e.player, e.amount) for e in entries] == [("blue", -500), ("red", 500)]
    assert state.bank_paid == 10000  # no money from or to the bank


def test_aa12_pay_each_and_pay_per_good() -> None:
    state, _ = drawn("A04")
    assert [p.money for p in state.players] == [4500, 5500]
    state, _ = drawn("A05", red="loaded=C01,C05")  # 3 + 2 goods
    assert state.players[0].money == 4500


def test_aa12_miss_a_turn() -> None:
    state, _ = drawn("A06", blue="")
    state = play(state, EndTurn("red"), Roll("blue", 2), Move("blue", "Gamma-Delta#2"))
    state, events = apply(state, EndTurn("blue"))
    assert any(isinstance(e, ev.TurnMissed) and e.player == "red" for e in events)
    assert state.current.colour == "blue" and state.turn.round == 2  # red's round-2 turn was skipped


def test_aa12_stau_card_then_place_the_sign() -> None:
    state, _ = drawn("A07")
    assert state.awaiting is not None and state.awaiting.kind is Waiting.STAU
    refused(state, EndTurn("red"), "AA-11", "Stau")
    refused(state, PlaceSign("red", Sign.ROADWORKS, "Beta-Gamma#1"), "AA-11", "stau sign")
    refused(state, PlaceSign("red", Sign.STAU, "Beta-Flens#1"), "AA-11", "never be closed")
    state = play(state, PlaceSign("red", Sign.STAU, "Beta-Gamma#1"))
    assert state.stau == "Beta-Gamma#1" and state.stau_by == "red" and state.awaiting is None


def test_aa10_roadworks_card_moves_the_sign() -> None:
    state, _ = drawn("A08")
    state = play(state, PlaceSign("red", Sign.ROADWORKS, "Beta-Gamma#2"))
    assert state.roadworks == "Beta-Gamma#2"


def test_aa4_spare_contract_card_takes_a_leftover() -> None:
    state, _ = drawn("A09")
    assert state.awaiting is not None and state.awaiting.kind is Waiting.SPARE_CONTRACT
    spare = state.spare_left
    refused(state, TakeSpare("blue", "C30"), "AA-4", "take (scan)")
    state = play(state, TakeSpare("red", "C30"))
    assert state.players[0].hand == ("C30",) and state.spare_left == spare - 1


def test_aa22_a_player_who_cannot_pay_owes_the_rest() -> None:
    state, events = drawn("A01", red="200DM")
    red = state.players[0]
    assert red.money == 0 and red.debts == (Debt(None, 300),)
    assert any(isinstance(e, ev.DebtIncurred) for e in events)


def test_aa22_debts_are_settled_automatically_from_the_next_income() -> None:
    state = pos("red @Beta 0DM loaded=C01 debt=bank:300,blue:500\nblue @Gamma-Delta#4\nturn red stage=act")
    state = play(state, Unload("red", "C01"))
    red, blue = state.players
    assert red.money == 3000 - 800 and red.debts == () and blue.money == 5500


def test_aa22_house_rule_debts_paid_when_the_debtor_chooses() -> None:
    text = "red @Beta 0DM loaded=C01 debt=bank:300\nblue @Gamma-Delta#4\nturn red stage=act"
    state = play(pos(text, auto_settle_debts=False), Unload("red", "C01"))
    assert state.players[0].money == 3000 and state.players[0].debt == 300
    state = play(state, PayDebt("red"))
    assert state.players[0].money == 2700 and state.players[0].debts == ()
    refused(state, PayDebt("red"), "AA-22", "owes nothing")


def test_aa23_ends_when_no_public_contracts_and_someone_has_delivered_all() -> None:
    text = "red @Beta loaded=C01\nblue @Gamma-Delta#4 hand=C02\npublic hidden=0\nturn red stage=act"
    state, events = apply(pos(text), Unload("red", "C01"))
    assert state.finished and any(isinstance(e, ev.GameEnded) for e in events)
    refused(state, EndTurn("red"), "AA-23", "over")


def test_aa23_not_while_public_contracts_remain() -> None:
    text = "red @Beta loaded=C01\nblue @Gamma-Delta#4 hand=C02\npublic C10 hidden=0\nturn red stage=act"
    state = play(pos(text), Unload("red", "C01"))
    assert not state.finished


def test_aa23_the_order_does_not_matter_the_last_auction_can_end_it() -> None:
    # blue delivered everything earlier; the auction takes the last public card: the game ends.
    text = "red @Beta hand=C02\nblue @Gamma-Delta#4\npublic C10 hidden=0\nturn red stage=act exact"
    state = play(pos(text), OpenAuction("red", "C10"), PassBid("blue"))
    assert state.finished and state.end_reason is not None and "blue" in state.end_reason


def test_aa24_ranked_by_money_ties_share_debts_subtracted() -> None:
    text = "red @Beta 8000DM debt=bank:1000\nblue @Gamma-Delta#4 7000DM\ngreen @Alpha-Beta#1 7000DM"
    state = pos(text, ("red", "blue", "green"))
    assert [(s.place, s.player) for s in ranking(state)] == [(1, "red"), (1, "blue"), (1, "green")]
    state = pos(text.replace("8000DM", "9000DM"), ("red", "blue", "green"))
    assert [(s.place, s.player) for s in ranking(state)] == [(1, "red"), (2, "blue"), (2, "green")]


def test_aa24_house_rules_money_only_and_deliveries_break_ties() -> None:
    text = "red @Beta 8000DM debt=bank:1000\nblue @Gamma-Delta#4 8000DM done=C05"
    assert winners(pos(text, debts_count=False)) == ("red", "blue")
    assert winners(pos(text, debts_count=False, tie_break=TieBreak.DELIVERIES.value)) == ("blue",)
    assert winners(pos(text)) == ("blue",)


def test_aa22_chained_debts_settle_without_losing_track() -> None:
    # red owes blue twice; paying blue lets blue pay what he owes red, which pays red again
    # while red is still settling (found by the invariants: the debt list changed under the loop).
    text = "red @Beta 0DM loaded=C01 debt=blue:500,blue:500\nblue @Gamma-Delta#4 0DM debt=red:700\nturn red stage=act"
    state = play(pos(text), Unload("red", "C01"))
    red, blue = state.players[0], state.players[1]
    assert red.debts == () and blue.debts == ()
    assert red.money + blue.money == 3000  # the payout, no more and no less
    assert red.money == 3000 - 1000 + 700 and blue.money == 1000 - 700
    assert [p.money for p in state.players] == [state.ledger.balance(p.colour) for p in state.players]
