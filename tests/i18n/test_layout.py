"""The layout check over the whole matrix: every table screen of both games × reachable state ×
language × size, the simulator window (screen + tray) and its start dialog, with worst cases (4 and
6 players, the longest colour names in each language, full hands, the whole menu stepped through,
long advice in the feed). Each frame is measured (companion.display.measure): nothing leaves its
box or the screen, nothing overlaps a sibling, nothing is cut, nothing is under the minimum size,
and no text was rendered without a recorded rectangle. A menu or choice list must show its
highlighted item and, when it does not show every item, where it is ("2/3").
Screenshots at 800×480: tests/output/i18n/layout_<language>_<screen>.png."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

import pygame
import pytest

import tests.display_aa.scenes as aa_scenes
from companion import games
from companion.display import fonts
from companion.display.measure import Violation, violations
from companion.display.record import FrameRecord
from companion.display.stats import draw_stats
from companion.engine.stats import GameStats
from companion.games.auf_achse.screen.render import render as render_aa
from companion.games.on_the_way.screen.render import render as render_otw
from companion.games.setup import GameSetup
from companion.games.stats import stats_of_game
from companion.intents import ButtonName, ButtonPressed
from companion.simulator.app import new_game
from companion.simulator.start_dialog import Choice, draw_dialog, game_options
from companion.simulator.window import Simulator
from companion.table.messages import LANGUAGES, Catalogue
from companion.table.ui import UiModel
from tests.i18n.conftest import save
from tests.i18n.test_overflow import otw_moments
from tests.table.conftest import Table
from tests.table_aa.conftest import AATable

SIZES = [(800, 480), (1280, 800), (1920, 1080)]
ADVICE = (
    "Advice: take B07 Gdańsk→Kraków (3 trucks, 2 500 R) and move R1 to Warsaw — it reaches Kraków in two "
    "turns, before the traffic jam on Łódź–Kraków ends"
)


@dataclass(frozen=True)
class Frame:
    screen: str  # "otw", "aa", "sim_otw", "dialog", "stats"
    state: str
    draw: Callable[[pygame.Surface], FrameRecord]
    ui: UiModel | None = None
    held: tuple[str, ...] = ()  # the contracts the panels must name or count (none may vanish unseen)


def otw_frames(language: str) -> Iterator[Frame]:
    for name, t in otw_moments(language):
        yield _otw(name, t)
    # 4 players, full hands, transports out, the whole menu stepped through, advice in the feed.
    t = Table(
        "red 5000R B01,B02,B03,B04,B05 1:Poznań:2:B01 2:Kaunas:1\nblue 2500R B06,B07,B08 1:Warsaw:1\n"
        "green 1200R B09,B10 1:Lviv:1\nyellow 800R B11,B12\ncities Warsaw=W2 Kaunas=L1",
        colours=("red", "blue", "green", "yellow"),
        language=language,
    )
    yield _otw("otw_4p", t)
    t.press("menu")
    for step in range(len(t.ui.choices)):
        yield _otw(f"otw_4p_menu_{step}", t)
        t.press("plus")
    t.press("back")

    def with_advice(s: pygame.Surface, t: Table = t) -> FrameRecord:
        return render_otw(s, t.state, replace(t.ui, message=ADVICE), t.ctl.led_frame)

    yield Frame("otw", "otw_4p_advice", with_advice)


def _otw(name: str, t: Table) -> Frame:
    ui, state = t.ui, t.state
    held = tuple(c for p in state.players for c in p.contracts)
    return Frame("otw", name, lambda s: render_otw(s, state, ui, t.ctl.led_frame), ui, held)


def aa_frames(
    language: str, monkeypatch: pytest.MonkeyPatch, table: type = AATable, prefix: str = "", menu: bool = True
) -> Iterator[Frame]:
    """The Auf Achse moments at ``table`` (a test table; the worst-names test passes one on its own
    data), named with ``prefix``; ``menu``: also the 6-player menu stepped through and the set-up."""
    monkeypatch.setattr(aa_scenes, "AATable", lambda *a, **k: table(*a, language=language, **k))
    for build in (aa_scenes.setup, aa_scenes.move, aa_scenes.auction, aa_scenes.game_over):
        scene = build()

        def draw_scene(s: pygame.Surface, c: aa_scenes.Scene = scene) -> FrameRecord:
            return render_aa(s, c.state, c.ui, c.leds)

        yield Frame("aa", f"{prefix}{scene.name}", draw_scene, scene.ui)
    six = ("red", "blue", "green", "yellow", "black", "white")
    t = table(
        "red @Hamburg-Bremen#1 9000DM hand=C44 loaded=C21,C22 trailers=small debt=bank:500,blue:300 miss=1\n"
        "blue @Berlin loaded=C23\ngreen @Munich\nyellow @Cologne\nblack @Dresden\nwhite @Hanover\n"
        "public C10,C11,C12,C13\nturn red",
        colours=six,
        language=language,
    )
    yield _aa(f"{prefix}aa_6p_roll", t)  # red on a road space: named by its two cities
    if not menu:
        return
    t.press("menu")
    for step in range(len(t.ui.choices)):
        yield _aa(f"aa_6p_menu_{step}", t)
        t.press("plus")
    t.press("back")
    t = AATable(None, colours=six, language=language)
    yield _aa("aa_6p_setup", t)


def _aa(name: str, t: AATable) -> Frame:
    ui = t.ui
    state, leds = t.state, t.ctl.led_frame
    held = tuple(c for p in state.players for c in p.loaded)  # loaded cargo is public; a hand is not (AA-4)
    return Frame("aa", name, lambda s: render_aa(s, state, ui, leds), ui, held)


def dialog_frames(language: str = "en") -> Iterator[Frame]:
    options = game_options()
    for game in options:
        for box in (None, *game.bot_levels):
            for short in (False, True):
                choice = Choice(options, game=game.name, players=max(game.player_counts), box=box, short=short)

                def draw_choice(s: pygame.Surface, c: Choice = choice) -> FrameRecord:
                    return _dialog(s, c, language)

                yield Frame("dialog", f"dialog_{game.name}_{box}_{'short' if short else 'full'}", draw_choice)


def _dialog(surface: pygame.Surface, choice: Choice, language: str = "en") -> FrameRecord:
    record = FrameRecord(surface.get_size())
    draw_dialog(surface, choice, record, language)
    return record


def check(frame: Frame, surface: pygame.Surface) -> list[Violation]:
    with fonts.traced() as rendered:
        record = frame.draw(surface)
    found = violations(record, rendered=rendered)
    if frame.ui is not None and frame.ui.choices:
        found += choice_violations(record, frame.ui)
    if frame.held and not record.regions.get("ranking"):
        found += held_violations(record, frame.held)
    return found


def held_violations(record: FrameRecord, held: tuple[str, ...]) -> list[Violation]:
    """Every contract a player holds is named in a panel (an id abbreviated with meaning names it,
    display.names), or counted: a "+n more" line, or "+n more loaded" in a full panel's cargo line."""
    named = " ".join([*(t.text for t in record.texts), *(name for t in record.texts for name, _ in t.abbreviated)])
    missing = [c for c in held if c not in named]
    counted = sum(int(m.group(1)) for t in record.roles("more") if (m := re.match(r"\+(\d+)", t)))
    counted += sum(int(n) for t in record.roles("cargo") for n in re.findall(r"(?<!\w)\+(\d+)", t))  # "load: +2 more"
    if len(missing) > counted:
        return [Violation("hidden", f"contracts {missing} are neither named nor counted ({counted} counted)")]
    return []


def choice_violations(record: FrameRecord, ui: UiModel) -> list[Violation]:
    """From the model, not the drawing code: the highlighted choice is on screen, and when some
    choices are not, the screen says where the list is."""
    out = []
    if not record.has(ui.choices[ui.choice_index], "choice_selected"):
        out.append(Violation("hidden", f"the highlighted choice {ui.choices[ui.choice_index]!r} is not on screen"))
    drawn = set(record.roles("choice")) | set(record.roles("choice_selected"))
    if not set(ui.choices) <= drawn and not record.roles("page"):
        out.append(Violation("hidden", f"{len(set(ui.choices) - drawn)} choices not shown and no position drawn"))
    return out


def run(frames: list[Frame], language: str, size: tuple[int, int]) -> tuple[int, list[str]]:
    surface = pygame.Surface(size)
    problems = []
    for frame in frames:
        problems += [f"{language} {size[0]}x{size[1]} {frame.state}: {v}" for v in check(frame, surface)]
        if size == SIZES[0]:
            save(surface, f"layout_{language}_{frame.state}")
    return len(frames), problems


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_table_screen_fits(language: str, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch) -> None:
    frames = [*otw_frames(language), *aa_frames(language, monkeypatch)]
    count, problems = run(frames, language, size)
    assert count >= 25
    assert not problems, "\n".join(problems[:40])


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_start_dialog_fits(language: str, size: tuple[int, int]) -> None:
    count, problems = run(list(dialog_frames(language)), language, size)
    assert count >= 8
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("game", ["on-the-way", "auf-achse"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_simulator_window_fits(language: str, game: str, size: tuple[int, int]) -> None:
    """The window as a whole: the game's screen in its part of the window and the tray below (its
    words in the table's language), with the menu open (the simulator at 1280×800 hid menu items too)."""
    plugin = games.get(game)
    colours = plugin.colours[: max(plugin.player_counts)]
    sim = Simulator(plugin, new_game(game, colours, seed=1), size=size, seed=1, clock=lambda: 0.0, language=language)
    problems: list[str] = []
    for step in range(12):
        sim.draw()
        for name, record in (("screen", sim.record), ("tray", sim.tray_record)):
            problems += [f"{game} {size} step {step} {name}: {v}" for v in violations(record)]
        ui = sim.controller.ui
        if ui.choices:
            problems += [f"{game} {size} menu: {v}" for v in choice_violations(sim.record, ui)]
        if size == SIZES[0] and step in (0, 1):
            save(sim.window, f"layout_{language}_simulator_{game}_{step}")
        sim.send(ButtonPressed(ButtonName.MENU if step == 0 else ButtonName.PLUS))
    assert not problems, "\n".join(problems[:40])


@pytest.mark.parametrize("language", LANGUAGES)
def test_auf_achse_names_spaces_as_a_person_would(language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """No internal space id ("Hamburg-Flensburg#1") or rule range ("AA-2..5") reaches the screen: the
    set-up, a truck on a road space (panel, message, prompt) and a move, in every language."""
    t = AATable("red @Hamburg-Flensburg#1\nblue @Hanover-Berlin#1\npublic C10,C11,C12,C13\nturn red roll=2",
                language=language)  # fmt: skip
    frames = [_aa("road_space", t), *(f for f in aa_frames(language, monkeypatch) if "setup" in f.state)]
    surface = pygame.Surface(SIZES[0])
    for frame in frames:
        record = frame.draw(surface)
        drawn = [d.text for d in record.texts]
        assert not [d for d in drawn if "#" in d or "AA-2..5" in d], (frame.state, drawn)
    named = [d.text for d in _aa("road_space", t).draw(surface).texts if d.role == "truck_line"]
    assert any("Flensburg" in n and "Hamburg" in n for n in named), named


PLAYED = (1_764_620_040.0, 1_764_623_000.0)  # a game's start and end, Unix seconds


def stats_frames(language: str) -> Iterator[Frame]:
    """The end-of-game picture (``companion export --stats``) of both games, 6 players where allowed."""
    for plugin in games.all_games():
        colours = plugin.colours[: max(plugin.player_counts)]
        setup = GameSetup(plugin.name, colours, seed=5)
        played = plugin.new_game(setup)
        for command in plugin.sample_game(setup, 5, 200):
            played.push(command)
        stats = stats_of_game(plugin, played)

        def draw_played(s: pygame.Surface, st: GameStats = stats) -> FrameRecord:
            return draw_stats(s, st, language=language, game_id=12, played=PLAYED)

        yield Frame("stats", f"stats_{plugin.name}", draw_played)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_stats_picture_fits_and_says_which_game_when_and_who_won(language: str, size: tuple[int, int]) -> None:
    frames = list(stats_frames(language))
    count, problems = run(frames, language, size)
    assert count == 2 and not problems, "\n".join(problems)
    t = Catalogue(language)
    for frame in frames:
        which = frame.draw(pygame.Surface(size)).roles("which")
        assert len(which) == 1 and t.text("stats.game_number", n=12) in which[0], which
        assert time.strftime("%Y-%m-%d", time.localtime(1_764_620_040.0)) in which[0]
        assert any(t.player_name(c) in which[0] for c in ("red", "blue", "green", "yellow", "black", "white"))
