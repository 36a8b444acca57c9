"""Which physical tag is which game piece: markers, cards, bank cards and the admin card.

Built from the hardware TOML on a Pi, or synthesised for the simulator (``TagDirectory.simulated``).
UIDs are spelled as ``companion.intents.normalise_uid`` spells them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from companion.intents import normalise_uid


@dataclass(frozen=True, slots=True)
class MarkerTag:
    colour: str
    number: int  # 1 or 2

    def __str__(self) -> str:
        return f"{self.colour} marker {self.number}"


@dataclass(frozen=True, slots=True)
class CardTag:
    card: str  # contract or event card id


@dataclass(frozen=True, slots=True)
class BankCardTag:
    colour: str  # a player's bank card: who pays, bids or is paid


@dataclass(frozen=True, slots=True)
class AdminTag:
    pass


Tag = MarkerTag | CardTag | BankCardTag | AdminTag


@dataclass(frozen=True)
class TagDirectory:
    tags: Mapping[str, Tag]
    _by_tag: dict[Tag, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "tags", {normalise_uid(uid): tag for uid, tag in self.tags.items()})
        object.__setattr__(self, "_by_tag", {tag: uid for uid, tag in self.tags.items()})

    def lookup(self, uid: str) -> Tag | None:
        return self.tags.get(uid)

    def marker(self, uid: str) -> MarkerTag | None:
        tag = self.tags.get(uid)
        return tag if isinstance(tag, MarkerTag) else None

    def uid_of(self, tag: Tag) -> str | None:
        return self._by_tag.get(tag)

    @classmethod
    def simulated(cls, colours: Iterable[str], card_ids: Iterable[str], markers_per_player: int = 2) -> TagDirectory:
        """Synthetic, stable 7-byte UIDs for every marker, card, bank card and one admin card."""
        tags: dict[str, Tag] = {}
        for colour in colours:
            for n in range(1, markers_per_player + 1):
                tags[_uid(f"marker:{colour}:{n}")] = MarkerTag(colour, n)
            tags[_uid(f"bank:{colour}")] = BankCardTag(colour)
        for card in card_ids:
            tags[_uid(f"card:{card}")] = CardTag(card)
        tags[_uid("admin")] = AdminTag()
        return cls(tags)


def _uid(name: str) -> str:
    # NTAG-like 7-byte UIDs start with the manufacturer byte 0x04.
    return "04" + hashlib.sha1(name.encode()).hexdigest()[:12].upper()
