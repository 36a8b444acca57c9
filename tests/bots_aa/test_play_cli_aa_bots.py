"""Auf Achse bots through ``companion play``: ``--game auf-achse --players red,blue:bot-easy`` seats."""

from __future__ import annotations

import io
import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.cli import main
from companion.cli.play import run_script
from companion.games import get
from companion.games.auf_achse.bots.policy import easy_command
from companion.games.auf_achse.engine.serialize import command_to_json
from companion.games.setup import GameSetup


def play(tmp_path: Path, capsys: pytest.CaptureFixture[str], players: str, *more: str) -> list[dict[str, object]]:
    script = tmp_path / "empty.jsonl"
    script.write_text("", encoding="utf-8")
    assert main(["play", "--game", "auf-achse", "--players", players, "--script", str(script), *more]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def winners(state: dict[str, object]) -> list[str]:
    return [s["player"] for s in state["ranking"] if s["place"] == 1]  # type: ignore[attr-defined, index]


def test_with_every_seat_a_bot_an_empty_script_plays_a_whole_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seats = "red:bot-easy,blue:bot-easy,green:bot-easy"
    (final,) = play(tmp_path, capsys, seats, "--seed", "4")
    state = final["state"]
    assert state["finished"] is True and winners(state)  # type: ignore[arg-type, index]
    assert state["public_hidden"] == 0 and state["public"] == []  # type: ignore[index]  # AA-23
    again = play(tmp_path, capsys, seats, "--seed", "4")
    assert again == [final]  # deterministic given the seed
    other = play(tmp_path, capsys, seats, "--seed", "5")
    assert other != [final]


def test_bot_alone_is_the_medium_level_and_plays_its_set_up_and_turn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Red, a person, lays out the game (the first seat: AA-2, AA-4) and lets blue start (AA-5);
    blue's medium bot places its truck, is dealt, and plays its whole first turn."""
    red = [
        {"action": "place_truck", "player": "red", "space": "Hamburg-Bremen#1"},
        *({"action": "deal_contract", "player": "red", "card": c} for c in ("C01", "C02", "C03")),
        *({"action": "reveal_public", "card": c} for c in ("C10", "C11", "C12", "C13")),
        {"action": "start", "player": "blue"},
    ]
    script = tmp_path / "red.jsonl"
    script.write_text("".join(json.dumps(line) + "\n" for line in red), encoding="utf-8")
    args = ["play", "--game", "auf-achse", "--players", "red,blue:bot", "--script", str(script), "--seed", "2"]
    assert main(args) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == len(red) + 1 and all(line["ok"] for line in lines[:-1])
    state = lines[-1]["state"]
    blue = state["players"][1]  # type: ignore[index]
    assert blue["space"] is not None and len(blue["hand"]) + len(blue["loaded"]) >= 3  # type: ignore[index]
    assert state["rolls"] >= 1  # type: ignore[operator]  # blue rolled the companion's die (AA-7)
    # Blue played on until a person must act: red's turn, or red's answer to blue's auction (AA-19).
    assert state["turn"]["player"] == "red" or state["auction"]["opener"] == "blue"  # type: ignore[index]


def test_a_person_and_a_bot_play_a_game_line_by_line(tmp_path: Path) -> None:
    """Red is a person whose script is written as the game goes (here by the greedy policy's choices,
    set-up included: the first seat lays out the public contracts and starts, AA-4, AA-5); blue's bot
    acts between red's lines, also in the auctions red opens (AA-19), and gets no result lines."""
    plugin = get("auf-achse")
    game = plugin.new_game(GameSetup("auf-achse", ("red", "blue"), seed=8))
    rng = random.Random(8)
    sent: list[str] = []

    def red_lines() -> Iterator[str]:
        while not game.state.finished and len(sent) < 3000:
            command = easy_command(game.state, "red", rng)
            assert command is not None, "red has nothing to do: the bot should have acted"
            sent.append(json.dumps(command_to_json(command)))
            yield sent[-1]

    out = io.StringIO()
    final = run_script(plugin, game, red_lines(), out, bots={"blue": "easy"}, seed=8)
    results = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(results) == len(sent) + 1  # one line per command of red's script, then the state
    assert all(r["ok"] for r in results[:-1]), next(r for r in results if not r.get("ok", True))
    assert final["state"]["finished"] is True and winners(final["state"])  # type: ignore[arg-type, index]
    blue_acted = [c for c in game.log if getattr(c, "player", None) == "blue"]
    actions = {type(c).__name__ for c in blue_acted}
    assert {"PlaceTruck", "DealContract", "Roll", "Move", "EndTurn"} <= actions
    assert actions & {"Bid", "PassBid"}  # blue answered auctions, on red's turns too


def test_an_unknown_level_or_a_bad_seat_is_refused_with_a_clear_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "empty.jsonl"
    script.write_text("", encoding="utf-8")
    assert main(["play", "--game", "auf-achse", "--players", "red,blue:bot-expert", "--script", str(script)]) == 2
    assert "bot levels are easy, medium, hard" in capsys.readouterr().err
    assert main(["play", "--game", "auf-achse", "--players", "red,blue:robot", "--script", str(script)]) == 2
    assert "COLOUR:bot" in capsys.readouterr().err
