"""Waiting for MENU → Advice at a test table, as the loops do: tick frame by frame until it is done."""

from __future__ import annotations

import time
from typing import Any


def think(table: Any, timeout: float = 60.0) -> list[str]:
    """Tick ``table`` (a test table with ``ctl``, ``later`` and ``ui``) every frame until the advice
    search on its worker thread is done (or was dropped): the messages shown on the way."""
    shown = []
    give_up = time.monotonic() + timeout
    while table.ctl.thinking:
        assert time.monotonic() < give_up, "the advice search never ended"
        table.later(0.05)
        shown.append(table.ui.message)
        time.sleep(0.005)  # real time for the worker: the search runs beside the loop
    return shown
