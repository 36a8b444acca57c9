"""The screen as a pure function: (engine state, UI model, LED frame, size, clock) -> pixels + record.

It reads the game and never changes it (style point 12). ``now`` only picks the blink phase of the
SELECTED / EXPECTED rings; :func:`needs_animation` tells the app whether anything blinks at all, so
an idle screen is not redrawn.
"""

from __future__ import annotations

from typing import Any

import pygame

from companion.display import layout as layout_mod
from companion.display import theme
from companion.display.feed import draw_feed
from companion.display.panels import draw_players
from companion.display.ranking import draw_ranking
from companion.display.record import Canvas, FrameRecord
from companion.games.on_the_way.engine.state import GameState
from companion.games.on_the_way.screen.map import city_lights, draw_map
from companion.games.on_the_way.screen.status import draw_prompt, draw_top
from companion.ledframe import CityLight, LedFrame
from companion.table.ui import Mode, UiModel


def blink_phases(now: float) -> tuple[bool, bool]:
    """(slow_on, fast_on) at time ``now`` seconds: the SELECTED and EXPECTED blink rates."""
    slow = (now * theme.SLOW_BLINK_HZ) % 1.0 < 0.5
    fast = (now * theme.FAST_BLINK_HZ) % 1.0 < 0.5
    return slow, fast


def needs_animation(state: GameState | Any, ui: UiModel, leds: LedFrame) -> bool:
    """True when a ring blinks, i.e. the screen changes with time alone."""
    if _is_aa(state):
        from companion.games.auf_achse.screen.render import aa_needs_animation

        return aa_needs_animation(state, ui, leds)  # type: ignore[arg-type]
    lights = city_lights(ui, leds, state.board.names)
    return any(light in (CityLight.SELECTED, CityLight.EXPECTED) for light in lights.values())


def _is_aa(state: object) -> bool:
    from companion.games.auf_achse.engine.state import GameState as AAState

    return isinstance(state, AAState)


def render(
    surface: pygame.Surface, state: GameState | Any, ui: UiModel, leds: LedFrame, *, now: float = 0.0
) -> FrameRecord:
    """Draw the whole screen of either game into ``surface`` (its size is the layout size); return what
    was drawn. The engine state's type says which game it is."""
    if _is_aa(state):
        from companion.games.auf_achse.screen.render import render_aa

        slow_on, fast_on = blink_phases(now)
        return render_aa(surface, state, ui, leds, slow_on=slow_on, fast_on=fast_on)  # type: ignore[arg-type]
    size = surface.get_size()
    record = FrameRecord(size)
    canvas = Canvas(surface, record)
    lay = layout_mod.compute(size, state.config.player_count)
    slow_on, fast_on = blink_phases(now)
    surface.fill(theme.BACKGROUND)
    draw_top(canvas, lay, state, leds)
    draw_map(canvas, lay, state, ui, leds, slow_on=slow_on, fast_on=fast_on)
    if state.finished or ui.mode is Mode.GAME_OVER:
        draw_ranking(canvas, lay, state)
    draw_players(canvas, lay, state, ui.offer)
    draw_feed(canvas, lay, state, ui)
    draw_prompt(canvas, lay, state, ui)
    return record


def render_to_surface(
    state: GameState | Any, ui: UiModel, leds: LedFrame, size: tuple[int, int], *, now: float = 0.0
) -> tuple[pygame.Surface, FrameRecord]:
    """A new surface of ``size`` with the screen drawn on it (headless-safe: no display needed)."""
    surface = pygame.Surface(size)
    return surface, render(surface, state, ui, leds, now=now)
