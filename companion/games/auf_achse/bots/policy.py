"""The easy bot: a greedy policy over the engine's own queries (also the medium bot's playout policy).

``easy_command(state, colour, rng)`` is the command ``colour`` plays now, or None when nothing is
his to do (another player's turn, a card another player must scan, an auction he is out of).
Every command it returns is one ``legal_commands`` would list: it is built from the same queries
(``legal_destinations``, ``cargo_options``, ``auctionable``, ``auction_status``, ``setup_due``...).

How it chooses (docs/bots-auf-achse.md):

- set-up (AA-2..5): its truck on the most central free plain space; its private contracts and, as
  the first seat, the public ones and the start are drawn from the unseen cards with the seeded rng
  (the shuffled deck as it would come: for virtual play only);
- turn (AA-6): roll the companion's die (``Roll(value=None)``); move to the destination closest to
  the best target of its contracts (an unload beats a load; a space's worth falls by a tenth per
  step), preferring an exact city arrival (AA-18) and avoiding warning triangles (AA-12);
- act: pay debts (AA-22), unload (AA-16), load what fits (AA-14, AA-15) or buy the trailer that
  makes a good contract fit (AA-17), open an auction on the public contract worth most to it
  (AA-18; always, so that the public deck runs out and the game ends, AA-23), end the turn;
- auctions (AA-19, AA-20): bid the lowest allowed level while its cost is within its limit (half
  the contract's worth to it: the payout less the approach), else pass; an opener nobody has bid
  against yet waits (he gets the card free if nobody bids, AA-20).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from companion.games.auf_achse.engine.board import AABoard
from companion.games.auf_achse.engine.cards import ContractCard
from companion.games.auf_achse.engine.commands import (
    Bid,
    BuyTrailer,
    Command,
    DealContract,
    DrawAction,
    EndTurn,
    Load,
    Move,
    OpenAuction,
    PassBid,
    PayDebt,
    PlaceSign,
    PlaceTruck,
    RevealPublic,
    Roll,
    StartGame,
    TakeSpare,
    Unload,
)
from companion.games.auf_achse.engine.movement import Destination, buyable_capacity, sign_spaces
from companion.games.auf_achse.engine.queries import (
    SetupStep,
    auction_status,
    auctionable,
    buyable_trailers,
    cargo_options,
    legal_destinations,
    setup_due,
    truck_start_spaces,
    unseen_contracts,
)
from companion.games.auf_achse.engine.state import TRAILERS, GameState, Phase, PlayerState, Sign, Stage, Waiting

STEP_DISCOUNT = 0.9  # a target's worth falls by a tenth per space still to drive
_DISCOUNT = [STEP_DISCOUNT**d for d in range(100)]  # by distance (99: unreachable, as ``between``)
SPACE_DM = 150  # what a space of approach costs in DM (the reference payouts pay ~180 DM a space)
BID_SHARE = 0.5  # bid up to this share of a contract's worth (the Kosten column goes to 50 %, AA-19)
TRAILER_MARGIN = 1000  # buy a trailer for a contract only if it pays this much more than the trailer
TRIANGLE_PENALTY = 0.03  # an action card is a gamble (AA-12): a small cost in the move's score
EXACT_CITY_BONUS = 0.05  # an exact city arrival opens an auction (AA-18)
# A player who empties his hand once the public deck is gone ends the game (AA-23) and undelivered
# contracts pay nothing: every contract held makes the next one worth less; holding this many the
# policy bids nothing, and one fewer it opens no more auctions.
HOLD_MAX = 5


# -- the board's distances, computed once per board ------------------------------------------------


@dataclass(frozen=True)
class Distances:
    board: AABoard
    to_city: dict[str, dict[str, int]]  # city -> space -> fewest steps (ignoring trucks and signs)
    central: tuple[str, ...]  # plain spaces, the closest to every city first (AA-2 start spaces)

    def between(self, space: str, city: str) -> int:
        return self.to_city[city].get(space, 99)


_DISTANCES: dict[int, Distances] = {}


def distances(board: AABoard) -> Distances:
    """All city distances of ``board`` (cached by identity: a game's board never changes)."""
    found = _DISTANCES.get(id(board))
    if found is not None and found.board is board:
        return found
    to_city = {city: board.distances_from(city) for city in board.cities}
    longest = max((d for table in to_city.values() for d in table.values()), default=0)
    while len(_DISCOUNT) <= longest:  # an owner's board bigger than any printed one
        _DISCOUNT.append(STEP_DISCOUNT ** len(_DISCOUNT))
    plain = [s.id for s in board.spaces if not s.city]
    central = tuple(sorted(plain, key=lambda s: (sum(d.get(s, 99) for d in to_city.values()), s)))
    found = Distances(board, to_city, central)
    _DISTANCES[id(board)] = found
    return found


# -- what a contract is worth to a player -------------------------------------------------------------


def worth_to(state: GameState, p: PlayerState, card: ContractCard) -> float:
    """The payout less the approach to its start city (in DM): what it is worth to ``p``."""
    if p.space is None:
        return float(card.payout)
    return card.payout - SPACE_DM * distances(state.board).between(p.space, card.start)


def bid_limit(state: GameState, p: PlayerState, card: ContractCard) -> float:
    """The most ``p`` bids for ``card`` (AA-19): a share of its worth to him, less for each contract
    he already holds (they must all be delivered before the game ends, AA-23)."""
    backlog = max(0.0, 1.0 - len(p.contracts) / HOLD_MAX)
    return BID_SHARE * worth_to(state, p, card) * backlog


def targets(state: GameState, p: PlayerState) -> list[tuple[str, float]]:
    """(city, worth) the player drives to: end cities of begun contracts, start cities of private
    ones that fit (with a trailer he could buy); with none, every city (an auction needs a city)."""
    config = state.config
    found: list[tuple[str, float]] = []
    for c in p.loaded:
        card = config.contract(c)
        if card is not None:
            found.append((card.end, float(card.payout)))
    room = p.free + buyable_capacity(state, p)
    for c in p.hand:
        card = config.contract(c)
        if card is not None and card.goods <= room:
            found.append((card.start, 0.6 * card.payout))  # less than a delivery: it is still to drive
    if not found:
        found = [(city, 1000.0) for city in state.board.cities]
    return found


def destination_scores(state: GameState, colour: str) -> list[tuple[float, str]]:
    """Every legal destination with the policy's score, best first (ties by space id)."""
    p = state.player(colour)
    assert p is not None
    dist = distances(state.board)
    # Each goal's distance table and worth, looked up once (this runs for every move of every playout).
    goals = [(dist.to_city[city], worth) for city, worth in targets(state, p)]
    board = state.board
    scored: list[tuple[float, str]] = []
    for space, dest in legal_destinations(state, colour).items():
        value = max(worth * _DISCOUNT[table.get(space, 99)] for table, worth in goals)
        value /= 1000.0
        if dest.exact and board.is_city(space) and state.public:
            value += EXACT_CITY_BONUS
        if board.space(space).triangle:
            value -= TRIANGLE_PENALTY
        if dest.rule == "AA-9" and not _serves_freely(state, p, dest):
            value -= 1.0  # the early stop would force a trailer purchase to load there (AA-9, AA-15)
        scored.append((value, space))
    scored.sort(key=lambda vs: (-vs[0], vs[1]))
    return scored


def _serves_freely(state: GameState, p: PlayerState, dest: Destination) -> bool:
    config = state.config
    for c in p.loaded:
        card = config.contract(c)
        if card is not None and card.end == dest.space:
            return True
    return any(
        (card := config.contract(c)) is not None and card.start == dest.space and card.goods <= p.free for c in p.hand
    )


def best_public(state: GameState, p: PlayerState) -> str | None:
    """The face-up public contract worth most to ``p`` (AA-18), ties by id."""
    config = state.config
    ranked = sorted(
        ((worth_to(state, p, card), c) for c in auctionable(state, p.colour) if (card := config.contract(c))),
        key=lambda wc: (-wc[0], wc[1]),
    )
    return ranked[0][1] if ranked else None


def sign_space(state: GameState, colour: str, sign: Sign) -> str:
    """Where to put a sign (AA-10, AA-11): in front of the richest other player's truck."""
    spaces = sign_spaces(state, sign.value)
    assert spaces, "the engine only asks for a sign when a space is free"
    others = sorted((q for q in state.players if q.colour != colour and q.space), key=lambda q: (-q.money, q.colour))
    if not others:
        return spaces[0]
    near = state.board.distances_from(others[0].space)  # type: ignore[arg-type]
    return min(spaces, key=lambda s: (near.get(s, 99), s))


# -- the policy ------------------------------------------------------------------------------------


def easy_command(state: GameState, colour: str, rng: random.Random) -> Command | None:
    """The greedy policy's command for ``colour`` now, or None when nothing is his to do."""
    if state.finished or state.player(colour) is None:
        return None
    if state.phase is Phase.SETUP:
        return _setup(state, colour, rng)
    waiting = state.awaiting
    if waiting is not None:
        if (waiting.player or state.current.colour) != colour:
            return None
        return _awaited(state, colour, waiting.kind, rng)
    if state.auction is not None:
        return auction_command(state, colour)
    if state.current.colour != colour:
        return None
    return turn_command(state, colour)


def _setup(state: GameState, colour: str, rng: random.Random) -> Command | None:
    """AA-2..5 in the order ``setup_due`` asks; steps nobody owns (the public cards, the start) are the
    first seat's, as the one who lays out the board."""
    due = setup_due(state)
    if due is None:
        return None
    first = state.config.colours[0]
    if due.step is SetupStep.TRUCK:
        if due.player != colour:
            return None
        free = set(truck_start_spaces(state))
        return PlaceTruck(colour, next(s for s in distances(state.board).central if s in free))
    if due.step is SetupStep.DEAL:
        return DealContract(colour, rng.choice(unseen_contracts(state))) if due.player == colour else None
    if colour != first:
        return None
    if due.step is SetupStep.PUBLIC:
        return RevealPublic(rng.choice(unseen_contracts(state)))
    return StartGame(_roll_off(state.config.colours, rng))


def _roll_off(colours: tuple[str, ...], rng: random.Random) -> str:
    """AA-5: everyone rolls, the highest starts (the tied highest roll again), with the seeded rng."""
    rolling = list(colours)
    while True:
        rolls = {c: rng.randint(1, 6) for c in rolling}
        top = max(rolls.values())
        rolling = [c for c in rolling if rolls[c] == top]
        if len(rolling) == 1:
            return rolling[0]


def _awaited(state: GameState, colour: str, kind: Waiting, rng: random.Random) -> Command:
    """A card the bot must turn up or a sign it must place (for virtual play: a random unseen card)."""
    if kind is Waiting.PUBLIC_CARD:  # AA-21
        return RevealPublic(rng.choice(unseen_contracts(state)), colour)
    if kind is Waiting.ACTION_CARD:  # AA-12: used cards leave the deck until it is reshuffled
        actions = state.config.deck.actions
        used = set(state.actions_used)
        fresh = [a.id for a in actions if a.id not in used] or [a.id for a in actions]
        return DrawAction(rng.choice(fresh), colour)
    if kind is Waiting.SPARE_CONTRACT:  # AA-4
        return TakeSpare(colour, rng.choice(unseen_contracts(state)))
    sign = Sign.STAU if kind is Waiting.STAU else Sign.ROADWORKS
    return PlaceSign(colour, sign, sign_space(state, colour, sign))


def auction_command(state: GameState, colour: str) -> Command | None:
    """AA-19, AA-20: bid the lowest allowed level within the limit, else pass; None when ``colour``
    may not act, or is the opener nobody has bid against yet (he waits: no bid gives him the card)."""
    status = auction_status(state)
    if status is None or colour not in status.may_act:
        return None
    if colour == status.opener and status.leader is None:
        return None
    card = state.config.contract(status.card)
    p = state.player(colour)
    assert card is not None and p is not None
    limit = bid_limit(state, p, card)
    for level, amount in status.allowed_for(colour):
        if amount <= limit:
            return Bid(colour, level)
    return PassBid(colour)


def turn_command(state: GameState, colour: str) -> Command:
    """The greedy step of the player on turn (no auction, nothing awaited)."""
    p = state.current
    turn = state.turn
    if p.debts and p.money > 0:
        return PayDebt(colour)  # AA-22 (only offered with auto_settle_debts off)
    if turn.stage is Stage.ROLL:
        return Roll(colour)  # AA-7: the companion's die
    if turn.stage is Stage.MOVE:
        return Move(colour, destination_scores(state, colour)[0][1])
    options = cargo_options(state, colour)
    for option in options:
        if option.unload:
            return Unload(colour, option.card)
    forced = turn.must_serve is not None and not turn.served  # AA-9: he stopped early to serve here
    config = state.config
    for option in sorted(
        (o for o in options if not o.unload),
        key=lambda o: (-config.contract(o.card).payout, o.card),  # type: ignore[union-attr]
    ):
        if option.fits:
            return Load(colour, option.card)
        card = config.contract(option.card)
        assert card is not None
        for size in buyable_trailers(state, colour):  # small first: the cheaper one if it is enough
            spec = TRAILERS[size]
            if card.goods <= p.free + spec.capacity and (forced or card.payout - spec.price >= TRAILER_MARGIN):
                return BuyTrailer(colour, size)
        if forced:  # AA-9 lets him stop only where he can serve: the largest trailer first
            sizes = buyable_trailers(state, colour)
            if sizes:
                return BuyTrailer(colour, sizes[-1])
    card_id = best_public(state, p) if len(p.contracts) < HOLD_MAX - 1 else None
    if card_id is not None:
        return OpenAuction(colour, card_id)
    return EndTurn(colour)
