"""``companion board check``: exit status and output (called through companion.cli.board.register)."""

from __future__ import annotations

import argparse
from pathlib import Path

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


def test_board_neighbours_feed_the_bridge_firmwares_rf_groups(tmp_path: Path) -> None:
    """``companion board neighbours`` writes what ``hardware flash --adjacency`` reads: neighbouring
    cities are never in the same scan group (RF-safe scanning)."""
    import tomllib

    from companion.cli import main
    from companion.hardware.config import REFERENCE, load
    from companion.hardware.spi_readers import rf_scan_groups

    out = tmp_path / "near.toml"
    assert main(["board", "neighbours", "-o", str(out)]) == 0
    near = tomllib.loads(out.read_text(encoding="utf-8"))
    assert len(near) == 44 and all(near.values())  # every city of the reference board has a neighbour
    assert all(city in near[other] for city, others in near.items() for other in others)  # symmetric
    config = load(REFERENCE, env={})
    groups = rf_scan_groups(config, near)
    assert groups is not None and len(groups) >= 2
    for group in groups:
        cities = {config.readers[ch] for ch in group if ch in config.readers}
        assert not any(set(near.get(city, ())) & cities for city in cities), group
