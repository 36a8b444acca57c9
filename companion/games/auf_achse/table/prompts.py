"""What the Auf Achse table is asking, as one frozen value per mode (style point 18); the intents
the table means and its own effects; what a prompt offers, read from the engine. The one pure
function that answers an intent, ``step(prompt, intent, state) -> (prompt, action)``, and
``settle`` are in ``step.py``.

A prompt holds only what the table chooses (a menu's items and cursor, the candidate of a space
selection, the die being entered, whose bank card was scanned); everything about the game is read
from the engine state and its queries, and every rule stays in the engine: ``step`` proposes a
command, the engine accepts or refuses it. The controller applies the action: an engine command is
pushed (a refused one leaves the previous prompt in place and shows the refusal), a table effect
(undo, language, a message) is carried out. After every intent ``settle(prompt, state)`` brings
the prompt in line with the game (an auction opened, a card is awaited, the next stage began).

Hardware is not here: the controller settles placements, reconciles the readers with the engine
and drives the LEDs, and hands ``step`` the intents the table means.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from companion.games.auf_achse.engine import (
    Command,
    GameState,
    Load,
    Sign,
    TrailerSize,
    Unload,
)
from companion.games.auf_achse.engine.movement import sign_spaces
from companion.games.auf_achse.engine.queries import (
    auctionable,
    cargo_options,
    legal_destinations,
    truck_start_spaces,
)
from companion.games.auf_achse.engine.state import Phase, Stage, Waiting
from companion.intents import ButtonName

# -- intents the table means (the controller makes them from readers, buttons and touches) ------


@dataclass(frozen=True, slots=True)
class Press:
    button: ButtonName  # a short press (a long MENU is the admin menu: not the game's)


@dataclass(frozen=True, slots=True)
class ScanCard:
    card: str  # a contract or action card on the card reader


@dataclass(frozen=True, slots=True)
class ScanBank:
    colour: str  # a player's bank card on the card reader


@dataclass(frozen=True, slots=True)
class Touch:
    space: str  # a touch on the map: a city or a plain space


@dataclass(frozen=True, slots=True)
class TruckOn:
    colour: str  # a truck that has settled on a city's reader (not where the engine has it)
    city: str


TableIntent = Press | ScanCard | ScanBank | Touch | TruckOn

# -- effects on the table itself (not the game) ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class UndoLast:
    """BACK with nothing else to step back from: undo the last command of this turn."""


@dataclass(frozen=True, slots=True)
class ToggleLanguage:
    pass


@dataclass(frozen=True, slots=True)
class AskAdvice:
    """MENU → Advice: the advisor's best action for whoever decides now (the controller searches)."""


@dataclass(frozen=True, slots=True)
class ShowRefusal:
    rule: str
    message: str


@dataclass(frozen=True, slots=True)
class ClearRefusal:
    pass


@dataclass(frozen=True, slots=True)
class ShowBalance:
    colour: str  # a bank card scanned: his money on the message line


Effect = UndoLast | ToggleLanguage | AskAdvice | ShowRefusal | ClearRefusal | ShowBalance
Action = Command | Effect

# -- prompts ---------------------------------------------------------------------------------------


class SpacePurpose(StrEnum):
    """Why a space is being chosen: the candidates and the command follow from it."""

    MOVE = "move"  # AA-7..9: the truck's destination
    STAU = "stau"  # AA-11: an action card's Stau sign
    ROADWORKS_CARD = "roadworks"  # an action card moves the roadworks sign
    ROADWORKS_ROLL = "roadworks_roll"  # AA-10: after a 1, from the menu


class ChoosePurpose(StrEnum):
    CARGO = "cargo"  # AA-14, AA-16: what to load or unload here
    AUCTION = "auction"  # AA-18: which face-up contract to auction


class MenuItem(StrEnum):
    ROLL_FOR_ME = "roll_for_me"
    AUCTION = "auction"
    TRAILER_SMALL = "trailer_small"
    TRAILER_LARGE = "trailer_large"
    ROADWORKS = "roadworks"
    PAY_DEBT = "pay_debt"
    END_TURN = "end_turn"
    LANGUAGE = "language"
    ADVICE = "advice"  # the box's advice for the player on turn, with its share of the trial runs


TRAILER_ITEMS: dict[TrailerSize, MenuItem] = {
    TrailerSize.SMALL: MenuItem.TRAILER_SMALL,
    TrailerSize.LARGE: MenuItem.TRAILER_LARGE,
}
ITEM_TRAILERS: dict[MenuItem, TrailerSize] = {item: size for size, item in TRAILER_ITEMS.items()}


@dataclass(frozen=True, slots=True)
class Idle:
    """No dialog: ``settle`` turns it into what the game asks now."""


@dataclass(frozen=True, slots=True)
class PlaceTrucks:
    """AA-2: ``player`` chooses his truck's start space (a plain space: on the screen)."""

    player: str
    index: int = 0
    dealing_to: str | None = None  # set-up: whose bank card was scanned last


@dataclass(frozen=True, slots=True)
class Deal:
    """AA-4: contract cards scanned go to ``player``."""

    player: str
    dealing_to: str | None = None


@dataclass(frozen=True, slots=True)
class RevealPublics:
    """AA-4: contract cards scanned are turned face up."""

    dealing_to: str | None = None


@dataclass(frozen=True, slots=True)
class ChooseStarter:
    """AA-5: PLUS/MINUS choose who rolled highest, OK starts."""

    index: int = 0


@dataclass(frozen=True, slots=True)
class DieEntry:
    """AA-7: the physical die entered with PLUS/MINUS (None: not yet)."""

    value: int | None = None


@dataclass(frozen=True, slots=True)
class SelectSpace:
    """A space chosen for ``purpose`` by ``player``: touch, PLUS/MINUS over the candidates, OK."""

    purpose: SpacePurpose
    player: str
    index: int = 0


@dataclass(frozen=True, slots=True)
class Act:
    """AA-6: the player has moved: scan contracts, OK offers cargo then ends the turn."""


@dataclass(frozen=True, slots=True)
class Menu:
    items: tuple[MenuItem, ...]
    index: int = 0
    under: Prompt = Idle()  # what BACK returns to


@dataclass(frozen=True, slots=True)
class Confirm:
    """OK pushes ``command``; BACK closes."""

    command: Command


@dataclass(frozen=True, slots=True)
class Choose:
    """Pick one command of several (cargo offers, the contract to auction)."""

    purpose: ChoosePurpose
    commands: tuple[Command, ...]
    index: int = 0


@dataclass(frozen=True, slots=True)
class CardDue:
    """The engine waits for a card (next public contract, action card, leftover contract)."""

    kind: Waiting
    player: str


@dataclass(frozen=True, slots=True)
class Bidding:
    """AA-19: an auction runs; ``bidder`` scanned his bank card and chooses ``level``."""

    bidder: str | None = None
    level: int | None = None


@dataclass(frozen=True, slots=True)
class GameOver:
    pass


Prompt = (
    Idle
    | PlaceTrucks
    | Deal
    | RevealPublics
    | ChooseStarter
    | DieEntry
    | SelectSpace
    | Act
    | Menu
    | Confirm
    | Choose
    | CardDue
    | Bidding
    | GameOver
)
Outcome = tuple["Prompt", Action | None]

SIGN_PURPOSES = {
    SpacePurpose.STAU: Sign.STAU,
    SpacePurpose.ROADWORKS_CARD: Sign.ROADWORKS,
    SpacePurpose.ROADWORKS_ROLL: Sign.ROADWORKS,
}

# -- what the prompt offers, from the engine ----------------------------------------------------


def space_candidates(prompt: Prompt, state: GameState) -> tuple[str, ...]:
    """The spaces a selection steps through: the engine's legal ones (cities first for a move)."""
    match prompt:
        case PlaceTrucks():
            return truck_start_spaces(state)
        case SelectSpace(purpose=SpacePurpose.MOVE, player=colour):
            dests = legal_destinations(state, colour)
            board = state.board
            # Cities first (they have readers and LEDs), then the longer moves, then by name.
            order = sorted(dests.values(), key=lambda d: (not board.is_city(d.space), -d.steps, d.space))
            return tuple(d.space for d in order)
        case SelectSpace(purpose=purpose):
            return sign_spaces(state, SIGN_PURPOSES[purpose].value)
    return ()


def candidate(prompt: Prompt, state: GameState) -> str | None:
    candidates = space_candidates(prompt, state)
    if not candidates or not isinstance(prompt, PlaceTrucks | SelectSpace):
        return None
    return candidates[prompt.index % len(candidates)]


def menu_items(state: GameState) -> tuple[MenuItem, ...]:
    colour = state.current.colour
    turn = state.turn
    items: list[MenuItem] = []
    if turn.stage is Stage.ROLL:
        items.append(MenuItem.ROLL_FOR_ME)
    if auctionable(state, colour):
        items.append(MenuItem.AUCTION)
    items += [TRAILER_ITEMS[size] for size in TrailerSize if state.trailers_available(size) > 0]
    if turn.roadworks_allowed:
        items.append(MenuItem.ROADWORKS)
    if state.current.debts and not state.config.rules.auto_settle_debts:
        items.append(MenuItem.PAY_DEBT)
    if turn.stage is Stage.ACT:
        items.append(MenuItem.END_TURN)
    items.append(MenuItem.LANGUAGE)
    if state.phase is Phase.PLAY:  # the advisor starts once the set-up is over (AA-2..5)
        items.append(MenuItem.ADVICE)
    return tuple(items)


def cargo_commands(state: GameState) -> tuple[Command, ...]:
    """What the engine says can be loaded or unloaded where the player on turn stands."""
    colour = state.current.colour
    return tuple(Unload(colour, o.card) if o.unload else Load(colour, o.card) for o in cargo_options(state, colour))
