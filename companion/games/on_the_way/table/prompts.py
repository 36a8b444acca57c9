"""What the On The Way table is asking for: one frozen value per mode, and one pure ``step``.

``step(prompt, intent, state) -> (prompt, outcome)`` (style point 18) is the whole of the table's
modal logic: which mode follows which intent, and which engine command (if any) the intent means.
It never recomputes a rule: every command it proposes has been through the engine's ``check``
(``engine/check.py``), and the hints, offers, payouts and costs come from ``engine/queries.py``.
The hardware side — settling, tag look-ups, reconciliation, pushing, LEDs, texts — is the
controller's (``controller.py``); it feeds ``step`` game-level intents and pushes what it returns.

Modes:

- the hand (``Idle``, ``Lifted``, ``Forming``): what the player is doing with a marker;
- dialogs over the hand (``Confirm``, ``Menu``, ``SelectCity``): each remembers the hand it was
  opened ``over``; BACK or a finished dialog returns to it;
- ``GameOver``.

The table's "put it right first" and "scan the next event card" are not prompts: they follow from
the sensed table and the engine state, which the controller passes along (``misplaced``) and the
view shows ahead of any prompt.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum

from companion.engine.errors import IllegalAction
from companion.games.on_the_way.engine.check import check
from companion.games.on_the_way.engine.commands import (
    Build,
    Cancel,
    Command,
    Expand,
    Fulfil,
    LayOut,
    Move,
    Pass,
    RevealEvent,
    TakeContract,
    Undo,
)
from companion.games.on_the_way.engine.queries import fulfillable, legal_builds
from companion.games.on_the_way.engine.state import Building, GameState
from companion.intents import ButtonName, ButtonPressed, CityTapped
from companion.table.tags import CardTag, MarkerTag, Tag

# -- menu -----------------------------------------------------------------------------------


class MenuItem(StrEnum):
    """The MENU entries, in order. The value is the message key (``menu.<value>``)."""

    BUILD_WAREHOUSE = "build_warehouse"
    BUILD_LOGISTICS_CENTRE = "build_logistics_centre"
    EXPAND = "expand"
    END_TURN = "end_turn"
    LANGUAGE = "language"
    ADVICE = "advice"  # the box's advice: the best action now, its chance, the city blinks (docs/bots.md)


MENU: tuple[MenuItem, ...] = tuple(MenuItem)


class BuildPurpose(StrEnum):
    """Why a city is being selected: which build (OTW-23..25). Values match the menu items."""

    WAREHOUSE = MenuItem.BUILD_WAREHOUSE.value
    LOGISTICS_CENTRE = MenuItem.BUILD_LOGISTICS_CENTRE.value
    EXPANSION = MenuItem.EXPAND.value

    @property
    def item(self) -> MenuItem:
        return MenuItem(self.value)

    def command(self, colour: str, city: str) -> Build | Expand:
        match self:
            case BuildPurpose.WAREHOUSE:
                return Build(colour, city, Building.WAREHOUSE)
            case BuildPurpose.LOGISTICS_CENTRE:
                return Build(colour, city, Building.LOGISTICS_CENTRE)
            case BuildPurpose.EXPANSION:
                return Expand(colour, city)
        raise AssertionError(self)  # pragma: no cover


# -- prompts --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Idle:
    """Waiting for the player on turn: lift a marker, place one, scan a card, MENU, OK."""


@dataclass(frozen=True, slots=True)
class Lifted:
    """A marker of a transport on the road is in the hand (OTW-14..19): the reachable cities are lit."""

    marker: MarkerTag
    city: str  # where the engine has the transport
    trucks: int  # the transport's trucks plus idle trucks to join there (OTW-19, PLUS/MINUS)


@dataclass(frozen=True, slots=True)
class Forming:
    """A free marker stands on a city with idle trucks: a new transport is being formed (OTW-15)."""

    marker: MarkerTag
    city: str
    trucks: int  # PLUS/MINUS, 1..idle trucks there


Hand = Idle | Lifted | Forming


@dataclass(frozen=True, slots=True)
class Confirm:
    """A yes/no question: OK sends ``command`` (fulfil, cancel, end turn), BACK returns ``over``."""

    command: Command
    over: Hand = Idle()


@dataclass(frozen=True, slots=True)
class Menu:
    items: tuple[MenuItem, ...] = MENU
    index: int = 0
    over: Hand = Idle()

    @property
    def item(self) -> MenuItem:
        return self.items[self.index]


@dataclass(frozen=True, slots=True)
class SelectCity:
    """Choose a city for ``purpose`` among the legal ``candidates`` (touch, PLUS/MINUS, a tag, OK)."""

    purpose: BuildPurpose
    candidates: tuple[str, ...]
    index: int = 0
    over: Hand = Idle()

    @property
    def city(self) -> str:
        return self.candidates[self.index]


@dataclass(frozen=True, slots=True)
class GameOver:
    pass


Dialog = Confirm | Menu | SelectCity
Prompt = Hand | Dialog | GameOver

# -- intents: what the controller makes of the hardware's intents ------------------------------


@dataclass(frozen=True, slots=True)
class MarkerLifted:
    """A settled marker left the reader under ``city``."""

    marker: MarkerTag
    city: str


@dataclass(frozen=True, slots=True)
class MarkerPlaced:
    """A marker has rested on the reader under ``city`` long enough to count."""

    marker: MarkerTag
    city: str


@dataclass(frozen=True, slots=True)
class CardShown:
    """A known tag on the card reader: a contract or event card, or a marker held over it (cancel)."""

    tag: Tag


@dataclass(frozen=True, slots=True)
class Applied:
    """The engine accepted ``command`` (the controller pushed what ``step`` returned)."""

    command: Command


TableIntent = MarkerLifted | MarkerPlaced | CardShown | ButtonPressed | CityTapped | Applied


@dataclass(frozen=True, slots=True)
class ToggleLanguage:
    """Not a game command: the table switches the language of its texts."""


@dataclass(frozen=True, slots=True)
class OfferAsItLies:
    """Not a game command: OK while the offer is being laid out says the pile has no more cards (the
    table stops asking until the next take, OTW-9)."""


@dataclass(frozen=True, slots=True)
class LeaveLayOut:
    """Not a game command: BACK while the offer is being laid out only for the advice asked: no advice
    now, the table stops asking for the offer (a wait is never a trap)."""


@dataclass(frozen=True, slots=True)
class AskAdvice:
    """Not a game command: the table asks the advisor for the player on turn and shows its answer."""


# What a step asks the controller to do besides changing the prompt: push a command (``Undo``:
# undo within the turn), show a refusal, or switch the language.
Outcome = Command | IllegalAction | ToggleLanguage | AskAdvice | OfferAsItLies | LeaveLayOut | None
_HandStep = Callable[[Hand], tuple[Prompt, Outcome]]


def step(
    prompt: Prompt,
    intent: TableIntent,
    state: GameState,
    *,
    misplaced: bool = False,
    lay_out: bool = False,
    lay_out_leavable: bool = False,
    bot_turn: bool = False,
    just_laid_out: str | None = None,
) -> tuple[Prompt, Outcome]:
    """The next prompt and what to do, for ``intent`` at ``prompt`` in ``state``.

    ``misplaced``: the sensed table disagrees with the engine (apart from the marker the intent is
    about): nothing new starts until it is put right (table.md principle 1).
    ``lay_out``: the table is collecting the face-up offer (OTW-9) and it lacks cards: a scanned
    contract that is neither taken nor open is being laid out, not taken (even while the table is
    being put right: laying out is no player's action); OK there says the pile has no more cards.
    ``lay_out_leavable``: the offer is laid out only for the advice asked (no bot needs it): BACK
    leaves the wait (``LeaveLayOut``) instead of undoing.
    ``bot_turn``: the box plays the seat on turn: a scanned contract never becomes its take or fulfilment
    (the box chooses its own actions; a person only moves its pieces).
    ``just_laid_out``: the card the previous intent laid out: scanned again at once it is not taken
    (a card held on the reader a little long), only a deliberate third scan takes it.
    Every command returned has passed ``check``; a command the engine refuses comes back as the
    ``IllegalAction`` to show instead, the prompt unchanged where the player may retry.
    """
    if state.finished:
        return GameOver(), None
    match intent:
        case Applied(command=command):
            return _applied(prompt, command, state), None
        case MarkerLifted(marker=marker, city=city):
            return _within(prompt, lambda hand: _lift(hand, marker, state, misplaced))
        case MarkerPlaced(marker=marker, city=city):
            if isinstance(prompt, SelectCity) and city in prompt.candidates:
                return _select(prompt, city), None  # a tagged piece touched to a city picks it
            return _within(prompt, lambda hand: _place(hand, marker, city, state, misplaced))
        case CardShown(tag=tag):
            card_id = tag.card if isinstance(tag, CardTag) else None
            if card_id is not None and lay_out and _lays_out(card_id, state):
                return _propose(LayOut(card_id), state, prompt, prompt)
            if card_id is not None and card_id == just_laid_out:
                return prompt, IllegalAction("OTW-9", f"{card_id} was just laid out: scan it once more to take it")
            if misplaced:
                return prompt, None
            if bot_turn and card_id is not None and state.config.contract(card_id) is not None:
                who = state.current.colour
                return prompt, IllegalAction("OTW-10", f"it is {who}'s turn: the box chooses its own contracts")
            return _card(prompt, tag, state)
        case ButtonPressed(button=ButtonName.OK) if lay_out and isinstance(prompt, Idle) and not misplaced:
            if state.offer is None or state.awaiting_event:
                return prompt, None  # nothing laid out yet, or the event card comes first: OK says nothing
            return prompt, OfferAsItLies()
        case ButtonPressed(button=ButtonName.BACK) if lay_out and lay_out_leavable and isinstance(prompt, Idle):
            return prompt, LeaveLayOut()
        case ButtonPressed(button=button):
            return _button(prompt, button, state, misplaced)
        case CityTapped(city=city):
            if isinstance(prompt, SelectCity):
                if city in prompt.candidates:
                    return _select(prompt, city), None
                return _propose(prompt.purpose.command(state.current.colour, city), state, prompt.over, prompt)
            return prompt, None
    return prompt, None


def hand_of(prompt: Prompt) -> Hand:
    """The marker business under any dialog (what reconciliation must tolerate)."""
    match prompt:
        case Confirm(over=over) | Menu(over=over) | SelectCity(over=over):
            return over
        case Idle() | Lifted() | Forming():
            return prompt
    return Idle()


def settle(prompt: Prompt, state: GameState) -> Prompt:
    """The prompt that still makes sense in ``state`` (after an undo, a new turn, the end)."""
    if state.finished:
        return GameOver()
    match prompt:
        case GameOver():
            return Idle()
        case Idle() | Lifted() | Forming():
            return _settle_hand(prompt, state)
        case Confirm() | Menu() | SelectCity():
            over = _settle_hand(prompt.over, state)
            return prompt if over == prompt.over else replace(prompt, over=over)
    return prompt


def _settle_hand(hand: Hand, state: GameState) -> Hand:
    if isinstance(hand, Lifted) and _transport_trucks(state, hand.marker) == 0:
        return Idle()  # e.g. undone or cancelled: that transport no longer exists
    return hand


# -- the hand -----------------------------------------------------------------------------------


def _within(prompt: Prompt, act: _HandStep) -> tuple[Prompt, Outcome]:
    """Marker intents act on the hand; a dialog stays open unless the hand did something."""
    hand = hand_of(prompt)
    after, outcome = act(hand)
    if isinstance(prompt, Confirm | Menu | SelectCity) and after == hand:
        return prompt, outcome  # nothing changed in the hand (ignored, or refused): the dialog stays
    return after, outcome


def _lift(hand: Hand, marker: MarkerTag, state: GameState, misplaced: bool) -> tuple[Prompt, Outcome]:
    if isinstance(hand, Forming) and hand.marker == marker:
        return hand, None  # lifted off its start city on the way to the destination
    player = state.player(marker.colour)
    transport = None if player is None else player.transport(marker.number)
    if transport is None or marker.colour != state.current.colour or misplaced or state.awaiting_event:
        return hand, None  # reconciliation will ask for it back
    return Lifted(marker, transport.city, transport.trucks), None


def _place(hand: Hand, marker: MarkerTag, city: str, state: GameState, misplaced: bool) -> tuple[Prompt, Outcome]:
    match hand:
        case Lifted(marker=m) if m == marker:
            # OTW-14..19: put down where it was, with no trucks joined, is no move.
            on_road = _transport_trucks(state, marker)
            if city == hand.city and hand.trucks == on_road:
                return Idle(), None
            joined = hand.trucks if hand.trucks != on_road else None
            return _propose(Move(marker.colour, marker.number, city, trucks=joined), state, Idle(), Idle())
        case Forming(marker=m) if m == marker:
            if city == hand.city:
                return hand, None
            move = Move(marker.colour, marker.number, city, hand.city, hand.trucks)
            return _propose(move, state, Idle(), hand)
    return _start_forming(hand, marker, city, state, misplaced)


def _start_forming(
    hand: Hand, marker: MarkerTag, city: str, state: GameState, misplaced: bool
) -> tuple[Prompt, Outcome]:
    """OTW-15: a free marker of the player on turn put on a city with idle trucks starts a transport."""
    player = state.current
    if misplaced or state.awaiting_event or marker.colour != player.colour or isinstance(hand, Forming):
        return hand, None
    if player.transport(marker.number) is not None:
        return hand, None
    idle = state.idle_at(city)
    if idle < 1:  # the engine says why: even the smallest transport cannot start here (OTW-15)
        return hand, check(state, Move(player.colour, marker.number, city, city, 1))
    # Default: what the player's contracts from that city need (table.md), within the idle trucks.
    config = state.config
    wanted = [c.trucks for cid in player.contracts if (c := config.contract(cid)) and c.origin == city]
    return Forming(marker, city, max(1, min(idle, max(wanted, default=1)))), None


def _transport_trucks(state: GameState, marker: MarkerTag) -> int:
    player = state.player(marker.colour)
    transport = None if player is None else player.transport(marker.number)
    return 0 if transport is None else transport.trucks


def _applied(prompt: Prompt, command: Command, state: GameState) -> Prompt:
    """After an accepted move, offer to fulfil a contract that transport can now complete (OTW-21)."""
    if isinstance(command, Move):
        for card, marker in fulfillable(state, command.player):
            if marker == command.marker:
                return Confirm(Fulfil(command.player, card.id), hand_of(prompt))
    return prompt


# -- cards ----------------------------------------------------------------------------------------


def _card(prompt: Prompt, tag: Tag, state: GameState) -> tuple[Prompt, Outcome]:
    player = state.current
    match tag:
        case MarkerTag(colour=colour, number=number):
            # OTW-27: a marker held over the card reader asks to cancel its transport, if it may be.
            cancel = Cancel(colour, number)
            refusal = check(state, cancel)
            return (prompt, refusal) if refusal is not None else (Confirm(cancel, hand_of(prompt)), None)
        case CardTag(card=card_id):
            hand = hand_of(prompt)
            if state.config.event(card_id) is not None:
                return _propose(RevealEvent(card_id), state, prompt, prompt)  # OTW-28
            if card_id in player.contracts:
                return _propose(Fulfil(player.colour, card_id), state, hand, hand)  # re-scanning fulfils (OTW-21)
            holder = next((p.colour for p in state.players if card_id in p.contracts), None)
            if holder is not None:
                return prompt, IllegalAction("OTW-12", f"{card_id} is {holder}'s contract")
            return _propose(TakeContract(player.colour, card_id), state, hand, hand)  # OTW-12
    return prompt, None


def _lays_out(card_id: str, state: GameState) -> bool:
    """OTW-9: a contract card that is not taken and not yet open would fill the offer."""
    return (
        state.config.contract(card_id) is not None
        and card_id not in state.used_contracts
        and card_id not in (state.offer or ())
    )


# -- buttons --------------------------------------------------------------------------------------


def _button(prompt: Prompt, button: ButtonName, state: GameState, misplaced: bool) -> tuple[Prompt, Outcome]:
    match button:
        case ButtonName.BACK:
            return _back(prompt)
        case ButtonName.PLUS:
            return _plus_minus(prompt, 1, state), None
        case ButtonName.MINUS:
            return _plus_minus(prompt, -1, state), None
        case ButtonName.MENU:
            if isinstance(prompt, Menu):
                return prompt.over, None
            hand = hand_of(prompt)
            return Menu(MENU, 0, Idle() if isinstance(hand, Lifted) else hand), None
        case ButtonName.OK:
            return _ok(prompt, state, misplaced)
    return prompt, None


def _back(prompt: Prompt) -> tuple[Prompt, Outcome]:
    match prompt:
        case SelectCity(purpose=purpose, over=over):
            return Menu(MENU, MENU.index(purpose.item), over), None
        case Confirm(over=over) | Menu(over=over):
            return over, None
        case Forming():
            return Idle(), None  # no transport: reconciliation asks for the marker to come off
        case Lifted():
            return prompt, None  # the marker is in the hand: putting it back is the way out
        case Idle():
            return prompt, Undo()  # the controller undoes within the current turn only
    return prompt, None


def _plus_minus(prompt: Prompt, delta: int, state: GameState) -> Prompt:
    match prompt:
        case Menu(items=items, index=i):
            return replace(prompt, index=(i + delta) % len(items))
        case SelectCity(candidates=candidates, index=i):
            return replace(prompt, index=(i + delta) % len(candidates))
        case Forming(city=city, trucks=n):
            return replace(prompt, trucks=min(max(1, n + delta), max(1, state.idle_at(city))))  # OTW-15
        case Lifted(marker=marker, city=city, trucks=n):
            # OTW-19: join idle trucks at the start city, never leave own trucks behind (OTW-17).
            base = _transport_trucks(state, marker)
            return replace(prompt, trucks=min(max(base, n + delta), base + state.idle_at(city)))
    return prompt


def _ok(prompt: Prompt, state: GameState, misplaced: bool) -> tuple[Prompt, Outcome]:
    colour = state.current.colour
    match prompt:
        case Confirm(command=command, over=over):
            return _propose(command, state, over, over)
        case Menu():
            return _choose(prompt, state)
        case SelectCity(purpose=purpose, over=over):
            return _propose(purpose.command(colour, prompt.city), state, over, prompt)
        case Idle() if not (misplaced or state.awaiting_event):
            ready = fulfillable(state, colour)
            if ready:
                return Confirm(Fulfil(colour, ready[0][0].id)), None  # OTW-21: the offer first
            return Confirm(Pass(colour)), None  # OTW-11: end the turn early
    return prompt, None


def _choose(menu: Menu, state: GameState) -> tuple[Prompt, Outcome]:
    colour = state.current.colour
    match menu.item:
        case MenuItem.END_TURN:
            return _propose(Pass(colour), state, menu.over, menu.over)
        case MenuItem.LANGUAGE:
            return menu.over, ToggleLanguage()
        case MenuItem.ADVICE:
            return menu.over, AskAdvice()
    purpose = BuildPurpose(menu.item.value)
    candidates = tuple(sorted(b.city for b in legal_builds(state, colour) if b == purpose.command(colour, b.city)))
    if candidates:
        return SelectCity(purpose, candidates, 0, menu.over), None
    return menu, _why_no_build(purpose, state)


def _why_no_build(purpose: BuildPurpose, state: GameState) -> IllegalAction | None:
    """Nothing to select: let the engine say why, for the most plausible city (OTW-23..26)."""
    names = state.board.names
    wanted = Building.WAREHOUSE if purpose is BuildPurpose.EXPANSION else None
    city = next((c for c in names if state.building_at(c) is wanted), names[0])
    return check(state, purpose.command(state.current.colour, city))


def _select(prompt: SelectCity, city: str) -> SelectCity:
    return replace(prompt, index=prompt.candidates.index(city))


def _propose(command: Command, state: GameState, accepted: Prompt, refused: Prompt) -> tuple[Prompt, Outcome]:
    """Ask the engine first: the command and the ``accepted`` prompt, or the refusal and ``refused``."""
    refusal = check(state, command)
    if refusal is not None:
        return refused, refusal
    return accepted, command
