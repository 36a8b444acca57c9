"""The kiosk's one loop: intents in, the state machine, the screen out; systemd's watchdog; clean stop.

Hardware callbacks (buttons, RFID readers, the card reader) only ``put`` intents on ``intents``;
the frontend (the display integration: pygame-ce, touch, keyboard) is polled without blocking. Each
iteration: take intents → ``Kiosk.handle`` → ``Kiosk.tick`` → render if the view changed →
``WATCHDOG=1`` if due → sleep until the next deadline (at most ``max_sleep``), so an idle box
uses next to no CPU. SIGTERM (``systemctl stop``) ends the loop (SIGINT too, outside systemd): ``STOPPING=1``, LEDs
off, journal closed — every accepted command is already committed, so there is nothing to save.
"""

from __future__ import annotations

import logging
import queue
import signal
import time
from collections.abc import Callable
from types import FrameType
from typing import Protocol

from companion.kiosk.machine import Kiosk, KioskIntent, PlayingTable
from companion.kiosk.notify import SystemdNotifier, Watchdog
from companion.kiosk.view import KioskView
from companion.ledframe import LedFrame

log = logging.getLogger(__name__)


class Frontend(Protocol):
    """The screen and its own inputs (touch, keyboard in the simulator)."""

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
        return not self._stop and not self.kiosk.exit_requested

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
        """Until SIGTERM / SIGINT or the admin's "Leave the kiosk"; returns the exit status (0)."""
        self.notifier.ready("kiosk running")
        self.watchdog.kick(self.clock())
        try:
            while self.running:
                self.step()
        finally:
            self.shutdown()
        return 0

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

    def render(self, view: KioskView, playing: PlayingTable | None) -> None:
        log.info("screen %s: %s %s", view.screen.value, view.title, " | ".join(view.lines))

    def poll(self) -> list[KioskIntent]:
        return []


class LoggingLeds:
    """LEDs for headless runs: frames are logged at debug level; ``off`` at info."""

    def show(self, frame: LedFrame, now: float) -> None:
        log.debug("LEDs: %s", frame)

    def off(self) -> None:
        log.info("LEDs off")
