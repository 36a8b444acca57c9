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


def ledger_line(entry: LedgerEntry, money: Callable[..., str] = theme.money, name: Callable[[str], str] = str) -> str:
    """``name``: the player as the table's language calls it (the caller's catalogue); the reason is
    the engine's ledger text and stays as it was booked (English)."""
    text = f"{money(entry.amount, signed=True)} {name(entry.player)} — {entry.reason}"
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
) -> None:
    """The ledger of either game (both states have ``ledger`` and ``config.seat_of``). ``title`` and
    ``name`` (a player's colour as a label) come translated from the game's screen."""
    surface = canvas.surface
    rect = layout.feed if rect is None else rect
    canvas.record.regions["feed"] = (rect.x, rect.y, rect.w, rect.h)
    pygame.draw.rect(surface, theme.PANEL, rect, border_radius=layout.px(5))
    pad = layout.pad
    small = layout.small
    inner = rect.inflate(-2 * pad, -2 * pad)
    y = inner.y
    head = canvas.text(title, (inner.x, y), layout.body, bold=True, role="feed_title")
    if ui.message:
        canvas.text(
            ui.message,
            (head.right + 2 * pad, y + layout.px(1)),
            small,
            colour=theme.ACCENT,
            role="message",
            max_width=inner.right - head.right - 2 * pad,
        )
    y = head.bottom + layout.px(2)
    line = round(small * 1.3)
    entries = recent_entries(state, max(1, (inner.bottom - y) // line))
    reversed_seqs = {e.reverses for e in recent_entries(state) if e.reverses is not None}
    width = inner.right - inner.x - small - pad
    for entry in entries:
        if y + line > inner.bottom + layout.px(2):
            break
        text = ledger_line(entry, money, name)
        struck = entry.seq in reversed_seqs
        if entry.reverses is not None or struck:
            colour = theme.TEXT_FAINT
        else:
            colour = theme.CREDIT if entry.amount >= 0 else theme.DEBIT
        seat = state.config.seat_of(entry.player)
        style = theme.player_style(entry.player, seat or 0)
        dot = pygame.Rect(inner.x, y + layout.px(2), small - layout.px(2), small - layout.px(2))
        pygame.draw.rect(surface, style.colour, dot, border_radius=layout.px(2))
        # A long line wraps once (indented) rather than lose its end; a third line would be cut.
        parts = _wrap(canvas, text, small, width)
        if len(parts) > 1 and y + 2 * line > inner.bottom + layout.px(2):
            parts = [text]
        for k, part in enumerate(parts[:2]):
            indent = layout.px(10) if k else 0
            drawn = canvas.text(
                part, (dot.right + pad + indent, y), small, colour=colour, role="ledger", max_width=width - indent
            )
            if struck:
                pygame.draw.line(surface, theme.TEXT_DIM, (drawn.x, drawn.centery), (drawn.right, drawn.centery), 1)
            y += line


def _wrap(canvas: Canvas, text: str, size: int, width: int) -> list[str]:
    if canvas.measure(text, size)[0] <= width:
        return [text]
    words = text.split(" ")
    for cut in range(len(words) - 1, 0, -1):
        head = " ".join(words[:cut])
        if canvas.measure(head, size)[0] <= width:
            return [head, " ".join(words[cut:])]
    return [text]
