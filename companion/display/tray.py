"""The simulator's table edge, drawn the same for every game: the five buttons and a card or pile box.

A game's simulator tray (``companion/games/<game>/simulator/tray.py``) lays out its own trays, piles
and cards and draws them with these.
"""

from __future__ import annotations

from typing import Any

import pygame

from companion.display import theme
from companion.display.record import Canvas
from companion.intents import ButtonName

BUTTONS: tuple[tuple[ButtonName, str, str], ...] = (
    (ButtonName.OK, "OK", "Enter"),
    (ButtonName.BACK, "BACK", "⌫"),
    (ButtonName.MINUS, "−", "-"),
    (ButtonName.PLUS, "+", "+"),
    (ButtonName.MENU, "MENU", "M"),
)


def button_row(x: int, body: pygame.Rect, px: Any) -> dict[ButtonName, pygame.Rect]:
    """The five buttons' places in a tray, from ``x`` to the tray body's right edge (``px``: the scale)."""
    bw = max(px(50), min(px(90), (body.right - x - 4 * px(4)) // 5))
    bh = min(body.h, px(56))
    return {
        name: pygame.Rect(x + i * (bw + px(4)), body.centery - bh // 2, bw, bh) for i, (name, *_) in enumerate(BUTTONS)
    }


def draw_buttons(canvas: Canvas, lay: Any, pressed: ButtonName | None) -> None:
    """The five buttons (either game's tray: ``lay.buttons``, ``lay.px``)."""
    surface = canvas.surface
    px = lay.px
    small = max(10, px(12))
    body = max(10, px(14))
    for name, label, key in BUTTONS:
        rect = lay.buttons[name]
        down = name is pressed
        pygame.draw.rect(surface, (200, 200, 200) if down else (58, 64, 76), rect, border_radius=px(8))
        pygame.draw.rect(surface, theme.TEXT_DIM, rect, width=1, border_radius=px(8))
        ink = (0, 0, 0) if down else theme.TEXT
        with canvas.box(rect, "button"):
            canvas.text(label, (rect.centerx, rect.centery - px(6)), body, colour=ink, bold=True, anchor="center",
                        role="button")  # fmt: skip
            canvas.text(key, (rect.centerx, rect.bottom - px(4)), max(10, small - px(2)), colour=theme.TEXT_DIM,
                        anchor="midbottom")  # fmt: skip


def box(
    canvas: Canvas,
    rect: pygame.Rect,
    head: str,
    sub: str,
    size: int,
    lay: Any,
    *,
    face_down: bool = False,
    highlight: bool = False,
    colour: tuple[int, int, int] = (60, 52, 40),
) -> None:
    surface = canvas.surface
    px = lay.px
    pygame.draw.rect(surface, colour if face_down else theme.PANEL, rect, border_radius=px(6))
    pygame.draw.rect(
        surface,
        theme.ACCENT if highlight else theme.TEXT_FAINT,
        rect,
        width=px(3) if highlight else 1,
        border_radius=px(6),
    )
    y = rect.y + px(6)
    head_size = size if canvas.measure(head, size, bold=True)[0] <= rect.w - px(6) else max(10, size - px(2))
    # At the smallest size a long word ("Události") is drawn in the regular weight, a tenth narrower.
    bold = all(canvas.measure(word, head_size, bold=True)[0] <= rect.w - px(6) for word in head.split())
    with canvas.box(rect, "tray_box"):
        for line in canvas.lines(head, head_size, rect.w - px(6), bold=bold):
            canvas.text(line, (rect.centerx, y), head_size, bold=bold, anchor="midtop", role="tray",
                        max_width=rect.w - px(6))  # fmt: skip
            y += round(size * 1.2)
        y += round(size * 0.3)
        sub_size = max(10, size - px(1))
        for word_line in canvas.lines(sub, sub_size, rect.w - px(8)):  # "4 000 DM" kept on one line
            canvas.text(word_line, (rect.centerx, y), sub_size, colour=theme.TEXT_DIM, anchor="midtop", role="tray",
                        max_width=rect.w - px(4))  # fmt: skip
            y += round(sub_size * 1.2)


def wrap(canvas: Canvas, text: str, size: int, width: int) -> list[str]:
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}".strip()
        if current and canvas.measure(trial, size)[0] > width:
            lines.append(current)
            current = word
        else:
            current = trial
    if current:
        lines.append(current)
    return lines


def draw_help(canvas: Canvas, rect: pygame.Rect, forms: tuple[str, ...], size: int) -> None:
    """The tray's help line: the first of ``forms`` (longest first) that fits the window's width."""
    text = next((f for f in forms if canvas.measure(f, size)[0] <= rect.w), forms[-1])
    canvas.text(text, rect.midleft, size, colour=theme.TEXT_DIM, anchor="midleft", role="help", max_width=rect.w)
