"""Board and deck TOML, generated: every bad file is a located problem, never a traceback or a hang.

Classes of the issue: nesting, absurd values, line numbers after U+2028, the other game's files,
non-regular and oversized files, decks too small for a player count (OTW-4, OTW-28/31, AA-4).
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import games
from companion.data.source import MAX_FILE_BYTES, SourceFile
from companion.games.auf_achse.data import AA_ACTIONS, AA_BOARD, AA_CONTRACTS, inspect_aa_files
from companion.games.on_the_way.data import REFERENCE_BOARD, REFERENCE_CONTRACTS, REFERENCE_EVENTS, check_files
from companion.games.on_the_way.engine.state import REMOVED_CONTRACTS, TIME_END
from companion.games.setup import GameSetup

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
CONTRACTS = REFERENCE_CONTRACTS.read_text(encoding="utf-8")
EVENTS = REFERENCE_EVENTS.read_text(encoding="utf-8")
LINE_BREAKS_TOML_KEEPS = st.sampled_from(["\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e"])


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def problems_of(tmp_path: Path, contracts: str = CONTRACTS, events: str = EVENTS) -> list[str]:
    paths = [REFERENCE_BOARD, write(tmp_path, "c.toml", contracts), write(tmp_path, "e.toml", events)]
    return [str(p) for p in check_files(paths)]


@SETTINGS
@given(breaks=st.lists(LINE_BREAKS_TOML_KEEPS, min_size=1, max_size=5), data=st.data())
def test_line_numbers_are_toml_lines_whatever_a_comment_holds(
    tmp_path: Path, breaks: list[str], data: st.DataObject
) -> None:
    """Only LF ends a TOML line: U+2028, NEL... in a comment or a string do not shift the numbers."""
    breaks = [b for b in breaks if b in "\u2028\u2029\x85"]  # the ones TOML allows in a comment
    comment = "# note:" + "".join(breaks) + " end"
    lines = CONTRACTS.split("\n")
    pays = [n for n, line in enumerate(lines) if line.startswith("pay = ")]
    at = data.draw(st.sampled_from(pays))
    lines[at] = "pay = 10_000_000  " + comment
    lines.insert(data.draw(st.integers(0, at)), comment)
    text = "\n".join(lines)
    (problem,) = [p for p in check_files([REFERENCE_BOARD, write(tmp_path, "c.toml", text)]) if "pay" in p.field]
    assert problem.line == at + 2 and "at most" in problem.message
    assert text.split("\n")[problem.line - 1].startswith("pay = 10_000_000")


@SETTINGS
@given(depth=st.integers(9, 200_000), key=st.sampled_from(["pay", "trucks", "from", "tier"]))
def test_nesting_of_any_depth_is_one_problem(tmp_path: Path, depth: int, key: str) -> None:
    lines = CONTRACTS.split("\n")
    at = next(n for n, line in enumerate(lines) if line.startswith(f"{key} = "))
    lines[at] = f"{key} = " + "[" * depth + "]" * depth
    found = problems_of(tmp_path, contracts="\n".join(lines))
    assert len(found) == 1 and "nested" in found[0] and f"c.toml:{at + 1}:" in found[0]


LIMITS = [  # key, a value just over its limit, the message
    ("pay", 100_500, "at most 100000"),
    ("trucks", 34, "at most 33"),
    ("vp", 45, "at most 44"),
]


@SETTINGS
@given(case=st.sampled_from(LIMITS), factor=st.integers(1, 10**30))
def test_absurd_contract_values_are_refused_on_their_line(
    tmp_path: Path, case: tuple[str, int, str], factor: int
) -> None:
    key, over, words = case
    value = over if factor == 1 else over * factor * 500
    lines = CONTRACTS.split("\n")
    at = next(n for n, line in enumerate(lines) if line.startswith(f"{key} = "))
    lines[at] = f"{key} = {value}"
    text = "\n".join(lines)
    at = next(n for n, line in enumerate(text.split("\n"), 1) if line == f"{key} = {value}")
    found = problems_of(tmp_path, contracts=text)
    assert any(f"c.toml:{at}: contracts[" in p and "at most" in p for p in found), found
    if factor == 1:
        assert any(words in p for p in found), found


@SETTINGS
@given(digits=st.integers(4301, 50_000))
def test_an_integer_of_thousands_of_digits_is_a_problem_on_its_line(tmp_path: Path, digits: int) -> None:
    text = EVENTS.replace("amount = 500", "amount = " + "5" * digits, 1)
    at = next(n for n, line in enumerate(text.split("\n"), 1) if line.startswith("amount = 555"))
    (problem,) = problems_of(tmp_path, events=text)
    assert f"e.toml:{at}:" in problem and "digits" in problem


@SETTINGS
@given(counts=st.tuples(st.integers(0, 6), st.integers(0, 6), st.integers(0, 3)))
def test_a_tier_the_box_would_empty_is_reported_per_player_count(tmp_path: Path, counts: tuple[int, int, int]) -> None:
    """OTW-4 returns cards to the box per player count: a tier with no card left makes every
    ``take_contract`` of it refused, so board check says so, for each player count."""
    blocks = ["[[contracts]]" + b for b in CONTRACTS.split("[[contracts]]")[1:]]
    keep = dict(zip(("basic", "extended", "professional"), counts, strict=True))
    chosen = []
    for tier, n in keep.items():
        chosen += [b for b in blocks if f'tier = "{tier}"' in b][:n]
    if not chosen:
        return
    found = [p for p in problems_of(tmp_path, contracts="\n".join(chosen)) if "OTW-4" in p]
    expected = {(players, tier) for players, removed in REMOVED_CONTRACTS.items() for tier, r in removed.items()
                if keep[tier.value] <= r}  # fmt: skip
    assert {(int(p.split(": ")[2].split()[0]), next(t for t in REMOVED_CONTRACTS[2] if f" {t.value} " in p))
            for p in found} == expected  # fmt: skip


@SETTINGS
@given(size=st.integers(0, 22))
def test_an_event_deck_too_small_for_a_player_count_is_reported(tmp_path: Path, size: int) -> None:
    blocks = ["[[events]]" + b for b in EVENTS.split("[[events]]")[1:]][:size]
    text = "\n".join(blocks) if blocks else "events = []\n"
    found = [p for p in problems_of(tmp_path, events=text) if "events" in p]
    if size == 0:
        assert any("no event cards" in p for p in found)
    else:
        assert sorted(int(p.split(": ")[2].split()[0]) for p in found) == sorted(
            n for n, end in TIME_END.items() if size < end
        )


def test_each_game_recognises_the_other_games_files(tmp_path: Path) -> None:
    for aa_file, kind in ((AA_BOARD, "board"), (AA_CONTRACTS, "contracts"), (AA_ACTIONS, "action-card")):
        (problem,) = check_files([aa_file])
        assert problem.message == f"this is an Auf Achse {kind} file; use --game auf-achse"
    for otw_file, kind in (
        (REFERENCE_BOARD, "board"),
        (REFERENCE_CONTRACTS, "contracts"),
        (REFERENCE_EVENTS, "events"),
    ):
        problems, _ = inspect_aa_files([otw_file])
        assert [p.message for p in problems] == [f"this is an On The Way {kind} file; use --game on-the-way"]
    for name in ("on-the-way", "auf-achse"):  # and the loaders refuse them the same way
        plugin = games.get(name)
        other = next(p for p in games.names() if p != name)
        for role in games.get(other).data_roles:
            with pytest.raises(ValueError, match="use --game"):
                plugin.new_game(GameSetup.with_files(name, plugin.colours[:2], **{role.field: role.reference}))


def test_non_regular_and_oversized_files_are_refused_before_reading(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    big = tmp_path / "big.toml"
    big.write_bytes(b"# " + b"x" * MAX_FILE_BYTES + b"\n")
    for path, words in ((Path("/dev/zero"), "not a regular file"), (fifo, "not a regular file"),
                        (tmp_path, "a directory"), (big, "larger than")):  # fmt: skip
        source = SourceFile.read(path)
        assert source.data is None and len(source.problems) == 1
        assert source.problems[0].line == 0 and words in source.problems[0].message


@SETTINGS
@given(text=st.text(max_size=300))
def test_any_text_is_read_without_an_exception(text: str) -> None:
    source = SourceFile.parse(text, "x.toml")
    try:
        tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError, RecursionError):
        assert source.problems and source.data is None
    for key in ("board", "contracts", "events", "nope"):
        assert 1 <= source.locate(key) <= max(1, len(text.split("\n")))
