"""The big screen: PNGs in tests/output/ to look at; it redraws only when something shown changed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pygame
import pytest

from companion.display.fonts import font
from companion.leaderboard import BoardModel, Publisher
from companion.leaderboard.app import BoardApp
from companion.leaderboard.client import BoardClient
from companion.leaderboard.screen import SIZE, BoardView, render
from companion.leaderboard.topics import TableOnline, encode, online_topic
from tests.leaderboard.broker import TestBroker
from tests.leaderboard.helpers import AA, ROOT, FakeGame, live, result
from tests.screenshots import save_png

OUTPUT = Path(__file__).resolve().parents[1] / "output"
REPO = Path(__file__).resolve().parents[2]


def fonts(size: int, bold: bool) -> pygame.font.Font:
    return font(size, bold=bold)


def busy_model() -> BoardModel:
    model = BoardModel()
    messages = [
        result("A", 1, "red 12 340, blue 9 120, green 9 80"),
        result("B", 1, "yellow 15 10, black 3 0"),
        result("C", 1, "red 11 90, blue 14 200, green 2 0, yellow 7 30"),
        result("A", 2, "red 1200 1200, blue 950 950, green 400 400", AA),
        result("D", 1, "white 1500 1500, black 700 700", AA),
        live("A", 3, "red 8 100, blue 6 90, green 2 40"),
        live("B", 7, "yellow 4 10, black 5 20", AA, round_=11),
        live("C", 2, None),
        live("D", 9, "white 3 3, black 9 9, red 6 6, blue 1 1"),
    ]
    for topic, payload in messages:
        model.apply(topic, payload, 1.0)
    model.apply(online_topic(ROOT, "D"), encode(TableOnline("D", False)), 1.0)
    model.apply(f"{ROOT}/results/E/1", b"{garbage", 1.0)
    return model


def shot(name: str, model: BoardModel, view: BoardView, size: tuple[int, int] = SIZE) -> pygame.Surface:
    pygame.font.init()
    surface = pygame.Surface(size)
    render(surface, model, view, fonts)
    OUTPUT.mkdir(parents=True, exist_ok=True)
    save_png(surface, str(OUTPUT / f"leaderboard-{name}.png"))
    return surface


def colours_in(surface: pygame.Surface, rect: pygame.Rect) -> set[tuple[int, int, int]]:
    return {tuple(surface.get_at((x, y)))[:3] for x in range(rect.left, rect.right, 3)  # type: ignore[misc]
            for y in range(rect.top, rect.bottom, 3)}  # fmt: skip


def test_the_busy_board(tmp_path: Path) -> None:
    view = BoardView("Spieleabend Brno", connected=True, broker="mqtt://laptop:1883", now=1_764_547_200.0)
    surface = shot("busy", busy_model(), view)
    assert surface.get_size() == (1920, 1080)
    assert (230, 97, 0) in colours_in(surface, pygame.Rect(40, 130, 1250, 900))  # a red swatch in the rankings
    assert len(colours_in(surface, pygame.Rect(1340, 130, 540, 880))) > 20  # the live tables are drawn


def test_the_empty_board_and_a_lost_broker() -> None:
    surface = shot("empty-offline", BoardModel(), BoardView("Leaderboard", connected=False, broker="mqtt://x:1883"))
    assert (255, 120, 100) in colours_in(surface, pygame.Rect(1200, 24, 680, 90))  # the red "no connection"


def test_four_games_and_a_smaller_screen() -> None:
    model = busy_model()
    for n, title in enumerate(("Race to ten", "Fourth game")):
        game = FakeGame(name=f"g{n}", title=title)
        from companion.leaderboard.topics import GameInfo

        info = GameInfo(game.name, game.title, game.score_label, game.currency)
        model.apply(*result("E", n + 5, "red 3 3, blue 5 5", info), 1.0)
    for n in range(8):
        model.apply(*live(f"T{n}", 1, "red 3 3, blue 5 5, green 1 1, yellow 0 0"), 1.0)
    shot("four-games-1280", model, BoardView("A long event name that will not fit " * 3, True, "", 0.0), (1280, 720))
    shot("four-games-many-tables", model, BoardView("Twelve tables", True, "", 0.0))


def test_the_board_redraws_only_on_change(broker: TestBroker, tmp_path: Path) -> None:
    pygame.font.init()
    client = BoardClient(broker.url)
    app = BoardApp(client, pygame.Surface((640, 360)), fonts=fonts, max_fps=1000)
    try:
        deadline = time.monotonic() + 10
        while not client.connected and time.monotonic() < deadline:
            app.step()
            time.sleep(0.02)
        frames = app.frames
        for _ in range(20):
            assert not app.step()  # nothing changed: no frame
        assert app.frames == frames
        with Publisher(broker.url, "A", tmp_path / "o.sqlite") as box:
            box.publish_result(1, FakeGame(), [{"place": 1, "colour": "red", "score": 3, "money": 3}])
            deadline = time.monotonic() + 10
            while "A/1" not in app.model.results and time.monotonic() < deadline:
                app.step()
                time.sleep(0.01)
        assert app.frames > frames
    finally:
        client.close()


def test_companion_leaderboard_on_a_headless_screen_and_its_idle_cpu(broker: TestBroker, tmp_path: Path) -> None:
    with Publisher(broker.url, "A", tmp_path / "o.sqlite") as box:
        for n in range(1, 6):
            box.publish_result(n, FakeGame(), [{"place": 1, "colour": "red", "score": n, "money": n},
                                               {"place": 2, "colour": "blue", "score": 0, "money": 0}])  # fmt: skip
        box.publish_progress(6, FakeGame(), {"round": 4, "player": "blue"},
                             [{"place": 1, "colour": "red", "score": 2, "money": 2}])  # fmt: skip
        assert box.wait_delivered(10)
    png = OUTPUT / "leaderboard-cli.png"
    png.unlink(missing_ok=True)
    env = {"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PATH": "/usr/bin:/bin"}
    env["PYTHONPYCACHEPREFIX"] = os.environ.get("PYTHONPYCACHEPREFIX", "")  # the suite's byte-code (conftest)
    proc = subprocess.run(
        [sys.executable, "-m", "companion", "leaderboard", "--broker", broker.url, "--event", "Test night",
         "--seconds", "5", "--windowed", "1920x1080", "--screenshot", str(png), "--stats"],
        cwd=REPO, capture_output=True, text=True, timeout=60, env=env, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    stats = json.loads(proc.stdout.strip().splitlines()[-1])
    assert png.exists() and stats["results"] == 5 and stats["tables"] == 1 and stats["dropped"] == 0
    (OUTPUT / "leaderboard-idle.json").write_text(json.dumps(stats, indent=2) + "\n", encoding="utf-8")
    assert stats["frames"] <= 10  # the messages at start, then nothing: idle draws no frames
    assert stats["cpu_percent"] < 10


@pytest.mark.parametrize("url", ["http://x", "mqtts://x?ca=/no/such/file"])
def test_a_bad_broker_url_is_a_clear_error(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    assert main(["leaderboard", "--broker", url]) == 2
    assert "companion leaderboard: broker URL" in capsys.readouterr().err
