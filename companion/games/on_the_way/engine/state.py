"""The immutable state of an On The Way game.

Per-city data are tuples indexed by ``board.index[name]`` so that a move copies a few small tuples
instead of dictionaries; the JSON view (``serialize.py``) maps them back to names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import Any

from companion.engine.errors import DataError
from companion.engine.ledger import Ledger
from companion.engine.values import evolve
from companion.games.on_the_way.engine.board import Board
from companion.games.on_the_way.engine.cards import ContractCard, Deck, EventCard, EventKind, Tier
from companion.games.on_the_way.engine.options import HouseRules

# OTW-1
TOTAL_TRUCKS = 33
TOTAL_WAREHOUSES = 14
TOTAL_LOGISTICS_CENTRES = 18
MARKERS_PER_PLAYER = 2  # OTW-7
START_MONEY = 1000  # OTW-7
STEPS_PER_TURN = 2  # OTW-10
JAM_TOKENS = 3  # OTW-1

# OTW-4: contracts returned to the box, per player count and tier.
REMOVED_CONTRACTS: dict[int, dict[Tier, int]] = {
    2: {Tier.BASIC: 3, Tier.EXTENDED: 4, Tier.PROFESSIONAL: 1},
    3: {Tier.BASIC: 4, Tier.EXTENDED: 2, Tier.PROFESSIONAL: 2},
    4: {Tier.BASIC: 4, Tier.EXTENDED: 3, Tier.PROFESSIONAL: 0},
}
OFFER_SIZE = {2: 3, 3: 4, 4: 5}  # OTW-9
STRIP_SIZE = {2: 3, 3: 4, 4: 5}  # OTW-28
TIME_END = {2: 14, 3: 11, 4: 10}  # OTW-31


class Building(StrEnum):
    WAREHOUSE = "warehouse"
    LOGISTICS_CENTRE = "logistics_centre"


@dataclass(frozen=True)
class GameConfig:
    """Everything fixed for a whole game: the data, the seats, the options."""

    board: Board
    deck: Deck
    colours: tuple[str, ...]  # seat order; the first starts
    rules: HouseRules = field(default_factory=HouseRules)
    end_at: int | None = None  # overrides the time-track end (the "short game" house rule)

    def __post_init__(self) -> None:
        n = len(self.colours)
        if n not in (2, 3, 4):
            raise DataError(f"On The Way is for 2 to 4 players, not {n} (OTW-4)")
        if len(set(self.colours)) != n:
            raise DataError(f"player colours must differ: {', '.join(self.colours)}")
        if n not in self.board.setup:
            raise DataError(f"board {self.board.name!r} has no set-up for {n} players (OTW-8)")
        if self.end_at is not None and not 1 <= self.end_at <= 14:
            raise DataError(f"--end-at must be between 1 and 14, not {self.end_at} (OTW-31)")

    @property
    def player_count(self) -> int:
        return len(self.colours)

    @property
    def time_end(self) -> int:
        return self.end_at if self.end_at is not None else TIME_END[self.player_count]

    @property
    def strip_size(self) -> int:
        return STRIP_SIZE[self.player_count]

    @cached_property
    def contracts_in_play(self) -> dict[Tier, int]:
        """OTW-4: how many cards of each tier a game of this player count uses."""
        removed = REMOVED_CONTRACTS[self.player_count]
        return {t: max(0, sum(1 for c in self.deck.contracts if c.tier is t) - removed[t]) for t in Tier}

    @cached_property
    def first_card_of_tier(self) -> dict[Tier, ContractCard]:
        out: dict[Tier, ContractCard] = {}
        for card in self.deck.contracts:
            out.setdefault(card.tier, card)
        return out

    @cached_property
    def extra_step_events(self) -> frozenset[str]:
        return frozenset(e.id for e in self.deck.events if e.kind is EventKind.EXTRA_STEP)

    def seat_of(self, colour: str) -> int | None:
        try:
            return self.colours.index(colour)
        except ValueError:
            return None

    def contract(self, card_id: str) -> ContractCard | None:
        return self.deck.contract(card_id)

    def event(self, card_id: str) -> EventCard | None:
        return self.deck.event(card_id)


@dataclass(frozen=True, slots=True)
class Transport:
    """Trucks under one player's marker (OTW-15)."""

    marker: int  # 1 or 2
    city: str
    trucks: int
    # OTW-21: contracts whose start city this transport has stood at with enough trucks since the
    # contract was taken.
    loaded: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class PlayerState:
    colour: str
    money: int  # always equal to the ledger balance of this colour (checked by the invariant tests)
    vp: int  # VP tokens
    contracts: tuple[str, ...]  # held, not yet fulfilled, in the order taken
    transports: tuple[Transport, ...]  # sorted by marker

    def transport(self, marker: int) -> Transport | None:
        for t in self.transports:
            if t.marker == marker:
                return t
        return None

    def free_markers(self) -> tuple[int, ...]:
        used = {t.marker for t in self.transports}
        return tuple(m for m in range(1, MARKERS_PER_PLAYER + 1) if m not in used)


@dataclass(frozen=True, slots=True)
class Turn:
    seat: int
    round: int  # 1-based
    steps_used: int = 0


@dataclass(frozen=True)
class GameState:
    config: GameConfig
    players: tuple[PlayerState, ...]
    buildings: tuple[Building | None, ...]  # per city index
    builders: tuple[str | None, ...]  # per city index: who built there (None: a starting warehouse)
    idle: tuple[int, ...]  # idle trucks per city index
    supply_trucks: int
    supply_warehouses: int
    supply_logistics_centres: int
    time: int
    event: str | None  # the active event card id
    revealed: tuple[str, ...]  # event cards revealed so far, oldest first
    strip: tuple[str, ...]  # completed contracts on the strip (OTW-28)
    used_contracts: frozenset[str]  # taken by someone (held or fulfilled)
    jams: tuple[tuple[str, str], ...]  # roads with a jam token, each pair sorted, oldest first
    turn: Turn
    awaiting_event: bool  # the strip filled: the next event card must be revealed (OTW-28)
    last_round: int | None  # the round that is the last one (OTW-31), once the time end is reached
    finished: bool
    ledger: Ledger
    # OTW-9: the face-up contracts as scanned at the table ("lay_out"), oldest first; None: the table
    # does not track the offer (scripted play, a table with no bots), so any unused card may be meant.
    offer: tuple[str, ...] | None = None

    def evolve(self, **changes: Any) -> GameState:
        """A copy with ``changes``: ``companion.engine.values.evolve`` (the memo stays with this state)."""
        return evolve(self, **changes)

    def memo(self) -> dict[object, object]:
        """A per-state cache for derived answers (the state is immutable, so they never go stale)."""
        memo = self.__dict__.get("_memo")
        if memo is None:
            memo = {}
            self.__dict__["_memo"] = memo
        return memo

    # -- derived views -------------------------------------------------------------------
    @property
    def board(self) -> Board:
        return self.config.board

    @property
    def current(self) -> PlayerState:
        return self.players[self.turn.seat]

    def player(self, colour: str) -> PlayerState | None:
        seat = self.config.seat_of(colour)
        return None if seat is None else self.players[seat]

    def active_event(self) -> EventCard | None:
        return None if self.event is None else self.config.event(self.event)

    def event_kind(self) -> EventKind | None:
        card = self.active_event()
        return None if card is None else card.kind

    def steps_per_turn(self) -> int:
        return STEPS_PER_TURN + (self.event in self.config.extra_step_events)  # OTW-30

    @property
    def steps_left(self) -> int:
        return max(0, self.steps_per_turn() - self.turn.steps_used)

    def idle_at(self, city: str) -> int:
        return self.idle[self.board.index[city]]

    def building_at(self, city: str) -> Building | None:
        return self.buildings[self.board.index[city]]

    def is_jammed(self, a: str, b: str) -> bool:
        return ((a, b) if a < b else (b, a)) in self.jams

    def trucks_on_road(self) -> int:
        return sum(t.trucks for p in self.players for t in p.transports)


def initial_state(config: GameConfig) -> GameState:
    """OTW-7 and OTW-8: markers and 1 000 R each; a warehouse and one truck on each start city."""
    board = config.board
    start = config.board.setup[config.player_count]
    buildings: list[Building | None] = [None] * len(board.cities)
    idle = [0] * len(board.cities)
    for city in start:
        i = board.index[city]
        buildings[i] = Building.WAREHOUSE
        idle[i] = 1
    ledger = Ledger()
    players = []
    for colour in config.colours:
        ledger = ledger.append(colour, START_MONEY, "starting money", "OTW-7")
        players.append(PlayerState(colour, START_MONEY, 0, (), ()))
    return GameState(
        config=config,
        players=tuple(players),
        buildings=tuple(buildings),
        builders=(None,) * len(board.cities),
        idle=tuple(idle),
        supply_trucks=TOTAL_TRUCKS - len(start),
        supply_warehouses=TOTAL_WAREHOUSES - len(start),
        supply_logistics_centres=TOTAL_LOGISTICS_CENTRES,
        time=0,
        event=None,
        revealed=(),
        strip=(),
        used_contracts=frozenset(),
        jams=(),
        turn=Turn(seat=0, round=1),
        awaiting_event=False,
        last_round=None,
        finished=False,
        ledger=ledger,
    )
