"""The no-argument entry: start dialog, options, and the window loop ending on QUIT."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from companion.cli import main as cli_main
from companion.simulator.app import parse_args
from companion.simulator.start_dialog import Choice, GameOption, draw_dialog, run_dialog
from tests.display.conftest import save

GAMES = (
    GameOption("on-the-way", "On The Way", True),
    GameOption("auf-achse", "Auf Achse", False, (2, 3, 4, 5, 6), ("red", "blue", "green", "yellow", "black", "white")),
)


def test_start_dialog_picks_players_and_length_by_keys() -> None:
    window = pygame.display.set_mode((800, 480))
    draw_dialog(window, Choice(GAMES))
    save(window, "start_dialog")
    for key in (pygame.K_3, pygame.K_s, pygame.K_RETURN):
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=""))
    choice = run_dialog(window, GAMES)
    assert choice is not None
    assert choice.colours == ("red", "blue", "green") and choice.end_at == 3


def test_start_dialog_by_mouse() -> None:
    window = pygame.display.set_mode((1280, 800))
    areas = draw_dialog(window, Choice(GAMES))
    for name in ("players:4", "start"):
        pos = areas[name].center
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    choice = run_dialog(window, GAMES)
    assert choice is not None and choice.players == 4 and not choice.short


def test_closing_the_dialog_quits_cleanly() -> None:
    window = pygame.display.set_mode((800, 480))
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    assert run_dialog(window, GAMES) is None


def test_options() -> None:
    args = parse_args(["--players", "red,blue", "--end-at", "3", "--seed", "5", "--size", "1024x600"])
    assert (args.players, args.end_at, args.seed, args.size) == ("red,blue", 3, 5, "1024x600")


def test_companion_without_arguments_opens_the_dialog_and_quits_on_close() -> None:
    pygame.display.set_mode((800, 480))
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    assert cli_main([]) == 0
    pygame.display.init()  # the fixture's display stays usable for the next tests


def test_companion_with_players_runs_the_simulator_loop_until_the_window_closes() -> None:
    from companion.cli.default import run_default

    pygame.display.set_mode((800, 480))
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    assert run_default(["--players", "red,blue", "--end-at", "2", "--size", "1024x700"]) == 0
    pygame.display.init()


def test_the_dialog_offers_every_registered_game_and_the_short_game_only_where_it_exists() -> None:
    window = pygame.display.set_mode((1280, 800))
    three = (*GAMES, GameOption("tiny", "Tiny test game", False))
    areas = draw_dialog(window, Choice(three, game="tiny"))
    assert {"game:on-the-way", "game:auf-achse", "game:tiny"} <= set(areas)
    assert "short:1" not in areas and "start" in areas
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_s, mod=0, unicode=""))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode=""))
    choice = run_dialog(window, three, game="tiny")
    assert choice is not None and choice.game == "tiny" and choice.end_at is None


def test_the_player_counts_and_colours_are_the_chosen_games() -> None:
    window = pygame.display.set_mode((1280, 800))
    areas = draw_dialog(window, Choice(GAMES, game="auf-achse"))
    assert {f"players:{n}" for n in (2, 3, 4, 5, 6)} <= set(areas)  # AA-1: 2 to 6 players
    save(window, "start_dialog_auf_achse")
    for key in (pygame.K_6, pygame.K_g, pygame.K_RETURN):  # six players, then On The Way (2 to 4)
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=""))
    choice = run_dialog(window, GAMES, game="auf-achse")
    assert choice is not None and choice.game == "on-the-way" and choice.colours == ("red", "blue", "green", "yellow")


def test_the_simulator_plays_the_box_digitised_last(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.games.on_the_way.data import REFERENCE_BOARD, REFERENCE_CONTRACTS, REFERENCE_EVENTS
    from companion.setup_box.datasets import DataSets
    from companion.simulator.app import data_files, new_game

    monkeypatch.setenv("COMPANION_STATE_DIR", str(tmp_path))
    assert data_files("on-the-way", None) == {"board": None, "contracts": None, "events": None}  # the reference
    texts = {p.name: p.read_text(encoding="utf-8") for p in (REFERENCE_BOARD, REFERENCE_CONTRACTS, REFERENCE_EVENTS)}
    saved = DataSets(tmp_path).save("on-the-way", "my box", texts)
    files = data_files("on-the-way", None)
    assert files["board"] == str(saved.files["board"])
    game = new_game("on-the-way", ("red", "blue"), files=files)
    assert len(game.state.config.board.cities) == 44
    assert data_files("on-the-way", "reference")["board"] is None


def test_the_box_can_play_the_other_seats_at_a_level_chosen_in_the_dialog() -> None:
    window = pygame.display.set_mode((800, 480))
    with_bots = (GameOption("on-the-way", "On The Way", True, bot_levels=("easy", "medium", "hard")), GAMES[1])
    areas = draw_dialog(window, Choice(with_bots))
    assert "box" in areas and areas["start"].bottom <= 480  # everything fits the smallest window
    save(window, "start_dialog_box")
    for key in (pygame.K_3, pygame.K_b, pygame.K_b, pygame.K_RETURN):  # 3 players, the box at the second level
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=""))
    choice = run_dialog(window, with_bots)
    assert choice is not None and choice.bots == {"blue": "medium", "green": "medium"}  # red is yours
    choice.choose_game("auf-achse")  # a game without bots: people again
    assert choice.bots == {} and "box" not in draw_dialog(window, choice)
