"""The kiosk's one loop: intents in, the state machine, the screen out; systemd's watchdog; clean stop.

Hardware callbacks (buttons, RFID readers, the card reader) only ``put`` intents on ``intents``;
the frontend (the display integration: pygame-ce, touch, keyboard) is polled without blocking. Each
iteration: take intents → ``Kiosk.handle`` → ``Kiosk.tick`` → render if the view changed →
``WATCHDOG=1`` if due → sleep until the next deadline (at most ``max_sleep``), so an idle box
uses next to no CPU. SIGTERM (``systemctl stop``) ends the loop (SIGINT too, outside systemd): ``STOPPING=1``, LEDs
off, journal closed — every accepted command is already committed, so there is nothing to save.
"""

from __future__ import annotations

import json
import logging
import queue
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Protocol

from companion.journal.paths import write_atomically
from companion.kiosk.machine import Kiosk, KioskIntent, PlayingTable
from companion.kiosk.notify import SystemdNotifier, Watchdog
from companion.kiosk.view import KioskView
from companion.ledframe import LedFrame

log = logging.getLogger(__name__)


class Frontend(Protocol):
    """The screen and its own inputs (touch, keyboard in the simulator)."""

    closed: bool  # a window the user closed: the loop ends (the box's full screen never is)

    def render(self, view: KioskView, playing: PlayingTable | None) -> None: ...
    def poll(self) -> list[KioskIntent]: ...  # never blocks


class KioskLeds(Protocol):
    def show(self, frame: LedFrame, now: float) -> None: ...
    def off(self) -> None: ...


class KioskLoop:
    def __init__(
        self,
        kiosk: Kiosk,
        frontend: Frontend,
        *,
        intents: queue.Queue[KioskIntent] | None = None,
        leds: KioskLeds | None = None,
        notifier: SystemdNotifier | None = None,
        watchdog: Watchdog | None = None,
        clock: Callable[[], float] = time.monotonic,
        max_sleep: float = 0.05,
        on_stable: Callable[[], None] | None = None,
        stable_after: float = 60.0,
    ) -> None:
        self.kiosk = kiosk
        self.frontend = frontend
        self.intents: queue.Queue[KioskIntent] = intents if intents is not None else queue.Queue()
        self.leds = leds
        self.notifier = notifier or SystemdNotifier()
        self.watchdog = watchdog or Watchdog(self.notifier)
        self.clock = clock
        self.max_sleep = max_sleep
        self._stop = False
        self._shut = False
        self._last_view: KioskView | None = None
        self._last_state: object = None
        # Called once the loop has run ``stable_after`` seconds, or ends normally: the start worked
        # (``StartGuard.succeeded``), so a later crash does not count towards safe mode.
        self._on_stable = on_stable
        self.stable_after = stable_after
        self._started_at: float | None = None

    def request_stop(self, signum: int | None = None, frame: FrameType | None = None) -> None:
        """Signal-safe: the loop ends after the current iteration."""
        self._stop = True

    def install_signal_handlers(self) -> None:
        """SIGTERM stops cleanly. Under systemd the console keys must not end the kiosk: a keyboard on
        tty1 could send SIGINT (Ctrl+C) or SIGTSTP (Ctrl+Z), so both are ignored there."""
        signal.signal(signal.SIGTERM, self.request_stop)
        if self.notifier.enabled:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            signal.signal(signal.SIGTSTP, signal.SIG_IGN)
        else:
            signal.signal(signal.SIGINT, self.request_stop)

    @property
    def running(self) -> bool:
        return not self._stop and not self.kiosk.exit_requested and not self.frontend.closed

    def step(self) -> None:
        now = self.clock()
        pending = list(self.frontend.poll())
        wait = self._sleep_for(now) if not pending else 0.0
        try:
            pending.append(self.intents.get(timeout=wait) if wait > 0 else self.intents.get_nowait())
            while True:
                pending.append(self.intents.get_nowait())
        except queue.Empty:
            pass
        now = self.clock()
        for intent in pending:
            self.kiosk.handle(intent, now)
        self.kiosk.tick(now)
        self._render()
        self.watchdog.kick(now)

    def _sleep_for(self, now: float) -> float:
        deadlines = [d for d in (self.kiosk.next_deadline(now), self.watchdog.next_deadline()) if d is not None]
        wait = min([self.max_sleep, *(d - now for d in deadlines)])
        return max(0.0, wait)

    def _render(self) -> None:
        view = self.kiosk.view
        playing = self.kiosk.playing
        # The table's UI model changes without the game changing (a lifted marker lights hints).
        table = None if playing is None else (playing.controller.state, playing.controller.ui)
        if view != self._last_view or table != self._last_state:
            self._last_view, self._last_state = view, table
            self.frontend.render(view, playing)

    def run(self) -> int:
        """Until SIGTERM / SIGINT, the admin's "Leave the kiosk" or a closed window; returns the exit status (0)."""
        self.notifier.ready("kiosk running")
        self._started_at = self.clock()
        self.watchdog.kick(self._started_at)
        try:
            while self.running:
                self.step()
                if self._on_stable is not None and self.clock() - self._started_at >= self.stable_after:
                    self._stable()
        finally:
            self.shutdown()
        self._stable()  # a clean stop (SIGTERM, "Leave the kiosk") is not a failed start
        return 0

    def _stable(self) -> None:
        callback, self._on_stable = self._on_stable, None
        if callback is not None:
            callback()

    def shutdown(self) -> None:
        """LEDs off, journal closed; safe twice."""
        if self._shut:
            return
        self._shut = True
        self.notifier.stopping()
        if self.leds is not None:
            try:
                self.leds.off()
            except Exception:
                log.exception("could not switch the LEDs off")
        self.kiosk.close()
        self.notifier.close()
        log.info("kiosk stopped: LEDs off, journal closed")


class HeadlessFrontend:
    """No screen: logs each new view. For ``companion kiosk --headless`` (service tests, a Pi without display)."""

    closed = False

    def render(self, view: KioskView, playing: PlayingTable | None) -> None:
        notice = f" [notice: {view.notice}]" if view.notice else ""
        log.info("screen %s: %s %s%s", view.screen.value, view.title, " | ".join(view.lines), notice)

    def poll(self) -> list[KioskIntent]:
        return []


class LoggingLeds:
    """LEDs for headless runs: frames are logged at debug level; ``off`` at info."""

    def show(self, frame: LedFrame, now: float) -> None:
        log.debug("LEDs: %s", frame)

    def off(self) -> None:
        log.info("LEDs off")


@dataclass(frozen=True, slots=True)
class StartRecord:
    """What the previous starts left behind: how many failed in a row, and the last error seen."""

    failures: int
    last_error: str | None


class StartGuard:
    """Counts consecutive failed starts in the state directory, so a crash loop ends in safe mode.

    ``begin()`` at start counts this start as failed until ``succeeded()`` (the loop ran for a while,
    or ended cleanly) resets the count; ``failed(message)`` records why. A start killed by the watchdog
    or a hard crash never calls ``succeeded()``, so it counts too. After ``threshold`` failures in a
    row the kiosk starts in safe mode (no resume offer, the error on the screen, new games allowed)
    instead of running into systemd's ``StartLimitBurst`` and leaving the box dead. The file is
    written atomically (temp file, fsync, rename); an unwritable state directory disables the guard
    (logged), it never stops the kiosk.
    """

    FILE = "kiosk-starts.json"

    def __init__(self, directory: Path, threshold: int = 3) -> None:
        self.path = directory / self.FILE
        self.threshold = threshold
        self.previous = StartRecord(0, None)

    def begin(self) -> StartRecord:
        self.previous = self._read()
        self._write(StartRecord(self.previous.failures + 1, self.previous.last_error))
        return self.previous

    @property
    def safe_mode(self) -> bool:
        return self.previous.failures >= self.threshold

    def failed(self, message: str) -> None:
        record = self._read()
        self._write(StartRecord(max(record.failures, self.previous.failures + 1), message[:500]))

    def succeeded(self) -> None:
        self._write(StartRecord(0, None))

    def _read(self) -> StartRecord:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            failures = data["failures"]
            error = data.get("last_error")
            if isinstance(failures, int) and failures >= 0 and (error is None or isinstance(error, str)):
                return StartRecord(failures, error)
        except FileNotFoundError:
            return StartRecord(0, None)
        except (OSError, ValueError, TypeError, KeyError, AttributeError) as exc:
            log.warning("the start counter %s is unreadable (%s); counting from 0", self.path, exc)
        return StartRecord(0, None)

    def _write(self, record: StartRecord) -> None:
        data = json.dumps({"failures": record.failures, "last_error": record.last_error})
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)  # a first start: the state directory is new
            write_atomically(self.path, data)
        except OSError as exc:
            log.warning("cannot record the kiosk's start in %s: %s", self.path, exc)


def safe_mode_notice(record: StartRecord) -> str:
    last = record.last_error or "unknown: see journalctl -u companion"
    return (
        f"SAFE MODE: the kiosk failed to start {record.failures} times in a row (last error: {last}). "
        "The unfinished game is not offered now; it is kept in the records (companion games, companion export). "
        "Start a new game, or ask the admin."
    )
