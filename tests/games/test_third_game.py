"""A third game plugs in without touching the platform (style point 17).

``tests/games/race`` is registered at run time and then played through every consumer of the
registry — scripted play, the journal (resume after a "power cut", export → replay), the kiosk
(set-up offers it, its title, currency and ranking), the simulator window, ``companion games``, the
leaderboard — with no line of the platform naming it.
"""

from __future__ import annotations

import ast
import io
import json
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from companion import games
from companion.cli import main as cli_main
from companion.cli.play import run_script
from companion.games.setup import GameSetup
from companion.intents import ButtonName, ButtonPressed
from companion.journal import JournaledGame, JournalStore
from companion.kiosk import Kiosk, KioskSettings, Screen
from companion.table.tags import TagDirectory
from tests.games.race.plugin import PLUGIN

TURNS = (("red", 3), ("blue", 3), ("red", 2), ("blue", 1), ("red", 1))
WIN_FOR_RED = [{"player": c, "action": "add", "n": n} for c, n in TURNS]


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    games.register(PLUGIN)
    yield
    games.unregister(PLUGIN.name)


def test_the_registry_lists_it_after_the_built_in_games() -> None:
    assert games.names() == ("on-the-way", "auf-achse", "race")
    assert games.get("race") is PLUGIN
    with pytest.raises(games.UnknownGame, match="known: on-the-way, auf-achse, race"):
        games.get("chess")


def _code_strings(path: Path) -> set[str]:
    """Every string constant in a module's code (docstrings, which only show examples, left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    }


def test_the_platform_never_names_a_game() -> None:
    """Outside the games and the registry's list of built-ins, no platform module's code names a game."""
    root = Path(games.__file__).parent.parent
    names = ("on-the-way", "auf-achse", "on_the_way", "auf_achse", "On The Way", "Auf Achse")
    packages = ("cli", "journal", "kiosk", "simulator", "display", "table", "engine", "data", "hardware", "leaderboard",
                "setup_box")  # fmt: skip
    for package in packages:
        for path in (root / package).rglob("*.py"):
            found = [s for s in _code_strings(path) if any(name in s for name in names)]
            assert not found, f"{path} names a game: {found}"


def test_scripted_play(capsys: pytest.CaptureFixture[str]) -> None:
    script = [*WIN_FOR_RED[:2], {"action": "legal", "player": "red"}, {"player": "blue", "action": "add", "n": 1},
              *WIN_FOR_RED[2:]]  # fmt: skip
    out = io.StringIO()
    run_script(PLUGIN, PLUGIN.new_game(GameSetup("race", ("red", "blue"))), [json.dumps(s) for s in script], out)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert lines[2] == {"ok": True, "legal": {"player": "red", "finished": False, "commands": [
        {"player": "red", "action": "add", "n": n} for n in (1, 2, 3)]}}  # fmt: skip
    assert lines[3]["error"]["rule"] == "R-2"  # blue out of turn: refused, nothing changed
    assert lines[-1]["state"] == {"total": 10, "turn": "red", "finished": True, "winner": "red",
                                  "money": {"red": 100, "blue": 0}}  # fmt: skip


def test_companion_play_runs_it_from_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "race.jsonl"
    script.write_text("".join(json.dumps(s) + "\n" for s in WIN_FOR_RED), encoding="utf-8")
    assert cli_main(["play", "--game", "race", "--players", "red,blue", "--script", str(script)]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1])["state"]["winner"] == "red"


def test_journaled_resumed_exported_and_replayed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "journal.sqlite"
    with JournalStore.open(path) as store:
        game = JournaledGame.start(store, GameSetup("race", ("red", "blue")))
        for command in WIN_FOR_RED[:3]:
            game.push(PLUGIN.command_from_json(command))
        game_id = game.game_id
    with JournalStore.open(path) as store:  # the power came back
        resumed = JournaledGame.resume(store, store.unfinished())  # type: ignore[arg-type]
        assert resumed.state.total == 8 and resumed.state.current == "blue"
        for command in WIN_FOR_RED[3:]:
            resumed.push(PLUGIN.command_from_json(command))
        assert resumed.finished and store.leaderboard(game="race")[0].colour == "red"
    export = tmp_path / "race.jsonl"
    assert cli_main(["export", str(game_id), "--journal", str(path), "-o", str(export)]) == 0
    assert "--game race" in capsys.readouterr().err
    assert cli_main(["games", "--journal", str(path)]) == 0
    assert "[race]" in capsys.readouterr().out
    assert cli_main(["play", "--game", "race", "--players", "red,blue", "--script", str(export)]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1])["state"] == PLUGIN.state_to_json(resumed.state)


def test_the_kiosk_offers_it_and_plays_it_to_its_own_ranking(tmp_path: Path) -> None:
    store = JournalStore.open(tmp_path / "journal.sqlite")
    settings = KioskSettings(pin="2468", games=("on-the-way", "race"))
    kiosk = Kiosk(store, TagDirectory.simulated(PLUGIN.colours, ()), now=0.0, settings=settings)
    assert kiosk.view.title == "On The Way · Race to ten"

    def press(*buttons: str) -> None:
        for b in buttons:
            kiosk.handle(ButtonPressed(ButtonName(b)), 1.0)

    press("ok")
    assert kiosk.screen is Screen.SETUP_GAME and kiosk.view.options == ("On The Way", "Race to ten")
    press("plus", "ok")  # Race to ten
    assert kiosk.view.options == ("2 players", "3 players", "4 players")
    press("ok", "ok", "ok")  # 2 players, red, blue; one length only: straight to the confirmation
    assert kiosk.screen is Screen.SETUP_CONFIRM and "Race to ten" in kiosk.view.lines
    press("ok")
    assert kiosk.screen is Screen.PLAYING and kiosk.playing is not None
    press("plus", "plus", "ok", "plus", "plus", "ok", "plus", "plus", "ok", "minus", "minus", "ok")
    kiosk.tick(2.0)
    assert kiosk.screen is Screen.RANKING
    assert kiosk.view.title == "Game over — Race to ten"
    assert kiosk.view.lines[0] == "1. Blue — 100 pts"  # the amount stays chosen between turns
    kiosk.close()


def test_the_simulator_window_runs_it(tmp_path: Path) -> None:
    from companion.simulator.window import Simulator

    pygame.display.init()
    sim = Simulator(PLUGIN, PLUGIN.new_game(GameSetup("race", ("red", "blue"))), clock=lambda: 0.0, size=(800, 600))
    sim.draw()
    for _ in range(2):
        pos = sim.button_pos(ButtonName.PLUS)
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    pos = sim.button_pos(ButtonName.OK)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    sim.pump()
    assert sim.controller.state.total == 3
    assert any(t.text == "3 / 10" for t in sim.record.texts)
