"""Contract and event cards of On The Way (OTW-2, OTW-12, OTW-13, OTW-30)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class Tier(StrEnum):
    BASIC = "basic"  # distance 2 (OTW-13)
    EXTENDED = "extended"  # distance 3
    PROFESSIONAL = "professional"  # distance 4 or 5


TIER_DISTANCES: dict[Tier, tuple[int, ...]] = {
    Tier.BASIC: (2,),
    Tier.EXTENDED: (3,),
    Tier.PROFESSIONAL: (4, 5),
}


class EventKind(StrEnum):
    BONUS = "bonus"  # +amount R per contract fulfilled
    MALUS = "malus"  # -amount R per contract fulfilled
    CHEAPER_BUILD = "cheaper_build"  # each build or expansion costs amount R less
    EXTRA_STEP = "extra_step"  # one more step per turn
    TRAFFIC_JAM = "traffic_jam"  # a jam token on ``road``: crossing it takes 2 steps


@dataclass(frozen=True, slots=True)
class ContractCard:
    id: str
    tier: Tier
    origin: str  # "from" in the TOML
    destination: str  # "to" in the TOML
    distance: int
    trucks: int
    pay: int
    vp: int = 0

    def __str__(self) -> str:
        return f"{self.id} {self.origin}→{self.destination}"


@dataclass(frozen=True, slots=True)
class EventCard:
    id: str
    kind: EventKind
    amount: int = 0
    road: tuple[str, str] | None = None  # traffic_jam only


@dataclass(frozen=True)
class Deck:
    """The contracts and events a game is played with, looked up by card id."""

    contracts: tuple[ContractCard, ...]
    events: tuple[EventCard, ...]
    _contracts: dict[str, ContractCard] = field(init=False, repr=False, compare=False)
    _events: dict[str, EventCard] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_contracts", {c.id: c for c in self.contracts})
        object.__setattr__(self, "_events", {e.id: e for e in self.events})

    def contract(self, card_id: str) -> ContractCard | None:
        return self._contracts.get(card_id)

    def event(self, card_id: str) -> EventCard | None:
        return self._events.get(card_id)
