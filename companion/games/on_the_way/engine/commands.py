"""Commands: what a player (or the table) asks the engine to do. Frozen values; ``repr`` rebuilds them."""

from __future__ import annotations

from dataclasses import dataclass

from companion.engine.game import UndoCommand as Undo
from companion.games.on_the_way.engine.state import Building


@dataclass(frozen=True, slots=True)
class TakeContract:
    """OTW-12: take one contract card."""

    player: str
    card: str


@dataclass(frozen=True, slots=True)
class Move:
    """OTW-14..19: move a transport to ``to``; the engine finds the transshipment route.

    For a new transport ``origin`` and ``trucks`` are required; for one on the road they may be
    omitted, and ``trucks`` above the transport's count joins idle trucks at the start city (OTW-19).
    """

    player: str
    marker: int
    to: str
    origin: str | None = None
    trucks: int | None = None


@dataclass(frozen=True, slots=True)
class Fulfil:
    """OTW-21, OTW-22: fulfil a held contract with a transport standing at its end city."""

    player: str
    card: str


@dataclass(frozen=True, slots=True)
class Build:
    """OTW-23, OTW-25: build a warehouse or a logistics centre in a city with no building."""

    player: str
    city: str
    building: Building


@dataclass(frozen=True, slots=True)
class Expand:
    """OTW-24: expand a warehouse into a logistics centre."""

    player: str
    city: str


@dataclass(frozen=True, slots=True)
class Cancel:
    """OTW-27: take the marker off a transport; its trucks become idle where they stand."""

    player: str
    marker: int


@dataclass(frozen=True, slots=True)
class Pass:
    """OTW-11 (interpretation): end the turn without using the remaining steps."""

    player: str


@dataclass(frozen=True, slots=True)
class LayOut:
    """OTW-9: a contract card laid face up into the offer (scanned at set-up and on every refill).

    Not a player's step: it tells the table which cards lie open, so that bots and the advisor choose
    among them. Taking a card of the offer takes it out; any other card is the top of the pile.
    """

    card: str


@dataclass(frozen=True, slots=True)
class RevealEvent:
    """OTW-28: the strip filled; the next event card is revealed."""

    card: str


__all__ = [
    "Build",
    "Cancel",
    "Command",
    "Expand",
    "Fulfil",
    "LayOut",
    "Move",
    "Pass",
    "PlayerCommand",
    "RevealEvent",
    "TakeContract",
    "Undo",
]

PlayerCommand = TakeContract | Move | Fulfil | Build | Expand | Cancel | Pass
Command = PlayerCommand | RevealEvent | LayOut | Undo
