"""Race to ten on the screen: the counter, whose turn, the prompt (the shared prompt area)."""

from __future__ import annotations

import pygame

from companion.display import layout as layout_mod
from companion.display import theme
from companion.display.prompt import draw_prompt
from companion.display.record import Canvas, FrameRecord
from companion.ledframe import LedFrame
from companion.table.ui import UiModel
from tests.games.race.engine import GOAL, State


def render(surface: pygame.Surface, state: State, ui: UiModel, leds: LedFrame, *, now: float = 0.0) -> FrameRecord:
    record = FrameRecord(surface.get_size())
    canvas = Canvas(surface, record)
    lay = layout_mod.compute(surface.get_size(), len(state.config.colours))
    surface.fill(theme.BACKGROUND)
    canvas.text(f"{state.total} / {GOAL}", lay.map.center, lay.large * 3, bold=True, anchor="center", role="counter")
    draw_prompt(canvas, lay, _Seats(state), ui, status=("", ""), fallback="")
    return record


def needs_animation(state: State, ui: UiModel, leds: LedFrame) -> bool:
    return False


class _Seats:
    """What the shared prompt area reads of a state (finished, the player on turn, seats)."""

    def __init__(self, state: State) -> None:
        self.finished = state.finished
        self.config = state.config
        self.current = type("Current", (), {"colour": state.current})()
