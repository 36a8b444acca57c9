"""``companion play`` input, generated: every bad line gets one ``input`` error and the run goes on.

Each class of the issue (lone surrogates, huge integers, deep nesting, invalid UTF-8, misspelled
fields) is a hypothesis property over both games, not one example.
"""

from __future__ import annotations

import functools
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import games
from companion.cli.play import run_script, script_lines
from companion.engine.game import Game
from companion.engine.jsonio import MAX_DEPTH, MAX_INT_DIGITS, MAX_LINE_BYTES, ScriptLineError, parse_command_line
from companion.games.setup import GameSetup

TESTS = Path(__file__).parent.parent
GOLDEN = {
    "on-the-way": [json.loads(x) for x in (TESTS / "otw/golden/three-players-end-at-4.jsonl").read_text().splitlines()],
    "auf-achse": [json.loads(x) for x in (TESTS / "aa/golden/two-players.jsonl").read_text().splitlines()],
}
FIELDS = {"player", "action", "card", "marker", "to", "from", "trucks", "city", "building", "space", "value",
          "size", "sign", "level"}  # fmt: skip
OPTIONAL = {("on-the-way", "move", "from"), ("on-the-way", "move", "trucks"), ("auf-achse", "roll", "value"),
            ("auf-achse", "start", "player"), ("auf-achse", "reveal_public", "player"),
            ("auf-achse", "draw_action", "player")}  # fmt: skip
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

json_scalars = st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(max_size=8)
json_values = st.recursive(json_scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
    st.text(max_size=6), inner, max_size=3), max_leaves=8)  # fmt: skip


@functools.cache
def table(game: str) -> Game[Any]:
    """One two-player game per game, shared: a refused line changes nothing, so examples may share it."""
    return games.get(game).new_game(GameSetup.with_files(game, ("red", "blue")))


def answers(game: str, *lines: bytes | str) -> list[dict[str, Any]]:
    """The answer lines to ``lines`` (the final state line left off)."""
    out = io.StringIO()
    run_script(games.get(game), table(game), list(lines), out)
    text = out.getvalue()
    text.encode("utf-8")  # always writable as UTF-8
    assert not {"\u2028", "\u2029", "\x85"} & set(text), "line separators are escaped for line-based readers"
    return [json.loads(line) for line in text.split("\n")[:-2]]


def refused_as_input(game: str, line: bytes | str, field: str | None = None) -> dict[str, Any]:
    (answer,) = answers(game, line)
    assert answer["ok"] is False and answer["error"]["rule"] == "input", answer
    if field is not None:
        assert answer["error"].get("field") == field, answer
    return answer


game_names = st.sampled_from(sorted(GOLDEN))


@SETTINGS
@given(game=game_names, data=st.data())
def test_a_misspelled_or_unknown_field_is_refused_naming_it(game: str, data: st.DataObject) -> None:
    command = data.draw(st.sampled_from(GOLDEN[game]))
    key = data.draw(st.text(min_size=1, max_size=12).filter(lambda k: k not in FIELDS))
    value = data.draw(json_values.filter(lambda v: v is not None))
    refused_as_input(game, json.dumps({**command, key: value}), field=key)


@SETTINGS
@given(game=game_names, data=st.data())
def test_null_is_allowed_only_for_an_optional_field(game: str, data: st.DataObject) -> None:
    command = data.draw(st.sampled_from(GOLDEN[game]))
    key = data.draw(st.sampled_from(sorted(FIELDS - set(command))))
    (answer,) = answers(game, json.dumps({**command, key: None}))
    optional = (game, command["action"], key) in OPTIONAL
    if not optional:
        assert answer["ok"] is False and answer["error"] == {**answer["error"], "rule": "input", "field": key}
    elif not answer["ok"]:  # refused by the game's rules, not for the null field
        assert answer["error"]["rule"] != "input", answer


@SETTINGS
@given(game=game_names, data=st.data(), digits=st.integers(MAX_INT_DIGITS + 1, 60_000))
def test_an_integer_of_any_length_is_refused_not_a_traceback(game: str, data: st.DataObject, digits: int) -> None:
    command = data.draw(st.sampled_from(GOLDEN[game]))
    key = data.draw(st.sampled_from(sorted(command)))
    line = json.dumps({**command, key: 0}).replace(": 0", ": " + "7" * digits, 1) if key != "action" else "9" * digits
    answer = refused_as_input(game, line)
    assert "digits" in answer["error"]["message"]


@SETTINGS
@given(game=game_names, data=st.data(), surrogate=st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF))
def test_a_lone_surrogate_anywhere_is_refused(game: str, data: st.DataObject, surrogate: str) -> None:
    command = data.draw(st.sampled_from(GOLDEN[game]))
    key = data.draw(st.sampled_from(sorted(command)))
    prefix = data.draw(st.text(max_size=3))
    line = json.dumps({**command, key: prefix + surrogate})  # ASCII JSON: the surrogate as \\udXXX
    refused_as_input(game, line, field=key)
    refused_as_input(game, json.dumps({**command, prefix + surrogate: 1}))


@SETTINGS
@given(game=game_names, depth=st.integers(MAX_DEPTH + 1, 100_000), brace=st.booleans())
def test_nesting_of_any_depth_is_refused(game: str, depth: int, brace: bool) -> None:
    line = '{"a":' * depth + "1" + "}" * depth if brace else "[" * depth + "]" * depth
    if len(line) <= MAX_LINE_BYTES:
        assert "nested" in refused_as_input(game, line)["error"]["message"]
    else:
        assert "longer" in refused_as_input(game, line)["error"]["message"]


@SETTINGS
@given(game=game_names, data=st.data(), junk=st.binary(min_size=1, max_size=6))
def test_invalid_utf8_costs_one_line_and_the_next_line_still_plays(game: str, data: st.DataObject, junk: bytes) -> None:
    junk = junk.replace(b"\n", b"").replace(b"\r", b"")  # first: b"\xc2\r\x80" less its \r is valid UTF-8
    try:
        junk.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        junk = b"\xff" + junk
    raw = json.dumps(data.draw(st.sampled_from(GOLDEN[game]))).encode()
    at = data.draw(st.integers(0, len(raw)))
    bad, good = answers(game, raw[:at] + junk + raw[at:], b'{"action": "view"}')
    assert bad["ok"] is False and bad["error"]["rule"] == "input" and "UTF-8" in bad["error"]["message"]
    assert good["ok"] is True


@SETTINGS
@given(game=game_names, value=json_values)
def test_any_json_value_gets_exactly_one_answer_and_never_an_internal_error(game: str, value: object) -> None:
    (answer,) = answers(game, json.dumps(value, ensure_ascii=bool(len(repr(value)) % 2)))
    assert answer.get("ok") in (True, False)
    if answer["ok"] is False:
        assert answer["error"]["rule"] != "internal", answer
    else:  # only a command made of the fields it has, or a query, is accepted
        assert isinstance(value, dict) and set(value) <= FIELDS


@SETTINGS
@given(game=game_names, line=st.binary(max_size=120))
def test_any_bytes_get_at_most_one_answer_each(game: str, line: bytes) -> None:
    pieces = [p for p in line.replace(b"\r", b"\n").split(b"\n")]
    result = answers(game, *pieces)
    assert len(result) <= len(pieces)
    assert all(r.get("ok") is False and r["error"]["rule"] != "internal" for r in result)


def test_duplicate_keys_nan_and_over_long_lines_are_refused() -> None:
    refused_as_input("on-the-way", '{"player":"red","action":"pass","player":"blue"}', field="player")
    refused_as_input("on-the-way", '{"player":"red","action":"move","marker":NaN,"to":"Oss"}')
    refused_as_input("auf-achse", '{"player":"red","action":"roll","value":Infinity}')
    refused_as_input("on-the-way", '{"player":"red","action":"pass","x":"' + "a" * MAX_LINE_BYTES + '"}')


def test_parse_command_line_raises_only_its_own_error() -> None:
    for line in (b"\xff", b"[" * 200_000, b"1" * 5000, '"\\ud800"', b"-Infinity", b"{", b""):
        with pytest.raises(ScriptLineError):
            parse_command_line(line)


def test_an_endless_line_is_read_in_bounded_chunks() -> None:
    stream = io.BytesIO(b"x" * (3 * MAX_LINE_BYTES) + b"\n" + b'{"action":"undo"}\n')
    lines = list(script_lines(stream))
    assert len(lines) == 2 and len(lines[0]) == MAX_LINE_BYTES + 1 and lines[1] == b'{"action":"undo"}'


def _play(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    argv = [sys.executable, "-m", "companion", "play", "--players", "red,blue", *args]
    return subprocess.run(argv, input=stdin, capture_output=True, timeout=60)


VALID = {
    "on-the-way": b'{"player":"red","action":"take_contract","card":"B01"',
    "auf-achse": b'{"player":"red","action":"place_truck","space":"Hamburg-Flensburg#1"',
}


@pytest.mark.parametrize("game", sorted(VALID))
def test_the_issue_examples_through_the_command_line(tmp_path: Path, game: str) -> None:
    script = tmp_path / "attack.jsonl"
    script.write_bytes(b"\n".join([
        b'{"player":"red","action":"take_contract","card":"\\ud800"}',
        b'{"player":"red","action":"move","marker":' + b"9" * 5000 + b',"to":"Oss"}',
        b"[" * 100_000 + b"]" * 100_000,
        b'{"player":"red","action":"take_contract","card":"B0\xff1"}',
        VALID[game] + b',"trucs":5}',
        VALID[game] + b"}",
    ]) + b"\n")  # fmt: skip
    proc = _play("--game", game, "--script", str(script))
    assert proc.returncode == 0 and proc.stderr == b""
    out = [json.loads(line) for line in proc.stdout.decode("utf-8").split("\n")[:-1]]
    assert len(out) == 7 and "state" in out[-1]
    assert [r["error"]["rule"] for r in out[:5]] == ["input"] * 5
    assert out[4]["error"]["field"] == "trucs" and out[5]["ok"] is True
    proc = _play("--game", game, "--script", "-", stdin=script.read_bytes())  # stdin is read as bytes too
    assert proc.returncode == 0 and proc.stdout.decode("utf-8").split("\n")[:-1] == [
        json.dumps(r, ensure_ascii=False) for r in out
    ]


@pytest.mark.parametrize("where", ["/dev/zero", "directory", "fifo"])
def test_devices_directories_and_fifos_as_data_files_are_refused_not_hung(tmp_path: Path, where: str) -> None:
    path = {"/dev/zero": "/dev/zero", "directory": str(tmp_path)}.get(where, str(tmp_path / "fifo"))
    if where == "fifo":
        os.mkfifo(path)  # opening it for reading would block until a writer comes
    for flag in ("--board", "--contracts", "--events"):
        proc = _play(flag, path, "--script", "-")
        assert proc.returncode == 2 and b"Traceback" not in proc.stderr
        assert path.encode() in proc.stderr and b"cannot read" in proc.stderr
    proc = _play("--script", "/dev/zero")
    assert proc.returncode == 2 and b"not a regular file" in proc.stderr
