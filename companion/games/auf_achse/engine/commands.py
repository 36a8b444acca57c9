"""Commands: what a player (or the table) asks the engine to do. Frozen values; ``repr`` rebuilds them."""

from __future__ import annotations

from dataclasses import dataclass

from companion.engine.game import UndoCommand as Undo
from companion.games.auf_achse.engine.state import Sign, TrailerSize

# -- set-up (AA-2..5) ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlaceTruck:
    """AA-2: put a truck on a plain (non-city) space nobody stands on."""

    player: str
    space: str


@dataclass(frozen=True, slots=True)
class DealContract:
    """AA-4: one of a player's 3 private contracts, scanned as it is dealt."""

    player: str
    card: str


@dataclass(frozen=True, slots=True)
class RevealPublic:
    """AA-4, AA-21: a public contract turned face up (scanned). ``player``: who turned it up, when
    the table knows; checked if given (after an auction: the opener, AA-21)."""

    card: str
    player: str | None = None


@dataclass(frozen=True, slots=True)
class StartGame:
    """AA-5: set-up is complete; ``player`` (who rolled highest) starts; None: the first seat."""

    player: str | None = None


# -- a turn (AA-6..17) ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Roll:
    """AA-7: the die. ``value`` from a physical die, or None: the companion rolls (seeded)."""

    player: str
    value: int | None = None


@dataclass(frozen=True, slots=True)
class Move:
    """AA-7..9: move the truck to ``to``; the engine finds a legal path of the rolled length."""

    player: str
    to: str


@dataclass(frozen=True, slots=True)
class Load:
    """AA-14, AA-15: begin a private contract at its start city: all its goods go on board."""

    player: str
    card: str


@dataclass(frozen=True, slots=True)
class Unload:
    """AA-16: deliver a begun contract at its end city and collect the payout."""

    player: str
    card: str


@dataclass(frozen=True, slots=True)
class BuyTrailer:
    """AA-17: buy a small (4 goods, 2 000 DM) or large (6 goods, 3 000 DM) trailer."""

    player: str
    size: TrailerSize


@dataclass(frozen=True, slots=True)
class PlaceSign:
    """AA-10, AA-11: put the roadworks or Stau sign on a space (after a 1, or an action card)."""

    player: str
    sign: Sign
    space: str


@dataclass(frozen=True, slots=True)
class DrawAction:
    """AA-12: the action card drawn (scanned) after ending on a warning triangle. ``player``: who
    drew it, when the table knows; checked if given (the player who ended on the triangle)."""

    card: str
    player: str | None = None


@dataclass(frozen=True, slots=True)
class TakeSpare:
    """An action card: take one of the leftover contracts (scanned) into the hand."""

    player: str
    card: str


@dataclass(frozen=True, slots=True)
class PayDebt:
    """AA-22: pay outstanding debts from the money held (only needed with auto_settle_debts off)."""

    player: str


@dataclass(frozen=True, slots=True)
class EndTurn:
    player: str


# -- auctions (AA-18..21) --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OpenAuction:
    """AA-18: put one of the face-up public contracts up for auction."""

    player: str
    card: str


@dataclass(frozen=True, slots=True)
class Bid:
    """AA-19: bid the card's Kosten amount at ``level`` (1..5)."""

    player: str
    level: int


@dataclass(frozen=True, slots=True)
class PassBid:
    """AA-19: drop out of the running auction."""

    player: str


SetupCommand = PlaceTruck | DealContract | StartGame
PlayerCommand = Roll | Move | Load | Unload | BuyTrailer | PlaceSign | PayDebt | EndTurn | OpenAuction
AuctionCommand = Bid | PassBid
TableCommand = RevealPublic | DrawAction | TakeSpare
Command = SetupCommand | PlayerCommand | AuctionCommand | TableCommand | Undo

# The names of the scripted-play interface (``"action"`` in ``companion play``'s JSON): messages name
# a command by these, never by its Python class.
ACTION_NAMES: dict[type, str] = {
    PlaceTruck: "place_truck",
    DealContract: "deal_contract",
    RevealPublic: "reveal_public",
    StartGame: "start",
    Roll: "roll",
    Move: "move",
    Load: "load",
    Unload: "unload",
    BuyTrailer: "buy_trailer",
    PlaceSign: "place_sign",
    DrawAction: "draw_action",
    TakeSpare: "take_spare",
    PayDebt: "pay_debt",
    EndTurn: "end_turn",
    OpenAuction: "open_auction",
    Bid: "bid",
    PassBid: "pass_bid",
    Undo: "undo",
}


def action_name(command: object) -> str:
    """``draw_action`` for a ``DrawAction``: how scripts and refusals name a command."""
    return ACTION_NAMES.get(type(command), type(command).__name__)


__all__ = [
    "ACTION_NAMES",
    "AuctionCommand",
    "Bid",
    "BuyTrailer",
    "Command",
    "DealContract",
    "DrawAction",
    "EndTurn",
    "Load",
    "Move",
    "OpenAuction",
    "PassBid",
    "PayDebt",
    "PlaceSign",
    "PlaceTruck",
    "PlayerCommand",
    "RevealPublic",
    "Roll",
    "SetupCommand",
    "StartGame",
    "TableCommand",
    "TakeSpare",
    "Undo",
    "Unload",
    "action_name",
]
