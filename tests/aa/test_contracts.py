"""Contracts and cargo: AA-13..17."""

from __future__ import annotations

from companion.games.auf_achse.engine import BuyTrailer, EndTurn, Load, Roll, TrailerSize, Unload, apply
from companion.games.auf_achse.engine import events as ev
from companion.games.auf_achse.engine.queries import cargo_options
from companion.games.auf_achse.engine.state import TRAILERS

from .conftest import pos
from .helpers import play, refused

# C01 Alpha→Beta 3 goods 3000; C02 Alpha→Gamma 4 goods 4000; C03 Alpha→Delta 5 goods 5000;
# C05 Beta→Gamma 2 goods 3000; C06 Beta→Delta 3 goods; C13 Alpha→Beta 5 goods.
AT_ALPHA = "red @Alpha hand=C01,C02,C03 9000DM\nblue @Gamma-Delta#4\nturn red stage=act"


def test_aa13_a_contract_card_has_start_end_goods_and_payout() -> None:
    card = pos(AT_ALPHA).config.contract("C01")
    assert card is not None
    assert (card.start, card.end, card.goods, card.payout) == ("Alpha", "Beta", 3, 3000)
    assert len(card.costs) == 5 and list(card.costs) == sorted(card.costs)


def test_aa14_load_only_at_the_start_city_after_moving() -> None:
    state = pos(AT_ALPHA.replace("stage=act", ""))
    refused(state, Load("red", "C01"), "AA-6", "roll and move")
    state = pos(AT_ALPHA.replace("@Alpha", "@Alpha-Beta#1"))
    refused(state, Load("red", "C01"), "AA-14", "loads in Alpha")
    refused(pos(AT_ALPHA), Load("red", "C05"), "AA-14", "not one of his")


def test_aa14_several_contracts_at_once_and_the_card_is_laid_open() -> None:
    state = play(pos(AT_ALPHA), Load("red", "C01"))
    assert state.current.hand == ("C02", "C03") and state.current.loaded == ("C01",)
    assert state.current.load == (3,)
    refused(state, Load("red", "C01"), "AA-14", "already loaded")


def test_aa15_goods_travel_whole_or_not_at_all() -> None:
    state = play(pos(AT_ALPHA), Load("red", "C01"))  # 3 goods, 3 free
    refused(state, Load("red", "C02"), "AA-15", "room for 3")
    assert [o.card for o in cargo_options(state, "red") if not o.fits] == ["C02", "C03"]


def test_aa15_aa17_a_trailer_adds_room() -> None:
    state = play(pos(AT_ALPHA), Load("red", "C01"), BuyTrailer("red", TrailerSize.SMALL))
    assert state.current.capacity == 10 and state.current.money == 7000
    state = play(state, Load("red", "C02"))
    assert state.current.load == (6, 1)  # the truck fills first


def test_aa16_unload_at_the_end_city_and_get_paid_trailers_first() -> None:
    text = "red @Beta loaded=C01,C05 trailers=large 5000DM\nblue @Gamma-Delta#4\nturn red stage=act"
    state = pos(text.replace("C05", "C02"))
    assert state.current.load == (6, 1)
    state, events = apply(state, Unload("red", "C01"))
    assert state.current.load == (4, 0)  # 1 off the trailer, then 2 off the truck
    assert state.current.money == 8000 and state.current.delivered == ("C01",)
    money = [e.entry for e in events if isinstance(e, ev.MoneyBooked)]
    assert [(m.amount, m.rule, m.card) for m in money] == [(3000, "AA-16", "C01")]
    refused(state, Unload("red", "C02"), "AA-16", "unloads in Gamma")
    refused(state, Unload("red", "C09"), "AA-16", "not his")


def test_aa16_only_begun_contracts_unload() -> None:
    state = pos("red @Beta hand=C01\nblue @Gamma-Delta#4\nturn red stage=act")
    refused(state, Unload("red", "C01"), "AA-16", "has not been loaded")


def test_aa17_trailers_any_time_in_the_turn_while_cards_last() -> None:
    state = pos("red @Alpha 20000DM\nblue @Gamma-Delta#4")
    state = play(state, BuyTrailer("red", TrailerSize.LARGE))  # before rolling: any time in his turn
    refused(state, BuyTrailer("blue", TrailerSize.LARGE), "AA-6", "red's turn")
    for _ in range(TRAILERS[TrailerSize.LARGE].count - 1):
        state = play(state, BuyTrailer("red", TrailerSize.LARGE))
    refused(state, BuyTrailer("red", TrailerSize.LARGE), "AA-17", "every large")
    poor = pos("red @Alpha 1500DM\nblue @Gamma-Delta#4")
    refused(poor, BuyTrailer("red", TrailerSize.SMALL), "AA-17", "costs 2 000 DM")


def test_aa6_load_unload_and_buy_repeat_then_end_turn() -> None:
    state = play(
        pos(AT_ALPHA),
        BuyTrailer("red", TrailerSize.LARGE),
        Load("red", "C01"),
        Load("red", "C02"),
        BuyTrailer("red", TrailerSize.SMALL),
        Load("red", "C03"),
        EndTurn("red"),
    )
    assert state.players[0].goods == 12 and state.current.colour == "blue"
    state = play(state, Roll("blue", 1))
    assert state.turn.roll == 1
