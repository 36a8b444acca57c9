"""``companion board check``: exit status and output (called through companion.cli.board.register)."""

from __future__ import annotations

import argparse

import pytest

from companion.cli import board as board_cli

from .conftest import SMALL_BOARD, SMALL_CONTRACTS, SMALL_EVENTS, WriteFile


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="companion")
    board_cli.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    return int(args.handler(args))


def test_check_without_files_checks_the_reference_data(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["board", "check"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("ok: ") and "cities" in out and "84 contracts, 22 events" in out


def test_check_files_in_any_order(write: WriteFile, capsys: pytest.CaptureFixture[str]) -> None:
    events = write("e.toml", SMALL_EVENTS)
    board = write("b.toml", SMALL_BOARD)
    contracts = write("c.toml", SMALL_CONTRACTS)
    assert run(["board", "check", str(events), str(contracts), str(board)]) == 0
    assert capsys.readouterr().out.strip() == "ok: 10 cities, 9 roads, 13 contracts, 14 events"


def test_check_reports_file_line_field_and_fails(write: WriteFile, capsys: pytest.CaptureFixture[str]) -> None:
    board = write("b.toml", SMALL_BOARD)
    contracts = write("c.toml", SMALL_CONTRACTS.replace("distance = 5", "distance = 4"))
    assert run(["board", "check", str(board), str(contracts)]) == 1
    captured = capsys.readouterr()
    line = SMALL_CONTRACTS.splitlines().index("distance = 5") + 1
    assert captured.out.startswith(f"{contracts}:{line}: contracts[3].distance: ")
    assert "1 problem found" in captured.err


def test_otw12_deck_alone_is_checked_against_the_reference_board(
    write: WriteFile, capsys: pytest.CaptureFixture[str]
) -> None:
    contracts = write("c.toml", SMALL_CONTRACTS)
    assert run(["board", "check", str(contracts)]) == 1
    assert "unknown city 'Aa' on board" in capsys.readouterr().out


def test_board_without_action_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["board"]) == 2
    assert "usage" in capsys.readouterr().err
