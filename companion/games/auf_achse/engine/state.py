"""The immutable state of an Auf Achse game."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from companion.engine.errors import DataError
from companion.engine.ledger import Ledger
from companion.games.auf_achse.engine.board import AABoard
from companion.games.auf_achse.engine.cards import AADeck, ActionCard, ContractCard
from companion.games.auf_achse.engine.options import HouseRules

# AA-1, AA-4, AA-5
MIN_PLAYERS, MAX_PLAYERS = 2, 6
START_MONEY = 5000
TRUCK_CAPACITY = 6
PRIVATE_CONTRACTS = 3
FACE_UP = 4
PUBLIC_DECK = {2: 12, 3: 16, 4: 20, 5: 24, 6: 24}


class _Rebuildable(StrEnum):
    """An enum whose ``repr`` rebuilds it (``Sign.STAU``), so commands that hold one do too."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"


class TrailerSize(_Rebuildable):
    SMALL = "small"
    LARGE = "large"


@dataclass(frozen=True, slots=True)
class TrailerSpec:
    count: int  # cards in the box
    capacity: int  # goods
    price: int  # DM


# AA-1: 8 trailer cards. The split between sizes is not printed in the text we have: 4 + 4.
TRAILERS: dict[TrailerSize, TrailerSpec] = {
    TrailerSize.SMALL: TrailerSpec(4, 4, 2000),
    TrailerSize.LARGE: TrailerSpec(4, 6, 3000),
}


class Phase(StrEnum):
    SETUP = "setup"  # trucks placed, contracts scanned, public cards revealed (AA-2..5)
    PLAY = "play"


class Stage(StrEnum):
    ROLL = "roll"  # the player on turn must roll first (AA-6)
    MOVE = "move"  # rolled: the move is due (AA-7)
    ACT = "act"  # moved: load, unload, buy, auction, end the turn (AA-6)


class Sign(_Rebuildable):
    ROADWORKS = "roadworks"  # AA-10
    STAU = "stau"  # AA-11


class Waiting(StrEnum):
    """Something the table must do before play goes on (scan a card, place a sign)."""

    PUBLIC_CARD = "public_card"  # AA-21: turn up (scan) the next public contract
    ACTION_CARD = "action_card"  # AA-12: draw (scan) an action card
    STAU = "stau"  # an action card: place the Stau sign
    ROADWORKS = "roadworks"  # an action card: move the roadworks sign
    SPARE_CONTRACT = "spare_contract"  # an action card: take (scan) a leftover contract


@dataclass(frozen=True)
class GameConfig:
    """Everything fixed for a whole game: the data, the seats, the options, the dice seed."""

    board: AABoard
    deck: AADeck
    colours: tuple[str, ...]  # seat order, clockwise (AA-5)
    rules: HouseRules = field(default_factory=HouseRules)
    seed: int = 0  # the companion's die: roll n is random.Random(f"{seed}:{n}")

    def __post_init__(self) -> None:
        n = len(self.colours)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise DataError(f"Auf Achse is for 2 to 6 players, not {n} (AA-1)")
        if len(set(self.colours)) != n:
            raise DataError(f"player colours must differ: {', '.join(self.colours)}")
        need = PRIVATE_CONTRACTS * n + self.public_deck
        if len(self.deck.contracts) < need:
            raise DataError(
                f"a {n}-player game needs {need} contract cards (AA-4), the deck has {len(self.deck.contracts)}"
            )

    @property
    def player_count(self) -> int:
        return len(self.colours)

    @property
    def public_deck(self) -> int:
        return PUBLIC_DECK[len(self.colours)]

    def seat_of(self, colour: str) -> int | None:
        try:
            return self.colours.index(colour)
        except ValueError:
            return None

    def contract(self, card_id: str) -> ContractCard | None:
        return self.deck.contract(card_id)

    def action(self, card_id: str) -> ActionCard | None:
        return self.deck.action(card_id)


@dataclass(frozen=True, slots=True)
class Debt:
    """AA-22: money owed; ``creditor`` None is the bank."""

    creditor: str | None
    amount: int


@dataclass(frozen=True, slots=True)
class PlayerState:
    colour: str
    space: str | None  # None until placed (AA-2)
    money: int  # always the ledger balance of this colour
    debts: tuple[Debt, ...] = ()  # oldest first
    hand: tuple[str, ...] = ()  # private contracts, not begun (secret, AA-4)
    loaded: tuple[str, ...] = ()  # begun contracts, open on the table, goods on board (AA-14)
    load: tuple[int, ...] = (0,)  # goods per vehicle: the truck, then each trailer in purchase order
    trailers: tuple[TrailerSize, ...] = ()
    miss_turns: int = 0
    delivered: tuple[str, ...] = ()  # contracts fulfilled, in order

    @property
    def capacity(self) -> int:
        return TRUCK_CAPACITY + sum(TRAILERS[t].capacity for t in self.trailers)

    @property
    def goods(self) -> int:
        return sum(self.load)

    @property
    def free(self) -> int:
        return self.capacity - self.goods

    @property
    def debt(self) -> int:
        return sum(d.amount for d in self.debts)

    @property
    def contracts(self) -> tuple[str, ...]:
        """Every contract he holds: private ones and begun ones (AA-23)."""
        return self.hand + self.loaded

    def vehicle_capacities(self) -> tuple[int, ...]:
        return (TRUCK_CAPACITY, *(TRAILERS[t].capacity for t in self.trailers))


@dataclass(frozen=True, slots=True)
class Turn:
    seat: int
    round: int  # 1-based; 0 during set-up
    stage: Stage = Stage.ROLL
    roll: int | None = None
    exact_city: bool = False  # the move ended exactly in a city (AA-18)
    auctioned: bool = False  # the one auction of this turn has been held (AA-6)
    must_serve: str | None = None  # stopped early in this city under AA-9: must load or unload here
    served: bool = False
    roadworks_allowed: bool = False  # rolled a 1 and may still place the roadworks sign (AA-10)


@dataclass(frozen=True, slots=True)
class Auction:
    """AA-18..21: the auction of one face-up contract."""

    card: str
    opener: str
    order: tuple[str, ...]  # seat order from the opener's left round the table, the opener last
    bidder: str | None  # round_the_table: whose bid (or pass) it is; any_order: None (anyone still in)
    level: int | None = None  # the highest bid so far, as a Kosten level 1..5
    leader: str | None = None  # who holds it
    passed: frozenset[str] = frozenset()
    auto_passed: frozenset[str] = frozenset()  # of ``passed``: those passed for want of a legal bid

    @property
    def still_in(self) -> tuple[str, ...]:
        """Who has not passed, in seat order from the opener's left (AA-19)."""
        return tuple(c for c in self.order if c not in self.passed)


@dataclass(frozen=True, slots=True)
class Awaiting:
    kind: Waiting
    player: str | None = None  # who must act (the drawer, the placer); None: anyone at the table


@dataclass(frozen=True)
class GameState:
    config: GameConfig
    phase: Phase
    players: tuple[PlayerState, ...]
    public: tuple[str, ...]  # face-up public contracts (at most 4)
    public_hidden: int  # face-down public contracts left (the engine does not know which)
    seen: frozenset[str]  # contract cards that have been scanned (dealt, revealed, taken as spare)
    spare_left: int  # leftover contracts beside the board (AA-4)
    trailers_left: tuple[tuple[TrailerSize, int], ...]
    roadworks: str | None  # the space with the roadworks sign
    stau: str | None  # the space with the Stau sign
    stau_by: str | None  # who placed it
    stau_round: int  # the round it was placed in
    actions_used: tuple[str, ...]  # action cards drawn since the deck was last (re)shuffled
    turn: Turn
    auction: Auction | None
    awaiting: Awaiting | None
    rolls: int  # die rolls made by the companion so far (the random state)
    bank_paid: int  # net DM the bank has paid to players (conservation check)
    finished: bool
    end_reason: str | None
    ledger: Ledger
    # The auction closed this turn (who passed, who won), so a late bid or pass is told it is over.
    last_auction: Auction | None = None

    @property
    def board(self) -> AABoard:
        return self.config.board

    @property
    def current(self) -> PlayerState:
        return self.players[self.turn.seat]

    def player(self, colour: str) -> PlayerState | None:
        seat = self.config.seat_of(colour)
        return None if seat is None else self.players[seat]

    def occupant(self, space: str) -> str | None:
        for p in self.players:
            if p.space == space:
                return p.colour
        return None

    def trailers_available(self, size: TrailerSize) -> int:
        return dict(self.trailers_left).get(size, 0)

    @property
    def public_left(self) -> int:
        return len(self.public) + self.public_hidden


def initial_state(config: GameConfig) -> GameState:
    """AA-4, AA-5: 5 000 DM each from the bank; trucks, contracts and public cards come by command."""
    ledger = Ledger()
    players = []
    for colour in config.colours:
        ledger = ledger.append(colour, START_MONEY, "starting money", "AA-5")
        players.append(PlayerState(colour, None, START_MONEY))
    n = config.player_count
    return GameState(
        config=config,
        phase=Phase.SETUP,
        players=tuple(players),
        public=(),
        public_hidden=config.public_deck,
        seen=frozenset(),
        spare_left=len(config.deck.contracts) - PRIVATE_CONTRACTS * n - config.public_deck,
        trailers_left=tuple((size, spec.count) for size, spec in TRAILERS.items()),
        roadworks=None,
        stau=None,
        stau_by=None,
        stau_round=0,
        actions_used=(),
        turn=Turn(seat=0, round=0),
        auction=None,
        awaiting=None,
        rolls=0,
        bank_paid=START_MONEY * n,
        finished=False,
        end_reason=None,
        ledger=ledger,
    )
