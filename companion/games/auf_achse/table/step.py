"""The Auf Achse table's one pure step: ``step(prompt, intent, state) -> (prompt, action)``, matched
on types, and ``settle(prompt, state)``, which keeps the prompt in line with the game (style point
18). The prompts, intents and effects are in ``prompts.py``; see its module doc for the contract
between ``step`` and the controller.
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.auf_achse.engine import (
    Bid,
    BuyTrailer,
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
    StartGame,
    TakeSpare,
    Unload,
    check,
)
from companion.games.auf_achse.engine.queries import SetupStep, auction_status, auctionable, deal_target, setup_due
from companion.games.auf_achse.engine.state import Phase, Stage, Waiting
from companion.games.auf_achse.table.prompts import (
    ITEM_TRAILERS,
    SIGN_PURPOSES,
    Act,
    AskAdvice,
    Bidding,
    CardDue,
    Choose,
    ChoosePurpose,
    ChooseStarter,
    ClearRefusal,
    Confirm,
    Deal,
    DieEntry,
    GameOver,
    Idle,
    Menu,
    MenuItem,
    Outcome,
    PlaceTrucks,
    Press,
    Prompt,
    RevealPublics,
    ScanBank,
    ScanCard,
    SelectSpace,
    ShowBalance,
    ShowRefusal,
    SpacePurpose,
    TableIntent,
    ToggleLanguage,
    Touch,
    TruckOn,
    UndoLast,
    candidate,
    cargo_commands,
    menu_items,
    space_candidates,
)
from companion.intents import ButtonName

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
            return (prompt, None) if space is None else (Idle(), PlaceSign(player, SIGN_PURPOSES[purpose], space))
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
        case MenuItem.ADVICE:
            return under, AskAdvice()
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
            return prompt, PlaceSign(player, SIGN_PURPOSES[purpose], space)
    return prompt, None
