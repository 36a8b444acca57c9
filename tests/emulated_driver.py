"""One test driver for a whole table through the emulated hardware, for either game.

The subclass builds the session (controller + ``self.hw.rig`` + ``self.intents``); this class drives
tags on the emulated readers, cards on the card reader and the mock buttons, steps the one loop,
and reads the LEDs back from the emulated 74HC595 chain.
"""

from __future__ import annotations

import queue
from collections.abc import Sequence
from typing import Any

from companion.hardware.emulated import EmulatedTable
from companion.intents import Intent
from companion.ledframe import CityLight, LedFrame
from companion.table.session import TableSession
from companion.table.tags import Tag, TagDirectory

SETTLE_POLLS = 8  # 0.4 s at the 20 Hz poll: longer than the controller's 0.35 s settle time


class EmulatedTableDriver:
    session: TableSession

    def __init__(self, cities: Sequence[str], tags: TagDirectory) -> None:
        self.tags = tags
        self.intents: queue.Queue[Intent] = queue.Queue()
        self.hw = EmulatedTable(list(cities), sink=self.intents.put)

    @property
    def ctl(self) -> Any:
        return self.session.controller

    @property
    def ui(self) -> Any:
        return self.ctl.ui

    @property
    def state(self) -> Any:
        return self.ctl.state

    def sync(self) -> None:
        self.session.step(self.hw.now)

    def settle(self) -> None:
        for _ in range(SETTLE_POLLS):
            self.hw.step()
            self.sync()

    def uid(self, tag: Tag) -> str:
        uid = self.tags.uid_of(tag)
        assert uid is not None, tag
        return uid

    def put_tag(self, city: str, tag: Tag, settle: bool = True) -> None:
        self.hw.place_tag(city, self.uid(tag))
        self.sync()
        if settle:
            self.settle()

    def take_tag(self, city: str, tag: Tag) -> None:
        self.hw.lift_tag(city, self.uid(tag))
        self.sync()

    def scan_tag(self, tag: Tag) -> None:
        self.hw.scan_card(self.uid(tag))
        self.sync()

    def press(self, button: str, long: bool = False) -> None:
        self.hw.press(button, long)
        self.sync()

    def leds(self) -> LedFrame:
        return self.hw.decoded_leds()

    def lit(self, light: CityLight) -> set[str]:
        return {c for c, x in self.leds().cities if x is light}

    def close(self) -> None:
        self.session.close()
