"""The five buttons through gpiozero ``Button``; a press is short or long (held ``long_press_s``).

A short press is reported on release; a long press as soon as :meth:`GpioButtons.poll` sees the
button held long enough (so the admin menu opens while MENU is still held), or on release if no poll
ran meanwhile. Durations come from the injected ``clock``, so tests drive mock pins and a fake clock
and never sleep. gpiozero calls ``when_pressed``/``when_released`` from its own thread: they only
record times and put intents on the sink.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from companion.hardware.protocols import IntentSink
from companion.intents import ButtonName, ButtonPressed

DEFAULT_LONG_PRESS_S = 1.5
DEFAULT_BOUNCE_S = 0.02


class GpioButtons:
    def __init__(
        self,
        sink: IntentSink,
        pins: Mapping[ButtonName, int],
        *,
        long_press_s: float = DEFAULT_LONG_PRESS_S,
        bounce_s: float | None = DEFAULT_BOUNCE_S,
        pull_up: bool = True,
        clock: Callable[[], float] = time.monotonic,
        pin_factory: Any | None = None,
    ) -> None:
        from gpiozero import Button

        self.sink = sink
        self.long_press_s = long_press_s
        self.clock = clock
        self._lock = threading.Lock()
        self._down: dict[ButtonName, float] = {}
        self._long_sent: set[ButtonName] = set()
        self._buttons: dict[ButtonName, Any] = {}
        for name, pin in pins.items():
            button = Button(pin, pull_up=pull_up, bounce_time=bounce_s, pin_factory=pin_factory)
            button.when_pressed = lambda _device=None, name=name: self._pressed(name)
            button.when_released = lambda _device=None, name=name: self._released(name)
            self._buttons[name] = button

    def _pressed(self, name: ButtonName) -> None:
        with self._lock:
            self._down[name] = self.clock()
            self._long_sent.discard(name)

    def _released(self, name: ButtonName) -> None:
        with self._lock:
            started = self._down.pop(name, None)
            already = name in self._long_sent
            self._long_sent.discard(name)
        if started is None or already:
            return
        self.sink(ButtonPressed(name, long=self.clock() - started >= self.long_press_s))

    def poll(self, now: float) -> None:
        """Report long presses of buttons still held at ``now``."""
        fire = []
        with self._lock:
            for name, started in self._down.items():
                if name not in self._long_sent and now - started >= self.long_press_s:
                    self._long_sent.add(name)
                    fire.append(name)
        for name in fire:
            self.sink(ButtonPressed(name, long=True))

    def close(self) -> None:
        # gpiozero's hold thread looks at its stop flag every 0.1 s, and Button.close joins it: one button
        # after another that is up to 0.1 s each (the box has five). Tell every thread first and wake it
        # (gpiozero/mixins.py HoldThread.held: a woken wait with the flag set fires nothing), then close.
        for button in self._buttons.values():
            thread = getattr(button, "_hold_thread", None)
            if thread is not None:
                thread.stopping.set()
                thread.holding.set()
        for button in self._buttons.values():
            button.close()
        self._buttons = {}

    def __enter__(self) -> GpioButtons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
