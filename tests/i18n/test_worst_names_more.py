"""The longest names beyond the table screens (tests/i18n/test_worst_names.py): the simulator's tray
(the face-up contracts, the piles) and the box wizard (the map being digitised, the city asked for,
a card's fields, the check's list of problems), on both games' data with every city name and card
id as long as the data validator accepts (tests/i18n/worst_names.py), in every language at every
size, measured (companion.display.measure): a name may be abbreviated with meaning (both ends kept,
never like another name), never cut, never over another text or out of its box.

The kiosk draws no city or card name of its own: its attract replay and its playing screens are the
games' screens (measured there), its windowed tray is the simulator's (measured here, under the
kiosk's desk), its set-up wizard is the wizard's screen (measured here); the rest shows colours,
titles and scores. Screenshots at 800×480: tests/output/i18n/worst_<language>_<frame>.png.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pygame
import pytest

from companion import games
from companion.display import fonts
from companion.display.measure import violations
from companion.games.digitise.model import Step, WizardState
from companion.games.digitise.profile import profile, read_toml
from companion.games.setup import GameSetup
from companion.kiosk.desk import DeskTable
from companion.kiosk.machine import PlayingTable
from companion.setup_box.machine import enter, start, step
from companion.setup_box.screen import render as render_wizard
from companion.setup_box.trace import owner_script
from companion.simulator.app import new_game
from companion.simulator.window import Simulator
from companion.table.messages import LANGUAGES
from tests.i18n.conftest import save
from tests.i18n.test_layout import SIZES
from tests.i18n.worst_names import worst_files

GAMES = ("on-the-way", "auf-achse")
# Auf Achse lays out its public contracts during set-up: 30 commands of a sample game put four on
# the tray (On The Way's offer is dealt by the simulated table from the start).
PLAYED = {"on-the-way": 0, "auf-achse": 30}
# The wizard's text-heaviest moments: a city asked for by name, a card's fields holding cities (a
# traffic jam's road: two of them), the check listing problems that name cities and cards.
WIZARD = ("readers", "contracts:form", "events:form", "check:long")
LARGEST = ("readers", "check:long")  # at 1920×1080 (the kiosk's): the map and the list, the forms have room


@pytest.fixture(scope="module")
def worst(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out: Path = tmp_path_factory.mktemp("worst_more")
    return {game: worst_files(game, out / game) for game in GAMES}


def simulator(game: str, files: dict[str, str | None]) -> Simulator:
    plugin = games.get(game)
    colours = plugin.colours[: max(plugin.player_counts)]
    played = new_game(game, colours, seed=1, files=files)
    setup = GameSetup(game, colours, files["board"], files["contracts"], files["events"], seed=1)
    for command in plugin.sample_game(setup, 1, PLAYED[game]):
        played.push(command)
    return Simulator(plugin, played, size=SIZES[0], seed=1, clock=lambda: 0.0)


def on_the_tray(sim: Simulator) -> list[tuple[str, str, str]]:
    """(card, start, end) of each face-up contract the tray shows."""
    state = sim.controller.state
    ids = getattr(state, "public", None) or sim.table.offer  # Auf Achse's public contracts, On The Way's offer
    cards = [state.config.contract(c) for c in ids]
    return [(c.id, getattr(c, "origin", None) or c.start, getattr(c, "destination", None) or c.end) for c in cards]


@pytest.mark.parametrize("game", GAMES)
def test_the_simulator_tray_shows_the_longest_names(game: str, worst: dict[str, Any]) -> None:
    """The tray in the window's four languages at each size (one screen render: the tray is drawn
    again for each language, the window resized as a person would); every face-up card still names
    its route, abbreviated with meaning."""
    files, _ = worst[game]
    sim = simulator(game, files)
    sim.draw()  # the screen's frame: the names the tray shares
    cards = on_the_tray(sim)
    assert len(cards) >= 4 and all(len(name) == 200 for card in cards for name in card)
    problems: list[str] = []
    frames = 1
    # The windowed kiosk's tray under the same screen (companion.kiosk.desk): the same names.
    desk = DeskTable(clock=lambda: 0.0)
    playing = PlayingTable(sim.controller, sim.game_screen, sim.plugin)
    assert desk.layout(sim.window.get_size(), playing) == sim.screen_rect
    with fonts.traced() as rendered:
        record = desk.draw(sim.window, sim.record, playing)
    problems += [f"{game} desk {SIZES[0]}: {v}" for v in violations(record, rendered=rendered)]
    for size in SIZES:
        if sim.window.get_size() != size:
            pygame.display.set_mode(size, pygame.RESIZABLE)
            sim.handle_event(pygame.event.Event(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1]))
        sim.draw()  # the game's screen above the tray is smaller than the screen tests' sizes (800×370)
        frames += 1
        problems += [f"{game} {size[0]}x{size[1]} screen: {v}" for v in violations(sim.record)]
        for language in LANGUAGES:
            with fonts.traced() as rendered:
                record = sim.draw_tray(replace(sim.controller.ui, language=language))
            frames += 1
            where = f"{game} {size[0]}x{size[1]} {language}"
            problems += [f"{where}: {v}" for v in violations(record, rendered=rendered)]
            named = {name for t in record.texts for name, _ in t.abbreviated} | {t.text for t in record.texts}
            problems += [f"{where}: {card}'s route not named" for card, a, b in cards if not {a, b} <= named]
            if size == SIZES[0] and language in ("en", "pl"):
                save(sim.window, f"worst_{language}_tray_{game}")
    assert frames == 1 + len(SIZES) * (1 + len(LANGUAGES))
    assert not problems, f"{len(problems)} problems in {frames} frames:\n" + "\n".join(problems[:40])


def wizard_moments(game: str, files: dict[str, str | None]) -> dict[str, WizardState]:
    """The owner's script entering the worst data into the wizard, stopped at :data:`WIZARD`'s
    moments; the check with a long list (no start cities, half the roads missing)."""
    paths = {role: Path(str(path)) for role, path in files.items()}
    script, _ = owner_script(game, paths, drag=False)
    state = start(game, "my box", tuple(c["name"] for c in read_toml(paths["board"])["cities"]))
    seen: dict[str, WizardState] = {}
    for intent in script:
        before, state = state, step(state, intent)
        if state.step is Step.CHECK:  # entered once, below, with the long list (entering lays the map out)
            break
        key = state.step.value + (":form" if state.form is not None and len(state.form.filled) == 2 else "")
        if state.step is not Step.READERS or len(state.readers) == 12:  # a map with cities on it
            seen.setdefault(key, state)
    messy = replace(before, setup=(), roads=before.roads[: len(before.roads) // 2])
    seen["check:long"] = enter(messy, Step.CHECK, profile(game))
    return {name: s for name, s in seen.items() if name in WIZARD}


@pytest.mark.parametrize("game", GAMES)
def test_the_box_wizard_shows_the_longest_names(game: str, worst: dict[str, Any]) -> None:
    files, _ = worst[game]
    moments = wizard_moments(game, files)
    assert set(moments) >= set(WIZARD) - {"events:form"}  # Auf Achse's action cards have no city field
    problems: list[str] = []
    frames = 0
    for size in SIZES:
        surface = pygame.Surface(size)
        for language in LANGUAGES:
            for name, state in moments.items():
                if size == SIZES[-1] and name not in LARGEST:
                    continue
                with fonts.traced() as rendered:
                    record = render_wizard(surface, state, language=language)
                frames += 1
                where = f"{game} {size[0]}x{size[1]} {language} {name}"
                problems += [f"{where}: {v}" for v in violations(record, rendered=rendered)]
                if name == "readers":  # the city asked for is named (abbreviated) in what to do
                    asked = state.remaining[0]
                    said = [n for t in record.texts if t.role == "doing" for n in (t.text, *dict(t.abbreviated))]
                    problems += [] if any(asked in n for n in said) else [f"{where}: the city asked for is not named"]
                if size == SIZES[0] and language == "en":
                    save(surface, f"worst_{language}_wizard_{game}_{name.replace(':', '_')}")
    assert not problems, f"{len(problems)} problems in {frames} frames:\n" + "\n".join(problems[:40])
