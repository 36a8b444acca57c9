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

from companion.display.names import NameFitter
from companion.leaderboard.model import BoardModel, GameRanking, LiveTable, RankEntry
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


MIN_PX = 12  # the smallest text the board draws: over the screens' 10 px minimum at 800×480 (display/measure.py)


@dataclass(frozen=True, slots=True)
class Scale:
    """The board is drawn for 1920×1080; at another size every length is scaled by ``unit`` and every
    font too, but never under ``MIN_PX``."""

    unit: float

    @classmethod
    def of(cls, size: tuple[int, int]) -> Scale:
        return cls(min(size[0] / SIZE[0], size[1] / SIZE[1]))

    def px(self, n: int) -> int:
        return max(1, round(n * self.unit))

    def font(self, n: int) -> int:
        return max(MIN_PX, round(n * self.unit))


def layout(size: tuple[int, int], fonts: FontSource) -> dict[str, pygame.Rect]:
    """Where the parts go: ``header``, ``rankings``, ``live`` (the live tables), ``footer``."""
    w, h = size
    z = Scale.of(size)
    m, gap = z.px(40), z.px(30)
    title = fonts(z.font(56), True).get_linesize()
    header = pygame.Rect(m, z.px(24), w - 2 * m, max(z.px(90), title + 4))
    footer_h = max(z.px(40), fonts(z.font(20), False).get_linesize() + 4)
    footer = pygame.Rect(m, h - footer_h - z.px(16), w - 2 * m, footer_h)
    top, bottom = header.bottom + z.px(16), footer.top - z.px(14)
    right_w = w * 30 // 100
    rankings = pygame.Rect(m, top, w - 2 * m - right_w - gap, bottom - top)
    live = pygame.Rect(rankings.right + gap, top, right_w, bottom - top)
    return {"header": header, "rankings": rankings, "live": live, "footer": footer}


def render(surface: pygame.Surface, model: BoardModel, view: BoardView, fonts: FontSource) -> None:
    """Every part is drawn on its own (``_guarded``): whatever one message holds, a part it breaks
    shows "cannot be shown" and the rest of the board is still drawn."""
    t = board_texts(view.language)
    z = Scale.of(surface.get_size())
    surface.fill(BACKGROUND)
    parts = layout(surface.get_size(), fonts)
    header, rankings, live, footer = parts["header"], parts["rankings"], parts["live"], parts["footer"]
    _guarded(surface, t, fonts, header, t.text("board.part_header"),
             lambda: _header(surface, model, view, t, fonts, z, header))  # fmt: skip
    _guarded(surface, t, fonts, rankings, t.text("board.part_rankings"),
             lambda: _rankings(surface, model.rankings(limit=10), t, fonts, z, rankings))  # fmt: skip
    _guarded(surface, t, fonts, live, t.text("board.part_live"),
             lambda: _live(surface, model.live_tables(), t, fonts, z, live))  # fmt: skip
    _guarded(surface, t, fonts, footer, t.text("board.part_footer"),
             lambda: _footer(surface, model, view, t, fonts, z, footer))  # fmt: skip


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
            z = Scale.of(surface.get_size())
            _text(surface, t.text("board.cannot_show", part=part), fonts(z.font(24), False), BAD,
                  (rect.left + z.px(20), rect.top + z.px(16)), rect.width - 2 * z.px(20))  # fmt: skip


# -- parts ----------------------------------------------------------------------------------------
def _header(
    surface: pygame.Surface,
    model: BoardModel,
    view: BoardView,
    t: Catalogue,
    fonts: FontSource,
    z: Scale,
    rect: pygame.Rect,
) -> None:
    title = _fit(view.event or t.text("board.title"), fonts(z.font(56), True), rect.width * 6 // 10)
    if title:
        surface.blit(fonts(z.font(56), True).render(title, True, TEXT), rect.topleft)
    room = rect.width - fonts(z.font(56), True).size(title)[0] - z.px(40)  # what the title leaves on the right
    tables, games = t.counted("board.tables", len(model.live_tables())), t.counted("board.finished", len(model.results))
    f = fonts(z.font(30), False)
    img = f.render(_fit(f"{tables} · {games}", f, room) or " ", True, DIM)
    surface.blit(img, (rect.right - img.get_width(), rect.top + z.px(4)))
    link = t.text("board.live") if view.connected else t.text("board.no_broker")
    colour = GOOD if view.connected else BAD
    f = fonts(z.font(24), False)
    dot = max(4, z.px(8))
    img = f.render(_fit(link, f, room - 3 * dot) or " ", True, colour)
    x, y = rect.right - img.get_width(), rect.top + z.px(4) + fonts(z.font(30), False).get_linesize() + z.px(8)
    surface.blit(img, (x, y))
    pygame.draw.circle(surface, colour, (x - 2 * dot, y + img.get_height() // 2), dot)


def _rankings(
    surface: pygame.Surface, rankings: list[GameRanking], t: Catalogue, fonts: FontSource, z: Scale, area: pygame.Rect
) -> None:
    if not rankings:
        _panel(surface, area)
        width = area.width - 2 * z.px(40)
        big, small = fonts(z.font(40), True), fonts(z.font(26), False)
        lines = [(line, big, DIM) for line in _wrap(t.text("board.no_results"), big, width)]
        lines += [(line, small, FAINT) for line in _wrap(t.text("board.no_results_detail"), small, width)]
        space = z.px(14)  # between the sentence and its explanation
        y = area.centery - (sum(f.get_linesize() for _, f, _ in lines) + space) // 2
        for n, (line, f, colour) in enumerate(lines):
            if n and f is not lines[n - 1][1]:
                y += space
            img = f.render(line, True, colour)
            surface.blit(img, (area.centerx - img.get_width() // 2, y))
            y += f.get_linesize()
        return
    shown = rankings[:4]
    gap = z.px(30)
    side_by_side = (area.width - gap) // 2 >= z.px(520)  # two panels fit side by side
    if len(shown) == 1:
        cells = [area]
    elif len(shown) == 2:
        cells = _split_columns(area, 2, gap) if side_by_side else _split_rows(area, 2, gap)
    elif side_by_side:
        top, bottom = _split_rows(area, 2, gap)
        cells = [*_split_columns(top, 2, gap), *_split_columns(bottom, 2, gap)][: len(shown)]
    else:
        cells = _split_rows(area, len(shown), gap)
    for ranking, cell in zip(shown, cells, strict=True):
        _guarded(surface, t, fonts, cell, t.text("board.part_ranking", game=_clean(ranking.game.title)),
                 functools.partial(_ranking, surface, ranking, t, fonts, z, cell))  # fmt: skip


def _ranking(
    surface: pygame.Surface, ranking: GameRanking, t: Catalogue, fonts: FontSource, z: Scale, rect: pygame.Rect
) -> None:
    """A game's panel: its title, how many games, then a row per entry: place, seat, score; under
    them which game it was (table, game number, time) and the money."""
    _panel(surface, rect)
    inner = rect.inflate(-2 * z.px(20), -2 * z.px(16))
    tall = inner.height >= z.px(560)
    head = fonts(z.font(40 if tall else 32), True)
    _text(surface, ranking.game.title, head, ACCENT, inner.topleft, inner.width)
    label = score_unit(ranking.game.score_label, t)
    played = f"{t.counted('board.played', ranking.games_played)} · {t.text('board.best', unit=label)}"
    y = inner.top + head.get_linesize() + z.px(2)
    sub = fonts(z.font(22), False)
    _text(surface, played, sub, DIM, (inner.left, y), inner.width)
    y += sub.get_linesize() + z.px(12)
    big, small, bold = (
        fonts(z.font(34 if tall else 26), False),
        fonts(z.font(20 if tall else 16), False),
        fonts(z.font(34 if tall else 26), True),
    )
    row_h = big.get_linesize() + small.get_linesize() + z.px(10)
    place_w = bold.size("10.")[0] + z.px(10)
    side = big.get_linesize() - 4
    for entry in ranking.entries:
        if y + row_h > inner.bottom:
            break
        place = entry.rank  # ties share it, as the tables rank them (model.ranked)
        medal = MEDALS[place - 1] if place <= 3 else DIM
        surface.blit(bold.render(f"{place}.", True, medal), (inner.left, y))
        name = t.player_name(entry.colour)
        _swatch(surface, entry.colour, name, fonts, pygame.Rect(inner.left + place_w, y + 2, side, side))
        score = bold.render(_clean(f"{entry.score} {label}"), True, TEXT)
        surface.blit(score, (inner.right - score.get_width(), y))
        x = inner.left + place_w + side + z.px(12)
        _text(surface, name, big, TEXT, (x, y), inner.right - score.get_width() - z.px(16) - x)
        below = y + big.get_linesize()
        money = small.render(_fit(entry.money_text, small, inner.width // 3) or " ", True, FAINT)
        surface.blit(money, (inner.right - money.get_width(), below))
        where = _which_game(entry, t, small, inner.right - money.get_width() - z.px(16) - x)
        if where:
            surface.blit(small.render(where, True, DIM), (x, below))
        y += row_h


def _which_game(entry: RankEntry, t: Catalogue, font: pygame.font.Font, room: int) -> str:
    """Which game a row is, as much as fits in ``room`` (never cut): "table A · game 17 · 21:40", then
    shorter ("A · #17 · 21:40", "#17 · 21:40"). The game's number is the last part of its result id
    (``<table>/<journal id>-<game id>``); the time is when it finished, on this board's clock."""
    number = game_number(entry.result_id)
    at = datetime.fromtimestamp(entry.finished_at).strftime("%H:%M")
    for text in (
        t.text("board.which_game", table=entry.table, n=number, time=at),
        f"{entry.table} · #{number} · {at}",
        f"#{number} · {at}",
        f"#{number}",
    ):
        if font.size(_clean(text))[0] <= room:
            return _clean(text)
    return ""


def game_number(result_id: str) -> str:
    """The game's number at its table: "A/3f9a2b7c01de-17" → "17", "A/17" → "17" (docs/leaderboard.md)."""
    n = result_id.rpartition("/")[2]
    return n.rpartition("-")[2] or n


def _live(
    surface: pygame.Surface, tables: list[LiveTable], t: Catalogue, fonts: FontSource, z: Scale, area: pygame.Rect
) -> None:
    _panel(surface, area)
    inner = area.inflate(-2 * z.px(20), -2 * z.px(16))
    head = fonts(z.font(40), True)
    _text(surface, t.text("board.live_tables"), head, ACCENT, inner.topleft, inner.width)
    y = inner.top + head.get_linesize() + z.px(12)
    line = fonts(z.font(24), False)
    if not tables:
        for text in _wrap(t.text("board.no_tables"), line, inner.width):
            surface.blit(line.render(text, True, FAINT), (inner.left, y))
            y += line.get_linesize()
        return
    heights = [_card_height(table, t, fonts, z, inner.width, compact=False) for table in tables]
    compact = sum(heights) > inner.bottom - y
    for n, table in enumerate(tables):
        needed = _card_height(table, t, fonts, z, inner.width, compact=compact)
        if y + needed > inner.bottom - (0 if n == len(tables) - 1 else line.get_linesize()):  # room for "+ n more"
            _text(surface, t.counted("board.more_tables", len(tables) - n), line, DIM, (inner.left, y), inner.width)
            break
        card = pygame.Rect(inner.left, y, inner.width, needed - z.px(12))
        _guarded(surface, t, fonts, card, t.text("board.table", table=_clean(table.table)),
                 functools.partial(_card, surface, table, t, fonts, z, card, compact=compact,
                                   known=tuple(k.table for k in tables)))  # fmt: skip
        y += needed


def _status(table: LiveTable, t: Catalogue, fonts: FontSource, z: Scale, width: int) -> tuple[str, bool]:
    """A table card's status ("round 3 · offline") and whether it goes under the table's name (it
    does not fit beside it in a card ``width`` wide)."""
    game = table.state.game if table.state else None
    if game is None:
        status = t.text("board.waiting") if table.online else t.text("board.offline")
    elif game.finished:
        status = t.text("board.game_over")
    else:
        status = t.text("board.round", n=game.round) if game.round is not None else t.text("board.playing")
    if not table.online and game is not None:
        status += " · " + t.text("board.offline")
    name = fonts(z.font(30), True).size(_clean(t.text("board.table", table=table.table)))[0]
    beside = width - 2 * z.px(16) - 3 * max(4, z.px(8)) - name - z.px(16)
    return status, fonts(z.font(24), False).size(_clean(status))[0] > beside


def _card_height(table: LiveTable, t: Catalogue, fonts: FontSource, z: Scale, width: int, *, compact: bool) -> int:
    """A table's card: its name and status (under the name if it does not fit beside it); with a
    game, the game and whose turn, and its seats (one line each, or one line for all when
    ``compact``); and the gap under it."""
    game = table.state.game if table.state else None
    top = z.px(10) + fonts(z.font(30), True).get_linesize() + z.px(8)
    if _status(table, t, fonts, z, width)[1]:
        top += fonts(z.font(24), False).get_linesize()
    if game is None:
        return top + z.px(12)
    line = fonts(z.font(24), False).get_linesize()
    seats = line + z.px(4) if compact else (line + z.px(6)) * len(game.players)
    return top + line + z.px(6) + seats + z.px(8) + z.px(12)


def _card(
    surface: pygame.Surface,
    table: LiveTable,
    t: Catalogue,
    fonts: FontSource,
    z: Scale,
    rect: pygame.Rect,
    *,
    compact: bool,
    known: tuple[str, ...] = (),
) -> None:
    """A live table's card; ``known``: every table's id on the board (a long id is abbreviated so
    that it names its table only)."""
    pygame.draw.rect(surface, BACKGROUND, rect, border_radius=10)
    pygame.draw.rect(surface, PANEL_EDGE, rect, width=2, border_radius=10)
    pad = z.px(16)
    x, y = rect.left + pad, rect.top + z.px(10)
    name_font, line = fonts(z.font(30), True), fonts(z.font(24), False)
    dot = max(4, z.px(8))
    pygame.draw.circle(surface, GOOD if table.online else BAD, (x + dot, y + name_font.get_linesize() // 2), dot)
    game = table.state.game if table.state else None
    status, below = _status(table, t, fonts, z, rect.width)
    img = line.render(_fit(status, line, rect.width - 2 * pad) or " ", True, DIM if table.online else BAD)
    name_x = x + 3 * dot
    if below:
        surface.blit(img, (rect.right - pad - img.get_width(), y + name_font.get_linesize()))
        name_room = rect.right - pad - name_x
    else:
        surface.blit(img, (rect.right - pad - img.get_width(), y + name_font.get_linesize() - line.get_linesize()))
        name_room = rect.right - pad - img.get_width() - z.px(16) - name_x
    title = _clean(t.text("board.table", table=table.table))
    if name_font.size(title)[0] > name_room:  # "Table WWWW…WW1": both ends of the id kept (display.names)
        fitted = NameFitter(known).fit(lambda s: int(name_font.size(s)[0]), title, name_room)
        title = title if fitted is None else fitted[0]
    _text(surface, title, name_font, TEXT, (name_x, y), name_room)
    if game is None:
        return
    y += name_font.get_linesize() + z.px(8) + (line.get_linesize() if below else 0)
    turn = " · " + t.text("board.turn", player=game.turn) if game.turn and not game.finished else ""
    _text(surface, f"{game.game.title}{turn}", line, ACCENT, (x, y), rect.width - 2 * pad)
    y += line.get_linesize() + z.px(6)
    players = sorted(game.players, key=lambda p: (p.place, p.colour))
    if compact:  # one line: swatch and score per seat
        f = fonts(z.font(24), True)
        side = f.get_linesize() - 4
        for p in players:
            score = f.render(str(p.score), True, TEXT)
            if x + side + z.px(6) + score.get_width() > rect.right - pad:
                break
            _swatch(surface, p.colour, t.player_name(p.colour), fonts, pygame.Rect(x, y + 2, side, side))
            surface.blit(score, (x + side + z.px(6), y))
            x += side + z.px(6) + score.get_width() + z.px(22)
        return
    label = score_unit(game.game.score_label, t)
    for player in players:
        _player_row(surface, player, label, t, fonts, z, pygame.Rect(x, y, rect.width - 2 * pad, line.get_linesize()))
        y += line.get_linesize() + z.px(6)


def _player_row(
    surface: pygame.Surface, p: PlayerLine, label: str, t: Catalogue, fonts: FontSource, z: Scale, rect: pygame.Rect
) -> None:
    line, bold, small = fonts(z.font(24), False), fonts(z.font(24), True), fonts(z.font(20), False)
    name = t.player_name(p.colour)
    place_w = line.size("12.")[0] + z.px(6)
    side = rect.height - 4
    surface.blit(line.render(f"{p.place}.", True, DIM), rect.topleft)
    _swatch(surface, p.colour, name, fonts, pygame.Rect(rect.left + place_w, rect.top + 2, side, side))
    score = bold.render(_clean(f"{p.score} {label}"), True, TEXT)
    surface.blit(score, (rect.right - score.get_width(), rect.top))
    x = rect.left + place_w + side + z.px(10)
    money_room = rect.right - score.get_width() - z.px(16) - x - line.size(name)[0] - z.px(16)
    money_text = _fit(p.money_text, small, money_room) if small.size(p.money_text)[0] <= money_room else ""
    room = rect.right - score.get_width() - z.px(16) - x
    if money_text:
        money = small.render(money_text, True, FAINT)
        surface.blit(money, (rect.right - score.get_width() - z.px(16) - money.get_width(),
                             rect.top + line.get_ascent() - small.get_ascent()))  # fmt: skip
        room -= money.get_width() + z.px(16)
    _text(surface, name, line, TEXT, (x, rect.top), room)


def _footer(
    surface: pygame.Surface,
    model: BoardModel,
    view: BoardView,
    t: Catalogue,
    fonts: FontSource,
    z: Scale,
    rect: pygame.Rect,
) -> None:
    parts = [view.broker] if view.broker else []
    if model.dropped:
        why = ", ".join(f"{reason} {n}" for reason, n in sorted(model.rejected.items()))
        parts.append(t.counted("board.dropped", model.dropped, why=why))
    if view.now:
        parts.append(datetime.fromtimestamp(view.now).strftime("%H:%M"))
    _text(surface, "  ·  ".join(parts), fonts(z.font(20), False), FAINT, rect.topleft, rect.width)


# -- drawing helpers -------------------------------------------------------------------------------
def _panel(surface: pygame.Surface, rect: pygame.Rect) -> None:
    pygame.draw.rect(surface, PANEL, rect, border_radius=16)


def _swatch(surface: pygame.Surface, colour: str, name: str, fonts: FontSource, rect: pygame.Rect) -> None:
    """The seat's colour with the initial of its ``name`` as the board writes it ("Č" for "Červený")."""
    rgb = seat_rgb(colour)
    pygame.draw.rect(surface, rgb, rect, border_radius=max(2, rect.height // 5))
    ink = (0, 0, 0) if sum(rgb) > 380 else (255, 255, 255)
    f = fonts(max(MIN_PX, rect.height * 2 // 3), True)
    initial = _clean(name)[:1].upper()
    if initial and f.size(initial)[0] < rect.width and f.get_ascent() - f.get_descent() // 2 < rect.height:
        img = f.render(initial, True, ink)  # only where it fits in the swatch: the name is written beside it
        surface.blit(img, img.get_rect(center=rect.center))


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


def _wrap(text: str, font: pygame.font.Font, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` pixels, broken between words (a word longer than a line
    is cut with "…")."""
    lines: list[str] = []
    for word in _clean(text).split():
        if lines and font.size(f"{lines[-1]} {word}")[0] <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(_fit(word, font, width))
    return lines


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
