"""The kiosk: a pure state machine over intents and an injected clock (``companion kiosk``).

Players cannot leave it: quitting, ending a game early, clearing records and the hardware test sit
in an admin menu behind the admin card or a PIN (``admin.py``). Screens (``view.Screen``)::

    attract ──any button──▶ game ─▶ players ─▶ colours ─▶ length ─▶ confirm ──OK──▶ playing ──game over──▶ ranking
       ▲   ◀──────────────────BACK / idle timeout─────────────────────┘                              │
       └──────────────────────────────────────── timeout / OK ────────────────────────────────────────┘
    start with an unfinished game: resume offer ──OK──▶ playing   (BACK: the old game is kept as abandoned)
    any screen: admin card ─▶ admin menu;  MENU long press ─▶ PIN ─▶ admin menu;  menu idle ─▶ locked again

The kiosk speaks the languages of the catalogues (``companion.table.messages.LANGUAGES``): its own
texts are ``companion/kiosk/messages/<language>.po``; PLUS/MINUS on the attract screen switch the
language before a game (the admin default, ``KioskSettings.language``, returns after it; the admin
menu switches the default); the chosen language goes to the table and stays for the ranking.

Any registered game can be played (``companion.games``): the set-up offers the games of the settings
(one game: the step is skipped; a game with one length: that step too), and the chosen game's plug-in
builds the table, names the title, the currency and the ranking. Nothing here names a game.

One loop calls ``handle(intent, now)`` for every intent and ``tick(now)`` regularly (``app.py``);
the display renders ``view`` (and, while playing, ``playing``: the table and its screen). Nothing
here draws or sleeps.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from companion import games
from companion.engine.errors import DataError, IllegalAction
from companion.engine.stats import GameStats
from companion.games.protocol import GamePlugin, GameScreen
from companion.games.seats import bot_player
from companion.games.stats import stats_of_game
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
from companion.kiosk.attract import Replay
from companion.kiosk.texts import kiosk_texts
from companion.kiosk.view import AttractCard, KioskView, OptionTapped, Screen, ScreenTapped
from companion.setup_box.datasets import DataSetError, DataSets
from companion.setup_box.runner import WizardSession
from companion.setup_box.screen import LeaveTapped
from companion.table.base import GameTable, LedSink
from companion.table.messages import LANGUAGES, Catalogue, next_language
from companion.table.tags import AdminTag, TagDirectory

log = logging.getLogger(__name__)

KioskIntent = Intent | OptionTapped | ScreenTapped | LeaveTapped

# The admin menu's items; each is labelled ``admin.<item>`` in the kiosk's catalogue, and the ones
# that cannot be taken back ask ``admin.confirm_<item>`` first.
ADMIN_CLOSE, ADMIN_END, ADMIN_CLEAR, ADMIN_TEST, ADMIN_LEAVE = "close", "end_game", "clear", "test", "leave"
ADMIN_DIGITISE, ADMIN_LEAVE_WIZARD = "digitise", "leave_wizard"
ADMIN_LANGUAGE = "language"


class ResultPublisher(Protocol):
    """The event leaderboard's side of a box (``companion.leaderboard.Publisher``): never blocks, never raises."""

    def publish_progress(self, game_id: int, game: Any, progress: Any, standings: Any) -> None: ...
    def publish_result(self, game_id: int, game: Any, standings: Any, finished_at: float | None = None) -> None: ...
    def publish_idle(self) -> None: ...


@dataclass(frozen=True)
class PlayingTable:
    """The game being played: its table controller and the game's screen that draws it."""

    controller: GameTable
    screen: GameScreen
    plugin: GamePlugin


@dataclass(frozen=True)
class KioskSettings:
    game: str = games.DEFAULT_GAME  # preselected at set-up; ``board``/``contracts``/``events`` are its files
    games: tuple[str, ...] = ()  # the games offered (registry names); empty: every registered game
    colours: tuple[str, ...] | None = None  # None: the game's own (its plug-in says)
    player_counts: tuple[int, ...] | None = None
    lengths: tuple[int | None, ...] | None = None  # None: the game's; in it None is the full game, else --end-at
    pin: str | None = None  # None: a random PIN nobody knows (`companion kiosk` passes the box's PIN, admin.py)
    admin_state_file: str | None = None  # the lock-out survives a power cycle (admin.py)
    admin_requires_card: bool = False  # PIN + card: a UID can be cloned, so the card alone does not open
    bot_level: str = "medium"  # the level of a seat the box plays (chosen at set-up)
    state_dir: str | None = None  # the box's state: digitised data sets and the set-up wizard (None: neither)
    data_set: str | None = None  # the data set to play (None: the last one digitised, else the reference)
    pin_attempts: int = 3
    pin_lockout_s: float = 300.0
    admin_uids: frozenset[str] = frozenset()  # admin cards besides the AdminTags of the directory
    ranking_s: float = 90.0  # how long the ranking stays after a game
    admin_idle_s: float = 60.0  # the admin menu locks itself again
    setup_idle_s: float = 120.0  # an abandoned set-up goes back to attract
    abandon_s: float = 15 * 60.0  # a game nobody touches for this long is ended (kept in the records)
    abandon_warning_s: float = 60.0  # the last seconds of that are counted down on the screen
    notice_s: float = 8.0
    how_to_s: float = 6.0  # each page of the attract screen's how-to loop
    replay_step_s: float = 1.2  # the attract screen's sample game: one action this often (0: no replay)
    hardware_log: int = 8  # intents echoed on the hardware test screen
    board: str | None = None  # data files (None: the reference)
    contracts: str | None = None
    events: str | None = None
    rules: dict[str, str] = field(default_factory=dict)
    language: str = "en"  # the admin default: the attract screen's language, preselected for each game
    warnings: tuple[str, ...] = ()  # settings that were bad and replaced by defaults (kiosk.settings): admin screen


def how_to(plugin: GamePlugin, language: str = "en") -> tuple[str, ...]:
    """The attract screen's "how to play with the companion" pages: the game's ``[kiosk] how_to_N`` texts."""
    pages = plugin.messages(language).get("kiosk", {}) or plugin.messages("en").get("kiosk", {})
    return tuple(pages[k] for k in sorted(pages, key=lambda k: int(k.rpartition("_")[2])) if k.startswith("how_to_"))


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
        publisher: ResultPublisher | None = None,
    ) -> None:
        self.store = store
        self.publisher = publisher  # the event's leaderboard (companion.leaderboard.Publisher), if any
        self._published = -1  # commands of the game already published
        self.tags = tags
        self.settings = s = settings or KioskSettings()
        self.leds = leds
        self._wall_time = wall_time
        self.lock = AdminLock(
            s.pin or generate_pin(), s.pin_attempts, s.pin_lockout_s,
            state_file=s.admin_state_file, require_card=s.admin_requires_card,
        )  # fmt: skip
        self._t = kiosk_texts(s.language)  # refuses a language without a catalogue
        self._default_language = s.language
        self.screen = Screen.ATTRACT
        self.exit_requested = False
        self.game: JournaledGame | None = None
        self.playing: PlayingTable | None = None
        self._offered = s.games or games.names()
        self._game_name = s.game if s.game in self._offered else self._offered[0]
        self._last_input = self._now = now
        self._notice = ""
        self._notice_until = 0.0
        self._index = 0  # the selected option of the current screen
        self._players = self._player_counts()[0]
        self._colours: list[str] = []
        self._bots: dict[str, str] = {}  # seats the box plays (colour -> level), chosen at set-up
        self._length: int | None = self._lengths()[0]
        self._pin: PinEntry | None = None
        self._return_to = Screen.ATTRACT  # where the admin menu / PIN entry go back to
        self._confirm = ""
        self._ranking: list[dict[str, object]] = []
        self._ranked: GamePlugin = games.get(self._game_name)  # the game the ranking belongs to
        self._stats: GameStats | None = None
        self._ranking_until = 0.0
        self._hardware: list[str] = []
        self._offer: tuple[int, str, int | None, str] | None = None  # game id, started hh:mm, round, title
        self._leaderboard: list[tuple[GamePlugin, list[ScoreEntry]]] = []
        self._how_to = 0  # the how-to page shown on the attract screen
        self._how_to_until = now + s.how_to_s
        self._replay: Replay | None = None
        self._wizard: WizardSession | None = None  # the set-up wizard, while the admin digitises a box
        self._replay_next = now
        self._load_leaderboard()
        if store.report is not None:
            self._say(str(store.report), now, sticky=True)
        self._offer_resume(now)

    # -- the loop's entry points -------------------------------------------------------------
    def handle(self, intent: KioskIntent, now: float) -> None:
        self._last_input = self._now = now
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
            case Screen.SETUP_BOX:
                self._digitise(intent, now)
            case Screen.HARDWARE_TEST:
                self._hardware_test(intent)
            case Screen.ATTRACT if isinstance(intent, ScreenTapped):
                self._ok(now)  # a touch anywhere on the attract screen starts a game
            case _:
                if isinstance(intent, ButtonPressed | OptionTapped):
                    self._menu_input(intent, now)

    def tick(self, now: float) -> None:
        self._now = now
        if self._notice and now >= self._notice_until:
            self._notice = ""
        idle = now - self._last_input
        match self.screen:
            case Screen.PLAYING:
                assert self.playing is not None
                self.playing.controller.tick(now)
                self._check_over(now)
                if self.screen is Screen.PLAYING and idle >= self.settings.abandon_s:
                    self._abandon(now)
            case Screen.RANKING if now >= self._ranking_until:
                self._set_language(self._default_language)
                self._go(Screen.ATTRACT)
            case Screen.ATTRACT:
                if now >= self._how_to_until:
                    self._how_to = (self._how_to + 1) % max(1, len(self._how_to_pages()))
                    self._how_to_until = now + self.settings.how_to_s
                if self.settings.replay_step_s > 0 and now >= self._replay_next:
                    self._step_replay(now)
            case Screen.PIN_ENTRY | Screen.ADMIN | Screen.ADMIN_CONFIRM | Screen.HARDWARE_TEST:
                if idle >= self.settings.admin_idle_s:
                    self._close_admin()  # locked again
            case (
                Screen.SETUP_GAME
                | Screen.SETUP_PLAYERS
                | Screen.SETUP_COLOURS
                | Screen.SETUP_LENGTH
                | Screen.SETUP_CONFIRM
            ):
                if idle >= self.settings.setup_idle_s:
                    self._set_language(self._default_language)
                    self._go(Screen.ATTRACT)
            case _:
                pass

    def next_deadline(self, now: float) -> float | None:
        """When ``tick`` next has something to do, so an idle loop can sleep (None: only on input)."""
        s = self.settings
        deadlines: list[float] = []
        if self._notice:
            deadlines.append(self._notice_until)
        if self.screen is Screen.PLAYING and self.playing is not None:
            d = self.playing.controller.next_deadline()
            if d is not None:
                deadlines.append(d)
            warn_at = self._last_input + s.abandon_s - s.abandon_warning_s
            # Before the warning: wake once when it starts; during it: once a second for the countdown.
            deadlines.append(warn_at if now < warn_at else min(now + 1.0, self._last_input + s.abandon_s))
        elif self.screen is Screen.RANKING:
            deadlines.append(self._ranking_until)
        elif self.screen is Screen.ATTRACT:
            deadlines.append(self._how_to_until)
            if s.replay_step_s > 0:
                deadlines.append(self._replay_next)
        elif self.screen in (Screen.PIN_ENTRY, Screen.ADMIN, Screen.ADMIN_CONFIRM, Screen.HARDWARE_TEST):
            deadlines.append(self._last_input + s.admin_idle_s)
        elif self.screen.name.startswith("SETUP"):
            deadlines.append(self._last_input + s.setup_idle_s)
        return min(deadlines, default=None)

    def close(self) -> None:
        """Stop: the journal is closed (every accepted command is already committed); the leaderboard
        publisher hands what it could not deliver yet to its outbox for the next start."""
        self.store.close()
        if self.publisher is not None:
            close = getattr(self.publisher, "close", None)
            if callable(close):
                try:
                    close()
                except Exception:
                    log.exception("the leaderboard publisher did not close cleanly")

    # -- resume --------------------------------------------------------------------------------
    def _offer_resume(self, now: float) -> None:
        try:
            record = self.store.unfinished()
        except JournalError as exc:
            log.error("cannot read the journal: %s", exc)
            self._say(self._t.text("notice.journal_unreadable", error=exc), now)
            return
        if record is None:
            return
        round_ = record.progress.get("round")
        try:
            title = games.get(record.setup.game).title
        except games.UnknownGame:
            title = record.setup.game
        started = self._wall_time(record.started_at)
        self._offer = (record.id, started, round_ if isinstance(round_, int) else None, title)
        self._go(Screen.RESUME_OFFER)

    def _resume(self, now: float) -> None:
        assert self._offer is not None
        game_id = self._offer[0]
        self._offer = None
        try:
            game = JournaledGame.resume(self.store, game_id)
        except ResumeError as exc:
            self._say(self._t.text("notice.cannot_resume", error=exc), now)
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
        own = self._game_name == s.game  # the data files and house rules of the settings are that game's
        try:
            files = self._data_files(own)
            setup = GameSetup(
                self._game_name,
                tuple(self._colours),
                board=files["board"],
                contracts=files["contracts"],
                events=files["events"],
                end_at=self._length,
                rules=dict(s.rules) if own else {},
                bots=dict(self._bots),
            )
            game = JournaledGame.start(self.store, setup)
        except (DataError, ValueError, JournalError, DataSetError) as exc:
            log.error("cannot start a game: %s", exc)
            self._say(self._t.text("notice.cannot_start", error=exc), now)
            self._go(Screen.ATTRACT)
            return
        self._begin(game)

    def _data_files(self, own: bool) -> dict[str, str | None]:
        """The files of the game to start: the settings' own files for their game, else the data set
        chosen (``data_set``: by name; by default the box digitised last), else the reference data."""
        s = self.settings
        if own and (s.board or s.contracts or s.events):
            return {"board": s.board, "contracts": s.contracts, "events": s.events}
        if s.state_dir is None:
            return {"board": None, "contracts": None, "events": None}
        chosen = DataSets(s.state_dir).choose(self._game_name, s.data_set if own else None)
        return chosen.setup_files()

    def _publish(self) -> None:
        """The leaderboard hears the game's state after every change (state, not edges: a lost message
        costs nothing, the next one carries everything). A publisher never raises into the kiosk."""
        if self.publisher is None or self.game is None or self.playing is None:
            return
        if len(self.game.log) == self._published:
            return
        self._published = len(self.game.log)
        plugin, state = self.playing.plugin, self.game.state
        try:
            self.publisher.publish_progress(self.game.game_id, plugin, plugin.progress(state), plugin.standings(state))
        except Exception:
            log.exception("the leaderboard publisher failed")

    def _put_away(self) -> None:
        """The table leaves the screen: what it runs beside the loop (an advice search) stops."""
        if self.playing is not None:
            self.playing.controller.close()
        self.playing = None

    def _begin(self, game: JournaledGame) -> None:
        plugin = game.plugin
        self.game = game
        # The seats the box plays, if any; a resumed game's recent states are their memory of the turn.
        bot = bot_player(plugin, game.setup.bots, seed=game.game_id, game=game)
        controller = plugin.table(game, self.tags, leds=self.leds, language=self.language, bot=bot)
        self._put_away()
        self.playing = PlayingTable(controller, plugin.screen(), plugin)
        self._published = -1
        self._go(Screen.PLAYING)
        self._publish()

    @property
    def controller(self) -> Any:
        """The table controller of the game being played (None between games)."""
        return None if self.playing is None else self.playing.controller

    @property
    def plugin(self) -> GamePlugin:
        """The game chosen at set-up (or being played)."""
        return self.playing.plugin if self.playing is not None else games.get(self._game_name)

    def _player_counts(self) -> tuple[int, ...]:
        return self.settings.player_counts or self.plugin.player_counts

    def _lengths(self) -> tuple[int | None, ...]:
        return self.settings.lengths or self.plugin.lengths

    def _game_colours(self) -> tuple[str, ...]:
        return self.settings.colours or self.plugin.colours

    def _shown_game(self) -> GamePlugin:
        """The game the attract screen is about: the one its replay shows, else the preselected one."""
        return self._replay.plugin if self._replay is not None else games.get(self._game_name)

    def _how_to_pages(self) -> tuple[str, ...]:
        return how_to(self._shown_game(), self.language)

    def _how_to_line(self) -> str:
        pages = self._how_to_pages()
        return self._t.text("attract.how_to", page=pages[self._how_to % len(pages)]) if pages else ""

    # -- playing ---------------------------------------------------------------------------------
    def _play(self, intent: KioskIntent, now: float) -> None:
        assert self.playing is not None
        if isinstance(intent, OptionTapped | ScreenTapped | LeaveTapped):
            return  # the table has its own touch targets (CityTapped, on-screen buttons)
        try:
            self.playing.controller.handle(intent, now)
        except IllegalAction as exc:  # BACK's undo could not be recorded: the game is unchanged
            self._say(exc.message, now)
        self._check_over(now)

    def _check_over(self, now: float) -> None:
        self._publish()
        if self.game is not None and self.game.finished:
            self._show_ranking(standings(self.game), now)

    def _step_replay(self, now: float) -> None:
        """The attract screen's sample game moves on; the board's LEDs follow it calmly."""
        if self._replay is None:
            self._replay = Replay(self._offered, language=self._t.language)
        before = self._replay.plugin
        scene = self._replay.step()
        if self._replay.plugin is not before:  # the next game's turn: its how-to pages from the first
            self._how_to = 0
            self._how_to_until = now + self.settings.how_to_s
        self._replay_next = now + self.settings.replay_step_s
        if scene is not None and self.leds is not None:
            try:
                self.leds.show(scene.leds, now)
            except Exception:  # LEDs are decoration here: never let them stop the attract screen
                log.exception("the LEDs refused the attract frame")

    def _digitise(self, intent: KioskIntent, now: float) -> None:
        """The set-up wizard has the table: markers, cards and buttons enter the owner's printed box."""
        wizard = self._wizard
        assert wizard is not None
        if isinstance(intent, LeaveTapped):  # the wizard's own way out, on its screen
            self._admin_choose(ADMIN_LEAVE_WIZARD, now)
            return
        if isinstance(intent, OptionTapped | ScreenTapped):
            return
        try:
            state = wizard.handle(intent)
        except Exception as exc:  # the progress on disk is intact (saved per intent): say so, stay
            log.exception("the set-up wizard failed on %r", intent)
            self._say(str(exc), now)
            return
        self._show_wizard_leds(now)
        if wizard.saved is not None and state.step.value == "done":
            self._wizard = None
            self._return_to = Screen.ATTRACT
            self._go(Screen.ATTRACT)
            self._say(self._t.text("notice.data_set_saved", name=wizard.saved.name), now)

    def _show_wizard_leds(self, now: float) -> None:
        if self._wizard is not None and self.leds is not None:
            try:
                self.leds.show(self._wizard.leds(), now)
            except Exception:
                log.exception("the LEDs refused the wizard's frame")

    def _abandon(self, now: float) -> None:
        """Nobody played for ``abandon_s``: the game ends, is kept in the records (status ``ended``) with
        the standings so far, and the ranking shows them before the attract screen returns."""
        assert self.game is not None
        try:
            self.game.end_early()
        except JournalError as exc:  # the game stays recorded as playing: it is offered again at start
            log.error("cannot end the abandoned game %s: %s", self.game.game_id, exc)
        log.info("game %s abandoned after %.0f s without input", self.game.game_id, self.settings.abandon_s)
        self._show_ranking(standings(self.game), now)
        self._say(self._t.text("notice.abandoned"), now)

    def _abandon_countdown(self, now: float) -> str:
        left = self._last_input + self.settings.abandon_s - now
        if self.screen is not Screen.PLAYING or left > self.settings.abandon_warning_s:
            return ""
        return self._t.text("notice.countdown", seconds=max(0, math.ceil(left)))

    def _show_ranking(self, ranking: list[dict[str, object]], now: float) -> None:
        if self.playing is not None:  # the ranking speaks the table's language (its MENU may have switched it)
            self._set_language(getattr(self.playing.controller, "language", self.language))
        self._ranking = ranking
        self._ranking_until = now + self.settings.ranking_s
        self._ranked = self.plugin
        self._stats = None
        if self.game is not None and self.publisher is not None:
            try:
                self.publisher.publish_result(self.game.game_id, self.plugin, ranking, time.time())
            except Exception:
                log.exception("the leaderboard publisher failed")
        if self.game is not None:
            try:
                self._stats = stats_of_game(self.plugin, self.game)
            except Exception:  # the figures are a picture: never let them stop the ranking
                log.exception("cannot compute the statistics of game %s", self.game.game_id)
        self.game = None
        self._put_away()
        self._go(Screen.RANKING)

    # -- admin -----------------------------------------------------------------------------------
    def _admin_card(self, intent: KioskIntent) -> bool:
        if not isinstance(intent, CardScanned):
            return False
        return intent.uid in self.settings.admin_uids or isinstance(self.tags.lookup(intent.uid), AdminTag)

    def _start_pin(self, now: float) -> None:
        if self.lock.locked_out(now):
            assert self.lock.locked_until is not None
            self._say(self._t.text("notice.locked_out", seconds=int(self.lock.locked_until - now) + 1), now)
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
                    self._say(self._t.text("notice.wrong_pin"), now)

    def _open_admin(self, keep_return: bool = False) -> None:
        if not keep_return and self.screen is not Screen.PIN_ENTRY:
            self._return_to = self.screen
        self._pin = None
        self._go(Screen.ADMIN)

    def _admin_items(self) -> tuple[str, ...]:
        playing = self._return_to is Screen.PLAYING and self.game is not None
        digitising = self._return_to is Screen.SETUP_BOX and self._wizard is not None
        shown = {
            ADMIN_END: playing,
            ADMIN_DIGITISE: self.settings.state_dir is not None and not playing and not digitising,
            ADMIN_LEAVE_WIZARD: digitising,
        }
        items = (ADMIN_CLOSE, ADMIN_END, ADMIN_LEAVE_WIZARD, ADMIN_DIGITISE, ADMIN_CLEAR, ADMIN_TEST, ADMIN_LANGUAGE,
                 ADMIN_LEAVE)  # fmt: skip
        return tuple(item for item in items if shown.get(item, True))

    def _admin_choose(self, item: str, now: float) -> None:
        if item == ADMIN_CLOSE:
            self._close_admin()
        elif item == ADMIN_DIGITISE:  # the set-up wizard of the kiosk's game; it resumes where it was left
            assert self.settings.state_dir is not None
            self._wizard = WizardSession(self.settings.state_dir, self._game_name)
            self._pin = None
            self._return_to = Screen.SETUP_BOX
            self._go(Screen.SETUP_BOX)
            self._show_wizard_leds(now)
        elif item == ADMIN_LEAVE_WIZARD:
            self._wizard = None
            self._return_to = Screen.ATTRACT
            self._go(Screen.ATTRACT)
            self._say(self._t.text("notice.wizard_kept"), now)
        elif item == ADMIN_TEST:
            self._hardware = []
            self._go(Screen.HARDWARE_TEST)
        elif item == ADMIN_LANGUAGE:  # the default switches at once; a game being played keeps its own
            self._default_language = next_language(self._default_language)
            if self.playing is None:
                self._set_language(self._default_language)
            self._go(Screen.ADMIN, keep_index=True)
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
                self._say(self._t.text("notice.clear_failed", error=exc), now)
            else:
                self._say(self._t.text("notice.cleared", n=deleted), now)
            self._go(Screen.ADMIN, keep_index=True)
        elif item == ADMIN_END and self.game is not None:
            try:
                self.game.end_early()
            except JournalError as exc:
                self._say(self._t.text("notice.end_failed", error=exc), now)
                self._go(Screen.ADMIN)
                return
            self._show_ranking(standings(self.game), now)

    def _close_admin(self) -> None:
        self._pin = None
        target = self._return_to
        if target is Screen.PLAYING and self.playing is None:
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
            if button in (ButtonName.PLUS, ButtonName.MINUS):
                step = 1 if button is ButtonName.PLUS else -1
                self._set_language(next_language(self.language, step))
            elif button is not ButtonName.BACK:
                self._ok(now)  # any other button starts a new game
            return
        if button in (ButtonName.PLUS, ButtonName.MINUS) and options:
            self._index = (self._index + (1 if button is ButtonName.PLUS else -1)) % len(options)
        elif button is ButtonName.OK:
            self._ok(now)
        elif button is ButtonName.BACK:
            self._back(now)

    def _ok(self, now: float) -> None:
        match self.screen:
            case Screen.ATTRACT:
                self._colours = []
                self._bots = {}
                if len(self._offered) > 1:
                    self._go(Screen.SETUP_GAME, index=self._offered.index(self._game_name))
                else:
                    self._choose_game(self._game_name)
            case Screen.SETUP_GAME:
                self._choose_game(self._offered[self._index])
            case Screen.RESUME_OFFER:
                self._resume(now)
            case Screen.SETUP_PLAYERS:
                self._players = self._player_counts()[self._index]
                self._colours = []
                self._bots = {}
                self._go(Screen.SETUP_COLOURS)
            case Screen.SETUP_COLOURS:
                free = self._free_colours()
                colour = free[self._index % len(free)]
                if self._index >= len(free):  # the second half of the list: the box plays this seat
                    self._bots[colour] = self._bot_level()
                self._colours.append(colour)
                if len(self._colours) >= self._players:
                    self._after_colours()
                else:
                    self._go(Screen.SETUP_COLOURS)
            case Screen.SETUP_LENGTH:
                self._length = self._lengths()[self._index]
                self._go(Screen.SETUP_CONFIRM)
            case Screen.SETUP_CONFIRM:
                self._start_game(now)
            case Screen.RANKING:
                self._set_language(self._default_language)
                self._go(Screen.ATTRACT)
            case Screen.ADMIN:
                self._admin_choose(self._admin_items()[self._index], now)
            case Screen.ADMIN_CONFIRM:
                self._admin_confirmed(now)
            case _:
                pass

    def _choose_game(self, name: str) -> None:
        self._game_name = name
        counts, lengths = self._player_counts(), self._lengths()
        if self._players not in counts:
            self._players = counts[0]
        if self._length not in lengths:
            self._length = lengths[0]
        self._go(Screen.SETUP_PLAYERS, index=counts.index(self._players))

    def _after_colours(self) -> None:
        lengths = self._lengths()
        if len(lengths) > 1:
            self._go(Screen.SETUP_LENGTH, index=lengths.index(self._length))
        else:  # the game has one length only: nothing to ask
            self._length = lengths[0]
            self._go(Screen.SETUP_CONFIRM)

    def _back(self, now: float) -> None:
        match self.screen:
            case Screen.RESUME_OFFER:
                self._decline_resume(now)
            case Screen.SETUP_GAME:
                self._go(Screen.ATTRACT)
            case Screen.SETUP_PLAYERS:
                if len(self._offered) > 1:
                    self._go(Screen.SETUP_GAME, index=self._offered.index(self._game_name))
                else:
                    self._go(Screen.ATTRACT)
            case Screen.SETUP_COLOURS:
                if self._colours:
                    self._bots.pop(self._colours.pop(), None)
                    self._go(Screen.SETUP_COLOURS)
                else:
                    self._go(Screen.SETUP_PLAYERS, index=self._player_counts().index(self._players))
            case Screen.SETUP_LENGTH:
                self._bots.pop(self._colours.pop(), None)
                self._go(Screen.SETUP_COLOURS)
            case Screen.SETUP_CONFIRM:
                if len(self._lengths()) > 1:
                    self._go(Screen.SETUP_LENGTH, index=self._lengths().index(self._length))
                else:
                    self._bots.pop(self._colours.pop(), None)
                    self._go(Screen.SETUP_COLOURS)
            case Screen.RANKING:
                self._set_language(self._default_language)
                self._go(Screen.ATTRACT)
            case Screen.ADMIN:
                self._close_admin()
            case Screen.ADMIN_CONFIRM:
                self._go(Screen.ADMIN, keep_index=True)
            case _:
                pass

    def _colour_name(self, colour: str) -> str:
        """A colour as the set-up lists it, capitalised as a name ("Red", "Červená")."""
        label = self._t.colour(colour)
        return label[:1].upper() + label[1:]

    def _seat_label(self, colour: str) -> str:
        if colour in self._bots:
            return self._t.text("setup.bot_seat", colour=self._colour_name(colour))
        return self._colour_name(colour)

    def _bot_level(self) -> str:
        """The admin's bot level if this game's bots have it; else the game's nearest lower one (Auf Achse
        has no hard bot), else its lowest."""
        levels = self.plugin.bot_levels
        wanted = self.settings.bot_level
        if wanted in levels:
            return wanted
        order = ("easy", "medium", "hard")
        rank = order.index(wanted) if wanted in order else len(order)
        lower = [level for level in levels if level in order and order.index(level) < rank]
        return lower[-1] if lower else levels[0]

    def _has_person(self) -> bool:
        return any(c not in self._bots for c in self._colours)

    def _free_colours(self) -> list[str]:
        return [c for c in self._game_colours() if c not in self._colours]

    def _go(self, screen: Screen, index: int = 0, keep_index: bool = False) -> None:
        if screen is Screen.ATTRACT:
            self._load_leaderboard()
        self.screen = screen
        if not keep_index:
            self._index = index

    def _load_leaderboard(self) -> None:
        """Read once per visit of the attract screen (the loop asks for the view many times a second)."""
        try:
            self._leaderboard = [(g, self.store.leaderboard(game=g.name)) for g in map(games.get, self._offered)]
        except JournalError as exc:
            log.error("cannot read the leaderboard: %s", exc)
            self._leaderboard = []

    @property
    def language(self) -> str:
        """The language of the kiosk's screens now, and of the next game's table."""
        return self._t.language

    def _set_language(self, language: str) -> None:
        if language not in LANGUAGES or language == self.language:
            return
        self._t = kiosk_texts(language)
        if self._replay is not None:  # the replay goes on, in the new language
            self._replay.set_language(language, caption="")

    def _say(self, text: str, now: float, sticky: bool = False) -> None:
        self._notice = text
        self._notice_until = now + (self.settings.notice_s * (6 if sticky else 1))

    # -- the view model ----------------------------------------------------------------------------
    def _options(self) -> tuple[str, ...]:
        match self.screen:
            case Screen.RESUME_OFFER:
                return (self._t.text("resume.resume"), self._t.text("resume.new_game"))
            case Screen.SETUP_GAME:
                return tuple(games.get(name).title for name in self._offered)
            case Screen.SETUP_PLAYERS:
                return tuple(self._t.text("setup.players_option", n=n) for n in self._player_counts())
            case Screen.SETUP_COLOURS:
                free = self._free_colours()
                people = tuple(map(self._colour_name, free))
                if not self.plugin.bot_levels or (len(self._bots) + 1 >= self._players and not self._has_person()):
                    return people  # at least one seat is a person's
                return people + tuple(self._t.text("setup.bot_seat", colour=self._colour_name(c)) for c in free)
            case Screen.SETUP_LENGTH:
                return tuple(self._length_label(n) for n in self._lengths())
            case Screen.ADMIN:
                return tuple(self._admin_label(i) for i in self._admin_items())
            case _:
                return ()

    def _attract_card(self) -> AttractCard:
        """The band under the replay: the call to play, the game shown and its best today, the language."""
        t = self._t
        language = t.language
        shown = self._shown_game()
        best = next((entries for game, entries in self._leaderboard if game.name == shown.name), [])
        entries = [
            t.text(
                "attract.best_entry",
                place=i,
                colour=t.player_name(e.colour),
                score=score_text(shown, e.score, language),
            )
            for i, e in enumerate(best[:3], 1)
        ]
        # the line with the top three, two, one: the screen shows the longest that fits
        today = tuple(t.text("attract.best_today", entries=" · ".join(entries[:n])) for n in range(len(entries), 0, -1))
        tutorial = self._replay is not None and self._replay.scene is not None and self._replay.scene.tutorial
        return AttractCard(
            call=t.text("attract.call"),
            game=shown.title,
            best=today or (t.text("attract.no_best"),),
            language=t.text("attract.language", language=t.text("language.name")),
            how_to="" if tutorial else self._how_to_line(),
        )

    def _admin_label(self, item: str) -> str:
        if item == ADMIN_LANGUAGE:  # the default's name in the menu's language, and in its own if that differs
            default = self._default_language
            name = self._t.text(f"languages.{default}")
            own = kiosk_texts(default).text("language.name")
            return self._t.text("admin.language", language=name if default == self.language else f"{name} ({own})")
        return self._t.text(f"admin.{item}")

    def _length_label(self, end_at: int | None) -> str:
        t = self._t
        return t.text("setup.full_game") if end_at is None else t.text("setup.short_game", end=end_at)

    @property
    def view(self) -> KioskView:
        s, t = self.settings, self._t
        options = self._options()
        base = KioskView(
            self.screen,
            "",
            options=options,
            selected=self._index if options else None,
            notice=self._abandon_countdown(self._now) or self._notice,
            language=self._t.language,
        )
        match self.screen:
            case Screen.ATTRACT:
                plugin = games.get(self._game_name)
                pages = self._how_to_pages()
                lines = [t.text("attract.start")]
                if pages:
                    lines.append(t.text("attract.how_to", page=pages[self._how_to % len(pages)]))
                for game, best in self._leaderboard:
                    if best:
                        lines.append(t.text("attract.best_of", game=game.title) if len(self._offered) > 1
                                     else t.text("attract.best"))  # fmt: skip
                        lines += [t.text("attract.best_line", place=i, colour=t.player_name(e.colour),
                                         score=score_text(game, e.score, t.language), game=e.game_id)
                                  for i, e in enumerate(best, 1)]  # fmt: skip
                lines.append(t.text("attract.language", language=t.text("language.name")))
                title = (
                    " · ".join(games.get(n).title for n in self._offered) if len(self._offered) > 1 else plugin.title
                )
                scene = None if self._replay is None else self._replay.scene
                return replace(base, title=title, lines=tuple(lines), hint=t.text("attract.hint"), scene=scene,
                               attract=self._attract_card())  # fmt: skip
            case Screen.SETUP_GAME:
                return replace(base, title=t.text("setup.game"), hint=t.text("setup.hint_choose"))
            case Screen.RESUME_OFFER:
                assert self._offer is not None
                _, started, round_, game_title = self._offer
                return replace(
                    base,
                    title=t.text("resume.title", started=started),
                    lines=(game_title,) if round_ is None else (game_title, t.text("resume.round", round=round_)),
                    hint=t.text("resume.hint"),
                    selected=0,
                    options=self._options(),
                )
            case Screen.SETUP_PLAYERS:
                return replace(base, title=t.text("setup.players"), hint=t.text("setup.hint_choose"))
            case Screen.SETUP_COLOURS:
                seat = len(self._colours) + 1
                chosen = " · ".join(  # one line (wrapped when long): six seats leave room for the colours
                    t.text("setup.colour_chosen", seat=i, colour=self._seat_label(c))
                    for i, c in enumerate(self._colours, 1)
                )
                return replace(
                    base,
                    title=t.text("setup.colour", seat=seat, players=self._players),
                    lines=(chosen,) if chosen else (),
                    hint=t.text("setup.hint_colour"),
                )
            case Screen.SETUP_LENGTH:
                return replace(base, title=t.text("setup.length"), hint=t.text("setup.hint_length"))
            case Screen.SETUP_CONFIRM:
                return replace(
                    base,
                    title=t.text("setup.confirm"),
                    lines=(
                        games.get(self._game_name).title,
                        t.text("setup.confirm_players", players=", ".join(map(self._seat_label, self._colours))),
                        self._length_label(self._length),
                    ),
                    hint=t.text("setup.hint_confirm"),
                )
            case Screen.PLAYING:
                assert self.playing is not None
                return replace(base, title="", table=self.playing.controller.ui)
            case Screen.RANKING:
                game = self._ranked
                ranked = tuple(
                    t.text("ranking.line", place=r["place"], colour=t.player_name(str(r["colour"])),
                           score=score_text(game, int(str(r["score"])), t.language))
                    if game.score_label == game.currency
                    else t.text("ranking.line_money", place=r["place"], colour=t.player_name(str(r["colour"])),
                                score=score_text(game, int(str(r["score"])), t.language),
                                money=game.money(int(str(r.get("money", 0)))))
                    for r in self._ranking
                )  # fmt: skip
                return replace(base, title=t.text("ranking.title", game=game.title), lines=ranked,
                               hint=t.text("ranking.hint"), stats=self._stats)  # fmt: skip
            case Screen.PIN_ENTRY:
                assert self._pin is not None
                return replace(
                    base,
                    title=t.text("admin.pin"),
                    lines=(self._pin.masked(),),
                    hint=t.text("admin.pin_hint"),
                )
            case Screen.ADMIN:
                return replace(base, title=t.text("admin.title"), lines=s.warnings, hint=t.text("admin.hint"))
            case Screen.ADMIN_CONFIRM:
                detail = t.get(f"admin.confirm_{self._confirm}_detail")  # what it does, under the question
                return replace(base, title=t.text(f"admin.confirm_{self._confirm}"), lines=(detail,) if detail else (),
                               hint=t.text("admin.confirm_hint"))  # fmt: skip
            case Screen.HARDWARE_TEST:
                return replace(
                    base,
                    title=t.text("admin.test"),
                    lines=tuple(self._hardware) or (t.text("admin.test_empty"),),
                    hint=t.text("admin.test_hint"),
                    led_test=True,
                )
            case Screen.SETUP_BOX:
                wizard = self._wizard
                return replace(base, title=t.text("admin.digitise"), wizard=None if wizard is None else wizard.state)
        return replace(base, title=s.game)


def score_text(game: GamePlugin, score: int, language: str) -> str:
    """A score as the game counts it, in ``language``: "7 VP", "7 VB"; money as money: "5 000 DM"."""
    return game.money(score) if game.score_label == game.currency else f"{score} {score_unit(game, language)}"


def score_unit(game: GamePlugin, language: str) -> str:
    """The game's score unit in ``language``: its catalogue's ``screen.score_unit`` ("VB"), or the
    plug-in's ``score_label`` as it is for a game whose catalogue has none (``score_label`` itself is
    what the leaderboard's messages carry, unchanged)."""
    package = getattr(game, "package", None)
    unit = Catalogue(language, package).get("screen.score_unit") if package else None
    return unit or game.score_label
