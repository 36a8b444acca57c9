"""What a frame drew, for tests, the layout check and the simulator's hit-testing: texts with their
rectangles and containers, the boxes (panels, chips, buttons) they sit in, city rings, tokens.

Every text goes through :class:`Canvas`, which blits it and records its string, rectangle, ink
rectangle (the pixels that are not background), font size, role and container, so a test can ask
"is the refusal with OTW-18 on screen, and where?" without OCR, and :mod:`companion.display.measure`
can say whether anything leaves its box, overlaps a sibling or was cut. A box is opened with
``with canvas.box(rect, "panel"):``; what is drawn inside belongs to it.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache

import pygame

from companion.display import fonts
from companion.display.names import NameFitter, names_one
from companion.display.theme import RGB, TEXT
from companion.ledframe import CityLight

Rect = tuple[int, int, int, int]
SCREEN = ""  # the container of what is drawn outside any box: the surface itself


@dataclass(frozen=True, slots=True)
class DrawnText:
    text: str
    rect: Rect  # x, y, w, h on the surface (the line box: ascent + descent)
    role: str  # "city", "prompt", "refusal", "money", "ledger", "ranking", ...
    size: int = 0  # the font's pixel size
    ink: Rect = (0, 0, 0, 0)  # the glyphs' pixels; w == 0 for blank text
    box: str = SCREEN  # the id of the box it was drawn in
    full: str | None = None  # the text asked for, when it had to be cut to ``text``
    abbreviated: tuple[tuple[str, str], ...] = ()  # (name, as shown): names shortened with meaning (display.names)


@dataclass(frozen=True, slots=True)
class DrawnBox:
    id: str  # unique in the frame: role + a counter ("panel3")
    rect: Rect
    role: str  # "panel", "chip", "button", "feed", "ranking", ...
    parent: str = SCREEN
    cover: bool = False  # drawn over its parent's content (a ranking over the map): hides what it covers


@dataclass
class FrameRecord:
    size: tuple[int, int]
    texts: list[DrawnText] = field(default_factory=list)
    boxes: list[DrawnBox] = field(default_factory=list)
    cities: dict[str, tuple[int, int, int]] = field(default_factory=dict)  # name -> (x, y, radius)
    rings: dict[str, CityLight] = field(default_factory=dict)  # the lights drawn (mirrors the LEDs)
    transports: dict[tuple[str, int], Rect] = field(default_factory=dict)  # (colour, marker) -> token rect
    regions: dict[str, Rect] = field(default_factory=dict)  # "map", "players", "feed", "prompt", ...
    clipped: list[str] = field(default_factory=list)  # texts that had to be shortened to fit
    hidden: list[DrawnText] = field(default_factory=list)  # texts a covering box was drawn over
    names: tuple[str, ...] = ()  # the owner's names the frame knows (Canvas ``names``), for what is drawn beside it

    def find(self, needle: str, role: str | None = None) -> list[DrawnText]:
        return [t for t in self.texts if needle in t.text and (role is None or t.role == role)]

    def has(self, needle: str, role: str | None = None) -> bool:
        return bool(self.find(needle, role))

    def roles(self, role: str) -> list[str]:
        return [t.text for t in self.texts if t.role == role]

    def box(self, box_id: str) -> DrawnBox | None:
        return next((b for b in self.boxes if b.id == box_id), None)

    def city_at(self, pos: tuple[int, int], slack: int = 6) -> str | None:
        best: tuple[float, str] | None = None
        for name, (x, y, r) in self.cities.items():
            d2 = (pos[0] - x) ** 2 + (pos[1] - y) ** 2
            if d2 <= (r + slack) ** 2 and (best is None or d2 < best[0]):
                best = (d2, name)
        return None if best is None else best[1]


class Canvas:
    """A surface plus the record of what was drawn on it, and the box being drawn in."""

    def __init__(self, surface: pygame.Surface, record: FrameRecord, names: Iterable[str] = ()) -> None:
        """``names``: the owner's data drawn in this frame (city names, card ids): a text too wide for
        its line has these abbreviated with meaning (:mod:`companion.display.names`) before it is cut."""
        self.surface = surface
        self.record = record
        self._open: list[str] = [SCREEN]
        self._known = tuple(names)
        if self._known:
            record.names = self._known
        self._names = NameFitter(self._known)
        self._shown: dict[str, str] = {}  # abbreviation -> name, made while breaking lines (drawn later)

    @property
    def current(self) -> str:
        return self._open[-1]

    @contextmanager
    def box(
        self, rect: pygame.Rect, role: str, *, region: str | None = None, cover: bool = False
    ) -> Iterator[pygame.Rect]:
        """Draw inside ``rect``: texts and boxes drawn in the block belong to it. ``region``: also
        record it under that name (``record.regions``); ``cover``: it is drawn over its parent's
        content, which is no longer readable where it lies and leaves the record."""
        box_id = f"{role}{len(self.record.boxes)}"
        xywh = (rect.x, rect.y, rect.w, rect.h)
        if cover:
            self._hide(rect)
        self.record.boxes.append(DrawnBox(box_id, xywh, role, self.current, cover))
        if region is not None:
            self.record.regions[region] = xywh
        self._open.append(box_id)
        try:
            yield rect
        finally:
            self._open.pop()

    @contextmanager
    def inside(self, box_id: str) -> Iterator[None]:
        """Draw into a box drawn earlier (``box_id``): what is drawn in the block belongs to it, as if
        drawn when it was (a caption's detail added to a panel after the frame was laid out)."""
        self._open.append(box_id)
        try:
            yield
        finally:
            self._open.pop()

    def _hide(self, rect: pygame.Rect) -> None:
        keep = set(self._open)
        covered = [t for t in self.record.texts if rect.colliderect(pygame.Rect(t.rect))]
        self.record.hidden += covered
        self.record.texts = [t for t in self.record.texts if t not in covered]
        self.record.boxes = [b for b in self.record.boxes if b.id in keep or not rect.colliderect(pygame.Rect(b.rect))]

    def text(
        self,
        text: str,
        pos: tuple[int, int],
        size: int,
        *,
        colour: RGB = TEXT,
        role: str = "text",
        bold: bool = False,
        anchor: str = "topleft",
        max_width: int | None = None,
        background: RGB | None = None,
    ) -> pygame.Rect:
        """Draw one line; if wider than ``max_width``, its names abbreviated (recorded), or else
        shortened with an ellipsis (recorded as cut)."""
        font = fonts.font(size, bold=bold)
        full = None
        abbreviated: tuple[tuple[str, str], ...] = ()
        if max_width is not None and _size(text, int(size), bold)[0] > max_width:
            fitted = _fit_names(self._known, text, int(size), bold, max_width)
            if fitted is not None:
                text, abbreviated = fitted
            else:
                self.record.clipped.append(text)
                full, text = text, ellipsize(font, text, max_width)
        elif self._shown:  # a line broken by :meth:`lines`: the names it abbreviated
            abbreviated = tuple((name, shown) for shown, name in self._shown.items() if shown in text)
        image = font.render(text, True, colour, background)
        rect = image.get_rect(**{anchor: pos})
        self.surface.blit(image, rect)
        ink = image.get_bounding_rect().move(rect.topleft) if background is None else rect
        box = (rect.x, rect.y, rect.w, rect.h)
        inked = (ink.x, ink.y, ink.w, ink.h)
        self.record.texts.append(DrawnText(text, box, role, max(8, int(size)), inked, self.current, full, abbreviated))
        return rect

    def label(self, name: str, size: int, room: int, *, bold: bool = False) -> tuple[str, int]:
        """A name alone (a map label) in about ``room`` pixels: its abbreviation and the width to
        draw it in; wider than ``room`` when a shorter one could be read as another known name
        ("…EST": Budapest or Bucharest?)."""
        return _label(self._known, name, int(size), room, bold)

    def fit(self, text: str, size: int, width: int, *, bold: bool = False) -> str:
        """What :meth:`text` draws for ``text`` with ``max_width=width`` (to measure before drawing)."""
        return _fit(self._known, text, int(size), bold, width)

    def fits(self, text: str, size: int, width: int, *, bold: bool = False) -> bool:
        """Whether :meth:`text` draws ``text`` in ``width`` without cutting it (its names abbreviated
        with meaning where needed)."""
        size = int(size)
        return _size(text, size, bold)[0] <= width or _fit_names(self._known, text, size, bold, width) is not None

    def paragraph(
        self,
        text: str,
        pos: tuple[int, int],
        size: int,
        width: int,
        line: int,
        *,
        colour: RGB = TEXT,
        role: str = "text",
        bold: bool = False,
        sep: str = " ",
    ) -> int:
        """``text`` wrapped into lines of ``width`` pixels, ``line`` apart, from ``pos`` (top left),
        broken at ``sep`` first (" · " keeps "1 trailer" whole) and at spaces where a part is too
        wide; returns the y below the last line."""
        x, y = pos
        for part in self.paragraph_lines(text, size, width, bold=bold, sep=sep) or [""]:
            self.text(part, (x, y), size, colour=colour, role=role, bold=bold, max_width=width)
            y += line
        return y

    def paragraph_lines(self, text: str, size: int, width: int, *, bold: bool = False, sep: str = " ") -> list[str]:
        """The lines :meth:`paragraph` draws."""
        rows: list[str] = []
        for part in text.split(sep) if sep != " " else [text]:
            joined = f"{rows[-1]}{sep}{part}" if rows else part
            if rows and self.measure(joined, size, bold=bold)[0] <= width:
                rows[-1] = joined
            else:
                rows.append(part)
        lines = [line for row in rows for line in self.lines(row, size, width, bold=bold)]
        plain = self.lines(text, size, width, bold=bold)
        return plain if len(plain) < len(lines) else lines  # keeping parts whole must not cost a line

    def measure(self, text: str, size: int, *, bold: bool = False) -> tuple[int, int]:
        return _size(text, int(size), bold)

    def lines(
        self,
        text: str,
        size: int,
        width: int,
        *,
        bold: bool = False,
        next_width: int | None = None,
        max_lines: int | None = None,
    ) -> list[str]:
        """:meth:`broken_lines`; with ``max_lines``, the owner's names in ``text`` are abbreviated
        to a half, a third... of the line until it takes no more lines than that (when that cannot
        be done, the caller sees more lines than it has room for)."""
        out = self.broken_lines(text, size, width, bold=bold, next_width=next_width)
        if max_lines is None or len(out) <= max_lines:
            return out
        fitted = _fit_names(self._known, text, int(size), bold, width) if max_lines == 1 else None
        if fitted is not None and all(self._names.distinct(name, shown) for name, shown in fitted[1]):
            # One line, the room shared between its names, none so short it could be another name
            # ("ŴW…ST": Budapest or Bucharest?): else the caller gets the lines it must make room for.
            self._shown.update((shown, name) for name, shown in fitted[1])
            return [fitted[0]]
        for part in (2, 3, 4, 6):
            capped, made = self._names.cap(lambda s: _size(s, int(size), bold)[0], text, width // part)
            if not made:
                break
            self._shown.update((shown, name) for name, shown in made)
            out = self.broken_lines(capped, size, width, bold=bold, next_width=next_width)
            if len(out) <= max_lines:
                break
        return out

    def broken_lines(
        self, text: str, size: int, width: int, *, bold: bool = False, next_width: int | None = None
    ) -> list[str]:
        """``text`` broken at spaces into lines of at most ``width`` pixels (``next_width`` for the
        lines after the first: an indented continuation). A word wider than any line stays whole on
        its own line (the caller sees it is too wide), unless it holds the owner's names: those are
        abbreviated (display.names) into what is left of the line, or onto a line of their own with
        room for a short word after them ("Bremerhaven… →")."""
        if self.measure(text, size, bold=bold)[0] <= width:
            return [text] if text else []  # as given, its spacing kept
        size, known = int(size), self._known

        def width_of(s: str) -> int:
            return _size(s.replace(_GLUE, " "), size, bold)[0]

        def fit(word: str, room: int) -> tuple[str, tuple[tuple[str, str], ...]] | None:
            return _fit_names(known, word.replace(_GLUE, " "), size, bold, room)

        later = width if next_width is None else next_width
        out: list[str] = []
        current = ""
        words = _KEEP_TOGETHER.sub(_GLUE, " ".join(text.split())).split(" ")
        tokens = deque((word, True) for word in words)  # (word, whether a space goes before it)
        while tokens:
            word, spaced = tokens.popleft()
            sep = " " if spaced and current else ""
            room = width if not out else later
            if width_of(f"{current}{sep}{word}") <= room:
                current = f"{current}{sep}{word}"
                continue
            if width_of(word) > later:  # too wide for any line
                head, arrow, tail = word.partition("→")
                if arrow and tail:  # "Hamburg→Bremen" may break after its arrow
                    tokens.extendleft([(tail, False), (head + arrow, spaced)])
                    continue
                fitted = self._fit_word(word, room, later, current + sep, [t for t, _ in tokens], width_of, fit)
                if fitted is not None:
                    joined, word = fitted
                    if joined:
                        current = f"{current}{sep}{word}"
                        continue
            if current:
                out.append(current.replace(_GLUE, " "))
            current = word
        if current:
            out.append(current.replace(_GLUE, " "))
        return out

    def _fit_word(
        self,
        word: str,
        room: int,
        later: int,
        current: str,
        after: list[str],
        width_of: Callable[[str], int],
        fit: Callable[[str, int], tuple[str, tuple[tuple[str, str], ...]] | None],
    ) -> tuple[bool, str] | None:
        """A word too wide for any line, its names abbreviated: (True, it) to go on after
        ``current`` when a fair share of this line (``room`` wide) is left, else (False, it) for a
        line of its own (``later`` wide, or ``room`` when ``current`` is empty, less a short next
        word); None when it holds no name."""
        left = room - width_of(current) if current else 0
        if current and left >= room * 0.4 and (fitted := fit(word, left)) is not None:
            self._shown.update((shown, name) for name, shown in fitted[1])
            return True, fitted[0]
        later_room = later if current else room
        reserve = width_of(" " + after[0]) if after and width_of(after[0]) < later_room // 3 else 0
        fitted = fit(word, later_room - reserve) or fit(word, later_room)
        if fitted is None:
            return None
        self._shown.update((shown, name) for name, shown in fitted[1])
        return False, fitted[0]


# An amount never breaks: "2 500 R", "12 000 DM" stay on one line (digit groups and the unit).
_KEEP_TOGETHER = re.compile(r"(?<=\d) (?=\d{3}\b|R\b|DM\b)")
_GLUE = "\u2060"  # WORD JOINER: stands for the space while breaking, never drawn


@lru_cache(maxsize=65_536)
def _size(text: str, size: int, bold: bool) -> tuple[int, int]:
    """The size of ``text`` in the font of ``size`` and ``bold``, remembered: a 200-character name
    costs 20 µs to measure, and the map measures its labels every frame."""
    width, height = fonts.font(size, bold=bold).size(text)
    return int(width), int(height)


@lru_cache(maxsize=20_000)
def _fit(names: tuple[str, ...], text: str, size: int, bold: bool, width: int) -> str:
    """What :meth:`Canvas.text` draws for ``text`` at most ``width`` wide."""
    if _size(text, size, bold)[0] <= width:
        return text
    fitted = _fit_names(names, text, size, bold, width)
    return fitted[0] if fitted is not None else ellipsize(fonts.font(size, bold=bold), text, width)


@lru_cache(maxsize=20_000)
def _label(names: tuple[str, ...], name: str, size: int, room: int, bold: bool) -> tuple[str, int]:
    """:meth:`Canvas.label`, remembered."""
    width = room
    shown = _fit(names, name, size, bold, width)
    while not names_one(name, shown, names) and width < _size(name, size, bold)[0]:
        width += max(2, size // 2)
        shown = _fit(names, name, size, bold, width)
    return shown, width


@lru_cache(maxsize=20_000)
def _fit_names(
    names: tuple[str, ...], text: str, size: int, bold: bool, width: int
) -> tuple[str, tuple[tuple[str, str], ...]] | None:
    """:meth:`NameFitter.fit` in the font of ``size`` and ``bold``, remembered: the map tries the
    same names at the same widths every frame."""
    return NameFitter(names).fit(lambda s: _size(s, size, bold)[0], text, width)


def ellipsize(font: pygame.font.Font, text: str, width: int) -> str:
    if font.size(text)[0] <= width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if font.size(text[:mid] + "…")[0] <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "…"
