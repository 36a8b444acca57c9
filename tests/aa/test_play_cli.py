"""``companion play --game auf-achse``: one JSON result per command, then the state; the golden game."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import cast

import pytest

from companion.cli import main
from companion.engine.jsonio import CommandFormatError, event_to_json
from companion.games.auf_achse.engine import new_game
from companion.games.auf_achse.engine.serialize import command_from_json, command_to_json, view_for

from .conftest import config
from .golden.make_golden import play_golden

GOLDEN = Path(__file__).parent / "golden"


def run_play(tmp_path: Path, lines: list[str], *args: str, capsys) -> list[dict]:  # type: ignore[no-untyped-def,type-arg]
    script = tmp_path / "script.jsonl"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code = main(["play", "--game", "auf-achse", *args, "--script", str(script)])
    assert code == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


SETUP = [
    '{"player":"red","action":"place_truck","space":"Hamburg-Flensburg#1"}',
    '{"player":"blue","action":"place_truck","space":"Hamburg-Bremen#1"}',
    *(f'{{"player":"red","action":"deal_contract","card":"C{i:02}"}}' for i in (1, 2, 3)),
    *(f'{{"player":"blue","action":"deal_contract","card":"C{i:02}"}}' for i in (4, 5, 6)),
    *(f'{{"action":"reveal_public","card":"C{i:02}"}}' for i in (7, 8, 9, 10)),
    '{"action":"start"}',
]


def test_results_one_line_per_command_then_the_state(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    lines = [
        *SETUP,
        '{"player":"red","action":"roll","value":2}',
        '{"player":"red","action":"move","to":"Bremen"}',
        "not json",
        '{"player":"blue","action":"fly"}',
        '{"player":"red","action":"bid","level":"x"}',
        '{"action":"undo"}',
    ]
    out = run_play(tmp_path, lines, "--players", "red,blue", "--seed", "1", capsys=capsys)
    assert len(out) == len(lines) + 1
    assert out[0] == {"ok": True, "events": [{"type": "truck_placed", "player": "red", "space": "Hamburg-Flensburg#1"}]}
    assert all(r["ok"] for r in out[: len(SETUP) + 1])
    moved = out[len(SETUP) + 1]
    assert moved["ok"] is False and moved["error"]["rule"] == "AA-7"
    assert out[-5]["error"]["rule"] == "input" and out[-4]["error"]["rule"] == "input"
    assert "unknown action" in out[-4]["error"]["message"]
    assert out[-3]["error"] == {
        "rule": "input",
        "field": "level",
        "message": "field 'level' must be a whole number, not 'x'",
    }
    assert out[-2]["ok"] is True and out[-2]["events"][0]["type"] == "undone"
    state = out[-1]["state"]
    assert state["turn"]["player"] == "red" and state["turn"]["stage"] == "roll"
    assert state["players"][0]["hand"] == ["C01", "C02", "C03"] and state["public_hidden"] == 8
    assert set(state) == {
        "players", "phase", "public", "public_hidden", "spare_left", "trailers_left", "signs", "turn",
        "auction", "awaiting", "rolls", "finished", "end_reason", "ranking",
    }  # fmt: skip


def test_golden_two_player_game_replays_to_the_recorded_end(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    lines = (GOLDEN / "two-players.jsonl").read_text(encoding="utf-8").splitlines()
    out = run_play(tmp_path, lines, "--players", "red,blue", "--seed", "7", capsys=capsys)
    assert all(r["ok"] for r in out[:-1]), next(r for r in out[:-1] if not r["ok"])
    expected = json.loads((GOLDEN / "two-players.state.json").read_text(encoding="utf-8"))
    assert out[-1]["state"] == expected
    assert expected["finished"] is True and expected["ranking"][0]["place"] == 1
    kinds = {e["type"] for r in out[:-1] for e in r["events"]}
    assert {"auction_won", "action_card_drawn", "contract_delivered", "game_ended"} <= kinds


def test_golden_generator_still_plays_the_same_game() -> None:
    commands, state = play_golden()
    lines = (GOLDEN / "two-players.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line) for line in lines] == [command_to_json(c) for c in commands]
    assert state.finished


def test_bad_data_file_names_file_line_and_field(tmp_path: Path) -> None:
    board = tmp_path / "bad.board.toml"
    board.write_text(
        '[board]\nname = "x"\ngame = "auf-achse"\n[[cities]]\nname = "A"\nx = 0.5\ny = 0.5\n'
        '[[cities]]\nname = "B"\nx = 0.2\ny = 0.5\n[[roads]]\nbetween = ["A", "C"]\nspaces = 2\n'
    )
    script = tmp_path / "s.jsonl"
    script.write_text("")
    proc = subprocess.run(
        [sys.executable, "-m", "companion", "play", "--game", "auf-achse", "--players", "red,blue",
         "--board", str(board), "--script", str(script)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert proc.returncode == 2
    assert "bad.board.toml:13: roads[1].between: unknown city or junction 'C'" in proc.stderr


def test_house_rules_on_the_command_line(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = run_play(tmp_path, [], "--players", "red,blue", "--rule", "pass_is_final=false", capsys=capsys)
    assert out[-1]["state"]["phase"] == "setup"
    code = main(["play", "--game", "auf-achse", "--players", "red,blue", "--rule", "nope=1", "--script", "-"])
    assert code == 2


def test_every_command_round_trips_through_json() -> None:
    commands, _ = play_golden()
    for command in commands:
        assert command_from_json(command_to_json(command)) == command
        assert eval(repr(command), vars(__import__("companion.games.auf_achse.engine", fromlist=["*"]))) == command
    with pytest.raises(CommandFormatError):
        command_from_json({"player": "red", "action": "buy_trailer", "size": "huge"})


def test_view_for_hides_private_contracts_from_the_shared_screen() -> None:
    _, state = play_golden(40)
    shared = cast(list[dict[str, object]], view_for(state, None)["players"])
    red_view = cast(list[dict[str, object]], view_for(state, "red")["players"])
    assert all(isinstance(p["hand"], int) for p in shared)
    assert isinstance(red_view[0]["hand"], list) and isinstance(red_view[1]["hand"], int)
    assert "C" not in json.dumps([p["hand"] for p in shared])
    assert [p["loaded"] for p in shared] == [p["loaded"] for p in red_view]  # begun contracts are open


def test_events_serialise_to_json() -> None:
    game = new_game(config())
    from companion.games.auf_achse.engine import PlaceTruck

    events = game.push(PlaceTruck("red", "Alpha-Beta#1"))
    assert [event_to_json(e) for e in events] == [{"type": "truck_placed", "player": "red", "space": "Alpha-Beta#1"}]


def test_a_misspelled_field_is_refused_and_null_is_allowed_for_an_optional_one(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = run_play(
        tmp_path,
        [*SETUP, '{"player":"red","action":"roll","valeu":2}', '{"player":"red","action":"roll","value":null}'],
        "--players",
        "red,blue",
        "--seed",
        "1",
        capsys=capsys,
    )
    assert out[len(SETUP)]["error"]["field"] == "valeu" and out[len(SETUP)]["error"]["rule"] == "input"
    assert out[len(SETUP) + 1]["ok"] is True  # value is optional: the companion rolls
