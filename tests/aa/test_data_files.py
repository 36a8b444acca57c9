"""``companion board check --game auf-achse``: the Auf Achse files validated like On The Way's."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli import main


def test_reference_auf_achse_data_checks_clean(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["board", "check", "--game", "auf-achse"]) == 0
    assert capsys.readouterr().out.strip() == "ok: 37 cities, 170 spaces, 52 contracts, 31 action cards"


def test_a_broken_auf_achse_board_names_file_line_and_field(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.board.toml"
    bad.write_text('[board]\nname = "x"\ngame = "auf-achse"\n[[cities]]\nname = "A"\nx = 0.1\ny = 5\n')
    assert main(["board", "check", "--game", "auf-achse", str(bad)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [
        f"{bad}:1: roads: no [[roads]] in the file",
        f"{bad}:7: cities[1].y: must be from 0 to 1 (a position on the printed map), not 5",
    ]
