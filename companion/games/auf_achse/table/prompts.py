"""What the Auf Achse table is asking, as one frozen value per mode, and the one pure function that
answers a table intent: ``step(prompt, intent, state) -> (prompt, action)`` (style point 18).

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

from dataclasses import dataclass, replace
from enum import StrEnum

from companion.games.auf_achse.engine import (
    Bid,
    BuyTrailer,
    Command,
    DealContract,
    DrawAction,
    EndTurn,
    GameState,
    Load,
    Move,
    OpenAuction,
    PassBid,
    PayDebt,
    PlaceSign,
    PlaceTruck,
    RevealPublic,
    Roll,
    Sign,
    StartGame,
    TakeSpare,
    TrailerSize,
    Unload,
    check,
)
from companion.games.auf_achse.engine.movement import sign_spaces
from companion.games.auf_achse.engine.queries import (
    SetupStep,
    auction_status,
    auctionable,
    cargo_options,
    deal_target,
    legal_destinations,
    setup_due,
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
class ShowRefusal:
    rule: str
    message: str


@dataclass(frozen=True, slots=True)
class ClearRefusal:
    pass


@dataclass(frozen=True, slots=True)
class ShowBalance:
    colour: str  # a bank card scanned: his money on the message line


Effect = UndoLast | ToggleLanguage | ShowRefusal | ClearRefusal | ShowBalance
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

_SIGN_PURPOSES = {
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
            return sign_spaces(state, _SIGN_PURPOSES[purpose].value)
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
    return tuple(items)


def cargo_commands(state: GameState) -> tuple[Command, ...]:
    """What the engine says can be loaded or unloaded where the player on turn stands."""
    colour = state.current.colour
    return tuple(Unload(colour, o.card) if o.unload else Load(colour, o.card) for o in cargo_options(state, colour))


# -- settle: the prompt in line with the game -----------------------------------------------------


def settle(prompt: Prompt, state: GameState) -> Prompt:
    """What the table asks now: the game's need first (set-up, an awaited card or sign, a running
    auction), then an open dialog, then the stage of the turn (roll, move, act)."""
    if state.finished:
        return GameOver()
    if state.phase is Phase.SETUP:
        return _setup(prompt, state)
    colour = state.current.colour
    waiting = state.awaiting
    if waiting is not None:
        who = waiting.player or colour
        if waiting.kind in (Waiting.STAU, Waiting.ROADWORKS):
            purpose = SpacePurpose.STAU if waiting.kind is Waiting.STAU else SpacePurpose.ROADWORKS_CARD
            same = isinstance(prompt, SelectSpace) and prompt.purpose is purpose
            return SelectSpace(purpose, who, prompt.index if same else 0)  # type: ignore[union-attr]
        return CardDue(waiting.kind, who)
    status = auction_status(state)
    if status is not None:
        if isinstance(prompt, Bidding) and prompt.bidder in status.may_act:
            return prompt
        return Bidding()
    match prompt:
        case Menu() | Confirm() | Choose(purpose=ChoosePurpose.AUCTION):
            return prompt
        case Choose(purpose=ChoosePurpose.CARGO, commands=commands):
            fresh = cargo_commands(state)
            if fresh:  # the same offer keeps its cursor; a new one starts at the top
                return prompt if fresh == commands else Choose(ChoosePurpose.CARGO, fresh)
        case SelectSpace(purpose=SpacePurpose.ROADWORKS_ROLL) if state.turn.roadworks_allowed:
            return prompt
    return _stage(prompt, state)


def _stage(prompt: Prompt, state: GameState) -> Prompt:
    colour = state.current.colour
    match state.turn.stage:
        case Stage.ROLL:
            return prompt if isinstance(prompt, DieEntry) else DieEntry()
        case Stage.MOVE:
            same = isinstance(prompt, SelectSpace) and prompt.purpose is SpacePurpose.MOVE
            return SelectSpace(SpacePurpose.MOVE, colour, prompt.index if same else 0)  # type: ignore[union-attr]
    return Act()


def _setup(prompt: Prompt, state: GameState) -> Prompt:
    dealing_to = prompt.dealing_to if isinstance(prompt, PlaceTrucks | Deal | RevealPublics) else None
    due = setup_due(state, dealing_to)
    assert due is not None
    match due.step:
        case SetupStep.TRUCK:
            assert due.player is not None
            same = isinstance(prompt, PlaceTrucks) and prompt.player == due.player
            return PlaceTrucks(due.player, prompt.index if same else 0, dealing_to)  # type: ignore[union-attr]
        case SetupStep.DEAL:
            assert due.player is not None
            return Deal(due.player, dealing_to)
        case SetupStep.PUBLIC:
            return RevealPublics(dealing_to)
    return prompt if isinstance(prompt, ChooseStarter) else ChooseStarter()


# -- step: one intent -------------------------------------------------------------------------------


def step(prompt: Prompt, intent: TableIntent, state: GameState) -> Outcome:
    """The prompt after ``intent`` (if its command is accepted) and the command or table effect it
    asks for, or None. Pure: reads the state and the engine's queries, changes nothing."""
    match intent:
        case Press(button=ButtonName.OK):
            return _ok(prompt, state)
        case Press(button=ButtonName.BACK):
            return _back(prompt, state)
        case Press(button=ButtonName.PLUS):
            return _plus_minus(prompt, 1, state), None
        case Press(button=ButtonName.MINUS):
            return _plus_minus(prompt, -1, state), None
        case Press(button=ButtonName.MENU):
            return _menu(prompt, state), None
        case ScanCard(card=card):
            return _card(prompt, card, state)
        case ScanBank(colour=colour):
            return _bank(prompt, colour, state)
        case Touch(space=space):
            return _touch(prompt, space, state)
        case TruckOn(colour=colour, city=city):
            if isinstance(prompt, SelectSpace) and prompt.purpose is SpacePurpose.MOVE and colour == prompt.player:
                return Choose(ChoosePurpose.CARGO, ()), Move(colour, city)
    return prompt, None


def _ok(prompt: Prompt, state: GameState) -> Outcome:
    colour = state.current.colour
    match prompt:
        case Confirm(command=command):
            return Idle(), command
        case Menu(items=items, index=index, under=under):
            return _menu_item(items[index], under, state)
        case Choose(purpose=purpose, commands=commands, index=index) if commands:
            following: Prompt = Choose(ChoosePurpose.CARGO, ()) if purpose is ChoosePurpose.CARGO else Idle()
            return following, commands[index % len(commands)]
        case PlaceTrucks(player=player):
            space = candidate(prompt, state)
            return prompt, None if space is None else PlaceTruck(player, space)
        case ChooseStarter(index=index):
            colours = state.config.colours
            return prompt, StartGame(colours[index % len(colours)])
        case SelectSpace(purpose=SpacePurpose.MOVE, player=player):
            space = candidate(prompt, state)
            return (prompt, None) if space is None else (Choose(ChoosePurpose.CARGO, ()), Move(player, space))
        case SelectSpace(purpose=purpose, player=player):
            space = candidate(prompt, state)
            return (prompt, None) if space is None else (Idle(), PlaceSign(player, _SIGN_PURPOSES[purpose], space))
        case Bidding(bidder=bidder, level=level) if bidder is not None and level is not None:
            return prompt, Bid(bidder, level)
        case DieEntry(value=value) if value is not None:
            return prompt, Roll(colour, value)
        case Act():
            offer = cargo_commands(state)
            if offer:
                return Choose(ChoosePurpose.CARGO, offer), None
            return Confirm(EndTurn(colour)), None
    return prompt, None


def _menu_item(item: MenuItem, under: Prompt, state: GameState) -> Outcome:
    colour = state.current.colour
    match item:
        case MenuItem.LANGUAGE:
            return under, ToggleLanguage()
        case MenuItem.ROLL_FOR_ME:
            return Idle(), Roll(colour)
        case MenuItem.AUCTION:
            offers = tuple(OpenAuction(colour, card) for card in auctionable(state, colour))
            return Choose(ChoosePurpose.AUCTION, offers), None
        case MenuItem.TRAILER_SMALL | MenuItem.TRAILER_LARGE:
            return under, BuyTrailer(colour, ITEM_TRAILERS[item])
        case MenuItem.ROADWORKS:
            return SelectSpace(SpacePurpose.ROADWORKS_ROLL, colour), None
        case MenuItem.PAY_DEBT:
            return under, PayDebt(colour)
    return Idle(), EndTurn(colour)  # MenuItem.END_TURN


def _back(prompt: Prompt, state: GameState) -> Outcome:
    match prompt:
        case Choose(purpose=ChoosePurpose.AUCTION) | SelectSpace(purpose=SpacePurpose.ROADWORKS_ROLL):
            return Menu(menu_items(state)), None
        case Menu(under=under):
            return under, None
        case Confirm() | Choose():
            return Idle(), None
        case Bidding(bidder=bidder) if bidder is not None:
            return Bidding(), PassBid(bidder)
        case DieEntry(value=value) if value is not None:
            return DieEntry(), None
        case PlaceTrucks() | SelectSpace():
            return replace(prompt, index=0), UndoLast()
        case Bidding():
            return Bidding(), UndoLast()
        case ChooseStarter():
            return ChooseStarter(), UndoLast()
    return prompt, UndoLast()


def _plus_minus(prompt: Prompt, delta: int, state: GameState) -> Prompt:
    match prompt:
        case Menu(items=items, index=index):
            return replace(prompt, index=(index + delta) % len(items))
        case Choose(commands=commands, index=index) if commands:
            return replace(prompt, index=(index + delta) % len(commands))
        case Bidding(bidder=bidder, level=level) if bidder is not None:
            status = auction_status(state)
            levels = [lv for lv, _ in status.allowed_for(bidder)] if status is not None else []
            if not levels:
                return prompt
            i = levels.index(level) if level in levels else 0
            return replace(prompt, level=levels[max(0, min(len(levels) - 1, i + delta))])
        case ChooseStarter(index=index):
            return ChooseStarter((index + delta) % state.config.player_count)
        case DieEntry(value=None):
            return DieEntry(1 if delta > 0 else 6)
        case DieEntry(value=value):
            assert value is not None
            return DieEntry(min(6, max(1, value + delta)))
        case PlaceTrucks(index=index) | SelectSpace(index=index):
            candidates = space_candidates(prompt, state)
            return replace(prompt, index=(index + delta) % len(candidates)) if candidates else prompt
    return prompt


def _menu(prompt: Prompt, state: GameState) -> Prompt:
    match prompt:
        case Menu(under=under):
            return under
        case DieEntry() | SelectSpace(purpose=SpacePurpose.MOVE) | Act():
            return Menu(menu_items(state), under=prompt)
        case Confirm() | Choose() | SelectSpace(purpose=SpacePurpose.ROADWORKS_ROLL):
            return Menu(menu_items(state))
    return prompt  # set-up, an awaited card or sign, an auction: no menu


def _card(prompt: Prompt, card: str, state: GameState) -> Outcome:
    """A contract or action card on the reader: what it means depends on what the game waits for;
    a card that does not fit is still offered to the engine, which says why not."""
    config = state.config
    match prompt:
        case PlaceTrucks(dealing_to=dealing_to) | Deal(dealing_to=dealing_to) | RevealPublics(dealing_to=dealing_to):
            if config.contract(card) is None:
                return prompt, DrawAction(card)
            if isinstance(prompt, RevealPublics):
                return prompt, RevealPublic(card)
            target = prompt.player if isinstance(prompt, Deal) else deal_target(state, dealing_to)
            return prompt, DealContract(target, card)
        case ChooseStarter():
            return prompt, (DrawAction(card) if config.contract(card) is None else RevealPublic(card))
    if config.action(card) is not None:
        return prompt, DrawAction(card)
    if isinstance(prompt, CardDue) and prompt.kind is Waiting.SPARE_CONTRACT:
        return prompt, TakeSpare(prompt.player, card)
    if isinstance(prompt, CardDue | Bidding) or state.awaiting is not None:
        return prompt, RevealPublic(card)  # the awaited public card (or the engine says why not)
    colour = state.current.colour
    if card in state.public:
        return Confirm(OpenAuction(colour, card)), None
    if card in state.current.loaded:
        return Choose(ChoosePurpose.CARGO, ()), Unload(colour, card)
    return Choose(ChoosePurpose.CARGO, ()), Load(colour, card)  # a private contract (or the engine says why not)


def _bank(prompt: Prompt, colour: str, state: GameState) -> Outcome:
    if state.player(colour) is None:
        return prompt, None
    match prompt:
        case PlaceTrucks() | Deal() | RevealPublics():
            return replace(prompt, dealing_to=colour), ShowBalance(colour)
        case ChooseStarter():
            return prompt, ShowBalance(colour)
        case Bidding():
            status = auction_status(state)
            assert status is not None
            if colour not in status.may_act:  # the engine says why he may not bid now (AA-19)
                refusal = check(state, PassBid(colour))
                return prompt, None if refusal is None else ShowRefusal(refusal.rule, refusal.message)
            allowed = status.allowed_for(colour)
            return Bidding(colour, allowed[0][0] if allowed else None), ClearRefusal()
    return prompt, ShowBalance(colour)


def _touch(prompt: Prompt, space: str, state: GameState) -> Outcome:
    """A touch on the map picks a candidate; one that is none lets the engine say why not."""
    if not isinstance(prompt, PlaceTrucks | SelectSpace):
        return prompt, None
    candidates = space_candidates(prompt, state)
    if space in candidates:
        return replace(prompt, index=candidates.index(space)), None
    match prompt:
        case PlaceTrucks(player=player):
            return prompt, PlaceTruck(player, space)
        case SelectSpace(purpose=SpacePurpose.MOVE, player=player):
            return Choose(ChoosePurpose.CARGO, ()), Move(player, space)
        case SelectSpace(purpose=purpose, player=player):
            return prompt, PlaceSign(player, _SIGN_PURPOSES[purpose], space)
    return prompt, None
