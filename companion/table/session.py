"""One table: the hardware rig, the intent queue and the controller, stepped by one loop.

Hardware callbacks only put intents on the queue; ``step(now)`` polls the devices (reader sweep,
buttons, LED blinking), applies every queued intent in order and lets placements settle
(style point 10). The controller hands the rig a new LED frame only when it changes. The Pi main
loop, the simulator and the scenario tests all use this same path.
"""

from __future__ import annotations

import queue
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from companion.intents import Intent
from companion.ledframe import LedFrame
from companion.table.base import GameTable
from companion.table.tags import AdminTag, BankCardTag, CardTag, MarkerTag, Tag, TagDirectory


class Rig(Protocol):
    def poll(self, now: float) -> None: ...
    def show(self, frame: LedFrame, now: float) -> None: ...
    def close(self) -> None: ...


class TableSession:
    """``TableSession(controller, rig, intents)``: any game's table (``GameTable``, from the game's
    plug-in: ``plugin.table(game, tags, leds=rig)``) with its devices; call ``step(now)`` from the one loop."""

    def __init__(self, controller: GameTable, rig: Rig | None, intents: queue.Queue[Intent]) -> None:
        self.rig = rig
        self.intents = intents
        self.controller = controller

    def put(self, intent: Intent) -> None:
        """For on-screen input (touch, mouse, keyboard): the same queue as the hardware."""
        self.intents.put(intent)

    def step(self, now: float) -> int:
        """Poll the devices and apply what they sensed; returns how many intents were handled."""
        if self.rig is not None:
            self.rig.poll(now)
        handled = 0
        while True:
            try:
                intent = self.intents.get_nowait()
            except queue.Empty:
                break
            self.controller.handle(intent, now)
            handled += 1
        self.controller.tick(now)
        return handled

    def close(self) -> None:
        if self.rig is not None:
            self.rig.close()


def directory_from_hardware(
    markers: Mapping[str, Any],
    cards: Mapping[str, str],
    admin: Iterable[str],
    bank_cards: Mapping[str, str] | None = None,
) -> TagDirectory:
    """The tag directory from a hardware config's ``markers`` (uid -> colour, number; an Auf Achse
    truck is marker 1), ``cards``, ``admin_cards`` and ``bank_cards`` (uid -> colour)."""
    tags: dict[str, Tag] = {uid: MarkerTag(m.colour, m.number) for uid, m in markers.items()}
    tags.update({uid: CardTag(card) for uid, card in cards.items()})
    tags.update({uid: BankCardTag(colour) for uid, colour in (bank_cards or {}).items()})
    tags.update({uid: AdminTag() for uid in admin})
    return TagDirectory(tags)
