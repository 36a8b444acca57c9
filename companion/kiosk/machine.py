"""The kiosk: a pure state machine over intents and an injected clock (``companion kiosk``).

Players cannot leave it: quitting, ending a game early, clearing records and the hardware test sit
in an admin menu behind the admin card or a PIN (``admin.py``). Screens (``view.Screen``)::

    attract ──any button──▶ players ─▶ colours ─▶ length ─▶ confirm ──OK──▶ playing ──game over──▶ ranking
       ▲   ◀──────────────────BACK / idle timeout─────────────────────┘                              │
       └──────────────────────────────────────── timeout / OK ────────────────────────────────────────┘
    start with an unfinished game: resume offer ──OK──▶ playing   (BACK: the old game is kept as abandoned)
    any screen: admin card ─▶ admin menu;  MENU long press ─▶ PIN ─▶ admin menu;  menu idle ─▶ locked again

One loop calls ``handle(intent, now)`` for every intent and ``tick(now)`` regularly (``app.py``);
the display renders ``view`` (and, while playing, ``controller``). Nothing here draws or sleeps.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from companion.engine.errors import DataError, IllegalAction
from companion.intents import ButtonName, ButtonPressed, CardScanned, Intent
from companion.journal import (
    ABANDONED,
    GameSetup,
    JournaledGame,
    JournalError,
    JournalStore,
    ResumeError,
    ScoreEntry,
    standings,
)
from companion.kiosk.admin import AdminLock, PinEntry, generate_pin
from companion.kiosk.view import KioskView, OptionTapped, Screen
from companion.table.controller import LedSink, TableController
from companion.table.tags import AdminTag, TagDirectory

log = logging.getLogger(__name__)

KioskIntent = Intent | OptionTapped

ADMIN_CLOSE, ADMIN_END, ADMIN_CLEAR, ADMIN_TEST, ADMIN_LEAVE = "close", "end_game", "clear", "test", "leave"
ADMIN_LABELS = {
    ADMIN_CLOSE: "Close the menu",
    ADMIN_END: "End the game early",
    ADMIN_CLEAR: "Clear the records",
    ADMIN_TEST: "Hardware test",
    ADMIN_LEAVE: "Leave the kiosk",
}
CONFIRM_TITLES = {
    ADMIN_END: "End this game now? It is kept in the records.",
    ADMIN_CLEAR: "Delete all finished games and today's leaderboard?",
    ADMIN_LEAVE: "Leave the kiosk?",
}


@dataclass(frozen=True)
class KioskSettings:
    game: str = "on-the-way"
    colours: tuple[str, ...] = ("red", "blue", "green", "yellow")
    player_counts: tuple[int, ...] = (2, 3, 4)
    lengths: tuple[int | None, ...] = (None, 8, 5)  # None: the full game; else --end-at
    pin: str | None = None  # None: a random PIN nobody knows (`companion kiosk` passes the box's PIN, admin.py)
    admin_state_file: str | None = None  # the lock-out survives a power cycle (admin.py)
    admin_requires_card: bool = False  # PIN + card: a UID can be cloned, so the card alone does not open
    pin_attempts: int = 3
    pin_lockout_s: float = 300.0
    admin_uids: frozenset[str] = frozenset()  # admin cards besides the AdminTags of the directory
    ranking_s: float = 90.0  # how long the ranking stays after a game
    admin_idle_s: float = 60.0  # the admin menu locks itself again
    setup_idle_s: float = 120.0  # an abandoned set-up goes back to attract
    notice_s: float = 8.0
    how_to_s: float = 6.0  # each page of the attract screen's how-to loop
    hardware_log: int = 8  # intents echoed on the hardware test screen
    board: str | None = None  # data files (None: the reference)
    contracts: str | None = None
    events: str | None = None
    rules: dict[str, str] = field(default_factory=dict)
    language: str = "en"


# The attract screen's "how to play with the companion" loop, one page at a time.
HOW_TO = (
    "Lift a marker: the lit cities are where that transport can go in this step.",
    "Put a marker on a city with idle trucks to start a transport; PLUS/MINUS choose the trucks.",
    "Scan a contract card to take it; at its end city, OK (or a second scan) fulfils it.",
    "MENU builds a warehouse or a logistics centre; the bank pays and charges, no paper money.",
    "BACK takes back your last action this turn; OK ends your turn early.",
)


def clock_time(timestamp: float) -> str:
    return time.strftime("%H:%M", time.localtime(timestamp))


class Kiosk:
    def __init__(
        self,
        store: JournalStore,
        tags: TagDirectory,
        *,
        now: float,
        settings: KioskSettings | None = None,
        leds: LedSink | None = None,
        wall_time: Callable[[float], str] = clock_time,
    ) -> None:
        self.store = store
        self.tags = tags
        self.settings = s = settings or KioskSettings()
        self.leds = leds
        self._wall_time = wall_time
        self.lock = AdminLock(
            s.pin or generate_pin(), s.pin_attempts, s.pin_lockout_s,
            state_file=s.admin_state_file, require_card=s.admin_requires_card,
        )  # fmt: skip
        self.screen = Screen.ATTRACT
        self.exit_requested = False
        self.game: JournaledGame | None = None
        self.controller: TableController | None = None
        self._last_input = now
        self._notice = ""
        self._notice_until = 0.0
        self._index = 0  # the selected option of the current screen
        self._players = s.player_counts[0]
        self._colours: list[str] = []
        self._length: int | None = s.lengths[0]
        self._pin: PinEntry | None = None
        self._return_to = Screen.ATTRACT  # where the admin menu / PIN entry go back to
        self._confirm = ""
        self._ranking: list[dict[str, object]] = []
        self._ranking_until = 0.0
        self._hardware: list[str] = []
        self._offer: tuple[int, str, int | None] | None = None  # game id, started hh:mm, round
        self._leaderboard: list[ScoreEntry] = []
        self._how_to = 0  # the how-to page shown on the attract screen
        self._how_to_until = now + s.how_to_s
        self._load_leaderboard()
        if store.report is not None:
            self._say(str(store.report), now, sticky=True)
        self._offer_resume(now)

    # -- the loop's entry points -------------------------------------------------------------
    def handle(self, intent: KioskIntent, now: float) -> None:
        self._last_input = now
        if self._admin_card(intent):
            if self.screen is Screen.HARDWARE_TEST:
                self._echo(intent)  # testing the card reader with the admin card
            elif self.screen not in (Screen.ADMIN, Screen.ADMIN_CONFIRM):
                if self.lock.card_opens(now):
                    self._open_admin()
                elif self.screen is not Screen.PIN_ENTRY:
                    self._start_pin(now)  # PIN + card: the card arms the PIN entry
            return
        if (
            isinstance(intent, ButtonPressed)
            and intent.button is ButtonName.MENU
            and intent.long
            and self.screen not in (Screen.PIN_ENTRY, Screen.ADMIN, Screen.ADMIN_CONFIRM, Screen.HARDWARE_TEST)
        ):
            self._start_pin(now)
            return
        match self.screen:
            case Screen.PLAYING:
                self._play(intent, now)
            case Screen.HARDWARE_TEST:
                self._hardware_test(intent)
            case _:
                if isinstance(intent, ButtonPressed | OptionTapped):
                    self._menu_input(intent, now)

    def tick(self, now: float) -> None:
        if self._notice and now >= self._notice_until:
            self._notice = ""
        idle = now - self._last_input
        match self.screen:
            case Screen.PLAYING:
                assert self.controller is not None
                self.controller.tick(now)
                self._check_over(now)
            case Screen.RANKING if now >= self._ranking_until:
                self._go(Screen.ATTRACT)
            case Screen.ATTRACT if now >= self._how_to_until:
                self._how_to = (self._how_to + 1) % len(HOW_TO)
                self._how_to_until = now + self.settings.how_to_s
            case Screen.PIN_ENTRY | Screen.ADMIN | Screen.ADMIN_CONFIRM | Screen.HARDWARE_TEST:
                if idle >= self.settings.admin_idle_s:
                    self._close_admin()  # locked again
            case Screen.SETUP_PLAYERS | Screen.SETUP_COLOURS | Screen.SETUP_LENGTH | Screen.SETUP_CONFIRM:
                if idle >= self.settings.setup_idle_s:
                    self._go(Screen.ATTRACT)
            case _:
                pass

    def next_deadline(self, now: float) -> float | None:
        """When ``tick`` next has something to do, so an idle loop can sleep (None: only on input)."""
        s = self.settings
        deadlines: list[float] = []
        if self._notice:
            deadlines.append(self._notice_until)
        if self.screen is Screen.PLAYING and self.controller is not None:
            d = self.controller.next_deadline()
            if d is not None:
                deadlines.append(d)
        elif self.screen is Screen.RANKING:
            deadlines.append(self._ranking_until)
        elif self.screen is Screen.ATTRACT:
            deadlines.append(self._how_to_until)
        elif self.screen in (Screen.PIN_ENTRY, Screen.ADMIN, Screen.ADMIN_CONFIRM, Screen.HARDWARE_TEST):
            deadlines.append(self._last_input + s.admin_idle_s)
        elif self.screen.name.startswith("SETUP"):
            deadlines.append(self._last_input + s.setup_idle_s)
        return min(deadlines, default=None)

    def close(self) -> None:
        """Stop: the journal is closed (every accepted command is already committed)."""
        self.store.close()

    # -- resume --------------------------------------------------------------------------------
    def _offer_resume(self, now: float) -> None:
        try:
            record = self.store.unfinished()
        except JournalError as exc:
            log.error("cannot read the journal: %s", exc)
            self._say(f"The game records cannot be read ({exc}).", now)
            return
        if record is None:
            return
        round_ = record.progress.get("round")
        self._offer = (record.id, self._wall_time(record.started_at), round_ if isinstance(round_, int) else None)
        self._go(Screen.RESUME_OFFER)

    def _resume(self, now: float) -> None:
        assert self._offer is not None
        game_id = self._offer[0]
        self._offer = None
        try:
            game = JournaledGame.resume(self.store, game_id)
        except ResumeError as exc:
            self._say(f"That game cannot be resumed; it is kept in the records. ({exc})", now)
            self._go(Screen.SETUP_PLAYERS)
            return
        self._begin(game)

    def _decline_resume(self, now: float) -> None:
        assert self._offer is not None
        try:
            self.store.set_status(self._offer[0], ABANDONED)
        except JournalError as exc:
            log.error("cannot mark game %s abandoned: %s", self._offer[0], exc)
        self._offer = None
        self._go(Screen.SETUP_PLAYERS)

    # -- new game --------------------------------------------------------------------------------
    def _start_game(self, now: float) -> None:
        s = self.settings
        setup = GameSetup(
            s.game,
            tuple(self._colours),
            board=s.board,
            contracts=s.contracts,
            events=s.events,
            end_at=self._length,
            rules=dict(s.rules),
        )
        try:
            game = JournaledGame.start(self.store, setup)
        except (DataError, ValueError, JournalError) as exc:
            log.error("cannot start a game: %s", exc)
            self._say(f"The game cannot start: {exc}", now)
            self._go(Screen.ATTRACT)
            return
        self._begin(game)

    def _begin(self, game: JournaledGame) -> None:
        self.game = game
        self.controller = TableController(
            game.state.config, self.tags, leds=self.leds, language=self.settings.language, game=game
        )
        self._go(Screen.PLAYING)

    # -- playing ---------------------------------------------------------------------------------
    def _play(self, intent: KioskIntent, now: float) -> None:
        assert self.controller is not None
        if isinstance(intent, OptionTapped):
            return  # the table has its own touch targets (CityTapped, on-screen buttons)
        try:
            self.controller.handle(intent, now)
        except IllegalAction as exc:  # BACK's undo could not be recorded: the game is unchanged
            self._say(exc.message, now)
        self._check_over(now)

    def _check_over(self, now: float) -> None:
        if self.game is not None and self.game.finished:
            self._show_ranking(standings(self.game), now)

    def _show_ranking(self, ranking: list[dict[str, object]], now: float) -> None:
        self._ranking = ranking
        self._ranking_until = now + self.settings.ranking_s
        self.game = None
        self.controller = None
        self._go(Screen.RANKING)

    # -- admin -----------------------------------------------------------------------------------
    def _admin_card(self, intent: KioskIntent) -> bool:
        if not isinstance(intent, CardScanned):
            return False
        return intent.uid in self.settings.admin_uids or isinstance(self.tags.lookup(intent.uid), AdminTag)

    def _start_pin(self, now: float) -> None:
        if self.lock.locked_out(now):
            assert self.lock.locked_until is not None
            self._say(f"Too many wrong PINs: try again in {int(self.lock.locked_until - now) + 1} s.", now)
            return
        self._return_to = self.screen
        self._pin = PinEntry(self.lock.length)
        self.screen = Screen.PIN_ENTRY

    def _pin_input(self, button: ButtonName, now: float) -> None:
        pin = self._pin
        assert pin is not None
        if button in (ButtonName.PLUS, ButtonName.MINUS):
            pin.step(1 if button is ButtonName.PLUS else -1)
        elif button is ButtonName.BACK:
            if not pin.back():
                self._close_admin()
        elif button is ButtonName.OK:
            pin.take()
            if pin.complete:
                self._pin = None
                if self.lock.check(pin.digits, now):
                    self._open_admin(keep_return=True)
                else:
                    self._close_admin()
                    self._say("Wrong PIN.", now)

    def _open_admin(self, keep_return: bool = False) -> None:
        if not keep_return and self.screen is not Screen.PIN_ENTRY:
            self._return_to = self.screen
        self._pin = None
        self._go(Screen.ADMIN)

    def _admin_items(self) -> tuple[str, ...]:
        playing = self._return_to is Screen.PLAYING and self.game is not None
        return tuple(
            item for item in (ADMIN_CLOSE, ADMIN_END, ADMIN_CLEAR, ADMIN_TEST, ADMIN_LEAVE)
            if item != ADMIN_END or playing
        )  # fmt: skip

    def _admin_choose(self, item: str, now: float) -> None:
        if item == ADMIN_CLOSE:
            self._close_admin()
        elif item == ADMIN_TEST:
            self._hardware = []
            self._go(Screen.HARDWARE_TEST)
        else:
            self._confirm = item
            self._go(Screen.ADMIN_CONFIRM, keep_index=True)  # BACK returns to the same item

    def _admin_confirmed(self, now: float) -> None:
        item = self._confirm
        if item == ADMIN_LEAVE:
            self.exit_requested = True
            self._close_admin()
        elif item == ADMIN_CLEAR:
            try:
                deleted = self.store.clear(keep_playing=True)
            except JournalError as exc:
                self._say(f"Clearing failed: {exc}", now)
            else:
                self._say(f"Cleared {deleted} finished game(s).", now)
            self._go(Screen.ADMIN, keep_index=True)
        elif item == ADMIN_END and self.game is not None:
            try:
                self.game.end_early()
            except JournalError as exc:
                self._say(f"Ending failed: {exc}", now)
                self._go(Screen.ADMIN)
                return
            self._show_ranking(standings(self.game), now)

    def _close_admin(self) -> None:
        self._pin = None
        target = self._return_to
        if target is Screen.PLAYING and self.controller is None:
            target = Screen.ATTRACT
        if target is Screen.RESUME_OFFER and self._offer is None:
            target = Screen.ATTRACT
        self._go(target, keep_index=target is Screen.PLAYING)

    def _hardware_test(self, intent: KioskIntent) -> None:
        if isinstance(intent, ButtonPressed) and intent.button is ButtonName.BACK and intent.long:
            self._go(Screen.ADMIN)
            return
        self._echo(intent)

    def _echo(self, intent: KioskIntent) -> None:
        self._hardware = [*self._hardware, repr(intent)][-self.settings.hardware_log :]

    # -- menus: PLUS / MINUS / OK / BACK / touch -------------------------------------------------
    def _menu_input(self, intent: ButtonPressed | OptionTapped, now: float) -> None:
        if self.screen is Screen.PIN_ENTRY:
            if isinstance(intent, ButtonPressed):
                self._pin_input(intent.button, now)
            return
        options = self._options()
        if isinstance(intent, OptionTapped):
            if 0 <= intent.index < len(options):
                self._index = intent.index
                self._ok(now)
            return
        button = intent.button
        if self.screen is Screen.ATTRACT:
            if button is not ButtonName.BACK:
                self._ok(now)  # any button starts a new game
            return
        if button in (ButtonName.PLUS, ButtonName.MINUS) and options:
            self._index = (self._index + (1 if button is ButtonName.PLUS else -1)) % len(options)
        elif button is ButtonName.OK:
            self._ok(now)
        elif button is ButtonName.BACK:
            self._back(now)

    def _ok(self, now: float) -> None:
        s = self.settings
        match self.screen:
            case Screen.ATTRACT:
                self._colours = []
                self._go(Screen.SETUP_PLAYERS, index=s.player_counts.index(self._players))
            case Screen.RESUME_OFFER:
                self._resume(now)
            case Screen.SETUP_PLAYERS:
                self._players = s.player_counts[self._index]
                self._colours = []
                self._go(Screen.SETUP_COLOURS)
            case Screen.SETUP_COLOURS:
                self._colours.append(self._free_colours()[self._index])
                if len(self._colours) >= self._players:
                    self._go(Screen.SETUP_LENGTH, index=s.lengths.index(self._length))
                else:
                    self._go(Screen.SETUP_COLOURS)
            case Screen.SETUP_LENGTH:
                self._length = s.lengths[self._index]
                self._go(Screen.SETUP_CONFIRM)
            case Screen.SETUP_CONFIRM:
                self._start_game(now)
            case Screen.RANKING:
                self._go(Screen.ATTRACT)
            case Screen.ADMIN:
                self._admin_choose(self._admin_items()[self._index], now)
            case Screen.ADMIN_CONFIRM:
                self._admin_confirmed(now)
            case _:
                pass

    def _back(self, now: float) -> None:
        s = self.settings
        match self.screen:
            case Screen.RESUME_OFFER:
                self._decline_resume(now)
            case Screen.SETUP_PLAYERS:
                self._go(Screen.ATTRACT)
            case Screen.SETUP_COLOURS:
                if self._colours:
                    self._colours.pop()
                    self._go(Screen.SETUP_COLOURS)
                else:
                    self._go(Screen.SETUP_PLAYERS, index=s.player_counts.index(self._players))
            case Screen.SETUP_LENGTH:
                self._colours.pop()
                self._go(Screen.SETUP_COLOURS)
            case Screen.SETUP_CONFIRM:
                self._go(Screen.SETUP_LENGTH, index=s.lengths.index(self._length))
            case Screen.RANKING:
                self._go(Screen.ATTRACT)
            case Screen.ADMIN:
                self._close_admin()
            case Screen.ADMIN_CONFIRM:
                self._go(Screen.ADMIN, keep_index=True)
            case _:
                pass

    def _free_colours(self) -> list[str]:
        return [c for c in self.settings.colours if c not in self._colours]

    def _go(self, screen: Screen, index: int = 0, keep_index: bool = False) -> None:
        if screen is Screen.ATTRACT:
            self._load_leaderboard()
        self.screen = screen
        if not keep_index:
            self._index = index

    def _load_leaderboard(self) -> None:
        """Read once per visit of the attract screen (the loop asks for the view many times a second)."""
        try:
            self._leaderboard = self.store.leaderboard()
        except JournalError as exc:
            log.error("cannot read the leaderboard: %s", exc)
            self._leaderboard = []

    def _say(self, text: str, now: float, sticky: bool = False) -> None:
        self._notice = text
        self._notice_until = now + (self.settings.notice_s * (6 if sticky else 1))

    # -- the view model ----------------------------------------------------------------------------
    def _options(self) -> tuple[str, ...]:
        s = self.settings
        match self.screen:
            case Screen.RESUME_OFFER:
                return ("Resume", "New game")
            case Screen.SETUP_PLAYERS:
                return tuple(f"{n} players" for n in s.player_counts)
            case Screen.SETUP_COLOURS:
                return tuple(self._free_colours())
            case Screen.SETUP_LENGTH:
                return tuple(_length_label(n) for n in s.lengths)
            case Screen.ADMIN:
                return tuple(ADMIN_LABELS[i] for i in self._admin_items())
            case _:
                return ()

    @property
    def view(self) -> KioskView:
        s = self.settings
        options = self._options()
        base = KioskView(
            self.screen, "", options=options, selected=self._index if options else None, notice=self._notice
        )
        match self.screen:
            case Screen.ATTRACT:
                best = self._leaderboard
                lines = ["Press OK to start a new game", f"How to play with the companion: {HOW_TO[self._how_to]}"]
                if best:
                    lines.append("Best scores today")
                    lines += [f"{i}. {e.colour} — {e.score} VP (game {e.game_id})" for i, e in enumerate(best, 1)]
                return replace(base, title="On The Way", lines=tuple(lines), hint="OK: new game")
            case Screen.RESUME_OFFER:
                assert self._offer is not None
                _, started, round_ = self._offer
                at = f", round {round_}" if round_ is not None else ""
                return replace(
                    base,
                    title=f"Resume the game started {started}{at}?",
                    hint="OK: resume · BACK: new game (the old one is kept)",
                    selected=0,
                    options=("Resume", "New game"),
                )
            case Screen.SETUP_PLAYERS:
                return replace(base, title="How many players?", hint="PLUS/MINUS: choose · OK: next · BACK: cancel")
            case Screen.SETUP_COLOURS:
                seat = len(self._colours) + 1
                chosen = tuple(f"Player {i}: {c}" for i, c in enumerate(self._colours, 1))
                return replace(
                    base,
                    title=f"Colour of player {seat} of {self._players}",
                    lines=chosen,
                    hint="PLUS/MINUS: colour · OK: take it · BACK: previous player",
                )
            case Screen.SETUP_LENGTH:
                return replace(base, title="Full or short game?", hint="PLUS/MINUS: choose · OK: next · BACK: colours")
            case Screen.SETUP_CONFIRM:
                return replace(
                    base,
                    title="Start the game?",
                    lines=("Players: " + ", ".join(self._colours), _length_label(self._length)),
                    hint="OK: start · BACK: change",
                )
            case Screen.PLAYING:
                assert self.controller is not None
                return replace(base, title="", table=self.controller.ui)
            case Screen.RANKING:
                ranked = tuple(
                    f"{r['place']}. {r['colour']} — {r['score']} VP ({r.get('money', 0)} R)" for r in self._ranking
                )
                return replace(base, title="Game over", lines=ranked, hint="OK: done")
            case Screen.PIN_ENTRY:
                assert self._pin is not None
                return replace(
                    base,
                    title="Admin PIN",
                    lines=(self._pin.masked(),),
                    hint="PLUS/MINUS: digit · OK: next digit · BACK: delete / cancel",
                )
            case Screen.ADMIN:
                return replace(base, title="Admin", hint="PLUS/MINUS: choose · OK: do it · BACK: close")
            case Screen.ADMIN_CONFIRM:
                return replace(base, title=CONFIRM_TITLES[self._confirm], hint="OK: yes · BACK: no")
            case Screen.HARDWARE_TEST:
                return replace(
                    base,
                    title="Hardware test",
                    lines=tuple(self._hardware) or ("Press buttons, place tags, scan cards",),
                    hint="hold BACK: end the test",
                    led_test=True,
                )
        return replace(base, title=s.game)


def _length_label(end_at: int | None) -> str:
    return "Full game" if end_at is None else f"Short game: ends at {end_at} on the time track"
