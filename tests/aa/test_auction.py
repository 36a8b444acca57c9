"""Auctions of public contracts: AA-18..21."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.auf_achse.engine import Bid, EndTurn, Load, Move, OpenAuction, PassBid, RevealPublic, Roll, apply
from companion.games.auf_achse.engine import events as ev
from companion.games.auf_achse.engine.queries import auction_status, auctionable, legal_commands
from companion.games.auf_achse.engine.state import Waiting

from .conftest import pos
from .helpers import play, refused

# C10 Beta→Delta payout 4000, Kosten 400/800/1200/1600/2000.
THREE = """
red    @Alpha
blue   @Gamma-Delta#4
green  @Beta-Gamma#1
public C10,C11,C12,C13
turn   red stage=act exact
"""
COLOURS = ("red", "blue", "green")


def opened(**rules: object):  # type: ignore[no-untyped-def]
    return play(pos(THREE, COLOURS, **rules), OpenAuction("red", "C10"))


def test_aa18_only_after_a_move_ending_exactly_in_a_city() -> None:
    state = play(pos(THREE.replace("stage=act exact", ""), COLOURS), Roll("red", 3), Move("red", "Alpha-Beta#3"))
    refused(state, OpenAuction("red", "C10"), "AA-18", "did not end exactly in a city")
    state = play(pos("red @Alpha-Beta#1\nblue @Gamma-Delta#4\npublic C10,C11,C12,C13"), Roll("red", 3))
    state = play(state, Move("red", "Beta"))
    assert auctionable(state, "red") == ("C10", "C11", "C12", "C13")


def test_aa18_a_face_up_card_once_per_turn() -> None:
    state = pos(THREE, COLOURS)
    refused(state, OpenAuction("red", "C20"), "AA-18", "not face up")
    refused(state, OpenAuction("blue", "C10"), "AA-6", "red's turn")
    state = play(state, OpenAuction("red", "C10"), PassBid("blue"), PassBid("green"), RevealPublic("C20"))
    refused(state, OpenAuction("red", "C11"), "AA-18", "already held")


def test_aa19_any_player_still_in_bids_in_any_order() -> None:
    state = opened()
    status = auction_status(state)
    assert status is not None and status.bidder is None and status.still_in == ("blue", "green", "red")
    # blue and green may bid every level; the opener may only pass while nobody has bid (AA-20)
    assert status.allowed_for("blue") == ((1, 400), (2, 800), (3, 1200), (4, 1600), (5, 2000))
    assert status.may_act == ("blue", "green", "red") and status.allowed_for("red") == ()
    refused(state, EndTurn("red"), "AA-19", "running")
    refused(state, Bid("red", 1), "AA-20", "nobody has bid", "free")
    state = play(state, Bid("green", 2))  # green first: no order
    refused(state, Bid("green", 3), "AA-19", "holds the high bid")
    refused(state, PassBid("green"), "AA-19", "holds the high bid")
    refused(state, Bid("blue", 2), "AA-19", "higher level")
    refused(state, Bid("blue", 6), "AA-19", "levels 1 to 5")
    state = play(state, Bid("blue", 4))  # skipping level 3 is fine
    status = auction_status(state)
    assert status is not None and status.leader == "blue" and status.may_act == ("green", "red")
    assert status.allowed_for("red") == ((4, 1600), (5, 2000))  # the opener may match
    assert status.allowed_for("green") == ((5, 2000),)


def test_aa19_the_opener_wins_by_matching() -> None:
    state = play(opened(), Bid("blue", 2), PassBid("green"))
    refused(state, Bid("red", 1), "AA-19", "at least match")
    state = play(state, Bid("red", 2))  # matches blue
    assert auction_status(state).leader == "red" and auction_status(state).may_act == ("blue",)  # type: ignore[union-attr]
    state, events = apply(state, PassBid("blue"))
    won = next(e for e in events if isinstance(e, ev.AuctionWon))
    assert (won.player, won.card, won.level, won.amount) == ("red", "C10", 2, 800)
    red = state.players[0]
    assert red.money == 4200 and red.hand == ("C10",)


def test_aa19_the_auction_ends_when_all_but_the_high_bidder_have_passed() -> None:
    state = play(opened(), Bid("blue", 1), PassBid("red"))  # the opener may pass first: he will not match
    assert state.auction is not None and auction_status(state).still_in == ("blue", "green")  # type: ignore[union-attr]
    state = play(state, Bid("green", 3))
    assert auction_status(state).may_act == ("blue",)  # type: ignore[union-attr]
    state = play(state, PassBid("blue"))
    assert state.auction is None and state.players[2].hand == ("C10",) and state.players[2].money == 3800


def test_aa19_a_pass_is_final() -> None:
    state = play(opened(), PassBid("blue"), Bid("green", 1))
    refused(state, Bid("blue", 2), "AA-19", "blue has already passed")
    state = play(state, Bid("red", 1))
    assert auction_status(state).may_act == ("green",)  # type: ignore[union-attr]
    state = play(state, PassBid("green"))
    assert state.auction is None and state.players[0].hand == ("C10",)


def test_aa19_house_rule_a_pass_is_not_final() -> None:
    state = play(opened(pass_is_final=False), PassBid("blue"), Bid("green", 1))
    assert auction_status(state).may_act == ("blue", "red")  # type: ignore[union-attr] # blue may come back in
    state = play(state, Bid("red", 1), Bid("blue", 3), PassBid("green"), PassBid("red"))
    assert state.auction is None and state.players[1].hand == ("C10",) and state.players[1].money == 3800


def test_aa19_a_top_bid_leaves_the_others_no_bid() -> None:
    state, events = apply(opened(), Bid("blue", 5))
    assert ev.BidPassed("green", True, None) in events
    status = auction_status(state)
    assert status is not None and status.may_act == ("red",) and status.passed == ("green",)
    refused(state, PassBid("green"), "AA-19", "green has already passed automatically")
    state = play(state, PassBid("red"))
    assert state.players[1].hand == ("C10",) and state.players[1].money == 3000


def test_aa19_house_rule_round_the_table_from_the_openers_left_opener_last() -> None:
    state = opened(auction_order="round_the_table")
    status = auction_status(state)
    assert status is not None and status.bidder == "blue" and status.may_act == ("blue",)
    assert status.allowed == ((1, 400), (2, 800), (3, 1200), (4, 1600), (5, 2000))
    refused(state, Bid("green", 1), "AA-19", "blue's bid")
    state = play(state, Bid("blue", 2))
    assert auction_status(state).bidder == "green"  # type: ignore[union-attr]
    refused(state, Bid("green", 2), "AA-19", "higher level")
    state = play(state, Bid("green", 4))
    assert auction_status(state).bidder == "red"  # type: ignore[union-attr]
    state = play(state, Bid("red", 4))  # the opener matches
    assert auction_status(state).bidder == "blue"  # type: ignore[union-attr]
    state = play(state, PassBid("blue"), PassBid("green"))
    assert state.auction is None and state.players[0].hand == ("C10",) and state.players[0].money == 3400


def test_aa19_house_rules_round_the_table_with_passes_not_final() -> None:
    state = play(opened(auction_order="round_the_table", pass_is_final=False), PassBid("blue"), Bid("green", 1))
    assert auction_status(state).bidder == "red"  # type: ignore[union-attr]
    state = play(state, Bid("red", 1))
    assert auction_status(state).bidder == "blue"  # type: ignore[union-attr] # blue may come back in
    state = play(state, Bid("blue", 3), PassBid("green"), PassBid("red"))
    assert state.auction is None and state.players[1].hand == ("C10",) and state.players[1].money == 3800


def test_aa20_nobody_bids_the_opener_takes_it_free() -> None:
    state, events = apply(play(opened(), PassBid("blue")), PassBid("green"))
    assert state.players[0].hand == ("C10",) and state.players[0].money == 5000
    assert any(isinstance(e, ev.AuctionWon) and e.level is None and e.amount == 0 for e in events)


def test_aa21_winner_pays_the_bank_and_the_next_card_turns_up() -> None:
    state = play(opened(), Bid("blue", 3), PassBid("green"), PassBid("red"))
    assert state.players[1].money == 3800 and state.ledger.entries()[-1].rule == "AA-21"
    assert state.public == ("C11", "C12", "C13") and state.awaiting is not None
    assert state.awaiting.kind is Waiting.PUBLIC_CARD
    refused(state, Load("red", "C01"), "AA-21", "public contract")
    refused(state, RevealPublic("C11"), "AA-4", "already been scanned")
    state = play(state, RevealPublic("C20"))
    assert state.public == ("C11", "C12", "C13", "C20") and state.public_hidden == 11  # 16 - 4 - 1


def test_aa21_bids_must_be_covered_by_money() -> None:
    state = pos(THREE.replace("blue   @Gamma-Delta#4", "blue @Gamma-Delta#4 500DM"), COLOURS)
    state = play(state, OpenAuction("red", "C10"))
    assert auction_status(state).allowed_for("blue") == ((1, 400),)  # type: ignore[union-attr]
    refused(state, Bid("blue", 2), "AA-21", "500 DM")


def test_aa21_house_rule_bids_on_credit_become_debts() -> None:
    text = THREE.replace("blue   @Gamma-Delta#4", "blue @Gamma-Delta#4 500DM")
    state = play(pos(text, COLOURS, bids_need_cash=False), OpenAuction("red", "C10"), Bid("blue", 3))
    state = play(state, PassBid("green"), PassBid("red"))
    blue = state.players[1]
    assert blue.money == 0 and blue.debt == 700


def test_aa21_the_last_public_card_needs_no_reveal() -> None:
    state = pos(THREE.replace("public C10,C11,C12,C13", "public C10 hidden=0"), COLOURS)
    state = play(state, OpenAuction("red", "C10"), PassBid("blue"), PassBid("green"))
    assert state.awaiting is None and state.public_left == 0


@settings(max_examples=60, deadline=None)
@given(
    data=st.data(),
    players=st.integers(2, 4),
    pass_is_final=st.booleans(),
    order=st.sampled_from(["any_order", "round_the_table"]),
    bids_need_cash=st.booleans(),
    money=st.lists(st.integers(0, 5000), min_size=4, max_size=4),
)
def test_aa19_invariant_every_auction_terminates_and_conserves_money(
    data: st.DataObject, players: int, pass_is_final: bool, order: str, bids_need_cash: bool, money: list[int]
) -> None:
    colours = ("red", "blue", "green", "yellow")[:players]
    spaces = ("@Alpha", "@Gamma-Delta#4", "@Beta-Gamma#1", "@Delta-Alpha#1")
    text = "\n".join(f"{c} {s} {m}DM" for c, s, m in zip(colours, spaces, money, strict=False))
    text += "\npublic C10,C11,C12,C13\nturn red stage=act exact\n"
    rules = {"pass_is_final": pass_is_final, "auction_order": order, "bids_need_cash": bids_need_cash}
    state = play(pos(text, colours, **rules), OpenAuction("red", "C10"))
    before = sum(p.money for p in state.players) - sum(p.debt for p in state.players)
    # Each bid raises the level or is the opener's match of it (<= 10 bids); between two bids each
    # player passes at most once.
    bound = 2 * 5 * (players + 1) + players
    for _ in range(bound):
        if state.auction is None:
            break
        options = list(legal_commands(state))
        assert options, "a running auction always has someone who may bid or pass"
        assert all(isinstance(c, Bid | PassBid) for c in options)
        state = play(state, data.draw(st.sampled_from(options)))
    assert state.auction is None, "the auction did not end"
    winner = next(p for p in state.players if "C10" in p.hand)
    paid = before - sum(p.money for p in state.players) + sum(p.debt for p in state.players)  # cash + new debt
    assert paid >= 0 and state.bank_paid == sum(p.money for p in state.players) == sum(e.amount for e in state.ledger)
    assert paid in {0, *(state.config.contract("C10").cost(lv) for lv in range(1, 6))}  # type: ignore[union-attr]
    assert winner.money >= 0 and state.public == ("C11", "C12", "C13")
