"""Block until input arrives, cheaply, whatever SDL video driver runs.

SDL waits natively only on some drivers (X11, Wayland, Windows, Cocoa). On the others — the Pi's
KMS/DRM console, the headless "dummy" driver — ``SDL_WaitEventTimeout`` wakes every millisecond,
which costs ~3 % of a core doing nothing. There we poll a few dozen times a second and sleep in
between: ~0.1–0.3 % of a core, and 20–50 ms of input latency, which nobody at a table notices.
"""

from __future__ import annotations

import time

import pygame

NATIVE_WAIT_DRIVERS = frozenset({"x11", "wayland", "windows", "cocoa"})
ACTIVE_SLICE_S = 0.02  # while someone is interacting (a drag, a recent input)
IDLE_SLICE_S = 0.05


def native_wait() -> bool:
    try:
        return pygame.display.get_driver() in NATIVE_WAIT_DRIVERS
    except pygame.error:
        return False


def wait_for_events(timeout_s: float | None, *, active: bool = False) -> list[pygame.event.Event]:
    """All queued events, waiting up to ``timeout_s`` (None: until one arrives) for the first."""
    events = pygame.event.get()
    if events:
        return events
    if native_wait():
        if timeout_s is None:
            first = pygame.event.wait()
        else:
            ms = round(timeout_s * 1000)
            if ms <= 0:  # already due: ``pygame.event.wait(0)`` would wait for the next input instead
                return []
            first = pygame.event.wait(ms)
        return [first, *pygame.event.get()] if first.type != pygame.NOEVENT else []
    deadline = None if timeout_s is None else time.monotonic() + timeout_s
    slice_s = ACTIVE_SLICE_S if active else IDLE_SLICE_S
    while True:
        now = time.monotonic()
        if deadline is not None and now >= deadline:
            return []
        time.sleep(slice_s if deadline is None else min(slice_s, deadline - now))
        events = pygame.event.get()
        if events:
            return events
