"""One game protocol, two implementations: what the loop, the simulator and the screen need from a table.

``GameTable`` is the protocol (On The Way's ``TableController`` and Auf Achse's ``AATableController``
implement it). ``TableBase`` is the machinery both share, so neither copies it:

- placements settle before they count (``settle_s``; PicoChess waits ~350 ms), lifts of unsettled
  tags are forgotten; while one settles its city's LED shows SEEN at once (a person feels the box saw
  the marker within one sweep, not after the settle);
- a scanned card is looked up in the tag directory (unknown card, admin card handled here);
- long MENU opens the admin menu; device faults become a message;
- commands are pushed through ``_push``: a refusal is remembered with its rule id, the journal hears
  an accepted command before the table shows it (and a journal failure takes the command back);
- BACK undoes within the current turn only (``_undo_in_turn``);
- the catalogue (every user-facing string, both languages) and the language toggle;
- after every intent the UI model and the LED frame are recomputed; the LED device is written only
  when the frame changed.

A game supplies the hooks: what a settled placement / a lift / a card tag / a button / a tap mean,
the UI model, the LED frame, and which turn it is.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Hashable, Mapping
from typing import Any, Protocol, runtime_checkable

from companion.engine.errors import IllegalAction
from companion.engine.game import Game, UndoCommand
from companion.intents import (
    ButtonName,
    ButtonPressed,
    CardScanned,
    CityTapped,
    DeviceFault,
    Intent,
    TagLifted,
    TagPlaced,
)
from companion.ledframe import LedFrame
from companion.table.messages import Catalogue, next_language
from companion.table.tags import AdminTag, Tag, TagDirectory
from companion.table.ui import Refusal, UiModel

log = logging.getLogger(__name__)

SETTLE_S = 0.35
BOT_PAUSE_S = 1.5  # a bot's actions are this far apart, so the people at the table can follow them
# MENU -> Advice searches for about a second of a Pi 4. The table says at once that it is thinking; a
# frame later the search starts on a worker thread, and while it runs the loop keeps ticking every
# frame: the screen shows how far it got, and readers and buttons are still served.
ADVICE_FRAME_S = 0.05
ADVICE_BUDGET_S = 0.85  # Pi-4 seconds of search: with its overheads an advice takes ~1 s on a Pi 4 (docs/bots.md)


Progress = Callable[[float], None]  # told the share of the search done (0..1)
AdviceSearch = Callable[[Progress], Callable[[], None]]  # runs on the worker; returns what to show


class _Cancelled(Exception):
    """Raised inside a search that is no longer wanted, at its next progress report."""


class _Thinking:
    """A MENU -> Advice search running beside the loop, for the position ``state`` (the state object
    itself: an undo and another command return to the same depth, not to the same position)."""

    def __init__(self, search: AdviceSearch, state: object, failed: Callable[[], None]) -> None:
        self.state = state
        self.share = 0.0
        self.cancelled = False
        self.show: Callable[[], None] | None = None  # set when the search is over, however it ended
        self._failed = failed
        self.thread = threading.Thread(target=self._run, args=(search,), name="companion-advice", daemon=True)
        self.thread.start()

    def _run(self, search: AdviceSearch) -> None:
        show: Callable[[], None] = self._failed
        try:
            show = search(self._progress)
        except _Cancelled:
            show = _nothing
        except Exception:  # a fault in the advisor must not leave the table thinking for ever
            log.exception("the advice search failed")
        finally:  # (even a BaseException ends the wait: the table never thinks for ever)
            self.show = show

    def _progress(self, share: float) -> None:
        if self.cancelled:  # the players went on: stop at once, the Pi's core is the table's again
            raise _Cancelled
        self.share = share

    def cancel(self) -> None:
        self.cancelled = True


def _nothing() -> None:
    return None


class LedSink(Protocol):
    """The LED device (``companion.hardware`` LedOutput or HardwareRig): blinking is its job."""

    def show(self, frame: LedFrame, now: float) -> None: ...


@runtime_checkable
class GameTable(Protocol):
    """What ``TableSession``, the simulator and the screen use of a game's table controller."""

    game: Game[Any]
    tags: TagDirectory

    @property
    def state(self) -> Any: ...  # the engine state (otw.GameState or aa.GameState)

    @property
    def ui(self) -> UiModel: ...

    @property
    def led_frame(self) -> LedFrame: ...

    @property
    def sensed(self) -> dict[str, str]: ...

    def handle(self, intent: Intent, now: float) -> None: ...

    def tick(self, now: float) -> None: ...

    def next_deadline(self) -> float | None: ...

    def close(self) -> None: ...  # put away: stops what runs beside the loop (a MENU -> Advice search)


@runtime_checkable
class SeatedBot(Protocol):
    """A bot that says which seats it plays (``companion.games.seats.BotSeats``): the table then knows
    whose turn is the box's. A plain callable plays too, but the table cannot tell its seats."""

    seats: frozenset[str]

    def __call__(self, state: Any) -> object | None: ...


class TableBase:
    """The shared half of a table controller. Subclasses implement the ``_on_*`` hooks,
    ``_compute_ui``, ``_compute_leds`` and ``_turn_key``, and name the package whose ``messages/``
    hold their texts (``messages``)."""

    messages: str | None = None  # e.g. "companion.games.on_the_way"
    advice_budget_s: float = ADVICE_BUDGET_S  # MENU -> Advice's search (a test that only looks may shorten it)

    def __init__(
        self,
        game: Game[Any],
        tags: TagDirectory,
        *,
        leds: LedSink | None = None,
        language: str = "en",
        settle_s: float = SETTLE_S,
        on_command: Callable[[object], None] | None = None,
        on_admin: Callable[[], None] | None = None,
        bot: Callable[[Any], object | None] | None = None,
    ) -> None:
        self.game = game
        # The seats the box plays (``companion.games.seats.bot_player``): asked when the table matches
        # the engine; a person then moves the bot's pieces as the screen and the LEDs show.
        self._bot = bot
        self._bot_seats: frozenset[str] = bot.seats if isinstance(bot, SeatedBot) else frozenset()
        # Their levels (``BotSeats.levels``), for the advice's chance against them; the other seats are people.
        self._bot_levels: Mapping[str, str] = getattr(bot, "levels", {}) if isinstance(bot, SeatedBot) else {}
        self._bot_at = 0.0
        self._bot_asked: tuple[int, frozenset[tuple[str, str]]] | None = None  # the position last asked about
        self._bot_held: object | None = None  # what the bot wanted there that a person must bring (a card)
        self.tags = tags
        self.settle_s = settle_s
        self._leds = leds
        self._on_command = on_command
        self._on_admin = on_admin
        self._text = Catalogue(language, self.messages)
        self._sensed: dict[str, str] = {}  # uid -> city
        self._settling: dict[str, tuple[str, float]] = {}  # uid -> (city, placed at)
        self._refusal: Refusal | None = None
        self._message = ""
        self._turn_start = self.game.depth
        self._turn_key_seen = self._turn_key()
        self._ui = UiModel()
        self._frame: LedFrame | None = None
        self._now = 0.0
        self._advice_due: tuple[float, object] | None = None  # (when, the position it was asked about)
        self._thinking: _Thinking | None = None  # the advice search under way
        self._thinking_line: str | None = None  # the "thinking" message shown meanwhile (cleared after)

    # -- what the outside reads ----------------------------------------------------------
    @property
    def state(self) -> Any:
        return self.game.state

    @property
    def ui(self) -> UiModel:
        return self._ui

    @property
    def led_frame(self) -> LedFrame:
        assert self._frame is not None
        return self._frame

    @property
    def sensed(self) -> dict[str, str]:
        return dict(self._sensed)

    @property
    def language(self) -> str:
        return self._text.language

    def next_deadline(self) -> float | None:
        """When ``tick`` next has something to do (a placement settling, a bot's next action), or None."""
        deadlines = [t + self.settle_s for _, t in self._settling.values()]
        if self._bot is not None and self._bot_due():
            deadlines.append(self._bot_at)  # only while a bot's action is pending: idle otherwise
        if self._advice_due is not None:
            deadlines.append(self._advice_due[0])
        if self._thinking is not None:  # every frame while the search runs: its progress is drawn
            deadlines.append(self._now + ADVICE_FRAME_S)
        return min(deadlines, default=None)

    # -- the loop's entry points ---------------------------------------------------------
    def handle(self, intent: Intent, now: float) -> None:
        self._now = now
        match intent:
            case TagPlaced(city=city, uid=uid):
                self._sensed[uid] = city
                self._settling[uid] = (city, now)
                if self.tags.lookup(uid) is None:
                    log.warning("unknown tag %s on %s", uid, city)
                    self._message = self._text.text("message.unknown_tag", city=city, uid=uid)
            case TagLifted(city=city, uid=uid):
                if self._sensed.get(uid) == city:
                    del self._sensed[uid]
                if self._settling.pop(uid, None) is None:
                    self._on_lift(city, uid)
            case CardScanned(uid=uid):
                self._scan(uid)
            case ButtonPressed(button=button, long=long):
                if button is ButtonName.MENU and long:
                    if self._on_admin is not None:
                        self._on_admin()
                elif not self.state.finished:
                    self._on_button(button)
            case CityTapped(city=city):
                self._on_city(city)
            case DeviceFault(device=device, message=text):
                self._message = self._text.text("message.device", device=device, text=text)
        self._refresh()

    def tick(self, now: float) -> None:
        """Accept placements that have rested long enough."""
        self._now = now
        settled = [(uid, city) for uid, (city, t) in self._settling.items() if now - t >= self.settle_s]
        for uid, city in settled:
            del self._settling[uid]
            self._on_place(city, uid)
        if settled:
            self._refresh()
        self._advise(now)
        self._play_bot(now)

    # -- MENU -> Advice ----------------------------------------------------------------------
    @property
    def thinking(self) -> bool:
        """An advice search is due or under way (the loop ticks every frame meanwhile)."""
        return self._advice_due is not None or self._thinking is not None

    def close(self) -> None:
        """The table is put away (the game is over or abandoned): a search under way stops."""
        self._advice_due = None
        if self._thinking is not None:
            self._thinking.cancel()
            self._thinking = None

    def _ask_advice(self) -> None:
        """Say that the box is thinking now; the search starts at the next tick, after a frame is drawn."""
        if self._thinking is not None and self._thinking.state is self.state:
            return  # asked again while it thinks about this position: the search under way answers
        self._message = self._thinking_line = self._text.text("message.advice_thinking")
        self._advice_due = (self._now + ADVICE_FRAME_S, self.state)

    def _advise(self, now: float) -> None:
        due = self._advice_due
        state: Any = self.state  # the position now: an advice is for this very state object
        if due is not None and now >= due[0]:
            self._advice_due = None
            if self._thinking is not None:
                self._thinking.cancel()  # (a search for a position the players left)
                self._thinking = None
            if not state.finished and due[1] is state:  # else the game moved on: that advice is moot
                self._thinking = _Thinking(self._advice_search(), state, self._advice_failed)
            else:
                self._stop_thinking()
                return
        thinking = self._thinking
        if thinking is None:
            return
        if state.finished or thinking.state is not state:  # the players went on meanwhile
            thinking.cancel()  # its worker stops at its next progress report; what it found is dropped
            self._thinking = None
            self._stop_thinking()
        elif thinking.show is not None:
            self._thinking = None
            thinking.show()
            self._stop_thinking()
        elif self._message == self._thinking_line:  # (a refusal or a message since stays as it is)
            percent = round(100 * thinking.share)
            self._message = self._thinking_line = self._text.text("message.advice_thinking_share", percent=percent)
            self._refresh()

    def _stop_thinking(self) -> None:
        if self._message == self._thinking_line:
            self._message = ""  # nothing to say after all: never "thinking" for ever
        self._thinking_line = None
        self._refresh()

    def _advice_failed(self) -> None:
        self._message = self._text.text("message.advice_failed")

    def _advice_search(self) -> AdviceSearch:
        """The game's advisor for the player to decide now, as a search to run on the worker thread. It
        takes the position now (immutable values only: the game may move on meanwhile) and returns what
        shows its result on the loop's thread, in the table's language of then: one sentence and its
        chance in ``_message``, or a refusal with its rule."""
        raise NotImplementedError

    def _bot_due(self) -> bool:
        """The bot has not been asked about this position yet (the game and the sensed table as they
        are now): asking again changes nothing, so the loop neither wakes nor searches for it."""
        return not self.state.finished and self._bot_asked != (self.game.depth, frozenset(self._sensed.items()))

    def _play_bot(self, now: float) -> None:
        """A bot seat acts: only once the table matches the engine (its last action's pieces moved by a
        person, nothing settling), at most every ``BOT_PAUSE_S``, and once per position."""
        if self._bot is None or now < self._bot_at or not self._bot_due() or self._settling:
            return
        self._bot_asked = (self.game.depth, frozenset(self._sensed.items()))
        if self._problems() or self._bot_waits():
            return  # asked again once the game or the sensed table changes, which is what it waits for
        try:
            command = self._bot(self.state)
        except Exception:  # a bot is a player, not the game: the people can go on by hand
            log.exception("the bot failed; its seats are now played by hand")
            self._bot = None
            return
        held = command if command is not None and not self._bot_may_play(command) else None
        if held != self._bot_held:
            self._bot_held = held
            self._refresh()  # the screen says what to bring for the bot
        if command is None or held is not None:
            return  # a person's turn, or a card only a person can bring: asked again once the game changes
        self._bot_at = now + BOT_PAUSE_S
        if self._push(command) is not None:
            self._bot_played(command)
        self._refresh()

    def _bot_ask_again(self) -> None:
        """What the bot waited for came without a change of the game or the sensed table (a person
        said so with a button): ask it at the next tick."""
        self._bot_asked = None

    def _problems(self) -> list[Any]:
        """What must be put right on the table before it matches the engine (a game's table says)."""
        return []

    def _bot_waits(self) -> bool:
        """The bot must wait for something only the people can bring to the table: a card to scan
        (a game's table says; the position changes when it comes, so the bot is asked again)."""
        return False

    def _bot_card_due(self) -> bool:
        """The bot, asked about the position as it still is, waits for a card a person must scan for it."""
        return self._bot_held is not None and self._bot_asked == (self.game.depth, frozenset(self._sensed.items()))

    def _bot_may_play(self, command: object) -> bool:
        """May the bot's ``command`` be pushed at this table? Not one that names a hidden card (a drawn
        contract, an action card): at a table a person draws the real card and scans it for the bot
        (a game's table says which commands those are)."""
        return True

    def _undo_count(self, in_turn: tuple[object, ...]) -> int:
        """How many of this turn's commands (oldest first, never empty) BACK takes back at once: the last
        one, or a game's table says more (On The Way: a take with the refill laid out after it)."""
        return 1

    def _bot_played(self, command: object) -> None:
        """A bot's command was applied: a game's table brings its own mode up to date."""

    def _scan(self, uid: str) -> None:
        tag = self.tags.lookup(uid)
        if tag is None:
            log.warning("unknown card %s scanned", uid)
            self._message = self._text.text("message.unknown_card", uid=uid)
            return
        if isinstance(tag, AdminTag):
            if self._on_admin is not None:
                self._on_admin()
            return
        self._on_card(tag)

    # -- hooks a game implements -----------------------------------------------------------
    def _on_place(self, city: str, uid: str) -> None:  # a tag has settled on a city reader
        raise NotImplementedError

    def _on_lift(self, city: str, uid: str) -> None:  # a settled tag left a city reader
        raise NotImplementedError

    def _on_card(self, tag: Tag) -> None:  # a known, non-admin tag on the card reader
        raise NotImplementedError

    def _on_button(self, button: ButtonName) -> None:  # a short press (the game is not over)
        raise NotImplementedError

    def _on_city(self, city: str) -> None:  # a touch on the map
        raise NotImplementedError

    def _describe(self, events: list[Any]) -> None:  # set the message line from accepted events
        raise NotImplementedError

    def _compute_ui(self) -> UiModel:
        raise NotImplementedError

    def _compute_leds(self) -> LedFrame:
        raise NotImplementedError

    def _turn_key(self) -> Hashable:
        """Changes when the next player starts: BACK never reaches into an earlier turn."""
        raise NotImplementedError

    def _on_new_turn(self) -> None:
        """Drop the table-side state of the previous turn (modal dialogs, pieces in the hand)."""

    # -- pushing commands ----------------------------------------------------------------
    def _push(self, command: object) -> list[Any] | None:
        """Apply a command; on refusal remember why. The journal hears it before the table shows it."""
        try:
            events = self.game.push(command)
        except IllegalAction as refusal:
            self._refuse(refusal.rule, refusal.message)
            return None
        if self._on_command is not None:
            try:
                self._on_command(command)
            except Exception:
                log.exception("could not record %r; taking it back", command)
                self.game.pop()
                self._refuse("journal", "the game record could not be written; try again")
                return None
        self._refusal = None
        self._describe(events)
        return events

    def _refuse(self, rule: str, message: str) -> None:
        """Remember a refusal; in a language other than English the rule's own sentence from the
        catalogue replaces the engine's English one (the rule id stays)."""
        self._refusal = Refusal(rule, self._text.refusal(rule, message))

    def _undo_in_turn(self, describe: Callable[[object], str]) -> bool:
        """BACK with nothing else to step back from: undo the last command of this turn."""
        if self.game.depth > self._turn_start:
            in_turn = self.game.applied(self.game.depth - self._turn_start)
            count = self._undo_count(in_turn)
            command = in_turn[-count]
            for _ in range(count):
                self.game.push(UndoCommand())
                if self._on_command is not None:
                    self._on_command(UndoCommand())
            self._refusal = None
            self._message = self._text.text("message.undone", what=describe(command))
            return True
        self._message = self._text.text("message.nothing_to_undo")
        return False

    def _toggle_language(self) -> None:
        self._text = Catalogue(next_language(self._text.language), self.messages)

    # -- state of the table ----------------------------------------------------------------
    def _refresh(self) -> None:
        key = self._turn_key()
        if key != self._turn_key_seen:  # a new turn: BACK cannot reach into the previous player's turn
            self._turn_key_seen = key
            self._turn_start = self.game.depth
            self._on_new_turn()
        self._ui = self._compute_ui()
        frame = self._compute_leds().acknowledging(city for city, _ in self._settling.values())
        if frame != self._frame:
            self._frame = frame
            if self._leds is not None:
                self._leds.show(frame, self._now)
