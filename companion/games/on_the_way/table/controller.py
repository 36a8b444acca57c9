"""The table controller: sensed intents in, engine commands out, and what the screen and LEDs show.

One loop calls ``handle(intent, now)`` for every intent (RFID readers, card reader, buttons, touch,
keyboard) and ``tick(now)`` regularly; hardware callbacks never call in here directly
(``../shared/design/table.md``, style point 10). The engine is the truth: when the sensed table
disagrees, the controller prompts until it matches again and changes nothing meanwhile.

Placements settle before they count: a marker must rest on a reader for ``settle_s`` seconds
(default 0.35 s, as PicoChess waits ~350 ms) so sliding a marker across cities moves nothing.

The modes are typed values (``prompts.py``) and one pure ``step`` decides what each intent means;
this class is the hardware side around it: tag look-ups, settling, reconciliation of the sensed
table with the engine, pushing the commands ``step`` returns (each already ``check``ed by the
engine), the journal, the message line and the LED frame. ``view.py`` turns the prompt into the UI
model.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import replace
from typing import Any

from companion.engine.errors import IllegalAction
from companion.engine.game import Game
from companion.games.on_the_way.engine import (
    Build,
    Command,
    Expand,
    Fulfil,
    GameConfig,
    GameState,
    LayOut,
    Move,
    RevealEvent,
    TakeContract,
    Undo,
    new_game,
)
from companion.games.on_the_way.engine import events as ev
from companion.games.on_the_way.engine.queries import offer_missing
from companion.games.on_the_way.engine.rules import money
from companion.games.on_the_way.table.leds import led_frame
from companion.games.on_the_way.table.prompts import (
    Applied,
    AskAdvice,
    CardShown,
    Forming,
    Idle,
    LeaveLayOut,
    Lifted,
    MarkerLifted,
    MarkerPlaced,
    OfferAsItLies,
    Prompt,
    TableIntent,
    ToggleLanguage,
    hand_of,
    settle,
    step,
)
from companion.games.on_the_way.table.view import ui_model
from companion.intents import ButtonName, ButtonPressed, CityTapped
from companion.ledframe import LedFrame
from companion.table.base import SETTLE_S, AdviceSearch, LedSink, Progress, TableBase
from companion.table.reconcile import Problem, mismatches
from companion.table.tags import MarkerTag, Tag, TagDirectory
from companion.table.ui import UiModel

__all__ = ["SETTLE_S", "LedSink", "TableController"]


def expected_markers(state: GameState) -> dict[MarkerTag, str]:
    """Where the engine has each transport: the marker that stands for it must be on that city."""
    return {MarkerTag(p.colour, t.marker): t.city for p in state.players for t in p.transports}


class TableController(TableBase):
    """On The Way at the table: turns intents into engine commands (the shared half is ``TableBase``)."""

    messages = "companion.games.on_the_way"  # the package whose messages/ hold this table's texts

    def __init__(
        self,
        config: GameConfig,
        tags: TagDirectory,
        *,
        leds: LedSink | None = None,
        language: str = "en",
        settle_s: float = SETTLE_S,
        game: Game[GameState] | None = None,
        on_command: Callable[[Command], None] | None = None,
        on_admin: Callable[[], None] | None = None,
        bot: Callable[[Any], object | None] | None = None,
    ) -> None:
        self._prompt: Prompt = Idle()
        # The city the board points at until the game moves on: the advised one, or where a bot just acted
        # (the city of its build, the start city of its contract): (game depth then, city).
        self._pointed: tuple[int, str | None] | None = None
        # OTW-9: the table collects the face-up offer when the box chooses cards from it: for its bots
        # from the start, for advice once asked. Once a card is laid out the engine state tracks it.
        self._collect_offer = bot is not None
        self._advice_pending = False  # advice asked while the offer was being laid out
        # OK while laying out: the pile has no more cards (say the box lacks one). Holds until the next
        # take, counted by the contracts used then.
        self._offer_as_it_lies: int | None = None
        self._just_laid_out: str | None = None  # the card laid out by the last intent
        super().__init__(
            game if game is not None else new_game(config),
            tags,
            leds=leds,
            language=language,
            settle_s=settle_s,
            on_command=on_command,  # type: ignore[arg-type]
            on_admin=on_admin,
            bot=bot,
        )
        self._refresh()

    @property
    def state(self) -> GameState:
        return self.game.state  # type: ignore[no-any-return]

    def _describe(self, events: list[object]) -> None:
        t = self._text
        for e in events:
            match e:
                case ev.ContractTaken(player=p, card=card_id):
                    card = self.state.config.contract(card_id)
                    assert card is not None
                    self._message = t.text(
                        "message.taken",
                        player=p,
                        card=card.id,
                        origin=card.origin,
                        destination=card.destination,
                        trucks=t.trucks(card.trucks),
                        pay=money(card.pay),
                    )
                case ev.TransportMoved(player=p, marker=m, route=route):
                    self._message = t.text("message.moved", colour=p, n=m, city=route[-1])
                case ev.ContractFulfilled(player=p, marker=m, card=card_id, city=city):
                    self._message = t.text("message.fulfilled", player=p, card=card_id, n=m, city=city)
                case ev.Built(player=p, city=city, building=b, trucks=n):
                    self._message = t.text(
                        "message.built", player=p, building=t.text(f"words.{b}"), city=city, trucks=t.trucks(n)
                    )
                case ev.TransportCancelled(player=p, marker=m, city=city):
                    self._message = t.text("message.cancelled", colour=p, n=m, city=city)
                case ev.EventRevealed(card=card_id):
                    self._message = t.text("message.event", card=card_id, kind=self._event_text(card_id))
                case ev.ContractLaidOut(card=card_id):
                    card = self.state.config.contract(card_id)
                    assert card is not None
                    self._message = t.text(
                        "message.laid_out", card=card.id, origin=card.origin, destination=card.destination
                    )

    def _event_text(self, card_id: str) -> str:
        card = self.state.config.event(card_id)
        if card is None:
            return ""
        road = "–".join(card.road) if card.road else ""
        return self._text.text(f"event_kind.{card.kind.value}", amount=money(card.amount), road=road)

    # -- intents in: the hardware side turns them into table intents for ``step`` ----------
    def _on_lift(self, city: str, uid: str) -> None:
        marker = self.tags.marker(uid)
        if marker is not None and not self.state.finished:
            self._step(MarkerLifted(marker, city), acting=marker)

    def _on_place(self, city: str, uid: str) -> None:
        marker = self.tags.marker(uid)
        if marker is not None:
            self._step(MarkerPlaced(marker, city), acting=marker)

    def _on_card(self, tag: Tag) -> None:
        self._step(CardShown(tag))

    def _on_button(self, button: ButtonName) -> None:
        self._step(ButtonPressed(button))

    def _on_city(self, city: str) -> None:
        self._step(CityTapped(city))

    def _step(self, intent: TableIntent, acting: MarkerTag | None = None) -> None:
        """One pure step, then do what it asks: push a command, show a refusal, switch language."""
        before = self._prompt
        just_laid_out, self._just_laid_out = self._just_laid_out, None  # any other intent forgets it
        self._prompt, outcome = step(
            before,
            intent,
            self.state,
            misplaced=self._misplaced(acting),
            lay_out=self._lay_out_missing() > 0,
            lay_out_leavable=self._lay_out_leavable(),
            bot_turn=self.state.current.colour in self._bot_seats,
            just_laid_out=just_laid_out,
        )
        match outcome:
            case None:
                pass
            case IllegalAction() as refusal:
                self._refuse(refusal.rule, refusal.message)
            case ToggleLanguage():
                self._toggle_language()
            case AskAdvice():
                self._ask_advice()
            case OfferAsItLies():
                self._offer_as_it_lies = len(self.state.used_contracts)
                self._message = self._text.text("message.offer_as_it_lies")
                self._bot_ask_again()
            case LeaveLayOut():
                self._collect_offer = False
                self._advice_pending = False
                self._offer_as_it_lies = len(self.state.used_contracts)  # a partly laid-out offer too
                self._message = self._text.text("message.advice_left")
            case Undo():
                self._undo_in_turn(_describe_command)
            case command:
                if self._push(command) is None:  # refused after all (the journal could not write it)
                    self._prompt = before
                else:
                    self._prompt, _ = step(self._prompt, Applied(command), self.state)
                    if isinstance(command, LayOut):
                        self._just_laid_out = command.card  # a second scan at once is not a take
        if self._advice_pending and self._lay_out_missing() == 0:
            self._advice_pending = False  # the offer is complete: the advice asked for comes now
            self._ask_advice()

    def _bot_played(self, command: object) -> None:
        self._prompt, _ = step(self._prompt, Applied(command), self.state)  # type: ignore[arg-type]
        self._pointed = (self.game.depth, _advised_city(self.state, command))  # where to put its pieces
        if isinstance(command, TakeContract):  # a person hands the bot its card from the offer (OTW-9)
            card = self.state.config.contract(command.card)
            assert card is not None
            self._message = self._text.text(
                "message.bot_took",
                player=self._text.player_name(command.player),
                card=card.id,
                origin=card.origin,
                destination=card.destination,
            )

    # -- the face-up offer (OTW-9) ---------------------------------------------------------
    def _lay_out_missing(self) -> int:
        """How many face-up cards the table still has to scan into the offer (0: not collecting)."""
        if self.state.offer is None and not self._collect_offer:
            return 0
        if self._offer_as_it_lies == len(self.state.used_contracts):
            return 0  # the people said the pile has no more cards, and nobody has taken one since
        return offer_missing(self.state)

    def _lay_out_leavable(self) -> bool:
        """The offer is being collected only for the advice asked: no bot needs it, so it can be left."""
        return not self._bot_seats and self._lay_out_missing() > 0

    def _bot_waits(self) -> bool:
        """A bot chooses only among the cards that lie open: it waits for the offer (OTW-9)."""
        return self._lay_out_missing() > 0

    def _bot_may_play(self, command: object) -> bool:
        """A bot never draws the event card at the table (OTW-28): a person flips the real one and scans it."""
        return not isinstance(command, RevealEvent)

    def _undo_count(self, in_turn: tuple[object, ...]) -> int:
        """BACK takes a take back together with the refill laid out after it (OTW-9); a lay-out alone,
        or any other command, on its own."""
        refills = 0
        while refills < len(in_turn) and isinstance(in_turn[-1 - refills], LayOut):
            refills += 1
        return refills + 1 if 0 < refills < len(in_turn) and isinstance(in_turn[-1 - refills], TakeContract) else 1

    # -- state of the table ----------------------------------------------------------------
    def _problems(self) -> list[Problem]:
        hand = hand_of(self._prompt)
        return mismatches(
            expected_markers(self.state),
            self.tags,
            self._sensed,
            in_hand=hand.marker if isinstance(hand, Lifted) else None,
            forming=(hand.marker, hand.city) if isinstance(hand, Forming) else None,
            settling=frozenset(self._settling),
        )

    def _misplaced(self, acting: MarkerTag | None = None) -> bool:
        """The sensed table disagrees with the engine, apart from ``acting`` (the marker being moved)."""
        return any(p.marker != acting for p in self._problems())

    def _turn_key(self) -> Hashable:
        return self.state.turn.round, self.state.turn.seat

    def _on_new_turn(self) -> None:
        self._prompt = Idle()  # the previous player's dialogs and hand do not carry over

    def _compute_leds(self) -> LedFrame:
        return led_frame(self.state, self._ui)

    def _ask_advice(self) -> None:
        """MENU → Advice: the advisor's best action for the player on turn, in one sentence with its
        estimated win chance; its city blinks on the board until the next action (docs/bots.md)."""
        if self._lay_out_missing() > 0 or self.state.offer is None:
            # The advisor must not name a card that is not laid out: it needs the face-up offer first.
            self._collect_offer = True
            self._advice_pending = True
            self._message = self._text.text("message.advice_needs_offer")
            if offer_missing(self.state) > 0:
                return
            self._advice_pending = False  # nothing left to lay out (the pile is empty): advise now
        super()._ask_advice()  # "thinking", then the search beside the loop (_advice_search)

    def _advice_search(self) -> AdviceSearch:
        from companion.games.on_the_way.bots import advise
        from companion.games.on_the_way.bots.advisor import turn_so_far

        state, depth, budget_s = self.state, self.game.depth, self.advice_budget_s
        initial, applied = self.game.initial, self.game.applied(depth)  # immutable: read on the worker
        opponents = dict(self._bot_levels)
        colour = state.current.colour

        def search(progress: Progress) -> Callable[[], None]:
            earlier = turn_so_far(initial, applied)  # no circles this turn (a replay: not on the loop)
            try:
                best = advise(
                    state,
                    colour,
                    budget_s=budget_s,
                    seed=depth,
                    earlier=earlier,
                    progress=progress,
                    opponents=opponents,
                )
            except IllegalAction as refusal:
                rule, why = refusal.rule, refusal.message  # (the name is unbound after the except clause)
                return lambda: self._refuse(rule, why)
            except ValueError as exc:  # a house rule the advisor does not model
                said = str(exc)
                return lambda: setattr(self, "_message", said)
            if not best:
                return lambda: None
            top = best[0]
            city = _advised_city(state, top.command)

            def show() -> None:  # on the loop's thread, in the table's language of now
                chance = self._text.text("message.advice_chance", percent=round(top.told_chance * 100))
                self._message = f"{top.told(self._text)} ({chance})"
                self._pointed = (depth, city)

            return show

        return search

    def _compute_ui(self) -> UiModel:
        self._prompt = settle(self._prompt, self.state)
        ui = ui_model(
            self._prompt,
            self.state,
            self._text,
            problems=self._problems(),
            refusal=self._refusal,
            message=self._message,
            lay_out=self._lay_out_missing(),
            lay_out_leavable=self._lay_out_leavable(),
        )
        pointed = self._pointed
        if pointed is not None and pointed[0] == self.game.depth and pointed[1] is not None and ui.selected is None:
            return replace(ui, selected=pointed[1])  # the city blinks until the game moves on
        return ui


def _advised_city(state: GameState, command: object) -> str | None:
    """Where the advice points on the board: the destination of a move, the start city of a contract
    to take, the end city of one to fulfil, the city of a build."""
    match command:
        case Move(to=city) | Build(city=city) | Expand(city=city):
            return str(city)
        case TakeContract(card=card_id):
            card = state.config.contract(card_id)
            return None if card is None else card.origin
        case Fulfil(card=card_id):
            card = state.config.contract(card_id)
            return None if card is None else card.destination
    return None


def _describe_command(command: object) -> str:
    from companion.games.on_the_way.engine.serialize import command_to_json

    try:
        data = command_to_json(command)  # type: ignore[arg-type]
    except TypeError:
        return repr(command)
    return " ".join(str(v) for k, v in data.items() if k != "player")
