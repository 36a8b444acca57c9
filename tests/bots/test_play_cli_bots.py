"""Bots and advice through ``companion play``: ``--players red,blue:bot-hard`` seats, and the read-only
``{"action": "advise"}`` query (issue: play against the box)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main


def play(tmp_path: Path, capsys: pytest.CaptureFixture[str], players: str, lines: Sequence[Mapping[str, object]],
         *more: str) -> list[dict[str, Any]]:  # fmt: skip
    script = tmp_path / "script.jsonl"
    script.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    assert main(["play", "--players", players, "--script", str(script), *more]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_with_every_seat_a_bot_an_empty_script_plays_a_whole_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (final,) = play(tmp_path, capsys, "red:bot-easy,blue:bot-easy,green:bot-easy", [], "--seed", "4")
    state = final["state"]
    assert state["finished"] is True and state["winners"]
    again = play(tmp_path, capsys, "red:bot-easy,blue:bot-easy,green:bot-easy", [], "--seed", "4")
    assert again == [final]  # deterministic given the seed


def test_bots_play_between_the_persons_commands_and_get_no_result_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pass_turn = {"player": "red", "action": "pass"}
    lines = play(tmp_path, capsys, "red,blue:bot", [{"player": "red", "action": "take_contract", "card": "B20"},
                 pass_turn], "--rule", "allow_pass=true")  # fmt: skip
    assert len(lines) == 3 and lines[0]["ok"] and lines[1]["ok"]  # one line per command of the script
    state = lines[-1]["state"]
    blue = next(p for p in state["players"] if p["colour"] == "blue")
    assert blue["contracts"] or blue["transports"]  # blue's bot played its turn after red passed


LAY_OUT = [{"action": "lay_out", "card": card} for card in ("B05", "B06", "B07")]  # OTW-9: the face-up offer


def test_advice_is_read_only_and_names_its_chances(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    take = {"player": "red", "action": "take_contract", "card": "B05"}
    plain = play(tmp_path, capsys, "red,blue", [*LAY_OUT, take])
    advised = play(tmp_path, capsys, "red,blue", [*LAY_OUT, {"action": "advise", "player": "red"}, take], "--seed", "2")
    assert advised[:3] + advised[4:] == plain  # the advice changed nothing
    advice = advised[3]["advice"]
    assert advised[3]["ok"] is True and 1 <= len(advice) <= 3
    for a in advice:
        assert 0.0 <= a["low"] <= a["win_rate"] <= a["high"] <= 1.0 and a["playouts"] > 0 and a["sentence"]
        assert a["command"]["player"] == "red"
        if a["command"]["action"] == "take_contract":  # only a card that lies face up
            assert a["command"]["card"] in {"B05", "B06", "B07"}
    again = play(tmp_path, capsys, "red,blue", [*LAY_OUT, {"action": "advise", "player": "red"}], "--seed", "2")
    assert again[3] == advised[3]  # deterministic given the seed
    default = play(tmp_path, capsys, "red,blue", [*LAY_OUT, {"action": "advise"}], "--seed", "2")[3]
    assert default == advised[3]  # like "legal": the player to move


def test_advice_for_a_player_who_cannot_act_names_the_rule(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (answer, *_) = play(tmp_path, capsys, "red,blue", [{"action": "advise", "player": "blue"}])
    assert answer == {"ok": False, "error": {"rule": "OTW-10", "message": "it is red's turn, not blue's"}}
    # Before the face-up offer is known the advisor asks for it instead of naming a card (OTW-9).
    (answer, *_) = play(tmp_path, capsys, "red,blue", [{"action": "advise"}])
    assert answer["ok"] is False and answer["error"]["rule"] == "OTW-9"
    assert "lay out and scan the 3 face-up contracts" in answer["error"]["message"]


def test_a_bot_seat_plays_under_the_jam_in_chain_house_rule(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (final,) = play(tmp_path, capsys, "red:bot-easy,blue:bot-easy", [], "--seed", "3", "--end-at", "4",
                    "--rule", "jam_blocks_transshipment=false")  # fmt: skip
    assert final["state"]["finished"] is True and final["state"]["jams"]


def test_a_game_without_bots_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "empty.jsonl"
    script.write_text("", encoding="utf-8")
    # Auf Achse has bots now (tests/bots_aa): the test-only race game (tests/games/race) has none.
    from companion import games
    from tests.games.race.plugin import PLUGIN as RACE

    games.register(RACE)  # type: ignore[arg-type]
    try:
        assert main(["play", "--game", RACE.name, "--players", "red,blue:bot", "--script", str(script)]) == 2
    finally:
        games.unregister(RACE.name)
    assert "no bot players" in capsys.readouterr().err
    assert main(["play", "--players", "red,blue:robot", "--script", str(script)]) == 2
    assert "COLOUR:bot" in capsys.readouterr().err
    assert main(["play", "--players", "red,blue:bot-genius", "--script", str(script)]) == 2
    assert "easy, medium, hard" in capsys.readouterr().err


def test_the_advice_chance_is_against_the_runs_bots_and_people(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The pick's "chance" is its win rate mapped against the opponents (companion/games/calibration.py):
    # a bot seat by its level, every other seat a person. The advice and its win rate stay the same.
    from companion.games.calibration import PERSON, Logistic
    from companion.games.on_the_way.bots import chances

    monkeypatch.setattr(chances, "MAPS", {(2, PERSON): Logistic(2.0, 1.0), (2, "medium"): Logistic(-2.0, 1.0)})
    ask = [*LAY_OUT, {"action": "advise"}]
    people = play(tmp_path, capsys, "red,blue", ask, "--seed", "3")[3]["advice"]
    bot = play(tmp_path, capsys, "red,blue:bot-medium", ask, "--seed", "3")[3]["advice"]
    assert [a["command"] for a in people] == [a["command"] for a in bot]
    assert [a["win_rate"] for a in people] == [a["win_rate"] for a in bot]
    assert 0.0 <= bot[0]["chance"] < people[0]["chance"] <= 1.0
    assert all("chance" not in a for a in [*people[1:], *bot[1:]])  # ranking means
    easy = play(tmp_path, capsys, "red,blue:bot-easy", ask, "--seed", "3")[3]["advice"]
    assert all("chance" not in a for a in easy)  # no map against easy here
