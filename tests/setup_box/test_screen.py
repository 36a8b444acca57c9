"""The wizard's screen renders headless at the kiosk's sizes, shows what to do, and touches map back
to the wizard's intents."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

import pygame
import pytest

from companion.games.digitise.model import CityMoved, FieldTapped, SpaceTapped, Step, WizardState
from companion.games.digitise.profile import read_toml
from companion.intents import ButtonName, ButtonPressed, CityTapped, TagPlaced
from companion.setup_box.machine import start, step
from companion.setup_box.screen import drag, hit, render
from companion.setup_box.trace import owner_script
from tests.screenshots import save_png
from tests.setup_box.conftest import reference

OUTPUT = Path(__file__).resolve().parents[1] / "output"
SIZES = [(800, 480), (1920, 1080)]


@pytest.fixture(scope="module", autouse=True)
def _pygame() -> object:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    pygame.display.init()
    pygame.font.init()
    yield
    pygame.display.quit()


def states(game: str) -> dict[str, WizardState]:
    """The wizard at a moment of each step, from the owner's script of the reference box."""
    return dict(_states(game))  # the states are immutable; the dict is the caller's


@cache  # a replay of the whole script (about 1 s): the same moments for every language and size
def _states(game: str) -> dict[str, WizardState]:
    script, _ = owner_script(game, reference(game), drag=False)
    seen: dict[str, WizardState] = {}
    cities = tuple(c["name"] for c in read_toml(reference(game)["board"])["cities"])
    state = start(game, "my box", cities)
    for intent in script:
        state = step(state, intent)
        key = state.step.value + (":form" if state.form is not None and len(state.form.filled) == 2 else "")
        if state.step is Step.ROADS and state.editing_road and "roads:edit" not in seen:
            seen["roads:edit"] = state
        seen.setdefault(key, state)
        if state.step is Step.READERS and len(state.readers) == 12:
            seen["readers"] = state
    return seen


@pytest.mark.parametrize("game", ["on-the-way", "auf-achse"])
@pytest.mark.parametrize("size", SIZES)
def test_every_step_renders(game: str, size: tuple[int, int]) -> None:
    OUTPUT.mkdir(parents=True, exist_ok=True)
    for name, state in states(game).items():
        surface = pygame.Surface(size)
        record = render(surface, state, now=0.1)
        assert record.roles("title") and record.roles("doing"), name
        assert len(record.cities) == len(state.cities)
        save_png(surface, str(OUTPUT / f"setup-box-{game}-{name.replace(':', '-')}-{size[0]}.png"))


def test_touch_and_drag_become_intents() -> None:
    got = states("on-the-way")
    state = got["contracts:form"]
    surface = pygame.Surface((800, 480))
    record = render(surface, state)
    assert record.has("trucks") and record.has("OK saves the card.")
    x, y, _ = record.cities["Warsaw"]
    assert hit(record, (x, y)) == CityTapped("Warsaw")
    fx, fy, fw, fh = record.regions["field:pay"]
    assert hit(record, (fx + fw // 2, fy + fh // 2)) == FieldTapped("pay")
    moved = drag(record, "Warsaw", (x, y))
    assert isinstance(moved, CityMoved)
    where = dict((c, (px, py)) for c, px, py in state.positions)["Warsaw"]
    assert abs(moved.x - where[0]) < 0.01 and abs(moved.y - where[1]) < 0.01


def test_a_road_being_traced_shows_its_spaces_for_touch() -> None:
    state = states("auf-achse")["roads:edit"]
    record = render(pygame.Surface((800, 480)), state)
    x, y, w, h = record.regions["space:1"]
    assert hit(record, (x + w // 2, y + h // 2)) == SpaceTapped(1)


def test_the_screen_shows_the_lights() -> None:
    state = start("on-the-way", "t", ("Poznań", "Warsaw"))
    state = step(step(state, TagPlaced("channel 0", "04")), TagPlaced("channel 1", "04"))
    state = step(step(state, ButtonPressed(ButtonName.OK, True)), TagPlaced("channel 0", "04"))
    record = render(pygame.Surface((800, 480)), state, now=0.1)
    assert "Poznań" in record.rings


def test_window_events_become_intents() -> None:
    from companion.games.digitise.model import NameTyped
    from companion.setup_box.window import WindowInput

    got = states("on-the-way")
    window = WindowInput()
    state = got["layout"]
    surface = pygame.Surface((800, 480))
    record = render(surface, state)
    x, y, _ = record.cities["Warsaw"]
    down = pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(x, y))
    assert window.intents(down, record, state) == []  # the layout step: a drag starts
    up = pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=(x + 40, y + 10))
    (moved,) = window.intents(up, record, state)
    assert isinstance(moved, CityMoved) and moved.city == "Warsaw"
    key = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=pygame.KMOD_LSHIFT)
    assert window.intents(key, record, state) == [ButtonPressed(ButtonName.OK, True)]
    tab = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_TAB, mod=0)
    assert window.intents(tab, record, state) == [ButtonPressed(ButtonName.MENU)]
    window.intents(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F2, mod=0), record, state)
    window.intents(pygame.event.Event(pygame.TEXTINPUT, text="Kiel"), record, state)
    assert render(surface, state, typing=window.typing).has("typing: Kiel")
    enter = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0)
    assert window.intents(enter, record, state) == [NameTyped("Kiel")] and window.typing is None
    roads = got["contracts:form"]
    record = render(surface, roads)
    x, y, _ = record.cities["Kraków"]
    tap = pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(x, y))
    assert window.intents(tap, record, roads) == [CityTapped("Kraków")]
