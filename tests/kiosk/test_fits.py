"""Every kiosk screen measured at the Pi's 800×480 (and 1280×800, 1920×1080) in cs, de, en and pl:
every text inside the screen and inside its button, none over another, the option list above the
footer (it pages when it is long: Auf Achse's 6 colours and 6 seats the box plays), nothing cut.

A local measurement of the texts' rectangles (``FrameRecord.texts``: what ``Canvas.text`` drew,
sized by ``pygame.font.Font.size``), written before the screens helper's recorder reached this branch."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from companion.kiosk import KioskSettings, Screen
from companion.kiosk.screen import draw_view
from companion.table.messages import LANGUAGES
from tests.kiosk.conftest import SETTINGS, Box
from tests.screenshots import save_png

SIZES = ((800, 480), (1280, 800), (1920, 1080))
FLAT = {"title", "line", "option", "position", "notice", "hint"}
OUT = Path("tests/output")
Rect = tuple[int, int, int, int]


@pytest.fixture(autouse=True)
def _pygame() -> None:
    pygame.display.init()
    pygame.font.init()


def inside(a: Rect, b: Rect) -> bool:
    return b[0] <= a[0] and b[1] <= a[1] and a[0] + a[2] <= b[0] + b[2] and a[1] + a[3] <= b[1] + b[3]


def overlap(a: Rect, b: Rect) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def measure(box: Box, name: str, language: str) -> int:
    """Render the kiosk's view at every size and check it; the count of renders checked. The 800×480
    renders are left in tests/output/kiosk-fit/ for a look."""
    view = box.view
    for size in SIZES:
        surface = pygame.Surface(size)
        record = draw_view(surface, view)
        where = f"{language} {name} {size}"
        assert not record.clipped, (where, record.clipped)
        for text in record.texts:
            assert inside(text.rect, (0, 0, *size)), (where, text)
        flat = [t for t in record.texts if t.role in FLAT]
        for i, a in enumerate(flat):
            for b in flat[i + 1 :]:
                assert not overlap(a.rect, b.rect), (where, a, b)
        buttons = [r for k, r in record.regions.items() if k.startswith("option:")]
        for text in (t for t in record.texts if t.role == "option"):
            assert any(inside(text.rect, r) for r in buttons), (where, text)  # in its button
        footer = [t.rect for t in record.texts if t.role in ("hint", "notice")]
        for button in buttons:
            assert not any(overlap(button, f) for f in footer), (where, button)
        if size == (800, 480):
            (OUT / "kiosk-fit").mkdir(parents=True, exist_ok=True)
            save_png(surface, str(OUT / "kiosk-fit" / f"{language}_{name}.png"))
    return len(SIZES)


def walk(box: Box, language: str, game_players: int) -> Iterator[str]:
    """The set-up screens of a new game with the most players, every colour step with the list
    scrolled to its end (the box's seats), then back to the attract screen."""
    yield "attract"
    box.press("ok")
    if box.screen is Screen.SETUP_GAME:
        yield "setup_game"
        box.press("plus")  # the second game: Auf Achse, up to 6 players and 12 colour entries
        box.press("ok")
    yield "setup_players"
    box.press(*["plus"] * (game_players - 2), "ok")
    for _ in range(game_players):
        yield "setup_colours"
        box.press("minus")  # the last entry: a seat the box plays, at the end of the list
        yield "setup_colours_end"
        box.press("plus", "ok")
    while box.screen is not Screen.SETUP_CONFIRM:
        yield box.screen.value
        box.press("ok")
    yield "setup_confirm"
    box.press("back")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_kiosk_screen_fits_its_place(tmp_path: Path, language: str) -> None:
    both = replace(SETTINGS, games=("on-the-way", "auf-achse"), language=language, state_dir=str(tmp_path))
    box = Box(tmp_path / "j.sqlite", both)
    checked = 0
    for name in walk(box, language, 6):
        checked += measure(box, name, language)
    box.press("back")
    while box.screen is not Screen.ATTRACT:
        box.press("back")
    box.enter_pin("2468")
    assert box.screen is Screen.ADMIN
    for i in range(len(box.view.options)):
        checked += measure(box, f"admin_{i}", language)
        box.press("plus")
    label = next(
        o for o in box.view.options if ":" in o and o.split(":")[0] in {"Language", "Jazyk", "Sprache", "Język"}
    )
    names = {"en": "English", "cs": "čeština", "de": "Deutsch", "pl": "polski"}
    assert label.endswith(names[language]), label  # the kiosk's language named in the menu's language
    box.press("back")
    box.enter_pin("1")  # a wrong PIN: the notice over the hint
    checked += measure(box, "wrong_pin", language)
    box.close()
    assert checked >= 3 * 20


def test_the_admin_menu_names_the_default_language_in_the_menus_language(tmp_path: Path) -> None:
    box = Box(tmp_path / "j.sqlite", replace(SETTINGS, language="en"))
    box.press("plus")  # a player chose Czech on the attract screen
    box.enter_pin("2468")
    assert "Jazyk: angličtina (English)" in box.view.options  # no English word alone in a Czech menu
    box.close()


def test_a_long_option_list_pages_around_the_selection(tmp_path: Path) -> None:
    aa = KioskSettings(pin="2468", games=("auf-achse",), replay_step_s=0.0)
    box = Box(tmp_path / "j.sqlite", aa)
    box.press("ok", *["plus"] * 4, "ok")  # 6 players
    assert box.screen is Screen.SETUP_COLOURS and len(box.view.options) == 12
    box.press("minus")  # the last: "… — the box plays"
    record = draw_view(pygame.Surface((800, 480)), box.view)
    shown = [k for k in record.regions if k.startswith("option:")]
    assert "option:11" in shown and "option:0" not in shown
    position = record.roles("position")
    assert position and position[0].startswith("▲") and position[0].endswith("/ 12")
    box.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_simulators_start_dialog_keeps_every_label_in_its_button(size: tuple[int, int]) -> None:
    from companion.display.record import Canvas
    from companion.simulator import start_dialog
    from companion.simulator.start_dialog import Choice, draw_dialog, game_options

    options = game_options()
    drawn: list[tuple[str, Rect]] = []
    original = Canvas.text

    def recording(self: Canvas, text: str, pos: tuple[int, int], *args: object, **kwargs: object) -> pygame.Rect:
        rect = original(self, text, pos, *args, **kwargs)  # type: ignore[arg-type]
        drawn.append((text, (rect.x, rect.y, rect.w, rect.h)))
        return rect

    choice = Choice(options)
    for _ in range(3):  # people, the box at each level: "Other seats: the box (medium)"
        drawn.clear()
        start_dialog.Canvas.text = recording  # type: ignore[method-assign]
        try:
            areas = draw_dialog(pygame.Surface(size), choice)
        finally:
            start_dialog.Canvas.text = original  # type: ignore[method-assign]
        for area, button in areas.items():
            texts = [(t, r) for t, r in drawn if overlap(r, (button.x, button.y, button.w, button.h))]
            assert texts, area
            for text, rect in texts:
                assert inside(rect, (button.x, button.y, button.w, button.h)), (size, area, text)
                assert not text.endswith("…"), (size, area, text)
        choice.next_box()
