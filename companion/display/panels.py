"""One panel per player: colour + letter, bank balance, VP and score, markers, contracts held."""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from companion.display import theme
from companion.display.layout import Layout
from companion.display.record import Canvas
from companion.display.tokens import swatch


@dataclass(frozen=True, slots=True)
class PanelHeader:
    inner: pygame.Rect  # the panel's content area
    big: int
    body: int
    small: int
    line: int
    y: int  # where the rows below the header start


def draw_panel_header(
    canvas: Canvas,
    layout: Layout,
    rect: pygame.Rect,
    colour: str,
    seat: int,
    on_turn: bool,
    money: str,
    name: str | None = None,
) -> PanelHeader:
    """A player's panel frame and first row, for every game: a stripe of the player's colour down the
    left edge, a bright frame for the player on turn, then swatch, name and the bank balance (always
    visible: drawn first and right-aligned). ``name``: the player's name in the table's language
    (the game's screen passes it; the colour, capitalised, when None)."""
    surface = canvas.surface
    style = theme.player_style(colour, seat)
    radius = layout.px(5)
    pygame.draw.rect(surface, theme.PANEL_ACTIVE if on_turn else theme.PANEL, rect, border_radius=radius)
    stripe = pygame.Rect(rect.x, rect.y, layout.px(5), rect.h)
    pygame.draw.rect(surface, style.colour, stripe, border_top_left_radius=radius, border_bottom_left_radius=radius)
    if on_turn:
        pygame.draw.rect(surface, theme.ACCENT, rect, width=layout.px(2), border_radius=radius)
    pad = layout.pad
    inner = rect.inflate(-2 * pad, -2 * pad)
    inner.x += layout.px(4)
    inner.w -= layout.px(4)
    compact = len(layout.players) > 2
    big = layout.body if compact else layout.large
    body = layout.small if compact else layout.body
    small = layout.small
    sw = pygame.Rect(inner.x, inner.y, big + layout.px(4), big + layout.px(4))
    swatch(surface, sw, style)
    name = (theme.title(colour) if name is None else name) + ("  ▶" if on_turn else "")
    name_w, _ = canvas.measure(name, big, bold=True)
    money_w, _ = canvas.measure(money, big, bold=True)
    y = sw.bottom + layout.px(2)
    if sw.right + 2 * pad + name_w + money_w <= inner.right:  # one row: name left, balance right
        money_rect = canvas.text(money, (inner.right, inner.y), big, bold=True, anchor="topright", role="money")
        right = money_rect.x - pad
    else:  # a narrow panel (5 or 6 players): the balance gets a row of its own, still in full
        money_rect = canvas.text(money, (inner.x, y), big, bold=True, role="money", max_width=inner.w)
        right = inner.right
        y = money_rect.bottom + layout.px(2)
    canvas.text(name, (sw.right + pad, inner.y + layout.px(1)), big, bold=True, role="player",
                max_width=right - sw.right - pad)  # fmt: skip
    return PanelHeader(inner, big, body, small, round(small * 1.25), y)
