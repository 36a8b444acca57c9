"""Auctions of public contracts: AA-18..21."""

from __future__ import annotations

from companion.games.auf_achse.engine import Bid, EndTurn, Load, Move, OpenAuction, PassBid, RevealPublic, Roll, apply
from companion.games.auf_achse.engine import events as ev
from companion.games.auf_achse.engine.queries import auction_status, auctionable
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


def test_aa19_bidding_goes_round_from_the_openers_left_opener_last() -> None:
    state = opened()
    status = auction_status(state)
    assert status is not None and status.bidder == "blue"
    assert status.allowed == ((1, 400), (2, 800), (3, 1200), (4, 1600), (5, 2000))
    refused(state, Bid("green", 1), "AA-19", "blue's bid")
    refused(state, EndTurn("red"), "AA-19", "running")
    state = play(state, Bid("blue", 2))
    assert auction_status(state).bidder == "green"  # type: ignore[union-attr]
    refused(state, Bid("green", 2), "AA-19", "higher level")
    refused(state, Bid("green", 6), "AA-19", "levels 1 to 5")
    state = play(state, Bid("green", 4))  # skipping level 3 is fine
    assert auction_status(state).bidder == "red"  # type: ignore[union-attr]


def test_aa19_the_opener_wins_by_matching() -> None:
    state = play(opened(), Bid("blue", 2), PassBid("green"))
    refused(state, Bid("red", 1), "AA-19", "at least match")
    state = play(state, Bid("red", 2))  # matches blue
    assert auction_status(state).leader == "red" and auction_status(state).bidder == "blue"  # type: ignore[union-attr]
    state, events = apply(state, PassBid("blue"))
    won = next(e for e in events if isinstance(e, ev.AuctionWon))
    assert (won.player, won.card, won.level, won.amount) == ("red", "C10", 2, 800)
    red = state.players[0]
    assert red.money == 4200 and red.hand == ("C10",)


def test_aa19_a_pass_is_final() -> None:
    state = play(opened(), PassBid("blue"), Bid("green", 1), Bid("red", 1))
    # blue passed: green is asked next, not blue
    assert auction_status(state).bidder == "green"  # type: ignore[union-attr]
    state = play(state, PassBid("green"))
    assert state.auction is None and state.players[0].hand == ("C10",)


def test_aa19_house_rule_a_pass_is_not_final() -> None:
    state = play(opened(pass_is_final=False), PassBid("blue"), Bid("green", 1))
    assert auction_status(state).bidder == "red"  # type: ignore[union-attr]
    state = play(state, Bid("red", 1))
    assert auction_status(state).bidder == "blue"  # type: ignore[union-attr] # blue may come back in
    state = play(state, Bid("blue", 3), PassBid("green"), PassBid("red"))
    assert state.auction is None and state.players[1].hand == ("C10",) and state.players[1].money == 3800


def test_aa19_a_top_bid_leaves_the_others_no_bid() -> None:
    state = play(opened(), Bid("blue", 5))
    status = auction_status(state)
    assert status is not None and status.bidder == "red" and status.passed == ("green",)
    state = play(state, PassBid("red"))
    assert state.players[1].hand == ("C10",) and state.players[1].money == 3000


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
    assert auction_status(state).allowed == ((1, 400),)  # type: ignore[union-attr]
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
