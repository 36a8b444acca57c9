"""The bank ledger as a feed, newest first: "+1 500 R Red — contract B01 Bremen→Poznań".

An undo shows as a reversal entry (↶) and the entry it cancels is struck through: nothing silently
disappears from the audit trail (style point 6).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from companion.display import theme
from companion.display.layout import Layout
from companion.display.record import Canvas
from companion.engine.ledger import LedgerEntry
from companion.table.ui import UiModel

MAX_ENTRIES = 40  # never more than fit on a 1080p screen; only the newest are read


def ledger_line(
    entry: LedgerEntry,
    money: Callable[..., str] = theme.money,
    name: Callable[[str], str] = str,
    reason: Callable[[str], str] = str,
) -> str:
    """``name``: the player as the table's language calls it; ``reason``: the engine's ledger text
    (booked in English) in that language (``Catalogue.reason``)."""
    text = f"{money(entry.amount, signed=True)} {name(entry.player)} — {reason(entry.reason)}"
    if entry.reverses is not None:
        text = f"↶ {text} (#{entry.reverses})"
    return text


def recent_entries(state: Any, limit: int = MAX_ENTRIES) -> list[LedgerEntry]:
    """The newest ``limit`` entries, newest first (walks the linked list; no full copy)."""
    out: list[LedgerEntry] = []
    node = state.ledger
    while node is not None and node.last is not None and len(out) < limit:
        out.append(node.last)
        node = node.previous  # type: ignore[assignment]
    return out


def draw_feed(
    canvas: Canvas,
    layout: Layout,
    state: Any,
    ui: UiModel,
    *,
    money: Callable[..., str] = theme.money,
    rect: pygame.Rect | None = None,
    title: str = "Bank",
    name: Callable[[str], str] = str,
    reason: Callable[[str], str] = str,
) -> None:
    """The ledger of either game (both states have ``ledger`` and ``config.seat_of``). ``title`` and
    ``name`` (a player's colour as a label) come translated from the game's screen."""
    rect = layout.feed if rect is None else rect
    with canvas.box(rect, "feed", region="feed"):
        _draw_feed(canvas, layout, rect, state, ui, money, title, name, reason)


def _draw_feed(
    canvas: Canvas,
    layout: Layout,
    rect: pygame.Rect,
    state: Any,
    ui: UiModel,
    money: Callable[..., str],
    title: str,
    name: Callable[[str], str],
    reason: Callable[[str], str],
) -> None:
    surface = canvas.surface
    pygame.draw.rect(surface, theme.PANEL, rect, border_radius=layout.px(5))
    pad = layout.pad
    small = layout.small
    inner = rect.inflate(-2 * pad, -2 * pad)
    y = inner.y
    head = canvas.text(title, (inner.x, y), layout.body, bold=True, role="feed_title")
    y = head.bottom + layout.px(2)
    line = round(small * 1.3)
    if ui.message:  # beside the title when it fits, else wrapped under it: the advice is read in full
        beside = inner.right - head.right - 2 * pad
        if canvas.measure(ui.message, small)[0] <= beside:
            canvas.text(ui.message, (head.right + 2 * pad, inner.y + layout.px(1)), small, colour=theme.ACCENT,
                        role="message")  # fmt: skip
        else:
            room = max(1, (inner.bottom - y + line - small) // line)  # a long advice takes the ledger's place
            for part in canvas.lines(ui.message, small, inner.w, max_lines=room):
                canvas.text(part, (inner.x, y), small, colour=theme.ACCENT, role="message", max_width=inner.w)
                y += line
    entries = recent_entries(state, max(1, (inner.bottom - y) // line))
    reversed_seqs = {e.reverses for e in recent_entries(state) if e.reverses is not None}
    width = inner.right - inner.x - small - pad
    indent = layout.px(10)
    for entry in entries:
        text = ledger_line(entry, money, name, reason)
        # A long line wraps (indented) rather than lose its end; an entry that does not fit in full
        # is left for the older ones below it (the feed shows the newest first).
        parts = canvas.lines(text, small, width, next_width=width - indent)
        if y + len(parts) * line > inner.bottom + (line - small) // 2:
            break
        struck = entry.seq in reversed_seqs
        if entry.reverses is not None or struck:
            colour = theme.TEXT_FAINT
        else:
            colour = theme.CREDIT if entry.amount >= 0 else theme.DEBIT
        seat = state.config.seat_of(entry.player)
        style = theme.player_style(entry.player, seat or 0)
        dot = pygame.Rect(inner.x, y + layout.px(2), small - layout.px(2), small - layout.px(2))
        pygame.draw.rect(surface, style.colour, dot, border_radius=layout.px(2))
        for k, part in enumerate(parts):
            shift = indent if k else 0
            drawn = canvas.text(part, (dot.right + pad + shift, y), small, colour=colour, role="ledger",
                                max_width=width - shift)  # fmt: skip
            if struck:
                pygame.draw.line(surface, theme.TEXT_DIM, (drawn.x, drawn.centery), (drawn.right, drawn.centery), 1)
            y += line
