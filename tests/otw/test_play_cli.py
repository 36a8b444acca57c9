"""``companion play``: the stable scripted-play interface (one JSON result per command, then the state)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from companion.cli import main

GOLDEN = Path(__file__).parent / "golden"


def run_play(tmp_path: Path, lines: list[str], *args: str, capsys) -> list[dict]:  # type: ignore[no-untyped-def,type-arg]
    script = tmp_path / "script.jsonl"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code = main(["play", "--game", "on-the-way", *args, "--script", str(script)])
    assert code == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_results_one_line_per_command_then_the_state(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    lines = [
        '{"player":"red","action":"take_contract","card":"B01"}',
        '{"player":"red","action":"move","marker":1,"from":"Bremen","to":"Oss","trucks":1}',
        '{"player":"blue","action":"pass"}',
        '{"player":"red","action":"build","city":"Berlin","building":"warehouse"}',
        "not json",
        '{"player":"blue","action":"fly"}',
        '{"action":"undo"}',
    ]
    out = run_play(tmp_path, lines, "--players", "red,blue", capsys=capsys)
    assert len(out) == len(lines) + 1
    assert out[0]["ok"] is True and out[0]["events"][0] == {"type": "contract_taken", "player": "red", "card": "B01"}
    assert out[1]["ok"] is True
    assert out[2] == {"ok": True, "events": [{"type": "turn_ended", "player": "blue"}, out[2]["events"][1]]}
    assert out[3]["ok"] is False and out[3]["error"]["rule"] == "OTW-23"
    assert "red has 1 000 R" in out[3]["error"]["message"]
    assert out[4]["ok"] is False and out[4]["error"]["rule"] == "input"
    assert out[5]["ok"] is False and "unknown action" in out[5]["error"]["message"]
    assert out[6]["ok"] is True  # undo of blue's pass
    state = out[-1]["state"]
    assert state["turn"] == {"player": "blue", "steps_left": 2, "round": 1}
    red = state["players"][0]
    assert red["colour"] == "red" and red["contracts"] == ["B01"]
    assert red["transports"] == [{"marker": 1, "city": "Oss", "trucks": 1}]
    assert state["cities"]["Bremen"] == {"building": "warehouse", "idle": 0}
    assert set(state) == {
        "players", "cities", "supply", "time", "event", "strip", "jams", "turn", "awaiting", "finished", "winners"
    }  # fmt: skip


def test_refused_command_changes_nothing(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    base = run_play(tmp_path, [], "--players", "red,blue", capsys=capsys)[-1]
    after = run_play(
        tmp_path,
        ['{"player":"red","action":"move","marker":1,"from":"Bremen","to":"Lviv","trucks":1}'],
        "--players",
        "red,blue",
        capsys=capsys,
    )
    assert after[0]["ok"] is False and after[0]["error"]["rule"] in ("OTW-14", "OTW-18")
    assert after[-1] == base


def test_golden_three_player_short_game_replays_to_the_recorded_end(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    lines = (GOLDEN / "three-players-end-at-4.jsonl").read_text(encoding="utf-8").splitlines()
    out = run_play(tmp_path, lines, "--players", "red,blue,green", "--end-at", "4", capsys=capsys)
    assert all(r["ok"] for r in out[:-1]), next(r for r in out[:-1] if not r["ok"])
    expected = json.loads((GOLDEN / "three-players-end-at-4.state.json").read_text(encoding="utf-8"))
    assert out[-1]["state"] == expected
    assert expected["finished"] is True and expected["winners"]


def test_bad_data_file_names_file_line_and_field(tmp_path: Path) -> None:
    board = tmp_path / "bad.board.toml"
    board.write_text('[board]\nname = "x"\ngame = "on-the-way"\n[[cities]]\nname = "A"\nx = 2.0\ny = 0.5\n')
    script = tmp_path / "s.jsonl"
    script.write_text("")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "companion",
            "play",
            "--players",
            "red,blue",
            "--board",
            str(board),
            "--script",
            str(script),
        ],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2
    assert "bad.board.toml:6" in proc.stderr and "x" in proc.stderr


def test_house_rules_on_the_command_line(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = run_play(
        tmp_path,
        ['{"player":"red","action":"pass"}'],
        "--players",
        "red,blue",
        "--rule",
        "allow_pass=false",
        capsys=capsys,
    )
    assert out[0]["ok"] is False and out[0]["error"]["rule"] == "OTW-11"


def test_companion_with_options_but_no_command_goes_to_the_simulator(capsys) -> None:  # type: ignore[no-untyped-def]
    import pytest

    with pytest.raises(SystemExit) as exit_info:
        main(["--size", "bad", "--bogus"])  # the simulator's parser speaks, not the sub-command parser
    assert exit_info.value.code == 2
    assert "unrecognized arguments: --bogus" in capsys.readouterr().err


def test_a_misspelled_optional_field_is_refused_and_null_is_allowed_for_an_optional_one(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = run_play(
        tmp_path,
        [
            '{"player":"red","action":"move","marker":1,"from":"Bremen","to":"Oss","trucs":2}',
            '{"player":"red","action":"move","marker":1,"from":"Bremen","to":"Oss","trucks":1,"card":null}',
            '{"player":"red","action":"take_contract","card":"B01","from":null}',
            '{"player":"red","action":"move","marker":1,"from":"Bremen","to":"Oss","trucks":1,"via":null}',
            '{"player":"red","action":"move","marker":1,"from":"Bremen","to":"Oss","trucks":1}',
            '{"player":"red","action":"move","marker":1,"to":"Bremen","from":null,"trucks":null}',
        ],
        "--players",
        "red,blue",
        capsys=capsys,
    )
    assert out[0]["error"] == {
        "rule": "input",
        "field": "trucs",
        "message": "unknown field 'trucs' for move; it takes player, marker, to, from",
    }
    assert [r["error"]["field"] for r in out[1:4]] == ["card", "from", "via"]  # not fields of the command
    assert out[4]["ok"] is True and out[5]["ok"] is True  # from/trucks are optional fields of move
