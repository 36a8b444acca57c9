"""The windowed kiosk (``companion kiosk --windowed``) played with a mouse, like the simulator: a
click on the attract screen starts, the five buttons under every screen, and at the table the
simulator's edge — markers dragged onto cities, cards clicked to scan them, MENU held for the admin."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

from companion.intents import ButtonName
from companion.kiosk import Screen
from companion.kiosk.app import KioskLoop
from companion.kiosk.screen import KioskScreen
from companion.table.tags import MarkerTag
from tests.kiosk.conftest import Box
from tests.kiosk.test_kiosk_screen import FakeClock, NoNotify


@pytest.fixture
def window() -> KioskScreen:
    pygame.display.init()
    pygame.font.init()
    surface = pygame.display.set_mode((1280, 800))  # a plain window, as --windowed opens
    pygame.event.clear()
    return KioskScreen(surface, clock=FakeClock())


def click(pos: tuple[int, int]) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=False))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1, touch=False))


def drag(start: tuple[int, int], end: tuple[int, int]) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1, touch=False))
    middle = ((start[0] + end[0]) // 2, (start[1] + end[1]) // 2)
    for pos in (middle, end):
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(1, 0, 0), touch=False))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=1, touch=False))


def test_a_game_is_started_and_played_with_the_mouse_alone(box: Box, window: KioskScreen) -> None:
    assert window.desk is not None
    loop = KioskLoop(box.kiosk, window, notifier=NoNotify(), clock=lambda: box.now)  # type: ignore[arg-type]
    loop.step()
    click((window.surface.get_width() // 2, 200))  # a click on the attract screen starts a game
    loop.step()
    assert box.screen is Screen.SETUP_PLAYERS
    ok = window.desk.bar.buttons[ButtonName.OK].center  # the buttons are drawn under the screen
    while box.screen is not Screen.PLAYING:
        click(ok)
        loop.step()
    loop.step()
    edge = window.desk.edge
    assert edge is not None and edge.tray is not None  # the table's edge: markers, cards, buttons
    game = box.kiosk.game
    assert game is not None
    card = edge.table.offer[0]
    click(edge.card_pos(card))  # a face-up contract clicked: scanned, taken
    loop.step()
    assert type(game.log[-1]).__name__ == "TakeContract" and game.log[-1].card == card  # type: ignore[attr-defined]
    marker = MarkerTag("red", 1)
    start = edge.marker_pos(marker, window.record, game.state)
    x, y, _ = window.record.cities[_idle_city(game.state)]
    drag(start, (x, y))  # a marker dragged from the tray onto a city with idle trucks: a new transport
    loop.step()
    box.later(1.0)  # the placement settles (as on the readers)
    loop.step()
    assert box.kiosk.controller.ui.mode.value == "forming", box.kiosk.controller.ui  # type: ignore[union-attr]
    assert not window.closed


def _idle_city(state: Any) -> str:
    """A city with idle trucks (OTW-15: a new transport starts there)."""
    return next(name for name in state.config.board.names if state.idle_at(name) > 0)


def test_holding_menu_on_the_screen_opens_the_pin_entry(box: Box, window: KioskScreen) -> None:
    loop = KioskLoop(box.kiosk, window, notifier=NoNotify(), clock=lambda: box.now)  # type: ignore[arg-type]
    loop.step()
    assert window.desk is not None
    clock = window.clock
    assert isinstance(clock, FakeClock)
    menu = window.desk.bar.buttons[ButtonName.MENU].center
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=menu, button=1, touch=False))
    loop.step()
    clock.now += 1.0  # held for a second: MENU's long press
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=menu, button=1, touch=False))
    loop.step()
    assert box.screen is Screen.PIN_ENTRY


def test_the_box_full_screen_has_no_mouse_table(box: Box) -> None:
    pygame.display.init()
    screen = KioskScreen(pygame.Surface((800, 480)), closable=False)
    assert screen.desk is None


def test_the_set_up_wizard_in_a_window_takes_the_desks_keys_and_shows_its_way_out(
    tmp_path: Path, window: KioskScreen
) -> None:
    from dataclasses import replace as _replace

    from tests.kiosk.conftest import SETTINGS

    box = Box(tmp_path / "j.sqlite", _replace(SETTINGS, state_dir=str(tmp_path)))
    loop = KioskLoop(box.kiosk, window, notifier=NoNotify(), clock=lambda: box.now)  # type: ignore[arg-type]
    box.enter_pin("2468")
    box.press(*["plus"] * box.view.options.index("Digitise a box"), "ok")
    loop.step()
    assert box.screen is Screen.SETUP_BOX and window.record.has("Enter adds")  # a desk's words: nothing to put
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r"))
    loop.step()
    wizard = box.kiosk.view.wizard
    assert wizard is not None and len(wizard.cities) == 1  # Enter: the named city, without a reader
    x, y, w, h = window.record.regions["leave"]
    click((x + w // 2, y + h // 2))  # the way out, on the screen
    loop.step()
    assert box.screen is Screen.ATTRACT
    box.close()


def test_a_resumed_game_comes_to_the_window_with_its_markers_where_the_engine_has_them(
    box: Box, window: KioskScreen
) -> None:
    from companion.kiosk.desk import DeskTable
    from tests.kiosk.test_kiosk import GOLDEN_COMMANDS, start_golden_game

    start_golden_game(box)
    game = box.kiosk.game
    assert game is not None and box.kiosk.playing is not None
    for command in GOLDEN_COMMANDS[:8]:  # the opening: a transport on the board
        game.push(command)
    desk = DeskTable()
    desk.layout((1280, 800), box.kiosk.playing)
    assert desk.edge is not None
    placed = {m: c for m, c in desk.edge.table.markers.items() if c is not None}
    assert placed and all(desk.edge.matches_engine(m, game.state) for m in placed)
