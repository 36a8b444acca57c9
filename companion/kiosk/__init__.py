"""Kiosk mode (``companion kiosk``): the box at a convention, run by systemd, locked for players.

* ``machine.Kiosk`` — the state machine (attract, resume offer, new-game set-up, playing through a
  ``TableController``, ranking, PIN entry, admin menu, hardware test); pure, intents + clock in.
* ``view.KioskView`` — what the screen shows; the display renders it (nothing here draws).
* ``notify`` — sd_notify over ``$NOTIFY_SOCKET`` (READY=1, WATCHDOG=1, STOPPING=1), no dependency.
* ``display_env`` — the console display checks and settings (kmsdrm, fullscreen, no cursor, no blanking).
* ``app.KioskLoop`` — the one loop: intents queue → kiosk → render, watchdog, SIGTERM → LEDs off, journal closed.
"""

from __future__ import annotations

from companion.kiosk.admin import AdminLock, PinEntry
from companion.kiosk.machine import Kiosk, KioskIntent, KioskSettings
from companion.kiosk.view import KioskView, OptionTapped, Screen

__all__ = [
    "AdminLock",
    "Kiosk",
    "KioskIntent",
    "KioskSettings",
    "KioskView",
    "OptionTapped",
    "PinEntry",
    "Screen",
]
