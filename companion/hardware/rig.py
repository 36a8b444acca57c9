"""The devices of one box, polled together: what the table controller holds on to."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from companion.hardware.protocols import CardReader, CityReaders, LedOutput
from companion.ledframe import LedFrame

log = logging.getLogger(__name__)


class HardwareRig:
    """City readers, card reader, LEDs and buttons (any may be the same object, or None).

    ``poll(now)`` runs one round of every device (reader sweep, serial read, LED blink, long-press
    check); intents go to the sink the devices were built with. ``show(frame, now)`` sets the LEDs.
    """

    def __init__(
        self,
        *,
        readers: CityReaders | None = None,
        card_reader: CardReader | None = None,
        leds: LedOutput | None = None,
        buttons: object | None = None,
        extra_close: Callable[[], None] | None = None,
    ) -> None:
        self.readers, self.card_reader, self.leds, self.buttons = readers, card_reader, leds, buttons
        self._extra_close = extra_close
        self._closed = False

    def _devices(self) -> list[object]:
        seen: list[object] = []
        for device in (self.readers, self.card_reader, self.leds, self.buttons):
            if device is not None and all(device is not s for s in seen):
                seen.append(device)
        return seen

    def poll(self, now: float) -> None:
        for device in self._devices():
            poll = getattr(device, "poll", None)
            if poll is not None:
                poll(now)

    def show(self, frame: LedFrame, now: float) -> None:
        if self.leds is not None:
            self.leds.show(frame, now)

    def close(self) -> None:
        """LEDs dark, pins and ports released. Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        for device in reversed(self._devices()):
            try:
                device.close()  # type: ignore[attr-defined]
            except Exception:
                log.exception("closing %r failed", device)
        if self._extra_close is not None:
            self._extra_close()

    def __enter__(self) -> HardwareRig:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class PollingThread:
    """Runs ``rig.poll(time.monotonic())`` every ``interval_s`` on a thread until closed."""

    def __init__(self, rig: HardwareRig, interval_s: float = 0.05) -> None:
        self.rig, self.interval_s = rig, interval_s
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="hardware-poll", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            started = time.monotonic()
            try:
                with self._lock:
                    self.rig.poll(started)
            except Exception:
                log.exception("hardware poll failed; continuing")
            self._stop.wait(max(0.0, self.interval_s - (time.monotonic() - started)))

    def show(self, frame: LedFrame) -> None:
        """Set the LEDs from another thread (serialised with the sweep: they may share a bus)."""
        with self._lock:
            self.rig.show(frame, time.monotonic())

    def close(self) -> None:
        self._stop.set()
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join(timeout=2)

    def __enter__(self) -> PollingThread:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
