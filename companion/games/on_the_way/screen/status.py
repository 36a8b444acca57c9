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
from companion.table.ui import Mode, UiModel


def event_text(card: EventCard | None) -> str:
    if card is None:
        return "no event yet"
    match card.kind:
        case EventKind.BONUS:
            return f"{card.id}: +{theme.money(card.amount)} per contract fulfilled"
        case EventKind.MALUS:
            return f"{card.id}: −{theme.money(card.amount)} per contract fulfilled"
        case EventKind.CHEAPER_BUILD:
            return f"{card.id}: building costs {theme.money(card.amount)} less"
        case EventKind.EXTRA_STEP:
            return f"{card.id}: 1 extra step per turn"
        case EventKind.TRAFFIC_JAM:
            road = "–".join(card.road) if card.road else "?"
            return f"{card.id}: traffic jam {road} (2 steps)"
    return card.id


def draw_top(canvas: Canvas, layout: Layout, state: GameState, leds: LedFrame) -> None:
    surface = canvas.surface
    rect = layout.top
    canvas.record.regions["top"] = (rect.x, rect.y, rect.w, rect.h)
    pygame.draw.rect(surface, theme.PANEL, rect)
    pad = layout.pad
    small = layout.small
    body = layout.body
    x = rect.x + pad
    label = canvas.text("Time", (x, rect.centery), small, colour=theme.TEXT_DIM, anchor="midleft")
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
        canvas.text(str(i), box.center, small, colour=colour, anchor="center", role="time", bold=i == time)
    x += TIME_TRACK_LENGTH * cell + pad
    canvas.text(f"end {end}", (x, rect.centery), small, colour=theme.REFUSAL, anchor="midleft", role="time_end")
    x += canvas.measure(f"end {end}", small)[0] + 2 * pad

    strip = f"strip {len(state.strip)}/{state.config.strip_size}"
    strip_rect = canvas.text(strip, (rect.right - pad, rect.centery), body, anchor="midright", role="strip")
    card = state.active_event()
    text = event_text(card) if card is None else "Event " + event_text(card)
    text = text[:1].upper() + text[1:]
    colour = theme.JAM if card is not None and card.kind is EventKind.TRAFFIC_JAM else theme.TEXT
    canvas.text(
        text,
        (x, rect.centery),
        body,
        colour=colour,
        anchor="midleft",
        role="event",
        bold=True,
        max_width=strip_rect.x - x - pad,
    )


def _default_prompt(state: GameState, ui: UiModel) -> str:
    if state.finished or ui.mode is Mode.GAME_OVER:
        return "Game over"
    if state.awaiting_event:
        return "Scan the next event card"
    return f"{theme.title(state.current.colour)}: take a contract, move, fulfil or build"


def draw_otw_prompt(canvas: Canvas, layout: Layout, state: GameState, ui: UiModel) -> None:
    """The shared prompt area with On The Way's status: the steps left and the round."""
    steps = ui.steps_left if ui.player is not None else state.steps_left
    word = "step" if steps == 1 else "steps"
    rnd = f"round {state.turn.round}" + (" (last)" if state.last_round == state.turn.round else "")
    draw_prompt(canvas, layout, state, ui, status=(f"{steps} {word} left", rnd), fallback=_default_prompt(state, ui))
