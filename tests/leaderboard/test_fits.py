"""The big screen fits: every state below × language × size (the 1920×1080 it is made for, and the
1280×720, 1024×768 and 800×480 a laptop or the Pi's panel gives it), measured where the text lands.

The instrument is the test's own, not the screen's: the surface notes every image blitted on it and
the fonts note every string they render, so each drawn text is known with its rectangle and its
ink (the pixels the glyphs cover). A frame fails when a text's ink leaves the screen or the part
it belongs to (header, rankings, live tables, footer), when two texts' ink overlap, when one of the
board's own texts was cut with "…", or when a text is smaller than 12 px. Every ranking row must
also say which game it was: its number at its table and the time it finished.
Screenshots: tests/output/leaderboard/fits_<language>_<W>x<H>_<state>.png.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import pygame
import pytest

from companion.display.fonts import font
from companion.leaderboard import BoardModel
from companion.leaderboard.screen import MIN_PX, BoardView, board_texts, game_number, layout, render
from companion.leaderboard.topics import (
    GameInfo,
    LiveGame,
    PlayerLine,
    Result,
    TableLive,
    TableOnline,
    encode,
    live_topic,
    online_topic,
    result_topic,
)
from companion.table.messages import LANGUAGES
from tests.leaderboard.helpers import AA, OTW, ROOT, live, result
from tests.leaderboard.test_screen import busy_model
from tests.screenshots import save_png

OUTPUT = Path(__file__).resolve().parents[1] / "output" / "leaderboard"
SIZES = ((1920, 1080), (1280, 720), (1024, 768), (800, 480))
EVENT = "Spieleabend Brno"
NOW = 1_764_547_200.0


@dataclass
class Drawn:
    text: str
    size: int
    rect: pygame.Rect  # where the image went
    ink: pygame.Rect  # the glyphs' pixels


@dataclass
class Noted:
    """What the fonts rendered, by the image they returned (kept, so no id is reused)."""

    images: dict[int, tuple[str, int, pygame.Surface]] = field(default_factory=dict)


class NotingFont:
    """A font that notes what it renders; everything else is the real font's."""

    def __init__(self, real: pygame.font.Font, size: int, noted: Noted) -> None:
        self._real, self._size, self._noted = real, size, noted

    def render(self, text: str, *args: Any, **kwargs: Any) -> pygame.Surface:
        image = self._real.render(text, *args, **kwargs)
        self._noted.images[id(image)] = (str(text), self._size, image)
        return image

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


class NotingSurface(pygame.Surface):
    """A surface that notes every blit: what image, where."""

    def __init__(self, size: tuple[int, int]) -> None:
        super().__init__(size)
        self.blitted: list[tuple[pygame.Surface, pygame.Rect]] = []

    def blit(self, source: pygame.Surface, dest: Any, *args: Any, **kwargs: Any) -> pygame.Rect:  # type: ignore[override]
        at = pygame.Rect(dest).topleft if isinstance(dest, pygame.Rect) or len(dest) == 4 else tuple(dest)
        self.blitted.append((source, pygame.Rect(at, source.get_size())))
        return super().blit(source, dest, *args, **kwargs)


def draw(model: BoardModel, view: BoardView, size: tuple[int, int]) -> tuple[NotingSurface, list[Drawn]]:
    noted = Noted()
    fonts: Callable[[int, bool], Any] = lambda px, bold: NotingFont(font(px, bold=bold), px, noted)  # noqa: E731
    surface = NotingSurface(size)
    render(surface, model, view, fonts)
    drawn = []
    for image, rect in surface.blitted:
        if id(image) in noted.images:
            text, px, _ = noted.images[id(image)]
            ink = image.get_bounding_rect()
            drawn.append(Drawn(text, px, rect, ink.move(rect.topleft)))
    return surface, drawn


def faults(drawn: list[Drawn], size: tuple[int, int], parts: dict[str, pygame.Rect], data: set[str]) -> list[str]:
    """Everything wrong with a frame; ``data`` are texts that arrive in messages and may be cut."""
    screen = pygame.Rect((0, 0), size)
    inked = [d for d in drawn if d.text.strip() and d.ink.width and d.ink.height]
    out = []
    for d in inked:
        if not screen.contains(d.ink):
            out.append(f"{d.text!r} runs off the screen")
        elif not any(part.contains(d.ink) for part in parts.values()):
            out.append(f"{d.text!r} {tuple(d.ink)} leaves its part of the board")
        data_cut = any(d.text.endswith("…") and s.startswith(d.text[:-1]) for s in data)
        if "…" in d.text and not data_cut and not abbreviated(d.text, LONGEST):  # a table id abbreviated: fine
            out.append(f"{d.text!r} is cut")
        if d.size < MIN_PX:
            out.append(f"{d.text!r} is {d.size} px")
    for i, first in enumerate(inked):
        for second in inked[i + 1 :]:
            if first.ink.colliderect(second.ink):
                out.append(f"{first.text!r} overlaps {second.text!r}")
    return out


def abbreviated(text: str, names: tuple[str, ...], keep: int = 2) -> bool:
    """Whether the "…" in ``text`` stands for the middle of exactly one of ``names``, at least
    ``keep`` characters of it kept at each end (an abbreviation with meaning, display.names)."""
    left, _, right = text.partition("…")
    found = []
    for name in names:
        head = max((h for h in range(keep, len(name)) if left.endswith(name[:h])), default=0)
        tail = max((n for n in range(keep, len(name) - head + 1) if right.startswith(name[len(name) - n :])), default=0)
        if head and tail:
            found.append((name, head, tail))
    return len(found) == 1 and not any(
        other != found[0][0]
        and other.startswith(found[0][0][: found[0][1]])
        and other.endswith(found[0][0][-found[0][2] :])
        for other in names
    )


# -- the states -----------------------------------------------------------------------------------
def empty() -> BoardModel:
    return BoardModel()


def four_games() -> BoardModel:
    model = busy_model()
    for n, title in enumerate(("Race to ten", "Fourth game")):
        info = GameInfo(f"g{n}", title, "pts", "pts")
        model.apply(*result("E", n + 5, "red 3 3, blue 5 5", info), 1.0)
    for n in range(8):
        model.apply(*live(f"T{n}", 1, "red 3 3, blue 5 5, green 1 1, yellow 0 0"), 1.0)
    return model


def worst() -> BoardModel:
    """Six seats, long table names, journal-style game ids with three-digit game numbers, big
    scores and money, a finished game, an offline table mid-game, one waiting."""
    model = BoardModel()
    seats = ("red", "blue", "green", "yellow", "black", "white")
    for n, table in enumerate(("Brno-Hall-B-12", "Krakow-Stol-7", "Wroclaw-Sud-3")):
        dm = [12_500 - 900 * i for i in range(6)]
        rows = tuple(PlayerLine(i + 1, c, dm[i], dm[i], f"{dm[i]:_} DM".replace("_", " ")) for i, c in enumerate(seats))
        aa = Result(f"{table}/3f9a2b7c01de-{118 + n}", table, AA, NOW - 3600 + 600 * n, rows)
        model.apply(result_topic(ROOT, table, f"3f9a2b7c01de-{118 + n}"), encode(aa), 1.0)
        vp = tuple(PlayerLine(i + 1, c, 188 - 9 * i, 98_000 - 7_000 * i, f"{98_000 - 7_000 * i:,} R".replace(",", " "))
                   for i, c in enumerate(seats[:4]))  # fmt: skip
        otw = Result(f"{table}/3f9a2b7c01de-{121 + n}", table, OTW, NOW - 1800 + 300 * n, vp)
        model.apply(result_topic(ROOT, table, f"3f9a2b7c01de-{121 + n}"), encode(otw), 1.0)
        rows6 = tuple(PlayerLine(i + 1, c, 9_800 - 100 * i, 9_800 - 100 * i, f"{9_800 - 100 * i} DM")
                      for i, c in enumerate(seats))  # fmt: skip
        game = LiveGame(f"{table}/3f9a2b7c01de-{124 + n}", AA, 10_000 if n else None, "white", rows6, finished=n == 2)
        model.apply(live_topic(ROOT, table), encode(TableLive(table, "s1", 1, NOW, game)), 1.0)
    model.apply(online_topic(ROOT, "Krakow-Stol-7"), encode(TableOnline("Krakow-Stol-7", False)), 1.0)
    model.apply(live_topic(ROOT, "Olomouc-9"), encode(TableLive("Olomouc-9", "s1", 1, NOW, None)), 1.0)
    model.apply(f"{ROOT}/results/E/1", b"{garbage", 1.0)
    return model


LONGEST = ("W" * 31 + "1", "M" * 31 + "2", "W" * 16 + "-" + "M" * 14 + "3")  # table ids at their limit (32)


def longest() -> BoardModel:
    """:func:`worst` with every table id as long and wide as the messages allow (32 letters,
    ``topics.check_table_id``): a row's "which game" and a live card's title must still fit."""
    model = BoardModel()
    seats = ("red", "blue", "green", "yellow", "black", "white")
    for n, table in enumerate(LONGEST):
        rows = tuple(PlayerLine(i + 1, c, 12_500 - 900 * i, 12_500 - 900 * i, "12 500 DM") for i, c in enumerate(seats))
        aa = Result(f"{table}/3f9a2b7c01de-{118 + n}", table, AA, NOW - 3600 + 600 * n, rows)
        model.apply(result_topic(ROOT, table, f"3f9a2b7c01de-{118 + n}"), encode(aa), 1.0)
        game = LiveGame(f"{table}/3f9a2b7c01de-{124 + n}", AA, 10_000 if n else None, "white", rows, finished=n == 2)
        model.apply(live_topic(ROOT, table), encode(TableLive(table, "s1", 1, NOW, game)), 1.0)
    model.apply(online_topic(ROOT, LONGEST[1]), encode(TableOnline(LONGEST[1], False)), 1.0)
    return model


STATES: dict[str, Callable[[], BoardModel]] = {
    "empty": empty, "busy": busy_model, "four": four_games, "worst": worst, "longest": longest,
}  # fmt: skip
DATA = {"Race to ten", "Fourth game"}  # game titles come in messages: one too long for its panel may be cut


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_state_fits_at_every_size(language: str) -> None:
    pygame.font.init()
    OUTPUT.mkdir(parents=True, exist_ok=True)
    found: list[str] = []
    frames = 0
    for name, state in STATES.items():
        model = state()
        for size in SIZES:
            view = BoardView(EVENT, name != "empty", "mqtt://laptop.local:1883", NOW, language)
            surface, drawn = draw(model, view, size)
            save_png(surface, str(OUTPUT / f"fits_{language}_{size[0]}x{size[1]}_{name}.png"))
            parts = layout(size, lambda px, bold: font(px, bold=bold))
            found += [f"{language} {size} {name}: {f}" for f in faults(drawn, size, parts, DATA)]
            broken = board_texts(language).text("board.cannot_show", part="")  # a part that raised
            found += [f"{language} {size} {name}: {d.text!r}" for d in drawn if broken in d.text]
            frames += 1
            if name != "empty":
                texts = [d.text for d in drawn]
                assert any(t.startswith(EVENT) for t in texts)
                rows = sum(bool(re.search(r"(#|\b)\d+ · \d\d:\d\d$", t)) for t in texts)
                assert rows >= 5, (language, size, name, "rows that say which game they are")
    assert frames == len(STATES) * len(SIZES)
    assert not found, "\n".join(found)


def test_each_row_names_its_game_and_time() -> None:
    """The rows of the 1920×1080 board, in English: table, the game's number at that table (the last
    part of ``<journal id>-<game id>``), and when it finished on the board's clock."""
    pygame.font.init()
    _, drawn = draw(worst(), BoardView(EVENT, True, "", NOW, "en"), (1920, 1080))
    texts = {d.text for d in drawn}
    at = datetime.fromtimestamp(NOW - 1800).strftime("%H:%M")
    assert f"Brno-Hall-B-12 · #121 · {at}" in texts  # a long table name leaves no room for the words
    _, drawn = draw(busy_model(), BoardView(EVENT, True, "", NOW, "en"), (1920, 1080))
    at = datetime.fromtimestamp(1001.0).strftime("%H:%M")  # tests.leaderboard.helpers.result: at + n
    assert f"table C · game 1 · {at}" in {d.text for d in drawn}
    _, drawn = draw(busy_model(), BoardView(EVENT, True, "", NOW, "cs"), (1920, 1080))
    assert f"stůl C · hra 1 · {at}" in {d.text for d in drawn}
    assert game_number("Brno/3f9a2b7c01de-121") == "121" and game_number("A/17") == "17"


def test_the_check_finds_what_it_looks_for() -> None:
    """The instrument on frames drawn wrong on purpose: a text off screen, two overlapping, one cut,
    one too small, one outside every part."""
    pygame.font.init()
    parts = {"all": pygame.Rect(10, 10, 200, 100)}

    def frame(*texts: tuple[str, int, tuple[int, int]]) -> list[Drawn]:
        out = []
        for text, px, pos in texts:
            image = font(px).render(text, True, (255, 255, 255))
            rect = pygame.Rect(pos, image.get_size())
            out.append(Drawn(text, px, rect, image.get_bounding_rect().move(pos)))
        return out

    assert faults(frame(("fine", 14, (20, 20))), (300, 200), parts, set()) == []
    assert "runs off the screen" in faults(frame(("off", 14, (290, 20))), (300, 200), parts, set())[0]
    assert "leaves its part" in faults(frame(("out", 14, (250, 150))), (300, 200), parts, set())[0]
    assert "overlaps" in faults(frame(("one", 14, (20, 20)), ("two", 14, (25, 22))), (300, 200), parts, set())[0]
    assert "is cut" in faults(frame(("Tabl…", 14, (20, 20))), (300, 200), parts, set())[0]
    assert faults(frame(("Race…", 14, (20, 20))), (300, 200), parts, {"Race to ten"}) == []
    assert "px" in faults(frame(("tiny", 9, (20, 20))), (300, 200), parts, set())[0]
