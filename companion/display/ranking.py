"""End of game: the ranking table drawn over the map, for any game (On The Way: OTW-33 score
breakdown; Auf Achse: AA-24 money and debts)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pygame

from companion.display import theme
from companion.display.layout import Layout
from companion.display.record import Canvas
from companion.display.tokens import swatch
from companion.table.messages import Catalogue


@dataclass(frozen=True, slots=True)
class RankingRow:
    place: int
    colour: str  # the player
    values: tuple[str, ...]  # one per column
    value_colours: tuple[theme.RGB, ...] = ()  # per column; default the text colour


def winners_line(t: Catalogue, colours: Sequence[str]) -> str:
    """ "Red wins!", "Red and Blue win!" in the catalogue's language (its ``screen.wins_*`` keys)."""
    if len(colours) == 1:
        return t.text("screen.wins_one", player=colours[0])
    names = [t.player_name(c) for c in colours]
    return t.text("screen.wins_many", players=t.text("screen.and", names=", ".join(names[:-1]), last=names[-1]))


def draw_ranking_table(
    canvas: Canvas,
    layout: Layout,
    area: pygame.Rect,
    rows: Sequence[RankingRow],
    heads: tuple[str, ...],
    *,
    seat_of: Callable[[str], int | None],
    sizes: tuple[int, ...] | None = None,
    bold_column: int = 0,
    note: str = "",
    title: str = "Game over",
    winners: str | None = None,
    name: Callable[[str], str] = theme.title,
) -> None:
    """A box over ``area``: "Game over", who won, one row per player (place, swatch, name, columns
    right-aligned, widths from their contents), and a note on how it was ranked. The game's screen
    passes every word translated: ``heads``, ``note``, ``title``, ``winners`` (the line naming who
    won; English when None) and ``name`` (a player's name)."""
    # What the ranking covers is no longer readable: it leaves the record too (a covering box).
    with canvas.box(area, "ranking", region="ranking", cover=True):
        _draw_ranking_table(canvas, layout, area, rows, heads, seat_of, sizes, bold_column, note, title, winners, name)


def _draw_ranking_table(
    canvas: Canvas,
    layout: Layout,
    area: pygame.Rect,
    rows: Sequence[RankingRow],
    heads: tuple[str, ...],
    seat_of: Callable[[str], int | None],
    sizes: tuple[int, ...] | None,
    bold_column: int,
    note: str,
    title: str,
    winners: str | None,
    name: Callable[[str], str],
) -> None:
    surface = canvas.surface
    pygame.draw.rect(surface, theme.BACKGROUND, area, border_radius=layout.px(6))
    pygame.draw.rect(surface, theme.ACCENT, area, width=layout.px(2), border_radius=layout.px(6))
    pad, big, body, small = layout.pad, layout.large, layout.body, layout.small
    sizes = sizes or (big,) * len(heads)
    if winners is None:
        first = [name(r.colour) for r in rows if r.place == 1]
        winners = f"{' and '.join(first)} {'win' if len(first) > 1 else 'wins'}!"
    y = area.y + 2 * pad
    canvas.text(title, (area.centerx, y), body, colour=theme.TEXT_DIM, anchor="midtop", role="ranking_title")
    y += round(body * 1.4)
    canvas.text(winners, (area.centerx, y), round(big * 1.3), bold=True, anchor="midtop", role="ranking_title",
                max_width=area.w - 2 * pad)  # fmt: skip
    y += round(big * 1.3 * 1.5)
    # Column widths from what they hold, laid out right to left; the name takes what is left.
    widths = [
        max(
            canvas.measure(h, small)[0],
            *(canvas.measure(r.values[i], sizes[i], bold=i == bold_column)[0] for r in rows),
        )
        for i, h in enumerate(heads)
    ]
    gap = layout.px(12)
    rights: list[int] = []
    x = area.right - 2 * pad
    for w in reversed(widths):
        rights.insert(0, x)
        x -= w + gap
    name_right = x
    for label, right in zip(heads, rights, strict=True):
        canvas.text(label, (right, y), small, colour=theme.TEXT_DIM, anchor="topright", role="ranking_head")
    y += round(small * 1.5)
    row_h = round(big * 1.6)
    place_right = area.x + 2 * pad + canvas.measure("6.", big, bold=True)[0]
    for row in rows:
        style = theme.player_style(row.colour, seat_of(row.colour) or 0)
        canvas.text(f"{row.place}.", (place_right, y), big, bold=True, anchor="topright", role="ranking")
        sw = pygame.Rect(place_right + pad, y, big, big)
        swatch(canvas, sw, style)
        canvas.text(name(row.colour), (sw.right + pad, y), big, bold=True, role="ranking",
                    max_width=name_right - sw.right - pad)  # fmt: skip
        for i, (value, right) in enumerate(zip(row.values, rights, strict=True)):
            colour = row.value_colours[i] if i < len(row.value_colours) else theme.TEXT
            dy = (big - sizes[i]) // 2
            canvas.text(value, (right, y + dy), sizes[i], bold=i == bold_column, colour=colour, anchor="topright",
                        role="ranking")  # fmt: skip
        y += row_h
    y += pad
    if note and y + 2 * small < area.bottom:
        canvas.text(note, (area.centerx, y), small, colour=theme.TEXT_DIM, anchor="midtop", role="ranking_note",
                    max_width=area.w - 2 * pad)  # fmt: skip
