"""Questions the table asks the engine: LED hints, offers, the auction prompt, legal commands.
Results are data, never errors."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum

from companion.games.auf_achse.engine.auction import allowed_levels, can_act
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
from companion.games.auf_achse.engine.movement import Destination, contracts_at, destinations, sign_spaces
from companion.games.auf_achse.engine.state import (
    FACE_UP,
    PRIVATE_CONTRACTS,
    TRAILERS,
    GameState,
    Phase,
    Sign,
    Stage,
    TrailerSize,
    Waiting,
)


def legal_destinations(state: GameState, colour: str, roll: int | None = None) -> Mapping[str, Destination]:
    """Where ``colour``'s truck may end its move: for the roll made (``roll`` None) or a given value.

    Empty when it is not his move. Each Destination says whether it is a full move (AA-7) or an
    early stop (AA-8, AA-9) and carries one path for the LEDs.
    """
    if state.finished or state.phase is not Phase.PLAY or state.current.colour != colour:
        return {}
    if roll is None:
        if state.turn.stage is not Stage.MOVE or state.turn.roll is None:
            return {}
        roll = state.turn.roll
    return destinations(state, colour, roll)


@dataclass(frozen=True, slots=True)
class CargoOption:
    card: str
    goods: int
    fits: bool  # loads now without a trailer (always True for unloading)
    unload: bool  # True: deliver it here; False: load it here


def cargo_options(state: GameState, colour: str) -> tuple[CargoOption, ...]:
    """Contracts ``colour`` can load or unload where his truck stands (after his move this turn)."""
    p = state.player(colour)
    if p is None or p.space is None or state.phase is not Phase.PLAY or state.current.colour != colour:
        return ()
    if state.turn.stage is not Stage.ACT or state.awaiting is not None or state.auction is not None:
        return ()
    loadable, unloadable = contracts_at(state, p, p.space)
    config = state.config
    out = [CargoOption(c, config.contract(c).goods, True, True) for c in unloadable]  # type: ignore[union-attr]
    for c in loadable:
        goods = config.contract(c).goods  # type: ignore[union-attr]
        out.append(CargoOption(c, goods, goods <= p.free, False))
    return tuple(out)


def auctionable(state: GameState, colour: str) -> tuple[str, ...]:
    """The face-up contracts ``colour`` may put up for auction now (AA-18)."""
    if state.finished or state.phase is not Phase.PLAY or state.current.colour != colour:
        return ()
    t = state.turn
    if t.stage is not Stage.ACT or t.auctioned or not t.exact_city or state.awaiting or state.auction:
        return ()
    return state.public


@dataclass(frozen=True, slots=True)
class AuctionStatus:
    card: str
    opener: str
    bidder: str | None  # round_the_table: whose bid it is; any_order: None (anyone still in)
    level: int | None  # the high bid as a level
    amount: int  # the high bid in DM (0: none yet)
    leader: str | None
    allowed: tuple[tuple[int, int], ...]  # (level, DM) ``bidder`` may bid now (empty in any_order)
    passed: tuple[str, ...]
    still_in: tuple[str, ...] = ()  # who has not passed, from the opener's left (AA-19)
    # Who may bid or pass now, with the (level, DM) each may bid (empty: he may only pass).
    bids: tuple[tuple[str, tuple[tuple[int, int], ...]], ...] = ()

    @property
    def may_act(self) -> tuple[str, ...]:
        """Who may bid or pass now: everyone still in but the high bidder (round_the_table: the bidder)."""
        return tuple(c for c, _ in self.bids)

    def allowed_for(self, colour: str) -> tuple[tuple[int, int], ...]:
        """The (level, DM) ``colour`` may bid now; empty when he may not bid."""
        return dict(self.bids).get(colour, ())


def auction_status(state: GameState) -> AuctionStatus | None:
    a = state.auction
    if a is None:
        return None
    card = state.config.contract(a.card)
    assert card is not None

    def levels(colour: str) -> tuple[tuple[int, int], ...]:
        return tuple((level, card.cost(level)) for level in allowed_levels(state, a, colour))

    bids = tuple((c, levels(c)) for c in a.order if can_act(a, c))
    allowed = levels(a.bidder) if a.bidder is not None else ()
    amount = 0 if a.level is None else card.cost(a.level)
    passed = tuple(c for c in a.order if c in a.passed)
    return AuctionStatus(a.card, a.opener, a.bidder, a.level, amount, a.leader, allowed, passed, a.still_in, bids)


def buyable_trailers(state: GameState, colour: str) -> tuple[TrailerSize, ...]:
    p = state.player(colour)
    if p is None or state.phase is not Phase.PLAY or state.current.colour != colour or state.awaiting or state.auction:
        return ()
    return tuple(s for s in TrailerSize if state.trailers_available(s) > 0 and p.money >= TRAILERS[s].price)


def unseen_contracts(state: GameState) -> tuple[str, ...]:
    """Contract cards not scanned yet: the face-down public deck and the leftovers are among them."""
    return tuple(c.id for c in state.config.deck.contracts if c.id not in state.seen)


def truck_start_spaces(state: GameState) -> tuple[str, ...]:
    """AA-2: the plain spaces a truck may start on now (no city, nobody's truck)."""
    occupied = {p.space for p in state.players}
    return tuple(s.id for s in state.board.spaces if not s.city and s.id not in occupied)


class SetupStep(StrEnum):
    TRUCK = "truck"  # AA-2: ``player`` places his truck
    DEAL = "deal"  # AA-4: ``player`` is dealt his private contracts
    PUBLIC = "public"  # AA-4: the face-up public contracts are turned up
    START = "start"  # AA-5: who rolled highest starts


@dataclass(frozen=True, slots=True)
class SetupDue:
    step: SetupStep
    player: str | None = None


def setup_due(state: GameState, dealing_to: str | None = None) -> SetupDue | None:
    """What set-up needs next (None: set-up is over). ``dealing_to``: the player the table deals to
    while he still lacks private contracts (whoever scanned his bank card)."""
    if state.phase is not Phase.SETUP:
        return None
    for p in state.players:
        if p.space is None:
            return SetupDue(SetupStep.TRUCK, p.colour)
    preferred = state.player(dealing_to) if dealing_to is not None else None
    if preferred is not None and len(preferred.hand) < PRIVATE_CONTRACTS:
        return SetupDue(SetupStep.DEAL, preferred.colour)
    for p in state.players:
        if len(p.hand) < PRIVATE_CONTRACTS:
            return SetupDue(SetupStep.DEAL, p.colour)
    if len(state.public) < min(FACE_UP, state.config.public_deck):
        return SetupDue(SetupStep.PUBLIC)
    return SetupDue(SetupStep.START)


def deal_target(state: GameState, dealing_to: str | None = None) -> str:
    """Who a private contract scanned during set-up goes to: ``dealing_to``, else the first seat
    still short of private contracts (AA-4); the engine refuses a full hand."""
    if dealing_to is not None:
        return dealing_to
    return next((p.colour for p in state.players if len(p.hand) < PRIVATE_CONTRACTS), state.players[0].colour)


def legal_commands(state: GameState) -> Iterator[Command]:
    """Every legal command now (cards to scan: every candidate). For random-game tests and tools."""
    if state.finished:
        return
    config = state.config
    if state.phase is Phase.SETUP:
        yield from _setup_commands(state)
        return
    waiting = state.awaiting
    if waiting is not None:
        who = waiting.player or state.current.colour
        if waiting.kind is Waiting.PUBLIC_CARD:
            yield from (RevealPublic(c) for c in unseen_contracts(state))
        elif waiting.kind is Waiting.ACTION_CARD:
            used = set(state.actions_used)
            fresh = [a.id for a in config.deck.actions if a.id not in used] or [a.id for a in config.deck.actions]
            yield from (DrawAction(a) for a in fresh)
        elif waiting.kind is Waiting.SPARE_CONTRACT:
            yield from (TakeSpare(who, c) for c in unseen_contracts(state))
        else:
            sign = Sign.STAU if waiting.kind is Waiting.STAU else Sign.ROADWORKS
            yield from (PlaceSign(who, sign, s) for s in sign_spaces(state, sign.value))
        return
    if state.auction is not None:
        a = state.auction
        for colour in a.order:  # AA-19: every player still in (round_the_table: the bidder)
            if can_act(a, colour):
                yield from (Bid(colour, level) for level in allowed_levels(state, a, colour))
                yield PassBid(colour)
        return
    colour = state.current.colour
    turn = state.turn
    if turn.stage is Stage.ROLL:
        yield from (Roll(colour, v) for v in range(1, 7))
    elif turn.stage is Stage.MOVE:
        yield from (Move(colour, s) for s in legal_destinations(state, colour))
    else:
        for option in cargo_options(state, colour):
            if option.unload:
                yield Unload(colour, option.card)
            elif option.fits:
                yield Load(colour, option.card)
        yield from (OpenAuction(colour, c) for c in auctionable(state, colour))
        if turn.roadworks_allowed:
            yield from (PlaceSign(colour, Sign.ROADWORKS, s) for s in sign_spaces(state, "roadworks"))
        if not (turn.must_serve and not turn.served):
            yield EndTurn(colour)
    yield from (BuyTrailer(colour, s) for s in buyable_trailers(state, colour))
    p = state.current
    if p.debts and p.money > 0:
        yield PayDebt(colour)


def _setup_commands(state: GameState) -> Iterator[Command]:
    for p in state.players:
        if p.space is None:
            yield from (PlaceTruck(p.colour, s) for s in truck_start_spaces(state))
            return
    for p in state.players:
        if len(p.hand) < PRIVATE_CONTRACTS:
            yield from (DealContract(p.colour, c) for c in unseen_contracts(state))
            return
    if len(state.public) < min(FACE_UP, state.config.public_deck):
        yield from (RevealPublic(c) for c in unseen_contracts(state))
        return
    yield from (StartGame(c) for c in state.config.colours)
