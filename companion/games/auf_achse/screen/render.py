"""The Auf Achse screen: (engine state, UI model, LED frame, size, clock) -> pixels + record.

The same frame as On The Way's (``render.py``): top bar, map, player panels, ledger feed, prompt;
what is in them is Auf Achse's. During an auction the auction panel takes the feed's place; at the end
the ranking by money is drawn over the map. Secrets are read through ``view_for(state, None)``.
"""

from __future__ import annotations

import pygame

from companion.display import layout as layout_mod
from companion.display import theme
from companion.display.feed import draw_feed
from companion.display.lights import blink_phases
from companion.display.prompt import draw_prompt
from companion.display.record import Canvas, FrameRecord
from companion.games.auf_achse.engine.state import GameState, Phase
from companion.games.auf_achse.screen.map import draw_aa_map, space_lights
from companion.games.auf_achse.screen.panels import draw_aa_players, draw_aa_ranking, draw_aa_top, draw_auction
from companion.games.auf_achse.screen.texts import texts
from companion.ledframe import CityLight, LedFrame
from companion.table.ui import Mode, UiModel

TOP_BAR = 46  # at 800×480: room for the face-up contracts as two-line cards


def needs_animation(state: GameState, ui: UiModel, leds: LedFrame) -> bool:
    """True when a ring blinks, i.e. the screen changes with time alone."""
    return any(light in (CityLight.SELECTED, CityLight.EXPECTED) for light in space_lights(state, ui, leds).values())


def render(surface: pygame.Surface, state: GameState, ui: UiModel, leds: LedFrame, *, now: float = 0.0) -> FrameRecord:
    """Draw Auf Achse's screen into ``surface``; ``now`` picks the blink phase."""
    slow_on, fast_on = blink_phases(now)
    size = surface.get_size()
    record = FrameRecord(size)
    deck = state.config.deck  # the owner's names, abbreviated with meaning where they do not fit
    names = (*state.board.cities, *(c.id for c in deck.contracts), *(a.id for a in deck.actions))
    canvas = Canvas(surface, record, names)
    lay = layout_mod.compute(size, state.config.player_count, top_bar=TOP_BAR)
    t = texts(ui.language)  # every word drawn is in the table's language
    surface.fill(theme.BACKGROUND)
    with canvas.box(lay.top, "top", region="top"):
        draw_aa_top(canvas, lay, state, ui, t)
    with canvas.box(lay.map, "map", region="map"):
        draw_aa_map(canvas, lay, state, ui, leds, slow_on=slow_on, fast_on=fast_on, texts=t)
        if state.finished or ui.mode is Mode.GAME_OVER:
            draw_aa_ranking(canvas, lay, state, t)
    draw_aa_players(canvas, lay, state, t)
    if state.auction is not None:
        with canvas.box(lay.feed, "auction", region="auction"):
            draw_auction(canvas, lay.feed, lay, state, ui, t)
    else:
        draw_feed(canvas, lay, state, ui, money=theme.dm, title=t.text("screen.bank"), name=t.player_name,
                  reason=t.reason)  # fmt: skip
    if state.finished:
        status = ("", "")
    elif state.phase is Phase.SETUP:
        status = (t.text("screen.setup"), t.text("screen.setup_steps"))
    else:
        turn = state.turn
        roll = t.text("screen.rolled", n=turn.roll) if turn.roll is not None else t.text("screen.to_roll")
        status = (roll, t.text("screen.round", n=turn.round))
    draw_prompt(canvas, lay, state, ui, status=status, fallback="", name=t.player_name)
    return record
