"""The simulator's physical table: where each marker lies, the contract offer and pile, the event deck.

Pure Python (no pygame), so it is easy to test. The controller never sees this: it only hears the
intents the simulator derives from it (a marker placed on a city = ``TagPlaced`` from that reader).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from companion.games.on_the_way.engine.cards import Tier
from companion.games.on_the_way.engine.queries import offer_missing
from companion.games.on_the_way.engine.state import (
    MARKERS_PER_PLAYER,
    OFFER_SIZE,
    REMOVED_CONTRACTS,
    GameConfig,
    GameState,
)
from companion.intents import CardScanned, Intent
from companion.table.tags import CardTag, MarkerTag, TagDirectory
from companion.table.ui import Mode, UiModel


@dataclass
class SimTable:
    """Physical positions and card piles. ``markers`` maps each marker to its city, or None (in its tray)."""

    config: GameConfig
    tags: TagDirectory
    rng: random.Random
    markers: dict[MarkerTag, str | None] = field(default_factory=dict)
    offer: list[str] = field(default_factory=list)  # face-up contracts (OTW-9)
    pile: list[str] = field(default_factory=list)  # face-down contracts, top first (OTW-5)
    events: list[str] = field(default_factory=list)  # the event deck, top first (OTW-6)
    _taken: list[str] = field(default_factory=list)  # cards that left the offer/pile, newest last

    @classmethod
    def deal(cls, config: GameConfig, tags: TagDirectory, seed: int | None = None) -> SimTable:
        rng = random.Random(seed)
        table = cls(config, tags, rng)
        for colour in config.colours:
            for n in range(1, MARKERS_PER_PLAYER + 1):
                table.markers[MarkerTag(colour, n)] = None
        # OTW-4/OTW-5: remove random cards per tier, shuffle each tier, basic on top of extended on top of pro.
        removed = REMOVED_CONTRACTS[config.player_count]
        pile: list[str] = []
        for tier in (Tier.BASIC, Tier.EXTENDED, Tier.PROFESSIONAL):
            cards = [c.id for c in config.deck.contracts if c.tier is tier]
            rng.shuffle(cards)
            pile.extend(cards[removed[tier] :])
        table.pile = pile
        table.offer = [table.pile.pop(0) for _ in range(min(OFFER_SIZE[config.player_count], len(pile)))]
        events = [e.id for e in config.deck.events]
        rng.shuffle(events)
        table.events = events
        return table

    # -- markers -----------------------------------------------------------------------
    def uid(self, marker: MarkerTag) -> str:
        uid = self.tags.uid_of(marker)
        assert uid is not None, f"no simulated tag for {marker}"
        return uid

    def card_uid(self, card: str) -> str:
        uid = self.tags.uid_of(CardTag(card))
        assert uid is not None, f"no simulated tag for card {card}"
        return uid

    def in_tray(self, colour: str) -> list[MarkerTag]:
        return [m for m, c in self.markers.items() if c is None and m.colour == colour]

    def at(self, city: str) -> list[MarkerTag]:
        return [m for m, c in self.markers.items() if c == city]

    # -- cards -------------------------------------------------------------------------
    @property
    def next_event(self) -> str | None:
        return self.events[0] if self.events else None

    def sync(self, state: GameState, ui: UiModel | None = None) -> list[Intent]:
        """Follow the game: taken contracts leave the offer (refilled from the pile), an undone take
        puts the card back on the offer, revealed events leave the deck. Markers move only by the
        players' hands, so nothing is sensed by itself. Once the table collects the face-up offer
        (OTW-9: the box plays a seat, or advice was asked), the hands scan every card they lay out:
        those scans are the intents returned."""
        if state.offer is not None or (ui is not None and ui.mode is Mode.CARD_DUE):
            return self._sync_tracked(state)
        used = state.used_contracts
        for card in list(self._taken):
            if card not in used:  # undone: the card goes back where the players can take it again
                self._taken.remove(card)
                self.offer.insert(0, card)
        for card in [c for c in self.offer if c in used]:
            self.offer.remove(card)
            self._taken.append(card)
        for card in [c for c in self.pile if c in used]:
            self.pile.remove(card)
            self._taken.append(card)
        while len(self.offer) < OFFER_SIZE[self.config.player_count] and self.pile:
            self.offer.append(self.pile.pop(0))
        self._sync_events(state)
        return []

    def _sync_events(self, state: GameState) -> None:
        seen = set(state.revealed)
        self.events = [e for e in self.events if e not in seen]
        if not self.events:  # every card has been seen: the old ones go under the deck again
            self.events = [e.id for e in self.config.deck.events if e.id != state.event]

    def _sync_tracked(self, state: GameState) -> list[Intent]:
        """The engine's offer is the truth: cards it does not know go back on the pile (not scanned yet,
        or their lay-out undone), cards it has back on the table (an undone take), then the offer is
        filled from the pile and each card laid out is scanned."""
        used = state.used_contracts
        known = state.offer or ()
        self._taken += [c for c in (*self.offer, *self.pile) if c in used and c not in self._taken]
        returned = [c for c in self._taken if c not in used and c not in known]  # an undone take from the pile
        stray = [c for c in self.offer if c not in known and c not in used]
        rest = [c for c in self.pile if c not in used and c not in known]
        self.pile = [*stray, *returned, *rest]  # face down again, on top, in the order they lay
        self._taken = [c for c in self._taken if c in used]
        self.offer = list(known)
        self._sync_events(state)
        scans: list[Intent] = []
        for _ in range(offer_missing(state)):
            if not self.pile:
                break
            card = self.pile.pop(0)
            self.offer.append(card)
            scans.append(CardScanned(self.card_uid(card)))
        return scans
