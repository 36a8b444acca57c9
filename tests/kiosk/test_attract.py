"""The attract screen as a passer-by meets it: both games take turns, full width and never covered,
one call to play in a band that never moves, today's best of the game shown, a touch starts a game."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from companion import games
from companion.kiosk import Kiosk, KioskSettings, Screen
from companion.kiosk.attract import PAGE_STEPS, TUTORIAL_EVERY, VISIT_ACTIONS
from companion.kiosk.screen import KioskScreen, draw_view
from companion.kiosk.view import ScreenTapped
from tests.kiosk.conftest import SETTINGS, TAGS, Box
from tests.kiosk.test_kiosk import GOLDEN_COMMANDS, start_golden_game
from tests.screenshots import save_png

OUT = Path("tests/output")
BOTH = KioskSettings(pin="2468", games=("on-the-way", "auf-achse"), replay_step_s=1.0)
SIZES = ((800, 480), (1280, 800), (1920, 1080))


@pytest.fixture(autouse=True)
def _pygame() -> None:
    pygame.display.init()
    pygame.font.init()


def kiosk(tmp_path: Path, settings: KioskSettings = BOTH) -> Kiosk:
    from companion.journal import JournalStore

    return Kiosk(JournalStore.open(tmp_path / "j.sqlite"), TAGS, now=0.0, settings=settings)


def inside(inner: tuple[int, int, int, int], outer: tuple[int, int, int, int]) -> bool:
    x, y, w, h = inner
    ox, oy, ow, oh = outer
    return ox <= x and oy <= y and x + w <= ox + ow and y + h <= oy + oh


def test_both_games_take_turns_and_each_visit_pictures_its_rules(tmp_path: Path) -> None:
    box = kiosk(tmp_path)
    shown: list[tuple[str, bool]] = []
    now = 0.0
    for _ in range(2 * (VISIT_ACTIONS + 3 * PAGE_STEPS) + 4):
        box.tick(now)
        scene = box.view.scene
        assert scene is not None
        shown.append((scene.plugin.name, scene.tutorial))
        now += 1.0
    names = [name for name, _ in shown]
    assert names[0] == "on-the-way" and "auf-achse" in names and names[-1] == "on-the-way"  # and back again
    for name in ("on-the-way", "auf-achse"):  # the rules in pictures, in each game's own visit
        assert sum(1 for n, t in shown if n == name and t) == 3 * PAGE_STEPS
    assert shown[TUTORIAL_EVERY] == ("on-the-way", True)
    box.close()


def test_the_band_never_moves_and_nothing_covers_the_replay(tmp_path: Path) -> None:
    box = kiosk(tmp_path)
    for size in SIZES:
        surface = pygame.Surface(size)
        bands, calls = set(), set()
        now = 0.0
        for step in range(2 * VISIT_ACTIONS):
            box.tick(now)
            now += 1.0
            if step % 7:
                continue
            record = draw_view(surface, box.view)
            bands.add(record.regions["attract"])
            calls.add(record.regions["call"])
            replay = record.regions["replay"]
            band = record.regions["attract"]
            assert replay[1] + replay[3] <= band[1]  # the band is under the replay, not over it
            for text in record.texts:  # the band's words stay in the band, the game's in the game's part
                assert inside(text.rect, band) or inside(text.rect, replay), (size, text)
            assert record.find("Tap the screen or press OK to play", role="call"), size
            assert not record.clipped, (size, record.clipped)
        assert len(bands) == 1 and len(calls) == 1, size  # no layout jump while the games and pages change
        save_png(surface, str(OUT / f"kiosk_attract_{size[0]}x{size[1]}.png"))
    box.close()


def test_todays_best_of_the_game_shown_is_in_the_band(tmp_path: Path) -> None:
    box = Box(tmp_path / "j.sqlite", replace(SETTINGS, replay_step_s=1.0))
    assert box.view.attract is not None and box.view.attract.best == ("No games yet today: be the first!",)
    start_golden_game(box)
    game = box.kiosk.game
    assert game is not None
    for command in GOLDEN_COMMANDS:
        game.push(command)
    box.later()
    assert box.screen is Screen.RANKING
    box.press("ok")
    box.later(1.0)
    card = box.view.attract
    assert card is not None and card.game == "On The Way"
    assert card.best[0].startswith("Today's best: 1. Blue ") and card.best[0].count(" · ") == 2  # the top three
    assert card.best[-1].count(" · ") == 0  # and shorter: the top two, the best one
    for size in SIZES:  # as many as fit, never a cut name or score
        record = draw_view(pygame.Surface(size), box.view)
        shown = record.find("Today's best: 1. Blue", role="best")
        assert shown and shown[0].text in card.best and not record.clipped, size
        assert size[0] < 1920 or shown[0].text == card.best[0]  # a big screen has room for all three
    box.close()


def test_a_touch_anywhere_on_the_attract_screen_starts_a_game(tmp_path: Path) -> None:
    box = kiosk(tmp_path)
    box.tick(0.0)
    screen = KioskScreen(pygame.Surface((800, 480)))
    screen.render(box.view, None)
    x, y, w, h = screen.record.regions["replay"]
    pygame.event.clear()
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x + w // 3, y + h // 2), button=1, touch=False))
    intents = screen.poll()
    assert intents == [ScreenTapped()]
    box.handle(intents[0], 1.0)
    assert box.screen is Screen.SETUP_GAME
    box.close()


@pytest.mark.parametrize("language", ["cs", "de", "pl"])
def test_the_band_speaks_the_language_and_fits(tmp_path: Path, language: str) -> None:
    box = kiosk(tmp_path, replace(BOTH, language=language))
    surface = pygame.Surface((800, 480))
    shown: set[str] = set()
    for now in range(0, 3 * VISIT_ACTIONS):
        box.tick(float(now))
        if now % 5:
            continue  # every step is played, every fifth drawn
        record = draw_view(surface, box.view)
        shown |= {t.text for t in record.texts}
        assert not record.clipped, (language, record.clipped)
        call = record.find("OK", role="call")
        assert call and call[0].text != "Tap the screen or press OK to play"
    save_png(surface, str(OUT / f"kiosk_attract_{language}_800x480.png"))
    assert {games.get("auf-achse").title, games.get("on-the-way").title} <= shown  # both games take turns
    box.close()
