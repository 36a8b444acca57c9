"""The screen as a pure function: (engine state, UI model, LED frame, size, clock) -> pixels + record.

It reads the game and never changes it (style point 12). ``now`` only picks the blink phase of the
SELECTED / EXPECTED rings; :func:`needs_animation` tells the app whether anything blinks at all, so
an idle screen is not redrawn.
"""

from __future__ import annotations

import pygame

from companion.display import layout as layout_mod
from companion.display import theme
from companion.display.feed import draw_feed
from companion.display.lights import blink_phases, city_lights
from companion.display.record import Canvas, FrameRecord
from companion.games.on_the_way.engine.state import GameState
from companion.games.on_the_way.screen.map import draw_map
from companion.games.on_the_way.screen.panels import draw_players
from companion.games.on_the_way.screen.ranking import draw_ranking
from companion.games.on_the_way.screen.status import draw_otw_prompt, draw_top
from companion.games.on_the_way.screen.texts import texts
from companion.ledframe import CityLight, LedFrame
from companion.table.ui import Mode, UiModel


def needs_animation(state: GameState, ui: UiModel, leds: LedFrame) -> bool:
    """True when a ring blinks, i.e. the screen changes with time alone."""
    lights = city_lights(ui, leds, state.board.names)
    return any(light in (CityLight.SELECTED, CityLight.EXPECTED) for light in lights.values())


def render(surface: pygame.Surface, state: GameState, ui: UiModel, leds: LedFrame, *, now: float = 0.0) -> FrameRecord:
    """Draw On The Way's screen into ``surface`` (its size is the layout size); return what was drawn."""
    size = surface.get_size()
    record = FrameRecord(size)
    deck = state.config.deck  # the owner's names, abbreviated with meaning where they do not fit
    names = (*state.board.names, *(c.id for c in deck.contracts), *(e.id for e in deck.events))
    canvas = Canvas(surface, record, names)
    lay = layout_mod.compute(size, state.config.player_count)
    slow_on, fast_on = blink_phases(now)
    t = texts(ui.language)  # every word drawn is in the table's language
    surface.fill(theme.BACKGROUND)
    with canvas.box(lay.top, "top", region="top"):
        draw_top(canvas, lay, state, leds, t)
    with canvas.box(lay.map, "map", region="map"):
        draw_map(canvas, lay, state, ui, leds, slow_on=slow_on, fast_on=fast_on, texts=t)
        if state.finished or ui.mode is Mode.GAME_OVER:
            draw_ranking(canvas, lay, state, t)
    draw_players(canvas, lay, state, t, ui.offer)
    draw_feed(canvas, lay, state, ui, title=t.text("screen.bank"), name=t.player_name, reason=t.reason)
    draw_otw_prompt(canvas, lay, state, ui, t)
    return record
