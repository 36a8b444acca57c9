"""The end-of-game pictures, for every game: each player's bank balance over the rounds as a line
chart, and per player the contracts paid out, money earned and spent, and the biggest payout.

Drawn from a ``GameStats`` value; used by the kiosk's ranking screen and ``companion export --stats``.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pygame

from companion.display import theme
from companion.display.ranking import winners_line
from companion.display.record import Canvas, FrameRecord
from companion.display.tokens import swatch
from companion.engine.money import format_money
from companion.engine.stats import GameStats
from companion.table.messages import Catalogue


def _texts(language: str) -> Catalogue:
    """The platform catalogue (its ``stats`` section and the players' names); cached by the reader."""
    return Catalogue(language)


def draw_balance_chart(canvas: Canvas, rect: pygame.Rect, stats: GameStats, unit: int, *, language: str = "en") -> None:
    """Balance (y) over rounds (x), one line per player in the player's colour, with a legend."""
    surface = canvas.surface
    canvas.record.regions["chart"] = (rect.x, rect.y, rect.w, rect.h)
    pygame.draw.rect(surface, theme.PANEL, rect, border_radius=unit // 3)
    small = max(10, unit * 2 // 3)
    plot = rect.inflate(-unit * 5, -unit * 3)
    plot.x = rect.x + unit * 4
    values = [b for p in stats.players for b in p.balances] or [0]
    low, high = min(0, *values), max(1, *values)
    rounds = stats.rounds or (0,)

    def point(i: int, value: int) -> tuple[int, int]:
        x = plot.x + (plot.w * i // max(1, len(rounds) - 1) if len(rounds) > 1 else plot.w // 2)
        y = plot.bottom - round((value - low) * plot.h / (high - low))
        return x, y

    pygame.draw.line(surface, theme.TEXT_FAINT, plot.bottomleft, plot.bottomright)
    pygame.draw.line(surface, theme.TEXT_FAINT, plot.bottomleft, plot.topleft)
    for value in (low, (low + high) // 2, high):
        y = point(0, value)[1]
        canvas.text(format_money(value, stats.currency), (plot.x - unit // 3, y), small, colour=theme.TEXT_DIM,
                    anchor="midright", role="axis")  # fmt: skip
    step = max(1, len(rounds) // 8)
    for i in range(0, len(rounds), step):
        canvas.text(str(rounds[i]), (point(i, low)[0], plot.bottom + unit // 4), small, colour=theme.TEXT_DIM,
                    anchor="midtop", role="axis")  # fmt: skip
    canvas.text(_texts(language).text("stats.round"), (plot.x - unit // 3, plot.bottom + unit // 4), small,
                colour=theme.TEXT_FAINT, anchor="topright")  # fmt: skip
    for seat, player in enumerate(stats.players):
        style = theme.player_style(player.colour, seat)
        points = [point(i, b) for i, b in enumerate(player.balances)]
        if len(points) > 1:
            pygame.draw.lines(surface, style.colour, False, points, max(2, unit // 6))
        for p in points[-1:]:
            pygame.draw.circle(surface, style.colour, p, max(3, unit // 4))


def draw_player_figures(
    canvas: Canvas,
    rect: pygame.Rect,
    stats: GameStats,
    unit: int,
    money: Callable[[int], str],
    *,
    language: str = "en",
) -> None:
    """One row per player, in ranking order: swatch, name, delivered, earned, spent, biggest payout."""
    t = _texts(language)
    order = {str(s.get("colour")): i for i, s in enumerate(stats.standings)}
    players = sorted(enumerate(stats.players), key=lambda sp: order.get(sp[1].colour, len(order)))
    small = max(10, unit * 2 // 3)
    heads = tuple(t.text(f"stats.{key}") for key in ("delivered", "earned", "spent", "biggest_payout"))
    cols = [rect.x + rect.w * k // 10 for k in (3, 5, 7, 9)]
    for head, x in zip(heads, cols, strict=True):
        canvas.text(head, (x, rect.y), small, colour=theme.TEXT_DIM, anchor="midtop", role="stats_head")
    y = rect.y + unit
    for seat, p in players:
        style = theme.player_style(p.colour, seat)
        swatch(canvas, pygame.Rect(rect.x, y, unit, unit), style)
        canvas.text(t.player_name(p.colour), (rect.x + unit + unit // 3, y), unit, bold=True, role="stats_player",
                    max_width=cols[0] - rect.x - unit * 3)  # fmt: skip
        best = money(p.biggest_payout) + (f" ({p.biggest_card})" if p.biggest_card else "")
        for text, x in zip((str(p.delivered), money(p.earned), money(p.spent), best), cols, strict=True):
            canvas.text(text, (x, y), small, anchor="midtop", role="stats_value", max_width=rect.w // 5)
        y += int(unit * 1.4)


def draw_stats(
    surface: pygame.Surface,
    stats: GameStats,
    *,
    title: str = "",
    language: str = "en",
    game_id: int | None = None,
    played: tuple[float, float | None] | None = None,
) -> FrameRecord:
    """A whole picture: which game, when and who won, the balance chart, the figures per player, in
    ``language``. ``game_id``: the journal's number of the game; ``played``: its start and end
    (Unix seconds; the end None while it is open), shown in local time."""
    w, h = surface.get_size()
    record = FrameRecord((w, h))
    canvas = Canvas(surface, record)
    surface.fill(theme.BACKGROUND)
    unit = max(12, h // 26)
    t = _texts(language)

    def money(amount: int) -> str:
        return format_money(amount, stats.currency)

    title = title or t.text("stats.title", title=stats.title)
    canvas.text(title, (w // 2, unit // 2), int(unit * 1.5), bold=True,
                anchor="midtop", role="title", max_width=w - 2 * unit)  # fmt: skip
    canvas.text(which_game(t, stats, game_id, played), (w // 2, unit * 2 + unit // 4), unit, colour=theme.TEXT_DIM,
                anchor="midtop", role="which", max_width=w - 2 * unit)  # fmt: skip
    figures_h = int(unit * 1.4) * len(stats.players) + unit * 2
    chart = pygame.Rect(unit, unit * 4, w - 2 * unit, h - unit * 5 - figures_h)
    draw_balance_chart(canvas, chart, stats, unit, language=language)
    figures = pygame.Rect(unit, chart.bottom + unit // 2, w - 2 * unit, figures_h)
    draw_player_figures(canvas, figures, stats, unit, money, language=language)
    return record


def which_game(t: Catalogue, stats: GameStats, game_id: int | None, played: tuple[float, float | None] | None) -> str:
    """ "Game 12 · 2026-12-01 20:14–21:02 · Red wins!": which game, when, who won."""
    parts = []
    if game_id is not None:
        parts.append(t.text("stats.game_number", n=game_id))
    if played is not None:
        start, end = (time.localtime(s) if s is not None else None for s in played)
        assert start is not None
        when = time.strftime("%Y-%m-%d %H:%M", start)
        if end is not None:
            when += "–" + time.strftime("%H:%M" if end[:3] == start[:3] else "%Y-%m-%d %H:%M", end)
        parts.append(when)
    first = [str(s.get("colour")) for s in stats.standings if s.get("place") == 1]
    if first:
        parts.append(winners_line(t, first))
    return " · ".join(parts)
