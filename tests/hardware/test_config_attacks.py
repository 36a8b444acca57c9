"""The hardware TOML never tracebacks and never silently takes a bad value (issue 12): every bad
file ends in one ``file:line: [table] key: problem`` error, generated inputs included."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.hardware.config import REFERENCE, load
from companion.hardware.errors import ConfigError

DIRECT = REFERENCE.with_name("direct-spi.toml").read_text(encoding="utf-8")
UID = "04A1B2C3D4E5F6"


def write(tmp_path: Path, text: str | bytes) -> Path:
    path = tmp_path / "box.toml"
    if isinstance(text, str):
        path.write_text(text, encoding="utf-8")
    else:
        path.write_bytes(text)
    return path


def refused(tmp_path: Path, text: str | bytes) -> ConfigError:
    with pytest.raises(ConfigError) as caught:
        load(write(tmp_path, text), env={})
    return caught.value


def with_tags(markers: str = "", admin: str = "[]", cards: str = "") -> str:
    text = DIRECT.replace("[markers]\n", "[markers]\n" + markers, 1).replace("cards = []", f"cards = {admin}", 1)
    return text.replace("[cards]\n", "[cards]\n" + cards, 1)


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "0", "-1"])
def test_a_poll_interval_must_be_a_positive_finite_number(tmp_path: Path, value: str) -> None:
    exc = refused(tmp_path, DIRECT.replace("poll_interval = 0.05", f"poll_interval = {value}", 1))
    assert exc.field == "[hardware] poll_interval" and "positive finite" in exc.problem


def test_the_same_uid_twice_in_another_case_is_refused(tmp_path: Path) -> None:
    markers = f'{UID} = {{ colour = "red", number = 1 }}\n{UID.lower()} = {{ colour = "blue", number = 1 }}\n'
    exc = refused(tmp_path, with_tags(markers))
    assert exc.field.startswith("[markers]") and "already marker red 1" in exc.problem and exc.line is not None


def test_a_marker_uid_cannot_also_be_an_admin_card(tmp_path: Path) -> None:
    exc = refused(tmp_path, with_tags(f'{UID} = {{ colour = "red", number = 1 }}\n', admin=f'["{UID}"]'))
    assert exc.field == "[admin] cards" and "already a marker" in exc.problem


@pytest.mark.parametrize(("marker", "words"), [('{ colour = "red", number = -1 }', "counts from 1"),
                                               ('{ colour = "red", number = 0 }', "counts from 1"),
                                               ('{ colour = "", number = 1 }', "must not be empty"),
                                               ('{ colour = "  ", number = 1 }', "must not be empty")])  # fmt: skip
def test_markers_need_a_colour_and_a_number_from_one(tmp_path: Path, marker: str, words: str) -> None:
    exc = refused(tmp_path, with_tags(f"{UID} = {marker}\n"))
    assert exc.field == f"[markers] {UID}" and words in exc.problem


def test_binary_garbage_deep_nesting_and_odd_files_are_clear_errors(tmp_path: Path) -> None:
    exc = refused(tmp_path, b"[hardware]\n\xff\xfe\x00 garbage")
    assert exc.field == "file" and "not UTF-8" in exc.problem and exc.line == 2
    exc = refused(tmp_path, DIRECT + "\n[extra]\nx = " + "[" * 100_000 + "]" * 100_000 + "\n")
    assert "nested too deeply" in exc.problem or exc.field == "TOML syntax"
    loop = tmp_path / "loop.toml"
    os.symlink(loop, loop)
    with pytest.raises(ConfigError, match="cannot be read"):
        load(loop, env={})
    with pytest.raises(ConfigError, match="not a regular file"):
        load(tmp_path, env={})  # a directory
    with pytest.raises(ConfigError, match="not a regular file"):
        load("/dev/zero", env={})


_values = st.sampled_from(["nan", "inf", "-1", "0", '""', "[[[[1]]]]", "{}", "true", "1e400", "99999999999999999999",
                           '"\\u0000"', "[]", '"04:A1"'])  # fmt: skip


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_generated_bad_values_are_refused_or_read_never_a_traceback(tmp_path: Path, data: st.DataObject) -> None:
    lines = DIRECT.splitlines()
    assignments = [i for i, line in enumerate(lines) if "=" in line and not line.lstrip().startswith("#")]
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.sampled_from(assignments))
        key = lines[i].split("=", 1)[0]
        lines[i] = f"{key}= {data.draw(_values)}"
    text = "\n".join(lines) + "\n"
    if data.draw(st.booleans()):
        cut = data.draw(st.integers(0, len(text)))
        text = text[:cut] + data.draw(st.text(max_size=20)) + text[cut:]
    try:
        config = load(write(tmp_path, text.encode("utf-8", "surrogatepass")), env={})
    except ConfigError as exc:
        assert str(exc).startswith(str(tmp_path / "box.toml")) and exc.problem
        return
    assert 0 < config.poll_interval_s < float("inf")  # whatever was read is sane
    assert all(m.number >= 1 and m.colour for m in config.markers.values())
