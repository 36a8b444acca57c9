"""End of game: the ranking with its score breakdown (OTW-33), drawn over the map."""

from __future__ import annotations

import pygame

from companion.display import theme
from companion.display.layout import Layout
from companion.display.record import Canvas
from companion.display.tokens import swatch
from companion.engine.otw.scoring import ranking
from companion.engine.otw.state import GameState


def draw_ranking(canvas: Canvas, layout: Layout, state: GameState) -> None:
    surface = canvas.surface
    area = layout.map.inflate(-layout.px(16), -layout.px(16))
    canvas.record.regions["ranking"] = (area.x, area.y, area.w, area.h)
    # What the ranking covers is no longer readable: it leaves the record too.
    canvas.record.texts = [t for t in canvas.record.texts if not area.colliderect(pygame.Rect(t.rect))]
    pygame.draw.rect(surface, theme.BACKGROUND, area, border_radius=layout.px(6))
    pygame.draw.rect(surface, theme.ACCENT, area, width=layout.px(2), border_radius=layout.px(6))
    pad = layout.pad
    big = layout.large
    body = layout.body
    standings = ranking(state)
    winners = [theme.title(s.colour) for s in standings if s.place == 1]
    title = f"{' and '.join(winners)} {'win' if len(winners) > 1 else 'wins'}!"
    y = area.y + 2 * pad
    canvas.text("Game over", (area.centerx, y), body, colour=theme.TEXT_DIM, anchor="midtop", role="ranking_title")
    y += round(body * 1.4)
    canvas.text(title, (area.centerx, y), round(big * 1.3), bold=True, anchor="midtop", role="ranking_title")
    y += round(big * 1.3 * 1.5)
    rows = [
        (
            s,
            (str(s.score), str(s.vp_tokens), str(s.vp_from_money), theme.money(s.money)),
        )
        for s in standings
    ]
    heads = ("score", "VP tokens", "VP from R", "R (ties)")
    small = layout.small
    # Column widths from what they hold, laid out right to left; the name takes what is left.
    widths = [
        max(canvas.measure(h, small)[0], *(canvas.measure(v[i], big, bold=i == 0)[0] for _, v in rows))
        for i, h in enumerate(heads)
    ]
    gap = layout.px(14)
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
    place_right = area.x + 2 * pad + canvas.measure("4.", big, bold=True)[0]
    for standing, values in rows:
        seat = state.config.seat_of(standing.colour) or 0
        style = theme.player_style(standing.colour, seat)
        canvas.text(f"{standing.place}.", (place_right, y), big, bold=True, anchor="topright", role="ranking")
        sw = pygame.Rect(place_right + pad, y, big, big)
        swatch(surface, sw, style)
        canvas.text(
            theme.title(standing.colour),
            (sw.right + pad, y),
            big,
            bold=True,
            role="ranking",
            max_width=name_right - sw.right - pad,
        )
        for i, (value, right) in enumerate(zip(values, rights, strict=True)):
            canvas.text(value, (right, y), big, bold=i == 0, anchor="topright", role="ranking")
        y += row_h
    y += pad
    canvas.text(
        "score = VP tokens + 1 VP per full 3 000 R; ties: most R (OTW-33)",
        (area.centerx, y),
        layout.small,
        colour=theme.TEXT_DIM,
        anchor="midtop",
        role="ranking_note",
        max_width=area.w - 2 * pad,
    )
