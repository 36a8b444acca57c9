"""The kiosk on a (headless) screen: views drawn, touches and keys become intents, quitting is ignored."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from companion.intents import ButtonName, ButtonPressed
from companion.kiosk import OptionTapped, Screen
from companion.kiosk.app import KioskLoop
from companion.kiosk.screen import KioskScreen
from tests.screenshots import save_png

from .conftest import Box

OUT = Path("tests/output")


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class NoNotify:
    enabled = False

    def ready(self, *_: object) -> None: ...
    def stopping(self) -> None: ...
    def close(self) -> None: ...
    def watchdog(self) -> None: ...


@pytest.fixture
def screen() -> KioskScreen:
    """The box's screen: its full screen cannot be closed."""
    pygame.display.init()
    pygame.font.init()
    surface = pygame.display.set_mode((800, 480))
    return KioskScreen(surface, clock=FakeClock(), closable=False)


def post_ctrl_q() -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_q, mod=pygame.KMOD_LCTRL, unicode=""))


def post_key(key: int, up: bool = False) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYUP if up else pygame.KEYDOWN, key=key, mod=0, unicode=""))


def test_attract_and_setup_views_are_drawn_and_tappable(box: Box, screen: KioskScreen) -> None:
    screen.render(box.view, None)
    assert screen.record.has("press OK") or screen.record.roles("title")
    save_png(screen.surface, str(OUT / "kiosk_attract_800x480.png"))
    box.press("ok")
    assert box.screen is Screen.SETUP_PLAYERS
    screen.render(box.view, None)
    options = screen.record.roles("option")
    assert len(options) == len(box.view.options) and any("▶" in o for o in options)
    x, y, w, h = screen.record.regions["option:1"]
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x + w // 2, y + h // 2), button=1, touch=False))
    assert screen.poll() == [OptionTapped(1)]
    save_png(screen.surface, str(OUT / "kiosk_setup_800x480.png"))


def test_keys_are_the_five_buttons_and_quit_is_ignored(screen: KioskScreen) -> None:
    clock = screen.clock
    assert isinstance(clock, FakeClock)
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    post_ctrl_q()
    post_key(pygame.K_ESCAPE)
    post_key(pygame.K_RETURN)
    post_key(pygame.K_m)
    assert screen.poll() == [ButtonPressed(ButtonName.OK)]
    clock.now += 1.0
    post_key(pygame.K_m, up=True)
    assert screen.poll() == [ButtonPressed(ButtonName.MENU, long=True)]


def test_a_game_started_in_the_kiosk_shows_the_table(box: Box, screen: KioskScreen) -> None:
    loop = KioskLoop(box.kiosk, screen, notifier=NoNotify(), clock=lambda: box.now)  # type: ignore[arg-type]
    for _ in range(4):  # players: 2 · colours · length · start
        box.press("ok")
        loop.step()
    while box.screen is not Screen.PLAYING:
        box.press("ok")
        loop.step()
    assert screen.record.has("1 000 R")  # the bank balances are on screen
    assert screen.record.regions.get("map") is not None
    box.place("red", 1, "Bremen")
    loop.step()
    assert screen.record.rings  # the forming transport's hints are drawn as LED rings
    save_png(screen.surface, str(OUT / "kiosk_playing_800x480.png"))


def test_a_window_closes_with_its_close_button_or_ctrl_q_and_the_loop_ends(box: Box) -> None:
    pygame.display.init()
    pygame.font.init()
    surface = pygame.display.set_mode((800, 480))  # `companion kiosk --windowed`: a plain window
    for close in (lambda: pygame.event.post(pygame.event.Event(pygame.QUIT)), post_ctrl_q):
        window = KioskScreen(surface, clock=FakeClock())
        assert window.closable
        loop = KioskLoop(box.kiosk, window, notifier=NoNotify(), clock=lambda: box.now)  # type: ignore[arg-type]
        loop.step()
        assert loop.running
        close()
        loop.step()
        assert window.closed and not loop.running


def test_an_uncovered_window_is_painted_again(box: Box, screen: KioskScreen) -> None:
    screen.render(box.view, None)
    before = screen.renders
    screen.surface.fill((0, 0, 0))  # what another window left on it
    pygame.event.post(pygame.event.Event(pygame.WINDOWEXPOSED))
    assert screen.poll() == []
    assert screen.renders == before + 1 and screen.surface.get_at((400, 40))[:3] != (0, 0, 0)
