"""Data sets: kept validated, listed, the latest chosen (else the reference), one file to carry them;
a wrong or damaged import file gives a clear error and changes nothing."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any, cast

import pytest

from companion import games
from companion.games.setup import GameSetup
from companion.setup_box.datasets import DataSetError, DataSets, read_export
from companion.setup_box.trace import owner_script
from companion.setup_box.writer import render
from tests.setup_box.conftest import GAMES, normalised, reference


def texts(game: str) -> dict[str, str]:
    _, state = owner_script(game, reference(game))
    return render(state)


@pytest.fixture(scope="module")
def otw_texts() -> dict[str, str]:
    return texts("on-the-way")


def clocked(root: Path) -> DataSets:
    ticks = iter(range(1000))
    return DataSets(root, clock=lambda: f"2026-12-01T00:00:{next(ticks):02d}Z")


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_no_data_set_means_the_reference_data(tmp_path: Path) -> None:
    sets = DataSets(tmp_path)
    assert sets.list("on-the-way") == [] and sets.latest("on-the-way") is None
    chosen = sets.choose("on-the-way")
    assert chosen.reference and chosen.setup_files() == {"board": None, "contracts": None, "events": None}


def test_the_latest_data_set_is_chosen_and_plays(tmp_path: Path, otw_texts: dict[str, str]) -> None:
    sets = clocked(tmp_path)
    sets.save("on-the-way", "my 2014 edition", otw_texts)
    second = sets.save("on-the-way", "second printing", otw_texts)
    assert [d.name for d in sets.list("on-the-way")] == ["my 2014 edition", "second printing"]
    assert sets.latest("on-the-way") == second == sets.choose("on-the-way")
    assert sets.choose("on-the-way", "my 2014 edition").name == "my 2014 edition"
    assert len(second.tags) == 106 and len(second.readers) == 44
    setup = GameSetup("on-the-way", ("red", "blue"), **cast(dict[str, Any], second.setup_files()))
    game = games.get("on-the-way").new_game(setup)
    assert game.state is not None
    with pytest.raises(DataSetError, match="already"):
        sets.save("on-the-way", "second printing", otw_texts)
    with pytest.raises(DataSetError, match="no data set 'third'"):
        sets.get("on-the-way", "third")


def test_a_data_set_that_fails_board_check_is_not_kept(tmp_path: Path, otw_texts: dict[str, str]) -> None:
    sets = DataSets(tmp_path)
    broken = dict(otw_texts)
    name = next(n for n in broken if n.endswith("contracts.toml"))
    broken[name] = broken[name].replace('tier = "basic"', 'tier = "cheap"', 1)
    with pytest.raises(DataSetError, match="does not pass board check") as caught:
        sets.save("on-the-way", "broken", broken)
    assert any("tier" in p for p in caught.value.problems)
    assert sets.list() == [] and not (tmp_path / "datasets").exists()  # the store is as it was: nothing made


@pytest.mark.parametrize("game", GAMES)
def test_export_and_import_round_trip(game: str, tmp_path: Path) -> None:
    here, there = clocked(tmp_path / "here"), clocked(tmp_path / "there")
    saved = here.save(game, "my box", texts(game))
    path = here.export(game, "my box", tmp_path)
    assert path.name == f"my-box.{game}.zip"
    imported = there.import_file(path)
    assert (imported.game, imported.name) == (game, "my box")
    assert normalised(dict(imported.files)) == normalised(dict(saved.files)) == normalised(reference(game))
    assert imported.tags == saved.tags and imported.readers == saved.readers
    renamed = there.import_file(path, name="a copy")
    assert renamed.name == "a copy" and len(there.list(game)) == 2


def test_the_reference_data_exports_too(tmp_path: Path) -> None:
    path = DataSets(tmp_path).export("auf-achse", "reference", tmp_path)
    manifest, contents = read_export(path)
    assert manifest["game"] == "auf-achse" and len(contents) == 3


def _damage(path: Path, tmp_path: Path, how: str) -> Path:
    out = tmp_path / f"{how}.zip"
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(out, "w") as dst:
        manifest = json.loads(src.read("manifest.json"))
        for info in src.infolist():
            data = src.read(info.filename)
            if how == "edited" and info.filename.endswith("board.toml"):
                data = data.replace(b"Warsaw", b"Warschau")
            if how == "other-game" and info.filename == "manifest.json":
                data = json.dumps({**manifest, "game": "chess"}).encode()
            if how == "no-manifest" and info.filename == "manifest.json":
                continue
            if how == "missing-file" and info.filename.endswith("events.toml"):
                continue
            dst.writestr(info.filename, data)
    return out


@pytest.mark.parametrize(
    ("how", "error"),
    [
        ("edited", "damaged \\(its checksum"),
        ("other-game", "'chess', a game this box does not have"),
        ("no-manifest", "no manifest.json"),
        ("missing-file", "events.toml is missing"),
        ("truncated", "not a readable zip"),
        ("not-a-zip", "not a readable zip"),
    ],
)
def test_a_wrong_or_damaged_file_changes_nothing(
    how: str, error: str, tmp_path: Path, otw_texts: dict[str, str]
) -> None:
    sets = DataSets(tmp_path / "box")
    sets.save("on-the-way", "mine", otw_texts)
    good = sets.export("on-the-way", "mine", tmp_path / "mine.zip")
    if how == "truncated":
        bad = tmp_path / "truncated.zip"
        bad.write_bytes(good.read_bytes()[: len(good.read_bytes()) // 2])
    elif how == "not-a-zip":
        bad = tmp_path / "notes.toml"
        bad.write_text("[board]\nname = 'x'\n", encoding="utf-8")
    else:
        bad = _damage(good, tmp_path, how)
    before = snapshot(tmp_path / "box")
    with pytest.raises(DataSetError, match=error):
        sets.import_file(bad, name="other")
    assert snapshot(tmp_path / "box") == before


def test_importing_into_the_wrong_game_is_refused(tmp_path: Path, otw_texts: dict[str, str]) -> None:
    sets = DataSets(tmp_path)
    sets.save("on-the-way", "mine", otw_texts)
    path = sets.export("on-the-way", "mine", tmp_path)
    with pytest.raises(DataSetError, match="data set of on-the-way, not of auf-achse"):
        sets.import_file(path, game="auf-achse")
