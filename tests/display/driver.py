"""Drive the simulator with real pygame events (mouse drags, clicks, keys) and a clock of our own."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pygame

from companion.intents import ButtonName
from companion.simulator.window import Simulator
from companion.table.tags import MarkerTag


@dataclass
class FakeClock:
    now: float = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class Driver:
    def __init__(self, sim: Simulator, clock: FakeClock) -> None:
        self.sim = sim
        self.clock = clock
        sim.pump()

    def post(self, kind: int, **attrs: Any) -> None:
        pygame.event.post(pygame.event.Event(kind, **attrs))

    def settle(self) -> None:
        """Let a placement rest past the controller's settle time, then let the loop tick."""
        self.clock.advance(0.5)
        self.sim.pump()

    def press(self, pos: tuple[int, int]) -> None:
        self.post(pygame.MOUSEBUTTONDOWN, pos=pos, button=1)
        self.sim.pump()

    def move(self, pos: tuple[int, int]) -> None:
        self.post(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(1, 0, 0))
        self.sim.pump()

    def release(self, pos: tuple[int, int]) -> None:
        self.post(pygame.MOUSEBUTTONUP, pos=pos, button=1)
        self.sim.pump()

    def drag(self, start: tuple[int, int], end: tuple[int, int]) -> None:
        self.press(start)
        self.move(((start[0] + end[0]) // 2, (start[1] + end[1]) // 2))
        self.move(end)
        self.release(end)
        self.settle()

    def lift(self, marker: MarkerTag) -> tuple[int, int]:
        """Pick a marker up and hold it (hints light); returns where it was grabbed."""
        start = self.sim.marker_pos(marker)
        self.press(start)
        self.move((start[0] + 20, start[1] + 20))
        return start

    def drop_on_city(self, city: str) -> None:
        pos = self.sim.city_pos(city)
        self.move(pos)
        self.release(pos)
        self.settle()

    def move_marker(self, marker: MarkerTag, city: str) -> None:
        self.drag(self.sim.marker_pos(marker), self.sim.city_pos(city))

    def click(self, pos: tuple[int, int]) -> None:
        self.press(pos)
        self.release(pos)
        self.clock.advance(0.05)
        self.sim.pump()

    def key(self, key: int, hold: float = 0.05) -> None:
        self.post(pygame.KEYDOWN, key=key, mod=0, unicode="")
        self.sim.pump()
        self.clock.advance(hold)
        self.post(pygame.KEYUP, key=key, mod=0, unicode="")
        self.sim.pump()

    def button(self, name: ButtonName) -> None:
        self.click(self.sim.button_pos(name))
