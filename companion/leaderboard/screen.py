"""The big screen (1920×1080): the event's ranking per game on the left, the live tables on the right.

A pure function of (model, connection state, clock) → pixels (style point 12); it never changes the
model. Fonts come from the caller (the CLI passes the shipped DejaVu Sans; the default is pygame's
own font). Its words are in the board's language (``BoardView.language``): its own catalogue
(``companion/leaderboard/messages``) over the platform's (the seats' names); it needs no game's
code: a game's score unit is translated when the catalogue knows it (``score_unit.VP``) and shown as
the message carries it otherwise. Seat colours are drawn as a swatch with the name's initial and
written out: colour is never the only cue.
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
from companion.table.messages import Catalogue
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
    """What the screen shows besides the model: the event's name ("": the catalogue's title), the
    link, the time, the language of its words."""

    event: str = ""
    connected: bool = False
    broker: str = ""
    now: float = 0.0
    language: str = "en"


BOARD_MESSAGES = "companion.leaderboard"  # the package whose ``messages/`` hold the board's words


@functools.cache
def board_texts(language: str) -> Catalogue:
    """The board's catalogue in ``language``: its own words over the platform's (seat names)."""
    return Catalogue(language, BOARD_MESSAGES)


def score_unit(label: str, t: Catalogue) -> str:
    """A game's score unit as the message carries it ("VP"), in ``t``'s language when the catalogue
    knows it ("VB"); an unknown one as it came, none as "score"."""
    if not label:
        return t.text("board.score")
    return t.get(f"score_unit.{label}") or label


def render(surface: pygame.Surface, model: BoardModel, view: BoardView, fonts: FontSource) -> None:
    """Every part is drawn on its own (``_guarded``): whatever one message holds, a part it breaks
    shows "cannot be shown" and the rest of the board is still drawn."""
    w, h = surface.get_size()
    t = board_texts(view.language)
    surface.fill(BACKGROUND)
    right_w = max(420, w * 30 // 100)
    rankings = pygame.Rect(40, 130, w - 80 - right_w - 30, h - 130 - 70)
    live = pygame.Rect(rankings.right + 30, 130, right_w, h - 130 - 70)
    header, footer = pygame.Rect(40, 24, w - 80, 90), pygame.Rect(40, h - 56, w - 80, 40)
    _guarded(surface, t, fonts, header, t.text("board.part_header"),
             lambda: _header(surface, model, view, t, fonts, header))  # fmt: skip
    _guarded(surface, t, fonts, rankings, t.text("board.part_rankings"),
             lambda: _rankings(surface, model.rankings(limit=10), t, fonts, rankings))  # fmt: skip
    _guarded(surface, t, fonts, live, t.text("board.part_live"),
             lambda: _live(surface, model.live_tables(), t, fonts, live))  # fmt: skip
    _guarded(surface, t, fonts, footer, t.text("board.part_footer"),
             lambda: _footer(surface, model, view, t, fonts, footer))  # fmt: skip


_FAILED: set[str] = set()  # parts whose failure was logged already (a broken message is drawn every frame)


def _guarded(
    surface: pygame.Surface, t: Catalogue, fonts: FontSource, rect: pygame.Rect, part: str, draw: Callable[[], None]
) -> None:
    """``part`` is the part's name in the board's language: logged, and shown if it cannot be drawn."""
    try:
        draw()
    except Exception as exc:  # one message's text or number must never take the whole screen down
        if part not in _FAILED:
            _FAILED.add(part)
            log.exception("leaderboard: %s cannot be drawn (%s)", part, exc)
        with contextlib.suppress(Exception):
            pygame.draw.rect(surface, PANEL, rect, border_radius=16)
            _text(surface, t.text("board.cannot_show", part=part), fonts(24, False), BAD,
                  (rect.left + 20, rect.top + 16), rect.width - 40)  # fmt: skip


# -- parts ----------------------------------------------------------------------------------------
def _header(
    surface: pygame.Surface, model: BoardModel, view: BoardView, t: Catalogue, fonts: FontSource, rect: pygame.Rect
) -> None:
    _text(surface, view.event or t.text("board.title"), fonts(56, True), TEXT, rect.topleft, rect.width * 6 // 10)
    tables, games = t.counted("board.tables", len(model.live_tables())), t.counted("board.finished", len(model.results))
    summary = f"{tables} · {games}"
    f = fonts(30, False)
    img = f.render(_fit(summary, f, rect.width * 4 // 10 - 20) or " ", True, DIM)
    surface.blit(img, (rect.right - img.get_width(), rect.top + 4))
    link = t.text("board.live") if view.connected else t.text("board.no_broker")
    colour = GOOD if view.connected else BAD
    f = fonts(24, False)
    img = f.render(_fit(link, f, rect.width * 4 // 10 - 40) or " ", True, colour)
    x = rect.right - img.get_width()
    surface.blit(img, (x, rect.top + 48))
    pygame.draw.circle(surface, colour, (x - 18, rect.top + 48 + img.get_height() // 2), 8)


def _rankings(
    surface: pygame.Surface, rankings: list[GameRanking], t: Catalogue, fonts: FontSource, area: pygame.Rect
) -> None:
    if not rankings:
        _panel(surface, area)
        _centred(surface, t.text("board.no_results"), fonts(40, True), DIM, area.center, area.width - 40)
        _centred(surface, t.text("board.no_results_detail"), fonts(26, False), FAINT,
                 (area.centerx, area.centery + 50), area.width - 40)  # fmt: skip
        return
    shown = rankings[:4]
    if len(shown) <= 2:
        cells = _split_columns(area, len(shown))
    else:
        top, bottom = _split_rows(area, 2)
        cells = [*_split_columns(top, 2), *_split_columns(bottom, 2)][: len(shown)]
    for ranking, cell in zip(shown, cells, strict=True):
        _guarded(surface, t, fonts, cell, t.text("board.part_ranking", game=_clean(ranking.game.title)),
                 functools.partial(_ranking, surface, ranking, t, fonts, cell, tall=len(shown) <= 2))  # fmt: skip


def _ranking(
    surface: pygame.Surface, ranking: GameRanking, t: Catalogue, fonts: FontSource, rect: pygame.Rect, *, tall: bool
) -> None:
    _panel(surface, rect)
    inner = rect.inflate(-40, -32)
    _text(surface, ranking.game.title, fonts(40 if tall else 32, True), ACCENT, inner.topleft, inner.width)
    label = score_unit(ranking.game.score_label, t)
    played = f"{t.counted('board.played', ranking.games_played)} · {t.text('board.best', unit=label)}"
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
        name = t.player_name(entry.colour)
        _swatch(surface, entry.colour, name, fonts, pygame.Rect(inner.left + 64, y + 2, row_h - 16, row_h - 16))
        score = fonts(size, True).render(_clean(f"{entry.score} {label}"), True, TEXT)
        surface.blit(score, (inner.right - score.get_width(), y))
        x = inner.left + 64 + row_h
        room = inner.right - score.get_width() - 16 - x
        img = fonts(size, False).render(_fit(name, fonts(size, False), room) or " ", True, TEXT)
        surface.blit(img, (x, y))
        table = fonts(max(16, size * 2 // 3), False)
        where = _fit(t.text("board.at_table", table=entry.table), table, room - img.get_width() - 12)
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


def _live(surface: pygame.Surface, tables: list[LiveTable], t: Catalogue, fonts: FontSource, area: pygame.Rect) -> None:
    _panel(surface, area)
    inner = area.inflate(-40, -32)
    _text(surface, t.text("board.live_tables"), fonts(40, True), ACCENT, inner.topleft, inner.width)
    y = inner.top + 64
    if not tables:
        _text(surface, t.text("board.no_tables"), fonts(24, False), FAINT, (inner.left, y), inner.width)
        return
    compact = sum(_card_height(table, compact=False) for table in tables) > inner.bottom - y
    for n, table in enumerate(tables):
        needed = _card_height(table, compact=compact)
        if y + needed > inner.bottom - (0 if n == len(tables) - 1 else 34):  # room for "+ n more"
            more = t.counted("board.more_tables", len(tables) - n)
            _text(surface, more, fonts(24, False), DIM, (inner.left, y), inner.width)
            break
        card = pygame.Rect(inner.left, y, inner.width, needed - 12)
        _guarded(surface, t, fonts, card, t.text("board.table", table=_clean(table.table)),
                 functools.partial(_card, surface, table, t, fonts, card, compact=compact))  # fmt: skip
        y += needed


def _card_height(table: LiveTable, *, compact: bool) -> int:
    game = table.state.game if table.state else None
    if game is None:
        return 60 + 12
    return 60 + 34 + (36 if compact else 40 * len(game.players)) + 12


def _card(
    surface: pygame.Surface, table: LiveTable, t: Catalogue, fonts: FontSource, rect: pygame.Rect, *, compact: bool
) -> None:
    pygame.draw.rect(surface, BACKGROUND, rect, border_radius=10)
    pygame.draw.rect(surface, PANEL_EDGE, rect, width=2, border_radius=10)
    x, y = rect.left + 16, rect.top + 10
    dot = GOOD if table.online else BAD
    pygame.draw.circle(surface, dot, (x + 8, y + 20), 8)
    game = table.state.game if table.state else None
    if game is None:
        status = t.text("board.waiting") if table.online else t.text("board.offline")
    elif game.finished:
        status = t.text("board.game_over")
    else:
        status = t.text("board.round", n=game.round) if game.round is not None else t.text("board.playing")
    if not table.online and game is not None:
        status += " · " + t.text("board.offline")
    f = fonts(24, False)
    img = f.render(_fit(status, f, rect.width // 2) or " ", True, DIM if table.online else BAD)
    surface.blit(img, (rect.right - 16 - img.get_width(), y + 8))
    _text(surface, t.text("board.table", table=table.table), fonts(30, True), TEXT, (x + 26, y),
          rect.width - img.get_width() - 80)  # fmt: skip
    if game is None:
        return
    y += 46
    turn = " · " + t.text("board.turn", player=game.turn) if game.turn and not game.finished else ""
    _text(surface, f"{game.game.title}{turn}", fonts(24, False), ACCENT, (x, y), rect.width - 32)
    y += 34
    players = sorted(game.players, key=lambda p: (p.place, p.colour))
    if compact:  # one line: swatch and score per seat
        f = fonts(24, True)
        for p in players:
            score = f.render(str(p.score), True, TEXT)
            if x + 34 + score.get_width() > rect.right - 16:
                break
            _swatch(surface, p.colour, t.player_name(p.colour), fonts, pygame.Rect(x, y + 2, 26, 26))
            surface.blit(score, (x + 32, y))
            x += 32 + score.get_width() + 22
        return
    label = score_unit(game.game.score_label, t)
    for player in players:
        _player_row(surface, player, label, t, fonts, pygame.Rect(x, y, rect.width - 32, 36))
        y += 40


def _player_row(
    surface: pygame.Surface, p: PlayerLine, label: str, t: Catalogue, fonts: FontSource, rect: pygame.Rect
) -> None:
    name = t.player_name(p.colour)
    _text(surface, f"{p.place}.", fonts(24, False), DIM, rect.topleft, 40)
    _swatch(surface, p.colour, name, fonts, pygame.Rect(rect.left + 40, rect.top + 2, 28, 28))
    _text(surface, name, fonts(24, False), TEXT, (rect.left + 80, rect.top), rect.width // 3)
    score = fonts(24, True).render(_clean(f"{p.score} {label}"), True, TEXT)
    surface.blit(score, (rect.right - score.get_width(), rect.top))
    money = fonts(20, False).render(_fit(p.money_text, fonts(20, False), rect.width // 4) or " ", True, FAINT)
    surface.blit(money, (rect.right - score.get_width() - 24 - money.get_width(), rect.top + 4))


def _footer(
    surface: pygame.Surface, model: BoardModel, view: BoardView, t: Catalogue, fonts: FontSource, rect: pygame.Rect
) -> None:
    parts = [view.broker] if view.broker else []
    if model.dropped:
        why = ", ".join(f"{reason} {n}" for reason, n in sorted(model.rejected.items()))
        parts.append(t.counted("board.dropped", model.dropped, why=why))
    if view.now:
        parts.append(datetime.fromtimestamp(view.now).strftime("%H:%M"))
    _text(surface, "  ·  ".join(parts), fonts(20, False), FAINT, rect.topleft, rect.width)


# -- drawing helpers -------------------------------------------------------------------------------
def _panel(surface: pygame.Surface, rect: pygame.Rect) -> None:
    pygame.draw.rect(surface, PANEL, rect, border_radius=16)


def _swatch(surface: pygame.Surface, colour: str, name: str, fonts: FontSource, rect: pygame.Rect) -> None:
    """The seat's colour with the initial of its ``name`` as the board writes it ("Č" for "Červený")."""
    rgb = seat_rgb(colour)
    pygame.draw.rect(surface, rgb, rect, border_radius=6)
    ink = (0, 0, 0) if sum(rgb) > 380 else (255, 255, 255)
    initial = _clean(name)[:1].upper()
    _centred(surface, initial, fonts(max(12, rect.height * 2 // 3), True), ink, rect.center, rect.width)


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


def _centred(
    surface: pygame.Surface, text: str, font: pygame.font.Font, colour: RGB, centre: tuple[int, int], width: int
) -> None:
    img = font.render(_fit(text, font, width) or " ", True, colour)
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
