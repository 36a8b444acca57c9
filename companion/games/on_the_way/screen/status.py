"""The top bar (time track with its end mark, active event, strip) and the prompt area."""

from __future__ import annotations

from typing import Any

import pygame

from companion.display import theme
from companion.display.layout import Layout
from companion.display.record import Canvas
from companion.display.tokens import swatch
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


def draw_prompt(
    canvas: Canvas,
    layout: Layout,
    state: GameState | Any,
    ui: UiModel,
    *,
    status: tuple[str, str] | None = None,
) -> None:
    """The prompt area of either game. ``status``: the two small lines under the player on turn
    (default: On The Way's steps left and round)."""
    surface = canvas.surface
    rect = layout.prompt
    canvas.record.regions["prompt"] = (rect.x, rect.y, rect.w, rect.h)
    pygame.draw.rect(surface, theme.PANEL, rect, border_radius=layout.px(5))
    pad = layout.pad
    big = layout.large
    body = layout.body
    small = layout.small

    # Left block: whose turn and the steps left.
    colour = None if state.finished else (ui.player or state.current.colour)
    left = pygame.Rect(rect.x + pad, rect.y + pad, layout.px(118), rect.h - 2 * pad)
    if colour is not None:
        seat = state.config.seat_of(colour) or 0
        style = theme.player_style(colour, seat)
        sw = pygame.Rect(left.x, left.y, big + layout.px(6), big + layout.px(6))
        swatch(surface, sw, style)
        canvas.text(
            theme.title(colour),
            (sw.right + pad, sw.y),
            big,
            bold=True,
            role="turn",
            max_width=left.right - sw.right - pad,
        )
        if status is None:
            steps = ui.steps_left if ui.player is not None else state.steps_left
            word = "step" if steps == 1 else "steps"
            rnd = f"round {state.turn.round}" + (" (last)" if state.last_round == state.turn.round else "")
            status = (f"{steps} {word} left", rnd)
        first_role = "steps" if status[0].endswith("left") else "status"
        canvas.text(status[0], (left.x, sw.bottom + layout.px(3)), body, role=first_role, max_width=left.w)
        canvas.text(status[1], (left.x, sw.bottom + layout.px(3) + round(body * 1.3)), small, colour=theme.TEXT_DIM,
                    role="round", max_width=left.w)  # fmt: skip

    # Right block: prompt, detail, choices, refusal.
    x = left.right + pad
    width = rect.right - pad - x
    y = rect.y + pad
    prompt = ui.prompt or _default_prompt(state, ui)
    canvas.text(prompt, (x, y), big, bold=True, role="prompt", max_width=width)
    y += round(big * 1.3)
    if ui.detail:
        canvas.text(ui.detail, (x, y), body, colour=theme.TEXT_DIM, role="detail", max_width=width)
    y += round(body * 1.35)
    if ui.choices:
        cx = x
        for i, choice in enumerate(ui.choices):
            w, h = canvas.measure(choice, body, bold=i == ui.choice_index)
            chip = pygame.Rect(cx, y, w + 2 * pad, h + layout.px(2))
            if chip.right > rect.right - pad:
                canvas.text("…", (cx, y), body, colour=theme.TEXT_DIM)
                break
            if i == ui.choice_index:
                pygame.draw.rect(surface, theme.ACCENT, chip, border_radius=layout.px(4))
                canvas.text(
                    choice, chip.center, body, colour=(0, 0, 0), bold=True, anchor="center", role="choice_selected"
                )
            else:
                pygame.draw.rect(surface, theme.TEXT_FAINT, chip, width=1, border_radius=layout.px(4))
                canvas.text(choice, chip.center, body, anchor="center", role="choice")
            cx = chip.right + pad
        y += round(body * 1.5)
    if ui.refusal is not None:
        text = f"✗ {ui.refusal.rule}: {ui.refusal.message}"
        w, h = canvas.measure(text, body, bold=True)
        bar = pygame.Rect(
            x - layout.px(3), y - layout.px(1), min(width + layout.px(3), w + layout.px(8)), h + layout.px(2)
        )
        if bar.bottom > rect.bottom:
            bar.bottom = rect.bottom - layout.px(1)
        pygame.draw.rect(surface, theme.REFUSAL_BG, bar, border_radius=layout.px(3))
        canvas.text(
            text, (x, bar.y + layout.px(1)), body, colour=theme.REFUSAL, bold=True, role="refusal", max_width=width
        )


def _default_prompt(state: GameState, ui: UiModel) -> str:
    if state.finished or ui.mode is Mode.GAME_OVER:
        return "Game over"
    if state.awaiting_event:
        return "Scan the next event card"
    return f"{theme.title(state.current.colour)}: take a contract, move, fulfil or build"
