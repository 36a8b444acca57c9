"""Reference data and the Auf Achse file formats: every fault named by file, line and field."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.data.problems import DataFileError
from companion.games.auf_achse.data import load_aa_board, load_aa_deck, load_aa_reference
from companion.games.auf_achse.engine import Effect
from companion.games.auf_achse.engine.board import road_space_id
from companion.games.auf_achse.engine.state import TRAILERS, TRUCK_CAPACITY

NAMED = ("Flensburg", "Hamburg", "Rotterdam", "Brussels", "Berlin", "Vienna", "Graz", "Milan", "Verona", "Trieste")


def test_aa1_components() -> None:
    assert TRUCK_CAPACITY == 6
    assert sum(t.count for t in TRAILERS.values()) == 8
    assert sorted((t.capacity, t.price) for t in TRAILERS.values()) == [(4, 2000), (6, 3000)]


def test_reference_board_is_the_1987_area() -> None:
    board, deck = load_aa_reference()
    assert 30 <= len(board.cities) <= 40 and set(NAMED) <= set(board.cities)
    assert board.is_connected()
    assert any(s.triangle for s in board.spaces)
    assert len(deck.contracts) == 52 and len(deck.actions) == 31


def test_aa10_the_hamburg_flensburg_space_takes_no_sign() -> None:
    board = load_aa_board()
    space = board.space(road_space_id("Hamburg", "Flensburg", 1))
    assert not space.signs_allowed and not space.city
    assert board.neighbours["Flensburg"] == (space.id,)
    assert sum(not s.signs_allowed for s in board.spaces) == 1


def test_reference_cards_fit_the_rules() -> None:
    board, deck = load_aa_reference()
    for card in deck.contracts:
        assert board.is_city(card.start) and board.is_city(card.end) and card.start != card.end
        assert 2 <= card.goods <= 6 and len(card.costs) == 5 and list(card.costs) == sorted(set(card.costs))
    assert {a.effect for a in deck.actions} == set(Effect)


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


BOARD = """[board]
name = "tiny"
game = "auf-achse"

[[cities]]
name = "A"
x = 0.1
y = 0.1

[[cities]]
name = "B"
x = 0.9
y = 0.1

[[roads]]
between = ["A", "B"]
spaces = 2
"""


def test_a_board_file_builds_numbered_spaces(tmp_path: Path) -> None:
    board = load_aa_board(_write(tmp_path, "b.toml", BOARD + "triangles = [2]\nsigns = false\n"))
    assert [s.id for s in board.spaces] == ["A", "B", "A-B#1", "A-B#2"]
    assert board.space("A-B#2").triangle and not board.space("A-B#1").signs_allowed
    assert board.neighbours["A-B#1"] == ("A", "A-B#2")


@pytest.mark.parametrize(
    ("extra", "where"),
    [
        ("triangles = [3]\n", "b.toml:18: roads[1].triangles: triangle 3 is not one of the road's spaces 1..2"),
        ("signs = 1\n", "b.toml:18: roads[1].signs: must be true or false"),
        ("lanes = 2\n", "b.toml:18: roads[1].lanes: unknown key 'lanes'"),
        ('\n[[roads]]\nbetween = ["A", "B"]\nspaces = 1\n', "b.toml:20: roads[2].between: duplicate road A–B"),
        (
            '\n[[roads]]\nbetween = ["A", "Z"]\nspaces = 1\n',
            "b.toml:20: roads[2].between: unknown city or junction 'Z'",
        ),
        ('\n[[cities]]\nname = "C"\nx = 0.5\ny = 0.5\n', "roads: the map is not connected: C"),
        ("\n[trailers]\nsmall = 4\n", "b.toml:19: trailers: unknown section 'trailers'"),
    ],
)
def test_board_faults_name_file_line_and_field(tmp_path: Path, extra: str, where: str) -> None:
    with pytest.raises(DataFileError) as info:
        load_aa_board(_write(tmp_path, "b.toml", BOARD + extra))
    assert where in str(info.value)


def test_junctions_join_roads(tmp_path: Path) -> None:
    text = BOARD.replace('between = ["A", "B"]', 'between = ["A", "J"]') + (
        '\n[[junctions]]\nid = "J"\nx = 0.5\ny = 0.5\n\n[[roads]]\nbetween = ["J", "B"]\nspaces = 0\n'
    )
    board = load_aa_board(_write(tmp_path, "b.toml", text))
    assert not board.space("J").city and board.neighbours["J"] == ("A-J#2", "B")


CONTRACT = """[[contracts]]
id = "C01"
from = "Hamburg"
to = "Milan"
goods = 4
payout = 9000
costs = [900, 1800, 2700, 3600, 4500]
"""
ACTION = """[[actions]]
id = "A01"
effect = "pay"
amount = 500
text = "Fine"
"""


@pytest.mark.parametrize(
    ("old", "new", "where"),
    [
        ("goods = 4", "goods = 7", "c.toml:5: contracts[1].goods: a contract carries 2 to 6 goods (AA-13), not 7"),
        ('to = "Milan"', 'to = "Paris"', "c.toml:4: contracts[1].to: unknown city 'Paris'"),
        ("[900, 1800, 2700, 3600, 4500]", "[900, 1800]", "c.toml:7: contracts[1].costs: the Kosten column has 5"),
        ("[900, 1800, 2700, 3600, 4500]", "[900, 800, 2700, 3600, 4500]", "c.toml:7: contracts[1].costs: costs must"),
        ("payout = 9000", "payout = 9050", "c.toml:6: contracts[1].payout: must be a multiple of 100"),
    ],
)
def test_contract_faults_name_file_line_and_field(tmp_path: Path, old: str, new: str, where: str) -> None:
    contracts = _write(tmp_path, "c.toml", CONTRACT.replace(old, new))
    actions = _write(tmp_path, "a.toml", ACTION)
    with pytest.raises(DataFileError) as info:
        load_aa_deck(contracts, actions, board=load_aa_board())
    assert where in str(info.value)


@pytest.mark.parametrize(
    ("old", "new", "where"),
    [
        ('effect = "pay"', 'effect = "fly"', "a.toml:3: actions[1].effect: must be one of pay |"),
        ("amount = 500", "turns = 2", "a.toml:1: actions[1].amount: missing 'amount'"),
        ('effect = "pay"', 'effect = "stau"', "a.toml:4: actions[1].amount: stau cards have no amount"),
        ('effect = "pay"\namount = 500', 'effect = "miss_turns"', "a.toml:1: actions[1].turns: missing 'turns'"),
    ],
)
def test_action_faults_name_file_line_and_field(tmp_path: Path, old: str, new: str, where: str) -> None:
    contracts = _write(tmp_path, "c.toml", CONTRACT)
    actions = _write(tmp_path, "a.toml", ACTION.replace(old, new))
    with pytest.raises(DataFileError) as info:
        load_aa_deck(contracts, actions)
    assert where in str(info.value)
