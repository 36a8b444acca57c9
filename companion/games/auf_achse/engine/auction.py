"""AA-18..21: auctions of public contracts.

AA-19 (default ``auction_order = any_order``): bids are raised "in any order" — every player who
has not passed may bid or pass at any moment, as at a real table where anyone taps his bank card.
Others must bid a higher Kosten level than the high bid (levels may be skipped); the opener may
match it and then holds it. The high bidder neither bids again nor passes: he waits to be outbid.
The opener makes no bid while nobody has bid (nobody bidding gives him the card free, AA-20). A
pass is final (house rule ``pass_is_final``). A player with no legal bid left (nothing above the
high bid, or nothing he can pay with ``bids_need_cash``) passes automatically. The auction ends
when everyone but the high bidder has passed; with no bid, when everyone but the opener has.

House rule ``auction_order = round_the_table``: one bidder at a time from the opener's left, the
opener last; each bids or passes when asked (the engine names him in ``Auction.bidder``).
"""

from __future__ import annotations

from companion.engine.errors import IllegalAction
from companion.engine.values import evolve
from companion.games.auf_achse.engine import events as ev
from companion.games.auf_achse.engine.cards import BID_LEVELS, ContractCard
from companion.games.auf_achse.engine.commands import Bid, OpenAuction, PassBid
from companion.games.auf_achse.engine.money import dm, pay_bank, player_of, with_player
from companion.games.auf_achse.engine.options import AuctionOrder
from companion.games.auf_achse.engine.scoring import maybe_finish
from companion.games.auf_achse.engine.state import Auction, Awaiting, GameState, Stage, Waiting

Outcome = tuple[GameState, list[ev.Event]]


def bidding_order(state: GameState, opener: str) -> tuple[str, ...]:
    colours = state.config.colours
    seat = colours.index(opener)
    return (*colours[seat + 1 :], *colours[:seat], opener)


def _round_the_table(state: GameState) -> bool:
    return state.config.rules.auction_order is AuctionOrder.ROUND_THE_TABLE


def _levels(state: GameState, auction: Auction, colour: str) -> tuple[int, ...]:
    """The levels ``colour`` could bid against the high bid (AA-19), money permitting with
    ``bids_need_cash``, whoever's turn it is. The opener has none while nobody has bid (AA-20)."""
    card = state.config.contract(auction.card)
    assert card is not None
    if colour == auction.opener:
        if auction.level is None:
            return ()
        lowest = auction.level
    else:
        lowest = (auction.level or 0) + 1
    levels = range(max(1, lowest), BID_LEVELS + 1)
    if state.config.rules.bids_need_cash:
        money = player_of(state, colour).money
        return tuple(level for level in levels if card.cost(level) <= money)
    return tuple(levels)


def can_act(auction: Auction, colour: str) -> bool:
    """May ``colour`` bid or pass now? Not after his pass, not while he holds the high bid, and
    with ``round_the_table`` only when it is his bid."""
    if colour not in auction.order or colour in auction.passed or colour == auction.leader:
        return False
    return auction.bidder is None or auction.bidder == colour


def allowed_levels(state: GameState, auction: Auction, colour: str) -> tuple[int, ...]:
    """The levels ``colour`` may bid now (AA-19): empty when he may not bid at all."""
    return _levels(state, auction, colour) if can_act(auction, colour) else ()


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
    first = order[0] if _round_the_table(state) else None
    auction = Auction(cmd.card, cmd.player, order, first)
    state = evolve(state, auction=auction, last_auction=None, turn=evolve(turn, auctioned=True))
    events: list[ev.Event] = [ev.AuctionOpened(cmd.player, cmd.card, first)]
    if first is None:
        return _settle(state, auction, events)
    return _advance(state, auction, events, after=None)


def check_bidder(state: GameState, auction: Auction, cmd: Bid | PassBid) -> None:
    """Who may bid or pass (AA-19); raises IllegalAction naming why not."""
    colour = cmd.player
    if state.config.seat_of(colour) is None:
        raise IllegalAction("AA-1", f"there is no {colour} player in this game")
    if colour in auction.passed:
        how = " automatically (no level he may bid was left)" if colour in auction.auto_passed else ""
        raise IllegalAction("AA-19", f"{colour} has already passed{how} in the auction of {auction.card}")
    if auction.bidder is not None and colour != auction.bidder:
        raise IllegalAction("AA-19", f"it is {auction.bidder}'s bid, not {colour}'s")
    if colour == auction.leader:
        what = "bid again" if isinstance(cmd, Bid) else "pass"
        raise IllegalAction(
            "AA-19",
            f"{colour} holds the high bid (level {auction.level}) in the auction of {auction.card}; "
            f"he cannot {what} until someone outbids him",
        )


def bid(state: GameState, auction: Auction, cmd: Bid) -> Outcome:
    check_bidder(state, auction, cmd)
    card = state.config.contract(auction.card)
    assert card is not None
    if not 1 <= cmd.level <= BID_LEVELS:
        raise IllegalAction("AA-19", f"bids are Kosten levels 1 to {BID_LEVELS}, not {cmd.level}")
    high = auction.level
    if cmd.player == auction.opener:
        if high is None:
            raise IllegalAction(
                "AA-20", f"nobody has bid for {auction.card} yet; if nobody does, {cmd.player} takes it free"
            )
        if cmd.level < high:
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
    if state.config.rules.pass_is_final:
        passed, auto = auction.passed, auction.auto_passed
    else:
        passed, auto = frozenset(), frozenset()
    auction = evolve(auction, level=cmd.level, leader=cmd.player, passed=passed, auto_passed=auto)
    events: list[ev.Event] = []
    if _round_the_table(state):
        state, events = _advance(state, auction, events, after=cmd.player)
    else:
        state, events = _settle(state, auction, events)
    events.insert(0, ev.BidMade(cmd.player, cmd.level, amount, _next_bidder(state)))
    return state, events


def pass_bid(state: GameState, auction: Auction, cmd: PassBid) -> Outcome:
    check_bidder(state, auction, cmd)
    auction = evolve(auction, passed=auction.passed | {cmd.player})
    if _round_the_table(state):
        state, events = _advance(state, auction, [], after=cmd.player)
    else:
        state, events = _settle(state, auction, [])
    events.insert(0, ev.BidPassed(cmd.player, False, _next_bidder(state)))
    return state, events


def _next_bidder(state: GameState) -> str | None:
    return state.auction.bidder if state.auction is not None else None


def _auto_pass(auction: Auction, colour: str, events: list[ev.Event]) -> Auction:
    events.append(ev.BidPassed(colour, True, None))
    return evolve(auction, passed=auction.passed | {colour}, auto_passed=auction.auto_passed | {colour})


def _settle(state: GameState, auction: Auction, events: list[ev.Event]) -> Outcome:
    """any_order: pass everyone still in who has no legal bid left, then close the auction or let
    anyone still in bid."""
    for colour in auction.order:
        if colour in auction.passed or colour == auction.leader:
            continue
        if auction.leader is None and colour == auction.opener:
            continue  # the opener waits for a bid to match (AA-20)
        if not _levels(state, auction, colour):
            auction = _auto_pass(auction, colour, events)
    if _over(auction):
        return _close(state, auction, events)
    return evolve(state, auction=auction), events


def _advance(state: GameState, auction: Auction, events: list[ev.Event], after: str | None) -> Outcome:
    """round_the_table: find the next bidder after ``after`` (auto-passing those with no legal bid)
    or close the auction."""
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
        if not _levels(state, auction, colour):
            auction = _auto_pass(auction, colour, events)
            continue
        auction = evolve(auction, bidder=colour)
        return evolve(state, auction=auction), events


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
    state = evolve(state, auction=None, last_auction=auction, public=tuple(c for c in state.public if c != card.id))
    if amount:
        state = pay_bank(state, events, winner, amount, f"auction of contract {_label(card)}", "AA-21", card.id)
    p = player_of(state, winner)
    state = with_player(state, winner, evolve(p, hand=(*p.hand, card.id)))
    if state.public_hidden > 0:
        state = evolve(state, awaiting=Awaiting(Waiting.PUBLIC_CARD, auction.opener))
        events.append(ev.PublicCardDue(auction.opener))
    return maybe_finish(state, events), events


def _label(card: ContractCard) -> str:
    return f"{card.id} {card.start}→{card.end}"
