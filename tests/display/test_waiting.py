"""The loops' wait for input (``companion.display.waiting``) returns when its deadline is due.

Found in a real X11 window: with a deadline already due (a timeout of 0 ms), the native path called
``pygame.event.wait(0)``, which in pygame waits for the *next input*, so the simulator showed
"Thinking… 0 %" until the mouse moved. The native path is taken here on the dummy driver too (SDL
waits the same way there), with the real pygame call."""

from __future__ import annotations

import threading
import time

import pygame
import pytest

from companion.display import waiting


@pytest.fixture
def native(monkeypatch: pytest.MonkeyPatch) -> None:
    pygame.display.init()
    monkeypatch.setattr(waiting, "native_wait", lambda: True)


@pytest.mark.parametrize("timeout_s", [0.0, 0.0004, 0.03])
def test_a_due_or_short_deadline_returns_without_input(native: None, timeout_s: float) -> None:
    pygame.event.clear()
    poke = threading.Timer(3.0, lambda: pygame.event.post(pygame.event.Event(pygame.USEREVENT)))
    poke.start()  # the only input, long after the deadline: the wait must not be waiting for it
    try:
        start = time.monotonic()
        events = waiting.wait_for_events(timeout_s)
        waited = time.monotonic() - start
    finally:
        poke.cancel()
    assert events == [] and waited < 1.0, waited


def test_input_that_arrives_is_returned(native: None) -> None:
    pygame.event.clear()
    pygame.event.post(pygame.event.Event(pygame.USEREVENT, tag=7))
    events = waiting.wait_for_events(5.0)
    assert [e.tag for e in events if e.type == pygame.USEREVENT] == [7]
