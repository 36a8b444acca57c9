"""Events: what happened, for the bank feed, the screen and the LEDs. Frozen values."""

from __future__ import annotations

from dataclasses import dataclass

from companion.engine.ledger import MoneyBooked as MoneyBooked


@dataclass(frozen=True, slots=True)
class ContractTaken:
    player: str
    card: str


@dataclass(frozen=True, slots=True)
class ContractLaidOut:
    """OTW-9: ``card`` now lies face up in the offer; ``missing`` more are still to be laid out."""

    card: str
    missing: int


@dataclass(frozen=True, slots=True)
class TransportStarted:
    player: str
    marker: int
    city: str
    trucks: int


@dataclass(frozen=True, slots=True)
class TrucksJoined:
    player: str
    marker: int
    city: str
    trucks: int  # how many idle trucks joined (OTW-19)


@dataclass(frozen=True, slots=True)
class TransportMoved:
    player: str
    marker: int
    route: tuple[str, ...]  # start, transshipment cities..., destination
    trucks: int
    steps: int


@dataclass(frozen=True, slots=True)
class ContractLoaded:
    """The transport stood at the contract's start city with enough trucks (OTW-21)."""

    player: str
    marker: int
    card: str


@dataclass(frozen=True, slots=True)
class ContractFulfilled:
    player: str
    marker: int
    card: str
    city: str
    trucks: int  # become idle at ``city``


@dataclass(frozen=True, slots=True)
class VictoryPoints:
    player: str
    vp: int
    rule: str


@dataclass(frozen=True, slots=True)
class Built:
    player: str
    city: str
    building: str
    trucks: int  # new idle trucks placed there


@dataclass(frozen=True, slots=True)
class TransportCancelled:
    player: str
    marker: int
    city: str
    trucks: int


@dataclass(frozen=True, slots=True)
class EventDue:
    """The strip is full: ``player`` must reveal the next event card (OTW-28)."""

    player: str


@dataclass(frozen=True, slots=True)
class EventRevealed:
    card: str
    kind: str
    time: int


@dataclass(frozen=True, slots=True)
class JamPlaced:
    road: tuple[str, str]
    moved_from: tuple[str, str] | None = None  # all 3 tokens were out: the oldest one moved


@dataclass(frozen=True, slots=True)
class LastRound:
    round: int


@dataclass(frozen=True, slots=True)
class TurnEnded:
    player: str


@dataclass(frozen=True, slots=True)
class TurnStarted:
    player: str
    round: int
    steps: int


@dataclass(frozen=True, slots=True)
class GameEnded:
    winners: tuple[str, ...]
    reason: str


Event = (
    ContractTaken
    | ContractLaidOut
    | TransportStarted
    | TrucksJoined
    | TransportMoved
    | ContractLoaded
    | ContractFulfilled
    | MoneyBooked
    | VictoryPoints
    | Built
    | TransportCancelled
    | EventDue
    | EventRevealed
    | JamPlaced
    | LastRound
    | TurnEnded
    | TurnStarted
    | GameEnded
)
