"""The top bar (time track with its end mark, active event, strip) and the prompt area."""

from __future__ import annotations

import pygame

from companion.display import theme
from companion.display.layout import Layout
from companion.display.prompt import draw_prompt
from companion.display.record import Canvas
from companion.games.on_the_way.engine.cards import EventCard, EventKind
from companion.games.on_the_way.engine.state import GameState
from companion.ledframe import TIME_TRACK_LENGTH, LedFrame
from companion.table.messages import Catalogue
from companion.table.ui import Mode, UiModel


def event_text(card: EventCard | None, t: Catalogue) -> str:
    """The active event in the top bar: "Event X03: +500 R per contract fulfilled" (short forms of the
    table's ``event_kind`` texts: the bar has one line)."""
    if card is None:
        return t.text("screen.no_event")
    road = "–".join(card.road) if card.road else "?"
    what = t.text(f"screen.event_{card.kind.value}", amount=theme.money(card.amount), road=road)
    return t.text("screen.event", card=card.id, what=what)


def draw_top(canvas: Canvas, layout: Layout, state: GameState, leds: LedFrame, t: Catalogue) -> None:
    surface = canvas.surface
    rect = layout.top
    canvas.record.regions["top"] = (rect.x, rect.y, rect.w, rect.h)
    pygame.draw.rect(surface, theme.PANEL, rect)
    pad = layout.pad
    small = layout.small
    body = layout.body
    x = rect.x + pad
    label = canvas.text(t.text("screen.time"), (x, rect.centery), small, colour=theme.TEXT_DIM, anchor="midleft")
    x = label.right + pad
    end = state.config.time_end
    time = state.time if leds.time is None else leds.time
    cell = min(layout.px(22), (rect.w * 45 // 100 - (x - rect.x)) // TIME_TRACK_LENGTH)
    h = min(rect.h - 2 * pad, cell + layout.px(6))
    for i in range(TIME_TRACK_LENGTH):
        box = pygame.Rect(x + i * cell, rect.centery - h // 2, cell - layout.px(2), h)
        beyond = i > end
        if i == time:
            pygame.draw.rect(surface, theme.ACCENT, box, border_radius=layout.px(3))
            colour = (0, 0, 0)
        else:
            pygame.draw.rect(surface, theme.BACKGROUND, box, border_radius=layout.px(3))
            colour = theme.TEXT_FAINT if beyond else theme.TEXT_DIM
        if i == end:
            pygame.draw.rect(surface, theme.REFUSAL, box, width=layout.px(2), border_radius=layout.px(3))
        with canvas.box(box, "time_cell"):
            canvas.text(str(i), box.center, small, colour=colour, anchor="center", role="time", bold=i == time)
    x += TIME_TRACK_LENGTH * cell + pad
    end_text = t.text("screen.time_end", n=end)
    canvas.text(end_text, (x, rect.centery), small, colour=theme.REFUSAL, anchor="midleft", role="time_end")
    x += canvas.measure(end_text, small)[0] + 2 * pad

    strip = t.text("screen.strip", n=len(state.strip), size=state.config.strip_size)
    strip_rect = canvas.text(strip, (rect.right - pad, rect.centery), body, anchor="midright", role="strip")
    card = state.active_event()
    text = event_text(card, t)
    colour = theme.JAM if card is not None and card.kind is EventKind.TRAFFIC_JAM else theme.TEXT
    room = strip_rect.x - x - pad
    size = body if canvas.measure(text, body, bold=True)[0] <= room else small  # a long event steps down a size
    canvas.text(
        text,
        (x, rect.centery),
        size,
        colour=colour,
        anchor="midleft",
        role="event",
        bold=True,
        max_width=room,
    )


def _default_prompt(state: GameState, ui: UiModel, t: Catalogue) -> str:
    if state.finished or ui.mode is Mode.GAME_OVER:
        return t.text("screen.game_over")
    if state.awaiting_event:
        return t.text("screen.scan_event")
    return t.text("screen.turn", player=state.current.colour)


def draw_otw_prompt(canvas: Canvas, layout: Layout, state: GameState, ui: UiModel, t: Catalogue) -> None:
    """The shared prompt area with On The Way's status: the steps left and the round."""
    steps = ui.steps_left if ui.player is not None else state.steps_left
    last = state.last_round == state.turn.round
    rnd = t.text("screen.round_last" if last else "screen.round", n=state.turn.round)
    status = (t.text("screen.steps_left", steps=t.steps(steps)), rnd)
    draw_prompt(canvas, layout, state, ui, status=status, fallback=_default_prompt(state, ui, t),
                status_role="steps", name=t.player_name)  # fmt: skip
