"""The big screen (1920×1080): the event's ranking per game on the left, the live tables on the right.

A pure function of (model, connection state, clock) → pixels (style point 12); it never changes the
model. Fonts come from the caller (the CLI passes the shipped DejaVu Sans; the default is pygame's
own font), so this package imports no other part of companion. Seat colours are drawn as a swatch
with the colour's initial and written out: colour is never the only cue.
"""

from __future__ import annotations

import contextlib
import functools
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

import pygame

from companion.leaderboard.model import BoardModel, GameRanking, LiveTable
from companion.leaderboard.topics import PlayerLine
from companion.text import printable

log = logging.getLogger(__name__)

RGB = tuple[int, int, int]
FontSource = Callable[[int, bool], pygame.font.Font]
SIZE = (1920, 1080)

BACKGROUND: RGB = (16, 20, 28)
PANEL: RGB = (30, 36, 48)
PANEL_EDGE: RGB = (52, 62, 80)
TEXT: RGB = (236, 238, 240)
DIM: RGB = (160, 166, 176)
FAINT: RGB = (110, 116, 128)
ACCENT: RGB = (255, 214, 10)
GOOD: RGB = (120, 220, 140)
BAD: RGB = (255, 120, 100)
MEDALS: tuple[RGB, ...] = ((255, 214, 10), (200, 205, 215), (205, 140, 80))

# Okabe–Ito where the box's colours have one (as the table's own screen draws them).
SEATS: dict[str, RGB] = {
    "red": (230, 97, 0),
    "blue": (86, 180, 233),
    "green": (0, 170, 125),
    "yellow": (240, 228, 66),
    "black": (150, 150, 150),
    "white": (245, 245, 245),
    "orange": (230, 159, 0),
    "purple": (204, 121, 167),
}


def default_fonts() -> FontSource:
    cache: dict[tuple[int, bool], pygame.font.Font] = {}

    def font(size: int, bold: bool) -> pygame.font.Font:
        key = (size, bold)
        if key not in cache:
            if not pygame.font.get_init():
                pygame.font.init()
            f = pygame.font.Font(None, int(size * 1.3))  # pygame's default font runs small
            f.set_bold(bold)
            cache[key] = f
        return cache[key]

    return font


@dataclass(frozen=True, slots=True)
class BoardView:
    """What the screen shows besides the model: the event's name, the link, the time."""

    event: str = "Leaderboard"
    connected: bool = False
    broker: str = ""
    now: float = 0.0


def render(surface: pygame.Surface, model: BoardModel, view: BoardView, fonts: FontSource) -> None:
    """Every part is drawn on its own (``_guarded``): whatever one message holds, a part it breaks
    shows "cannot be shown" and the rest of the board is still drawn."""
    w, h = surface.get_size()
    surface.fill(BACKGROUND)
    right_w = max(420, w * 30 // 100)
    rankings = pygame.Rect(40, 130, w - 80 - right_w - 30, h - 130 - 70)
    live = pygame.Rect(rankings.right + 30, 130, right_w, h - 130 - 70)
    header, footer = pygame.Rect(40, 24, w - 80, 90), pygame.Rect(40, h - 56, w - 80, 40)
    _guarded(surface, fonts, header, "the header", lambda: _header(surface, model, view, fonts, header))
    _guarded(surface, fonts, rankings, "the rankings",
             lambda: _rankings(surface, model.rankings(limit=10), fonts, rankings))  # fmt: skip
    _guarded(surface, fonts, live, "the live tables", lambda: _live(surface, model.live_tables(), view, fonts, live))
    _guarded(surface, fonts, footer, "the footer", lambda: _footer(surface, model, view, fonts, footer))


_FAILED: set[str] = set()  # parts whose failure was logged already (a broken message is drawn every frame)


def _guarded(
    surface: pygame.Surface, fonts: FontSource, rect: pygame.Rect, part: str, draw: Callable[[], None]
) -> None:
    try:
        draw()
    except Exception as exc:  # one message's text or number must never take the whole screen down
        if part not in _FAILED:
            _FAILED.add(part)
            log.exception("leaderboard: %s cannot be drawn (%s)", part, exc)
        with contextlib.suppress(Exception):
            pygame.draw.rect(surface, PANEL, rect, border_radius=16)
            _text(surface, f"{part}: cannot be shown", fonts(24, False), BAD, (rect.left + 20, rect.top + 16),
                  rect.width - 40)  # fmt: skip


# -- parts ----------------------------------------------------------------------------------------
def _header(surface: pygame.Surface, model: BoardModel, view: BoardView, fonts: FontSource, rect: pygame.Rect) -> None:
    _text(surface, view.event, fonts(56, True), TEXT, rect.topleft, rect.width * 6 // 10)
    tables = len(model.live_tables())
    games = len(model.results)
    summary = f"{tables} table{'s' * (tables != 1)} · {games} game{'s' * (games != 1)} finished"
    f = fonts(30, False)
    img = f.render(_clean(summary), True, DIM)
    surface.blit(img, (rect.right - img.get_width(), rect.top + 4))
    link = "live" if view.connected else "no connection to the broker — showing what came before"
    colour = GOOD if view.connected else BAD
    img = fonts(24, False).render(link, True, colour)
    x = rect.right - img.get_width()
    surface.blit(img, (x, rect.top + 48))
    pygame.draw.circle(surface, colour, (x - 18, rect.top + 48 + img.get_height() // 2), 8)


def _rankings(surface: pygame.Surface, rankings: list[GameRanking], fonts: FontSource, area: pygame.Rect) -> None:
    if not rankings:
        _panel(surface, area)
        _centred(surface, "No finished games yet", fonts(40, True), DIM, area.center)
        _centred(surface, "Each table's results appear here as soon as its game ends.", fonts(26, False), FAINT,
                 (area.centerx, area.centery + 50))  # fmt: skip
        return
    shown = rankings[:4]
    if len(shown) <= 2:
        cells = _split_columns(area, len(shown))
    else:
        top, bottom = _split_rows(area, 2)
        cells = [*_split_columns(top, 2), *_split_columns(bottom, 2)][: len(shown)]
    for ranking, cell in zip(shown, cells, strict=True):
        _guarded(surface, fonts, cell, f"the ranking of {_clean(ranking.game.title)}",
                 functools.partial(_ranking, surface, ranking, fonts, cell, tall=len(shown) <= 2))  # fmt: skip


def _ranking(
    surface: pygame.Surface, ranking: GameRanking, fonts: FontSource, rect: pygame.Rect, *, tall: bool
) -> None:
    _panel(surface, rect)
    inner = rect.inflate(-40, -32)
    _text(surface, ranking.game.title, fonts(40 if tall else 32, True), ACCENT, inner.topleft, inner.width)
    label = ranking.game.score_label or "score"
    played = f"{ranking.games_played} game{'s' * (ranking.games_played != 1)} · best {label}"
    y = inner.top + (52 if tall else 42)
    _text(surface, played, fonts(22, False), DIM, (inner.left, y), inner.width)
    y += 40
    row_h = 70 if tall else 44
    size = 34 if tall else 24
    for entry in ranking.entries:
        if y + row_h > inner.bottom:
            break
        place = entry.rank  # ties share it, as the tables rank them (model.ranked)
        medal = MEDALS[place - 1] if place <= 3 else DIM
        _text(surface, f"{place}.", fonts(size, True), medal, (inner.left, y), 60)
        _swatch(surface, entry.colour, fonts, pygame.Rect(inner.left + 64, y + 2, row_h - 16, row_h - 16))
        score = fonts(size, True).render(_clean(f"{entry.score} {label}".strip()), True, TEXT)
        surface.blit(score, (inner.right - score.get_width(), y))
        x = inner.left + 64 + row_h
        room = inner.right - score.get_width() - 16 - x
        name = _fit(entry.colour.capitalize(), fonts(size, False), room)
        img = fonts(size, False).render(name or " ", True, TEXT)
        surface.blit(img, (x, y))
        table = fonts(max(16, size * 2 // 3), False)
        where = _fit(f"table {entry.table}", table, room - img.get_width() - 12)
        if where:
            surface.blit(
                table.render(where, True, DIM), (x + img.get_width() + 12, y + img.get_height() - table.get_height())
            )
        if tall:
            money = fonts(20, False).render(
                _fit(entry.money_text, fonts(20, False), inner.width // 3) or " ", True, FAINT
            )
            surface.blit(money, (inner.right - money.get_width(), y + score.get_height() - 2))
        y += row_h


def _live(
    surface: pygame.Surface, tables: list[LiveTable], view: BoardView, fonts: FontSource, area: pygame.Rect
) -> None:
    _panel(surface, area)
    inner = area.inflate(-40, -32)
    _text(surface, "Live tables", fonts(40, True), ACCENT, inner.topleft, inner.width)
    y = inner.top + 64
    if not tables:
        _text(surface, "No table has reported yet.", fonts(24, False), FAINT, (inner.left, y), inner.width)
        return
    compact = sum(_card_height(t, compact=False) for t in tables) > inner.bottom - y
    for n, table in enumerate(tables):
        needed = _card_height(table, compact=compact)
        if y + needed > inner.bottom - (0 if n == len(tables) - 1 else 34):  # room for "+ n more"
            more = len(tables) - n
            _text(
                surface, f"+ {more} more table{'s' * (more != 1)}", fonts(24, False), DIM, (inner.left, y), inner.width
            )
            break
        card = pygame.Rect(inner.left, y, inner.width, needed - 12)
        _guarded(surface, fonts, card, f"table {_clean(table.table)}",
                 functools.partial(_card, surface, table, fonts, card, compact=compact))  # fmt: skip
        y += needed


def _card_height(table: LiveTable, *, compact: bool) -> int:
    game = table.state.game if table.state else None
    if game is None:
        return 60 + 12
    return 60 + 34 + (36 if compact else 40 * len(game.players)) + 12


def _card(surface: pygame.Surface, table: LiveTable, fonts: FontSource, rect: pygame.Rect, *, compact: bool) -> None:
    pygame.draw.rect(surface, BACKGROUND, rect, border_radius=10)
    pygame.draw.rect(surface, PANEL_EDGE, rect, width=2, border_radius=10)
    x, y = rect.left + 16, rect.top + 10
    dot = GOOD if table.online else BAD
    pygame.draw.circle(surface, dot, (x + 8, y + 20), 8)
    game = table.state.game if table.state else None
    if game is None:
        status = "waiting for a game" if table.online else "offline"
    elif game.finished:
        status = "game over"
    else:
        status = f"round {game.round}" if game.round is not None else "playing"
    if not table.online and game is not None:
        status += " · offline"
    img = fonts(24, False).render(status, True, DIM if table.online else BAD)
    surface.blit(img, (rect.right - 16 - img.get_width(), y + 8))
    _text(surface, f"Table {table.table}", fonts(30, True), TEXT, (x + 26, y), rect.width - img.get_width() - 80)
    if game is None:
        return
    y += 46
    turn = f" · {game.turn}'s turn" if game.turn and not game.finished else ""
    _text(surface, f"{game.game.title}{turn}", fonts(24, False), ACCENT, (x, y), rect.width - 32)
    y += 34
    players = sorted(game.players, key=lambda p: (p.place, p.colour))
    if compact:  # one line: swatch and score per seat
        f = fonts(24, True)
        for p in players:
            score = f.render(str(p.score), True, TEXT)
            if x + 34 + score.get_width() > rect.right - 16:
                break
            _swatch(surface, p.colour, fonts, pygame.Rect(x, y + 2, 26, 26))
            surface.blit(score, (x + 32, y))
            x += 32 + score.get_width() + 22
        return
    for player in players:
        _player_row(surface, player, game.game.score_label, fonts, pygame.Rect(x, y, rect.width - 32, 36))
        y += 40


def _player_row(surface: pygame.Surface, p: PlayerLine, label: str, fonts: FontSource, rect: pygame.Rect) -> None:
    _text(surface, f"{p.place}.", fonts(24, False), DIM, rect.topleft, 40)
    _swatch(surface, p.colour, fonts, pygame.Rect(rect.left + 40, rect.top + 2, 28, 28))
    _text(surface, p.colour.capitalize(), fonts(24, False), TEXT, (rect.left + 80, rect.top), rect.width // 3)
    score = fonts(24, True).render(_clean(f"{p.score} {label}".strip()), True, TEXT)
    surface.blit(score, (rect.right - score.get_width(), rect.top))
    money = fonts(20, False).render(_fit(p.money_text, fonts(20, False), rect.width // 4) or " ", True, FAINT)
    surface.blit(money, (rect.right - score.get_width() - 24 - money.get_width(), rect.top + 4))


def _footer(surface: pygame.Surface, model: BoardModel, view: BoardView, fonts: FontSource, rect: pygame.Rect) -> None:
    parts = [view.broker] if view.broker else []
    if model.dropped:
        why = ", ".join(f"{reason} {n}" for reason, n in sorted(model.rejected.items()))
        parts.append(f"{model.dropped} bad message{'s' * (model.dropped != 1)} dropped ({why})")
    if view.now:
        parts.append(datetime.fromtimestamp(view.now).strftime("%H:%M"))
    _text(surface, "  ·  ".join(parts), fonts(20, False), FAINT, rect.topleft, rect.width)


# -- drawing helpers -------------------------------------------------------------------------------
def _panel(surface: pygame.Surface, rect: pygame.Rect) -> None:
    pygame.draw.rect(surface, PANEL, rect, border_radius=16)


def _swatch(surface: pygame.Surface, colour: str, fonts: FontSource, rect: pygame.Rect) -> None:
    rgb = seat_rgb(colour)
    pygame.draw.rect(surface, rgb, rect, border_radius=6)
    ink = (0, 0, 0) if sum(rgb) > 380 else (255, 255, 255)
    _centred(surface, colour[:1].upper(), fonts(max(12, rect.height * 2 // 3), True), ink, rect.center)


def seat_rgb(colour: str) -> RGB:
    known = SEATS.get(colour.lower())
    if known:
        return known
    try:
        c = pygame.Color(colour.lower())
        return (c.r, c.g, c.b)
    except ValueError:
        return (128, 128, 128)


def _text(
    surface: pygame.Surface, text: str, font: pygame.font.Font, colour: RGB, pos: tuple[int, int], width: int
) -> None:
    fitted = _fit(text, font, width)
    if fitted:
        surface.blit(font.render(fitted, True, colour), pos)


def _centred(surface: pygame.Surface, text: str, font: pygame.font.Font, colour: RGB, centre: tuple[int, int]) -> None:
    img = font.render(_clean(text) or " ", True, colour)
    surface.blit(img, img.get_rect(center=centre))


def _clean(text: str) -> str:
    """What may be drawn: no NUL, control, zero-width or bidi character (each becomes U+FFFD), at most
    100 characters. The decoder refuses such text already; this holds whatever else reaches here."""
    return printable(str(text), 100)


def _fit(text: str, font: pygame.font.Font, width: int) -> str:
    """``text`` cut with an ellipsis to ``width`` pixels ("" if not even "x…" fits)."""
    text = _clean(text)
    if font.size(text)[0] <= width:
        return text
    if font.size(text[:1] + "…")[0] > width:
        return ""
    while text and font.size(text + "…")[0] > width:
        text = text[:-1]
    return text + "…"


def _split_columns(rect: pygame.Rect, n: int, gap: int = 30) -> list[pygame.Rect]:
    w = (rect.width - gap * (n - 1)) // n
    return [pygame.Rect(rect.left + i * (w + gap), rect.top, w, rect.height) for i in range(n)]


def _split_rows(rect: pygame.Rect, n: int, gap: int = 30) -> list[pygame.Rect]:
    h = (rect.height - gap * (n - 1)) // n
    return [pygame.Rect(rect.left, rect.top + i * (h + gap), rect.width, h) for i in range(n)]
