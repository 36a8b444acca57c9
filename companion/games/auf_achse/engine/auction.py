"""AA-18..21: auctions of public contracts.

Bidding goes round the table from the opener's left, the opener last; each in turn bids a Kosten
level or passes. Others must bid a higher level than the high bid (levels may be skipped); the
opener may match it (AA-19). A player with no legal bid left (nothing higher than level 5, or
nothing he can pay with ``bids_need_cash``) passes automatically. The auction ends when everyone
but the high bidder has passed; with no bid at all, the opener takes the card free (AA-20).
"""

from __future__ import annotations

from dataclasses import replace

from companion.engine.errors import IllegalAction
from companion.games.auf_achse.engine import events as ev
from companion.games.auf_achse.engine.cards import BID_LEVELS, ContractCard
from companion.games.auf_achse.engine.commands import Bid, OpenAuction, PassBid
from companion.games.auf_achse.engine.money import dm, pay_bank, player_of, with_player
from companion.games.auf_achse.engine.scoring import maybe_finish
from companion.games.auf_achse.engine.state import Auction, Awaiting, GameState, Stage, Waiting

Outcome = tuple[GameState, list[ev.Event]]


def bidding_order(state: GameState, opener: str) -> tuple[str, ...]:
    colours = state.config.colours
    seat = colours.index(opener)
    return (*colours[seat + 1 :], *colours[:seat], opener)


def allowed_levels(state: GameState, auction: Auction, colour: str) -> tuple[int, ...]:
    """The levels ``colour`` may bid now (AA-19), money permitting with ``bids_need_cash``."""
    card = state.config.contract(auction.card)
    assert card is not None
    high = auction.level or 0
    lowest = high if colour == auction.opener and auction.level is not None else high + 1
    levels = range(max(1, lowest), BID_LEVELS + 1)
    if state.config.rules.bids_need_cash:
        money = player_of(state, colour).money
        return tuple(level for level in levels if card.cost(level) <= money)
    return tuple(levels)


def open_auction(state: GameState, cmd: OpenAuction) -> Outcome:
    turn = state.turn
    if turn.stage is not Stage.ACT:
        raise IllegalAction("AA-6", f"{cmd.player} must roll and move before an auction")
    if turn.auctioned:
        raise IllegalAction("AA-18", f"{cmd.player} has already held this turn's auction")
    if not turn.exact_city:
        raise IllegalAction(
            "AA-18", f"{cmd.player}'s move did not end exactly in a city (an early stop or a plain space)"
        )
    if cmd.card not in state.public:
        shown = ", ".join(state.public) or "none"
        raise IllegalAction("AA-18", f"contract {cmd.card} is not face up on the board (face up: {shown})")
    order = bidding_order(state, cmd.player)
    auction = Auction(cmd.card, cmd.player, order, order[0])
    state = replace(state, auction=auction, turn=replace(turn, auctioned=True))
    events: list[ev.Event] = [ev.AuctionOpened(cmd.player, cmd.card, order[0])]
    return _advance(state, auction, events, after=None)


def bid(state: GameState, auction: Auction, cmd: Bid) -> Outcome:
    card = state.config.contract(auction.card)
    assert card is not None
    if not 1 <= cmd.level <= BID_LEVELS:
        raise IllegalAction("AA-19", f"bids are Kosten levels 1 to {BID_LEVELS}, not {cmd.level}")
    high = auction.level
    if cmd.player == auction.opener:
        if high is not None and cmd.level < high:
            raise IllegalAction(
                "AA-19", f"the high bid is level {high} ({dm(card.cost(high))}); the opener must at least match it"
            )
    elif high is not None and cmd.level <= high:
        raise IllegalAction(
            "AA-19", f"the high bid is level {high} ({dm(card.cost(high))}); bid a higher level or pass"
        )
    amount = card.cost(cmd.level)
    money = player_of(state, cmd.player).money
    if state.config.rules.bids_need_cash and amount > money:
        raise IllegalAction("AA-21", f"{cmd.player} has {dm(money)}; a level {cmd.level} bid is {dm(amount)}")
    passed = auction.passed if state.config.rules.pass_is_final else frozenset()
    auction = replace(auction, level=cmd.level, leader=cmd.player, passed=passed)
    events: list[ev.Event] = []
    state, events = _advance(state, auction, events, after=cmd.player)
    nxt = state.auction.bidder if state.auction is not None else None
    events.insert(0, ev.BidMade(cmd.player, cmd.level, amount, nxt))
    return state, events


def pass_bid(state: GameState, auction: Auction, cmd: PassBid) -> Outcome:
    auction = replace(auction, passed=auction.passed | {cmd.player})
    state, events = _advance(state, auction, [], after=cmd.player)
    nxt = state.auction.bidder if state.auction is not None else None
    events.insert(0, ev.BidPassed(cmd.player, False, nxt))
    return state, events


def _advance(state: GameState, auction: Auction, events: list[ev.Event], after: str | None) -> Outcome:
    """Find the next bidder after ``after`` (auto-passing those with no legal bid) or close the auction."""
    order = auction.order
    start = 0 if after is None else (order.index(after) + 1) % len(order)
    checked = 0
    i = start
    while True:
        if _over(auction):
            return _close(state, auction, events)
        if checked >= len(order) * 2:  # everyone was looked at twice: nobody can act
            return _close(state, auction, events)
        colour = order[i % len(order)]
        i += 1
        checked += 1
        if colour in auction.passed or colour == auction.leader:
            continue
        if auction.leader is None and colour == auction.opener:
            continue  # the opener only ever matches; with no bid he is not asked (AA-20)
        if not allowed_levels(state, auction, colour):
            auction = replace(auction, passed=auction.passed | {colour})
            events.append(ev.BidPassed(colour, True, None))
            continue
        auction = replace(auction, bidder=colour)
        return replace(state, auction=auction), events


def _over(auction: Auction) -> bool:
    if auction.leader is None:  # AA-20: nobody has bid; over once everyone but the opener passed
        return all(c in auction.passed for c in auction.order if c != auction.opener)
    return all(c in auction.passed for c in auction.order if c != auction.leader)


def _close(state: GameState, auction: Auction, events: list[ev.Event]) -> Outcome:
    card = state.config.contract(auction.card)
    assert card is not None
    winner = auction.leader or auction.opener
    amount = 0 if auction.level is None else card.cost(auction.level)
    events.append(ev.AuctionWon(winner, card.id, auction.level, amount))
    state = replace(state, auction=None, public=tuple(c for c in state.public if c != card.id))
    if amount:
        state = pay_bank(state, events, winner, amount, f"auction of contract {_label(card)}", "AA-21", card.id)
    p = player_of(state, winner)
    state = with_player(state, winner, replace(p, hand=(*p.hand, card.id)))
    if state.public_hidden > 0:
        state = replace(state, awaiting=Awaiting(Waiting.PUBLIC_CARD, auction.opener))
        events.append(ev.PublicCardDue(auction.opener))
    return maybe_finish(state, events), events


def _label(card: ContractCard) -> str:
    return f"{card.id} {card.start}→{card.end}"
