"""The bank: an append-only ledger. Balances derive from it; an undo appears as reversal entries.

The ledger is a persistent singly linked list so that appending to an immutable game state is O(1)
and every earlier state shares its tail with later ones.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    seq: int  # 1, 2, 3 ... in the order the bank booked them
    player: str  # who is paid (amount > 0) or pays (amount < 0); the bank is the other side
    amount: int  # R (On The Way) or DM (Auf Achse)
    reason: str  # one plain phrase: "contract B01 Bremen→Poznań"
    rule: str  # the rule id that made the payment, e.g. "OTW-22"
    card: str | None = None  # the card involved, if any
    modifier: str | None = None  # an event card that changed the amount (OTW-30)
    reverses: int | None = None  # for undo: the seq of the entry this one cancels

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "seq": self.seq,
            "player": self.player,
            "amount": self.amount,
            "reason": self.reason,
            "rule": self.rule,
        }
        for key in ("card", "modifier", "reverses"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        return out


@dataclass(frozen=True, slots=True, eq=False)
class Ledger:
    """An immutable ledger; ``append`` returns a new one sharing this one's entries."""

    last: LedgerEntry | None = None
    previous: Ledger | None = None

    def __eq__(self, other: object) -> bool:
        # Iterative: the default dataclass comparison would recurse once per entry.
        if not isinstance(other, Ledger):
            return NotImplemented
        return self is other or (self.size == other.size and self.entries() == other.entries())

    def __hash__(self) -> int:
        return hash(self.last)

    @property
    def size(self) -> int:
        return 0 if self.last is None else self.last.seq

    def append(
        self,
        player: str,
        amount: int,
        reason: str,
        rule: str,
        card: str | None = None,
        modifier: str | None = None,
        reverses: int | None = None,
    ) -> Ledger:
        entry = LedgerEntry(self.size + 1, player, amount, reason, rule, card, modifier, reverses)
        return Ledger(entry, self)

    def entries(self) -> tuple[LedgerEntry, ...]:
        """All entries, oldest first."""
        out: list[LedgerEntry] = []
        node: Ledger | None = self
        while node is not None and node.last is not None:
            out.append(node.last)
            node = node.previous
        return tuple(reversed(out))

    def since(self, size: int) -> tuple[LedgerEntry, ...]:
        """The entries booked after the ledger had ``size`` entries, oldest first."""
        out: list[LedgerEntry] = []
        node: Ledger | None = self
        while node is not None and node.last is not None and node.last.seq > size:
            out.append(node.last)
            node = node.previous
        return tuple(reversed(out))

    def __iter__(self) -> Iterator[LedgerEntry]:
        return iter(self.entries())

    def balance(self, player: str) -> int:
        return sum(e.amount for e in self.entries() if e.player == player)

    def reversal_of(self, entries: tuple[LedgerEntry, ...]) -> Ledger:
        """Book a reversal for each of ``entries`` (newest first), as an undo does."""
        ledger = self
        for e in reversed(entries):
            ledger = ledger.append(e.player, -e.amount, f"undo: {e.reason}", e.rule, e.card, e.modifier, reverses=e.seq)
        return ledger


@dataclass(frozen=True, slots=True)
class MoneyBooked:
    """The event every game emits when the bank books an entry (the screen's transaction feed)."""

    entry: LedgerEntry
