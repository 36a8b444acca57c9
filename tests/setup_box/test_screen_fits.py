"""The wizard's screen measured, not only photographed: at the kiosk's sizes, in the four languages,
with the box's words and a desk's, every text stays in its place — the title bar's three parts apart,
the side panel's texts inside the panel and apart from each other, nothing cut — and the way out is
on the screen. A local measurement (the texts' rectangles from the frame record)."""

from __future__ import annotations

import os
from dataclasses import replace

import pygame
import pytest

from companion.display.measure import violations
from companion.games.digitise.model import Step, WizardState
from companion.games.digitise.profile import profile
from companion.setup_box.machine import enter
from companion.setup_box.screen import LeaveTapped, hit, render
from companion.table.messages import LANGUAGES
from tests.setup_box.test_screen import states

SIZES = [(800, 480), (1280, 800), (1920, 1080)]
SIDE = {"doing", "detail", "more", "label", "value", "message", "keys", "typing"}
TOP = {"title", "name", "leave"}
Rect = tuple[int, int, int, int]


@pytest.fixture(scope="module", autouse=True)
def _pygame() -> object:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    pygame.display.init()
    pygame.font.init()
    yield
    pygame.display.quit()


def inside(a: Rect, b: Rect) -> bool:
    return b[0] <= a[0] and b[1] <= a[1] and a[0] + a[2] <= b[0] + b[2] and a[1] + a[3] <= b[1] + b[3]


def overlap(a: Rect, b: Rect) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def moments(game: str) -> dict[str, WizardState]:
    """Each step of the owner's script, and the check with a long list of problems (no start cities,
    a card of every contract flagged): the list that must scroll, not run under the bottom."""
    seen = dict(states(game))
    check = seen["check"]
    messy = replace(check, setup=(), cards=tuple(c for c in check.cards))  # type: ignore[attr-defined]
    seen["check:long"] = enter(replace(messy, roads=messy.roads[: len(messy.roads) // 2]), Step.CHECK,  # type: ignore[attr-defined]
                               profile(game))  # fmt: skip
    return seen


@pytest.mark.parametrize("game", ["on-the-way", "auf-achse"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_step_fits_in_every_language_and_size(game: str, language: str) -> None:
    checked = 0
    for name, state in moments(game).items():
        for size in SIZES:
            for desk in (False, True):
                surface = pygame.Surface(size)
                record = render(
                    surface, state, language=language, desk=desk, typing="Mönchengladbach" if desk else None
                )  # type: ignore[arg-type]
                where = f"{game} {language} {name} {size} desk={desk}"
                assert not record.clipped, (where, record.clipped)
                side = record.regions["side"]
                texts = [t for t in record.texts if t.role in SIDE]
                assert texts and all(inside(t.rect, side) for t in texts), (
                    where,
                    [t for t in texts if not inside(t.rect, side)],
                )
                for i, a in enumerate(texts):
                    for b in texts[i + 1 :]:
                        assert not overlap(a.rect, b.rect), (where, a, b)
                top = [t for t in record.texts if t.role in TOP]
                assert {t.role for t in top} == TOP, where
                for i, a in enumerate(top):
                    assert inside(a.rect, (0, 0, *size)), (where, a)
                    for b in top[i + 1 :]:
                        assert not overlap(a.rect, b.rect), (where, a, b)
                x, y, w, h = record.regions["leave"]
                assert hit(record, (x + w // 2, y + h // 2)) == LeaveTapped()  # the way out is on the screen
                # The whole frame measured too: the map's city names overlapped each other before.
                assert not violations(record), (where, [str(v) for v in violations(record)][:10])
                checked += 1
    assert checked == len(moments(game)) * len(SIZES) * 2


def test_the_long_check_list_scrolls_with_its_position_shown() -> None:
    state = moments("on-the-way")["check:long"]
    record = render(pygame.Surface((800, 480)), state, language="en")  # type: ignore[arg-type]
    more = record.roles("more")
    assert more and "scroll" in more[0] and "of" in more[0], record.roles("detail")
    assert not record.find("Fix the problems first")  # the old message drawn over the list is gone
