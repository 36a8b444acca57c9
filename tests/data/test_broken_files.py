"""Each broken data file is reported with the right file, line and field."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.engine.errors import DataError
from companion.games.on_the_way.data import (
    DataFileError,
    Problem,
    check_files,
    load_board,
    load_contracts,
    load_deck,
    load_events,
)

from .conftest import SMALL_BOARD, SMALL_CONTRACTS, SMALL_EVENTS, WriteFile

TEXTS = {"board": SMALL_BOARD, "contracts": SMALL_CONTRACTS, "events": SMALL_EVENTS}


def line_of(text: str, needle: str, occurrence: int = 1) -> int:
    """The 1-based line of the ``occurrence``-th line containing ``needle``."""
    hits = [n for n, line in enumerate(text.splitlines(), 1) if needle in line]
    return hits[occurrence - 1]


def write_set(write: WriteFile, kind: str, old: str, new: str, prefix: str = "small") -> tuple[list[Path], Path, str]:
    """The small data set with ``old`` replaced by ``new`` in the ``kind`` file."""
    assert old in TEXTS[kind], old
    paths = {}
    for name, text in TEXTS.items():
        if name == kind:
            text = text.replace(old, new, 1)
        paths[name] = write(f"{prefix}.{name}.toml", text)
    return list(paths.values()), paths[kind], TEXTS[kind].replace(old, new, 1)


def test_small_data_set_is_clean(write: WriteFile) -> None:
    paths, _, _ = write_set(write, "board", "", "")
    assert check_files(paths) == []


def test_problem_prints_file_line_field_message() -> None:
    assert (
        str(Problem("a.toml", 7, "contracts[2].to", "unknown city 'X'"))
        == "a.toml:7: contracts[2].to: unknown city 'X'"
    )


# kind, old text, new text, expected field, a needle on the expected line: text (first occurrence) or
# (text, occurrence). A missing key is reported on its block's header line.
CASES = [
    # board
    ("board", "x = 0.3", "x = 1.3", "cities[3].x", "x = 1.3"),
    (
        "board",
        'y = 0.1\n\n[[cities]]\nname = "Dd"',
        'y = "top"\n\n[[cities]]\nname = "Dd"',
        "cities[3].y",
        'y = "top"',
    ),
    ("board", 'name = "Bb"\n', "", "cities[2].name", ("[[cities]]", 2)),
    ("board", 'name = "Cc"', 'name = "Bb"', "cities[3].name", ('name = "Bb"', 2)),
    ("board", 'between = ["Cc", "Dd"]', 'between = ["Cc", "Dx"]', "roads[3].between", '"Dx"'),
    ("board", 'between = ["Cc", "Dd"]', 'between = ["Cc"]', "roads[3].between", 'between = ["Cc"]'),
    (
        "board",
        'between = ["Cc", "Dd"]',
        'between = ["Bb", "Aa"]',
        "roads[3].between",
        'between = ["Bb", "Aa"]',
    ),
    ("board", 'between = ["Ee", "Ff"]', 'between = ["Ee", "Ee"]', "roads[5].between", '["Ee", "Ee"]'),
    ("board", '[[roads]]\nbetween = ["Ee", "Ff"]\n', "", "roads", "[[roads]]"),
    (
        "board",
        'players_2 = ["Aa", "Bb", "Cc", "Dd", "Ee", "Ff"]',
        'players_2 = ["Aa", "Bb", "Cc", "Dd", "Ee"]',
        "setup.players_2",
        "players_2",
    ),
    (
        "board",
        'players_3 = ["Aa", "Bb", "Cc", "Dd", "Ee", "Ff", "Gg", "Hh"]',
        'players_3 = ["Aa", "Bb", "Cc", "Dd", "Ee", "Ii", "Gg", "Hh"]',
        "setup.players_3",
        "players_3",
    ),
    ("board", '    "Ii",\n', '    "Iz",\n', "setup.players_4", '"Iz"'),
    ("board", "players_4 = [", "players_5 = [", "setup.players_4", "[setup]"),
    ("board", 'game = "on-the-way"', 'game = "on-the-way"\nversion = 2', "board.version", "version = 2"),
    ("board", "[setup]", "[set_up]", "set_up", "[set_up]"),
    ("board", 'name = "Test"', 'name = "Test', "syntax", 'name = "Test'),
    # contracts
    ("contracts", 'to = "Gg"', 'to = "Gx"', "contracts[2].to", 'to = "Gx"'),
    ("contracts", "distance = 5", "distance = 4", "contracts[3].distance", "distance = 4"),
    ("contracts", "distance = 3", "distance = 2", "contracts[2].distance", ("distance = 2", 2)),
    ("contracts", "distance = 3", 'distance = "3"', "contracts[2].distance", 'distance = "3"'),
    ("contracts", 'tier = "extended"', 'tier = "gold"', "contracts[2].tier", 'tier = "gold"'),
    ("contracts", 'id = "X01"', 'id = "B01"', "contracts[2].id", ('id = "B01"', 2)),
    ("contracts", "trucks = 2\npay = 2000", "trucks = 0\npay = 2000", "contracts[2].trucks", "trucks = 0"),
    ("contracts", "trucks = 1", "trucks = true", "contracts[1].trucks", "trucks = true"),
    ("contracts", "pay = 2000", "pay = -500", "contracts[2].pay", "pay = -500"),
    ("contracts", "pay = 2000", "pay = 1750", "contracts[2].pay", "pay = 1750"),
    ("contracts", "vp = 1", "vp = -1", "contracts[3].vp", "vp = -1"),
    ("contracts", "pay = 1000\n", "", "contracts[1].pay", ("[[contracts]]", 1)),
    ("contracts", 'from = "Aa"', 'form = "Aa"', "contracts[1].form", 'form = "Aa"'),
    ("contracts", 'to = "Cc"', 'to = "Aa"', "contracts[1].to", 'to = "Aa"'),
    # events
    ("events", 'kind = "bonus"', 'kind = "jackpot"', "events[1].kind", 'kind = "jackpot"'),
    ("events", "amount = 500\n", "", "events[1].amount", ("[[events]]", 1)),
    ("events", "amount = 500", "amount = 0", "events[1].amount", "amount = 0"),
    (
        "events",
        'kind = "extra_step"',
        'kind = "extra_step"\namount = 500',
        "events[2].amount",
        ("amount = 500", 2),
    ),
    ("events", 'road = ["Bb", "Cc"]', 'road = ["Bb", "Dd"]', "events[3].road", "road ="),
    ("events", 'road = ["Bb", "Cc"]', 'road = ["Bb", "Qq"]', "events[3].road", "road ="),
    ("events", 'road = ["Bb", "Cc"]\n', "", "events[3].road", ("[[events]]", 3)),
    ("events", 'kind = "bonus"', 'kind = "bonus"\nroad = ["Bb", "Cc"]', "events[1].road", "road ="),
    ("events", '[[events]]\nid = "E02"', '[[event]]\nid = "E02"', "event", "[[event]]"),
]


@pytest.mark.parametrize(("kind", "old", "new", "field", "needle"), CASES, ids=[c[3] for c in CASES])
def test_broken_file_reports_file_line_field(
    write: WriteFile, kind: str, old: str, new: str, field: str, needle: str | tuple[str, int]
) -> None:
    paths, broken, text = write_set(write, kind, old, new)
    problems = check_files(paths)
    assert problems, "expected a problem"
    located = [(p.file, p.line, p.field) for p in problems]
    line = line_of(text, needle) if isinstance(needle, str) else line_of(text, *needle)
    assert (str(broken), line, field) in located, [str(p) for p in problems]
    if kind != "board":  # a broken board may also make contracts unreachable
        assert all(p.file == str(broken) for p in problems), [str(p) for p in problems]


def test_syntax_error_reports_tomllib_line(write: WriteFile) -> None:
    path = write("bad.toml", '[[contracts]]\nid = "B01"\ntier = basic\n')
    (problem,) = check_files([path])
    assert (problem.line, problem.field) == (3, "syntax")


def test_otw12_distance_checked_against_reference_board_without_board_file(write: WriteFile) -> None:
    path = write(
        "c.toml",
        '[[contracts]]\nid = "P99"\ntier = "professional"\nfrom = "Mönchengladbach"\nto = "Lviv"\n'
        "distance = 4\ntrucks = 2\npay = 3000\n",
    )
    (problem,) = check_files([path])
    assert (problem.line, problem.field) == (6, "contracts[1].distance")
    assert "5 roads" in problem.message


def test_city_names_match_after_nfc_normalisation(write: WriteFile) -> None:
    decomposed = "Z\u030cilina"  # Z + combining caron, as some editors save it
    paths, _, _ = write_set(write, "contracts", 'to = "Žilina"', f'to = "{decomposed}"')
    assert check_files(paths) == []


def test_disconnected_map_names_the_cut_off_cities(write: WriteFile) -> None:
    paths, _, _ = write_set(write, "board", '[[roads]]\nbetween = ["Ee", "Ff"]\n', "")
    problems = [p for p in check_files(paths) if p.field == "roads"]
    assert len(problems) == 1 and "Ff" in problems[0].message and "not connected" in problems[0].message


def test_duplicate_id_across_contracts_and_events(write: WriteFile) -> None:
    paths, _, _ = write_set(write, "events", 'id = "E02"', 'id = "X01"')
    problems = check_files(paths)
    assert [(Path(p.file).name, p.line, p.field) for p in problems] == [
        ("small.events.toml", line_of(SMALL_EVENTS, 'id = "E02"'), "events[2].id")
    ]
    with pytest.raises(DataFileError) as info:
        load_deck(paths[1], paths[2])
    assert info.value.field == "events[2].id"


def test_unreadable_and_foreign_files(write: WriteFile, tmp_path: Path) -> None:
    missing = tmp_path / "nope.toml"
    foreign = write("foreign.toml", 'title = "x"\n')
    problems = check_files([missing, foreign])
    assert [(p.file, p.line, p.field) for p in problems] == [
        (str(missing), 0, "file"),
        (str(foreign), 1, "title"),
        (str(foreign), 1, "file"),
    ]


def test_loaders_raise_data_file_error_with_problems(write: WriteFile) -> None:
    _, broken, text = write_set(write, "board", "x = 0.3", "x = -0.3")
    with pytest.raises(DataFileError) as info:
        load_board(broken)
    error = info.value
    assert isinstance(error, DataError) and isinstance(error, ValueError)
    assert (error.file, error.line, error.field) == (str(broken), line_of(text, "x = -0.3"), "cities[3].x")
    assert str(error) == str(error.problems[0])


def test_loaders_check_against_a_board_only_when_given(write: WriteFile) -> None:
    paths, _, _ = write_set(write, "board", "", "")
    board = load_board(paths[0])
    assert len(load_contracts(paths[1], board=board)) == 13
    assert len(load_events(paths[2], board=board)) == 14
    # Without a board, only the cards themselves are checked: "Qq" is not a city of any board here.
    _, jam, _ = write_set(write, "events", 'road = ["Bb", "Cc"]', 'road = ["Bb", "Qq"]', prefix="jam")
    assert load_events(jam)[2].road == ("Bb", "Qq")
    with pytest.raises(DataFileError):
        load_events(jam, board=board)
    deck = load_deck(paths[1], paths[2], board=board)
    card = deck.contract("P01")
    assert card is not None and (card.destination, card.vp) == ("Žilina", 1)


def test_several_problems_in_one_file_are_all_reported_in_line_order(write: WriteFile) -> None:
    text = SMALL_CONTRACTS.replace('tier = "basic"', 'tier = "cheap"', 1).replace("vp = 1", "vp = -2")
    problems = check_files([write("c.toml", text), write("b.toml", SMALL_BOARD)])
    assert [p.field for p in problems] == ["contracts[1].tier", "contracts[3].vp"]
    assert [p.line for p in problems] == sorted(p.line for p in problems)
