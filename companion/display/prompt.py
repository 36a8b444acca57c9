"""The prompt area every game's screen has: whose turn, two status lines, the prompt, its detail,
the choices, and a refusal with its rule id."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from companion.display import theme
from companion.display.layout import Layout
from companion.display.record import Canvas
from companion.display.tokens import swatch
from companion.table.ui import UiModel


def draw_prompt(
    canvas: Canvas,
    layout: Layout,
    state: Any,
    ui: UiModel,
    *,
    status: tuple[str, str],
    fallback: str,
    status_role: str = "status",
    name: Callable[[str], str] = theme.title,
) -> None:
    """The prompt area. ``status``: the two small lines under the player on turn (the game says what:
    steps left and round, the die), the first drawn with ``status_role``; ``fallback``: the prompt
    when the UI model has none; ``name``: a player's name in the table's language. Every text comes
    translated from the game's screen."""
    with canvas.box(layout.prompt, "prompt", region="prompt"):
        _draw_prompt(canvas, layout, state, ui, status, fallback, status_role, name)


def _draw_prompt(
    canvas: Canvas,
    layout: Layout,
    state: Any,
    ui: UiModel,
    status: tuple[str, str],
    fallback: str,
    status_role: str,
    name: Callable[[str], str],
) -> None:
    surface = canvas.surface
    rect = layout.prompt
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
        swatch(canvas, sw, style)
        # A long name ("Czerwony", "Schwarz") steps down a size rather than lose its end.
        who, room = name(colour), left.right - sw.right - pad
        size = big if canvas.measure(who, big, bold=True)[0] <= room else body
        canvas.text(who, (sw.right + pad, sw.y + (big - size) // 2), size, bold=True, role="turn", max_width=room)
        canvas.text(status[0], (left.x, sw.bottom + layout.px(3)), body, role=status_role, max_width=left.w)
        canvas.text(status[1], (left.x, sw.bottom + layout.px(3) + round(body * 1.3)), small, colour=theme.TEXT_DIM,
                    role="round", max_width=left.w)  # fmt: skip

    # Right block: prompt, detail, choices, refusal; a rule between the blocks, so the name on the
    # left never reads as the start of the prompt ("Niebieski Niebieski: …").
    rule_x = left.right + pad
    pygame.draw.line(surface, theme.TEXT_FAINT, (rule_x, rect.y + pad), (rule_x, rect.bottom - pad), 1)
    x = rule_x + 2 * pad
    width = rect.right - pad - x
    y = rect.y + pad
    prompt = ui.prompt or fallback
    # A long prompt (a rules-in-pictures caption in German) steps down a size rather than lose its end.
    size = big if canvas.measure(prompt, big, bold=True)[0] <= width else body
    canvas.text(prompt, (x, y + (big - size) // 2), size, bold=True, role="prompt", max_width=width)
    y += round(big * 1.3)
    if ui.detail:  # in full: a size down, or on two lines where no choices or refusal need the room
        free = not ui.choices and ui.refusal is None
        if canvas.measure(ui.detail, body)[0] <= width:
            canvas.text(ui.detail, (x, y), body, colour=theme.TEXT_DIM, role="detail")
        elif canvas.measure(ui.detail, small)[0] <= width or not free:
            canvas.text(ui.detail, (x, y), small, colour=theme.TEXT_DIM, role="detail", max_width=width)
        else:
            y = canvas.paragraph(ui.detail, (x, y), small, width, round(small * 1.2), colour=theme.TEXT_DIM,
                                 role="detail") - round(body * 1.35)  # fmt: skip
    y += round(body * 1.35)
    if ui.choices:
        _draw_choices(canvas, layout, ui, pygame.Rect(x, y, rect.right - pad - x, body + layout.px(2)), body)
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


def choice_pages(canvas: Canvas, choices: tuple[str, ...], size: int, room: int, gap: int) -> list[range]:
    """``choices`` split into pages of chips that fit in ``room`` pixels, in order (a menu pages
    rather than hide its last items: every item is on exactly one page)."""
    pages: list[range] = []
    start, used = 0, 0
    for i, choice in enumerate(choices):
        w = canvas.measure(choice, size, bold=True)[0] + 2 * gap
        if i > start and used + w > room:
            pages.append(range(start, i))
            start, used = i, 0
        used += w + gap
    pages.append(range(start, len(choices)))
    return pages


def _draw_choices(canvas: Canvas, layout: Layout, ui: UiModel, row: pygame.Rect, size: int) -> None:
    """The chips PLUS/MINUS step through, a page at a time: the page holding the highlighted chip,
    and "‹ 2/3 ›" at the right when there is more than one page (where the others are)."""
    surface = canvas.surface
    pad = layout.pad
    marker = "‹ 9/9 ›"
    pages = choice_pages(canvas, ui.choices, size, row.w, pad)
    if len(pages) > 1:  # room for the position at the right
        pages = choice_pages(
            canvas, ui.choices, size, row.w - canvas.measure(marker, size, bold=True)[0] - 2 * pad, pad
        )
    page = next(n for n, p in enumerate(pages) if ui.choice_index in p or p.stop == len(ui.choices))
    cx = row.x
    for i in pages[page]:
        choice = ui.choices[i]
        selected = i == ui.choice_index
        w, h = canvas.measure(choice, size, bold=True)
        chip = pygame.Rect(cx, row.y, min(w + 2 * pad, row.right - cx), h + layout.px(2))
        with canvas.box(chip, "chip"):
            if selected:
                pygame.draw.rect(surface, theme.ACCENT, chip, border_radius=layout.px(4))
            else:
                pygame.draw.rect(surface, theme.TEXT_FAINT, chip, width=1, border_radius=layout.px(4))
            canvas.text(choice, chip.center, size, colour=(0, 0, 0) if selected else theme.TEXT, bold=selected,
                        anchor="center", role="choice_selected" if selected else "choice",
                        max_width=chip.w - 2 * pad)  # fmt: skip
        cx = chip.right + pad
    if len(pages) > 1:
        left = "‹ " if page > 0 else "  "
        right = " ›" if page < len(pages) - 1 else "  "
        canvas.text(f"{left}{page + 1}/{len(pages)}{right}", (row.right, row.y + layout.px(1)), size,
                    colour=theme.ACCENT, bold=True, anchor="topright", role="page")  # fmt: skip
