"""One panel per player: colour + letter, bank balance, VP and score, markers, contracts held."""

from __future__ import annotations

from collections.abc import Callable
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
    swatch(canvas, sw, style)
    name = theme.title(colour) if name is None else name
    money_w, _ = canvas.measure(money, big, bold=True)
    y = sw.bottom + layout.px(2)
    if sw.right + 2 * pad + canvas.measure(name, big, bold=True)[0] + money_w <= inner.right:  # one row
        money_rect = canvas.text(money, (inner.right, inner.y), big, bold=True, anchor="topright", role="money")
        right = money_rect.x - pad
    else:  # a narrow panel (5 or 6 players): the balance gets a row of its own, still in full
        money_rect = canvas.text(money, (inner.x, y), big, bold=True, role="money", max_width=inner.w)
        right = inner.right
        y = money_rect.bottom + layout.px(2)
    # The name in full: with the turn mark if it fits (the frame marks the turn as well), else a size down.
    room = right - sw.right - pad
    tries = [(f"{name}  ▶", big), (name, big), (name, body), (name, small)] if on_turn else [(name, big), (name, body)]
    label, size = next(((n, s) for n, s in tries if canvas.measure(n, s, bold=True)[0] <= room), tries[-1])
    canvas.text(label, (sw.right + pad, inner.y + layout.px(1) + (big - size) // 2), size, bold=True, role="player",
                max_width=room)  # fmt: skip
    return PanelHeader(inner, big, body, small, round(small * 1.25), y)


@dataclass(frozen=True, slots=True)
class PanelLine:
    text: str
    role: str
    colour: theme.RGB = theme.TEXT
    bold: bool = False
    short: str = ""  # the card by its id alone ("B01"), for a panel too small for every card in full


def draw_panel_list(
    canvas: Canvas,
    layout: Layout,
    head: PanelHeader,
    y: int,
    items: list[PanelLine],
    more: Callable[[int], str],
) -> None:
    """A panel's cards (contracts held, cargo loaded), each wrapped in full onto as many lines as it
    needs, from ``y``. When not all fit in full, every card by its id on wrapped lines ("B01 B02
    ▶B03 B04"), if those fit; else as many in full as fit, then ``more(n)`` ("+2 more")."""
    inner, small, line = head.inner, head.small, head.line
    indent = layout.px(8)
    wrapped = _wrapped(canvas, layout, head, items)
    fits = inner.bottom + (line - small) // 2  # the last line's leading may pass the edge, not its glyphs
    if y + sum(len(p) for p in wrapped) * line > fits and all(item.short for item in items):
        ids = canvas.lines("  ".join(item.short for item in items), small, inner.w)
        if y + len(ids) * line <= fits:
            for row in ids:
                canvas.text(row, (inner.x, y), small, role=items[0].role, max_width=inner.w)
                y += line
            return
    shown = 0
    for k, parts in enumerate(wrapped):
        reserve = line if k < len(wrapped) - 1 else 0  # the "+n more" line, unless this is the last card
        if y + len(parts) * line + reserve > fits:
            break
        item = items[k]
        for i, part in enumerate(parts):
            shift = indent if i else 0
            canvas.text(part, (inner.x + shift, y), small, colour=item.colour, bold=item.bold, role=item.role,
                        max_width=inner.w - shift)  # fmt: skip
            y += line
        shown += 1
    if shown < len(items):
        rest = more(len(items) - shown)
        if y + len(canvas.lines(rest, small, inner.w)) * line > fits:
            rest = f"+{len(items) - shown}"  # the short form: the count is what matters
        if y + line <= fits:
            canvas.paragraph(rest, (inner.x, y), small, inner.w, line, colour=theme.TEXT_DIM, role="more")


def _wrapped(canvas: Canvas, layout: Layout, head: PanelHeader, items: list[PanelLine]) -> list[list[str]]:
    """Each card's lines: the first at the panel's width, the rest indented."""
    indent = layout.px(8)
    out = []
    for item in items:
        out.append(canvas.lines(item.text, head.small, head.inner.w, bold=item.bold, next_width=head.inner.w - indent))
    return out


def panel_list_lines(canvas: Canvas, layout: Layout, head: PanelHeader, items: list[PanelLine]) -> int:
    """How many lines :func:`draw_panel_list` needs to show every card in full."""
    return sum(len(parts) for parts in _wrapped(canvas, layout, head, items))
