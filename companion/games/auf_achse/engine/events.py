"""Events: what happened, for the bank feed, the screen and the LEDs. Frozen values."""

from __future__ import annotations

from dataclasses import dataclass

from companion.engine.ledger import MoneyBooked as MoneyBooked


@dataclass(frozen=True, slots=True)
class TruckPlaced:
    player: str
    space: str


@dataclass(frozen=True, slots=True)
class ContractDealt:
    player: str
    card: str


@dataclass(frozen=True, slots=True)
class PublicRevealed:
    card: str
    hidden: int  # face-down public contracts left


@dataclass(frozen=True, slots=True)
class GameStarted:
    first: str


@dataclass(frozen=True, slots=True)
class TurnStarted:
    player: str
    round: int


@dataclass(frozen=True, slots=True)
class TurnMissed:
    player: str
    left: int  # turns still to miss


@dataclass(frozen=True, slots=True)
class Rolled:
    player: str
    value: int
    by_companion: bool


@dataclass(frozen=True, slots=True)
class TruckStuck:
    """No legal destination for the roll: the truck stays where it is."""

    player: str
    space: str


@dataclass(frozen=True, slots=True)
class TruckMoved:
    player: str
    path: tuple[str, ...]  # from the start space to the destination
    steps: int
    exact: bool  # False: an early stop under AA-8 / AA-9
    rule: str  # AA-7, AA-8 or AA-9


@dataclass(frozen=True, slots=True)
class ContractLoaded:
    player: str
    card: str
    goods: int
    load: tuple[int, ...]  # goods per vehicle afterwards (truck, trailers)


@dataclass(frozen=True, slots=True)
class ContractDelivered:
    player: str
    card: str
    city: str
    payout: int
    load: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TrailerBought:
    player: str
    size: str
    capacity: int


@dataclass(frozen=True, slots=True)
class SignPlaced:
    sign: str
    space: str
    moved_from: str | None


@dataclass(frozen=True, slots=True)
class SignRemoved:
    sign: str
    space: str


@dataclass(frozen=True, slots=True)
class ActionCardDue:
    player: str


@dataclass(frozen=True, slots=True)
class ActionCardDrawn:
    player: str
    card: str
    effect: str
    reshuffled: bool  # the deck ran out and the used cards were shuffled into a new one


@dataclass(frozen=True, slots=True)
class MissTurns:
    player: str
    turns: int


@dataclass(frozen=True, slots=True)
class SpareContractTaken:
    player: str
    card: str


@dataclass(frozen=True, slots=True)
class DebtIncurred:
    player: str
    creditor: str | None  # None: the bank
    amount: int


@dataclass(frozen=True, slots=True)
class DebtSettled:
    player: str
    creditor: str | None
    amount: int


@dataclass(frozen=True, slots=True)
class AuctionOpened:
    opener: str
    card: str
    bidder: str | None  # round_the_table: whose bid it is first; any_order: None (anyone may bid)


@dataclass(frozen=True, slots=True)
class BidMade:
    player: str
    level: int
    amount: int
    next_bidder: str | None


@dataclass(frozen=True, slots=True)
class BidPassed:
    player: str
    automatic: bool  # the player had no legal bid left
    next_bidder: str | None


@dataclass(frozen=True, slots=True)
class AuctionWon:
    player: str
    card: str
    level: int | None  # None: nobody bid, free to the opener (AA-20)
    amount: int


@dataclass(frozen=True, slots=True)
class PublicCardDue:
    """AA-21: the next face-down public contract must be turned up (scanned)."""

    player: str


@dataclass(frozen=True, slots=True)
class TurnEnded:
    player: str


@dataclass(frozen=True, slots=True)
class GameEnded:
    winners: tuple[str, ...]
    reason: str


Event = (
    TruckPlaced
    | ContractDealt
    | PublicRevealed
    | GameStarted
    | TurnStarted
    | TurnMissed
    | Rolled
    | TruckStuck
    | TruckMoved
    | ContractLoaded
    | ContractDelivered
    | TrailerBought
    | SignPlaced
    | SignRemoved
    | ActionCardDue
    | ActionCardDrawn
    | MissTurns
    | SpareContractTaken
    | MoneyBooked
    | DebtIncurred
    | DebtSettled
    | AuctionOpened
    | BidMade
    | BidPassed
    | AuctionWon
    | PublicCardDue
    | TurnEnded
    | GameEnded
)
