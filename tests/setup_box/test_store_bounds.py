"""Issue 20, part 1: the data-set store never touches what it did not create; an import is checked
whole before anything is written; one broken data set never takes the others down."""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from pathlib import Path

import pytest

from companion import games
from companion.cli import main
from companion.setup_box.datasets import MAX_FILE, DataSetError, DataSets


def digest(root: Path) -> str:
    h = hashlib.sha256()
    for path in sorted(root.rglob("*")) if root.exists() else []:
        h.update(str(path.relative_to(root)).encode())
        if path.is_file():
            h.update(path.read_bytes())
    return h.hexdigest()


def exported(tmp_path: Path, game: str = "on-the-way") -> dict[str, bytes]:
    path = DataSets(tmp_path / "x").export(game, "reference", tmp_path)
    with zipfile.ZipFile(path) as archive:
        return {n: archive.read(n) for n in archive.namelist()}


def rezip(path: Path, members: dict[str, bytes], **manifest_changes: object) -> Path:
    manifest = json.loads(members["manifest.json"])
    files = {n: b for n, b in members.items() if n != "manifest.json"}
    manifest["files"] = {n: hashlib.sha256(b).hexdigest() for n, b in files.items()}
    manifest.update(manifest_changes)
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("manifest.json", json.dumps(manifest))
        for name, data in files.items():
            archive.writestr(name, data)
    return path


def test_the_reference_data_cannot_be_deleted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    package = games.get("on-the-way").data_roles[0].reference.parent
    before = digest(package)
    for name in ("reference", "Reference", " reference "):
        assert main(["setup-box", "delete", "--game", "on-the-way", name, "--state-dir", str(tmp_path)]) == 1
        assert "cannot be deleted" in capsys.readouterr().err
    with pytest.raises(DataSetError):
        DataSets(tmp_path).save("on-the-way", "Reference", {})
    assert digest(package) == before


def test_delete_never_follows_a_symlink_out_of_the_store(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "meta.json").write_text("{}")
    folder = tmp_path / "state" / "datasets" / "on-the-way"
    folder.mkdir(parents=True)
    (folder / "mine").symlink_to(outside, target_is_directory=True)
    with pytest.raises(DataSetError, match="no data set"):
        DataSets(tmp_path / "state").delete("on-the-way", "mine")
    assert (outside / "meta.json").read_text() == "{}"


@pytest.mark.parametrize(
    ("tags", "reason"),
    [
        (b"cards = = [", "not TOML"),
        (b"cards = 5\n", "must be a table"),
        (b"cards = " + b"[" * 5000 + b"]" * 5000 + b"\n", "nested too deeply|must be a table"),
        (b'[cards]\n"04AA0000000001" = "no such card"\n', "not a card of this data set"),
        (b'[readers]\n"channel\\u0000" = "Poznan"\n', "U\\+0000"),
    ],
)
def test_a_bad_tags_file_is_not_imported_and_the_store_is_unchanged(tmp_path: Path, tags: bytes, reason: str) -> None:
    members = exported(tmp_path)
    members["tags.toml"] = tags
    sets = DataSets(tmp_path / "state")
    before = digest(tmp_path / "state")
    with pytest.raises(DataSetError, match=reason):
        sets.import_file(rezip(tmp_path / "bad.zip", members, name="mine"))
    assert digest(tmp_path / "state") == before and not (tmp_path / "state").exists()


def test_limits_and_unlisted_files_are_clear_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    members = exported(tmp_path)
    state = ["--state-dir", str(tmp_path / "state")]
    cases = {
        "unlisted": (members | {"extra.bin": b"x" * 100}, "not a file of a on-the-way data set"),
        "too large": (members | {"on-the-way.board.toml": b"#" * (MAX_FILE + 1)}, "too large"),
        "long name": (members, "at most 80 characters"),
    }
    for label, (files, reason) in cases.items():
        path = rezip(tmp_path / f"{label}.zip", files, **({"name": "n" * 5000} if label == "long name" else {}))
        assert main(["setup-box", "import", str(path), *state]) == 1
        err = capsys.readouterr().err
        assert err.startswith("not imported: ") and reason in err and "Traceback" not in err
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_BZIP2) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    (tmp_path / "bz.zip").write_bytes(buffer.getvalue())
    assert main(["setup-box", "import", str(tmp_path / "bz.zip"), *state]) == 1
    assert "compression" in capsys.readouterr().err
    assert not (tmp_path / "state").exists()


def test_import_game_is_honoured(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = rezip(tmp_path / "otw.zip", exported(tmp_path), name="mine")
    state = ["--state-dir", str(tmp_path / "state")]
    assert main(["setup-box", "import", "--game", "auf-achse", str(path), *state]) == 1
    assert "not of auf-achse" in capsys.readouterr().err
    assert main(["setup-box", "import", "--game", "on-the-way", str(path), *state]) == 0


def test_one_broken_data_set_never_takes_the_others_down(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = tmp_path / "state"
    sets = DataSets(state)
    sets.import_file(rezip(tmp_path / "a.zip", exported(tmp_path), name="good one"))
    sets.import_file(rezip(tmp_path / "b.zip", exported(tmp_path), name="bad one"))
    (state / "datasets" / "on-the-way" / "bad-one" / "tags.toml").write_text("cards = 5\n")
    assert [d.name for d in sets.list("on-the-way")] == ["good one"]
    assert sets.choose("on-the-way").name == "good one"
    args = ["--state-dir", str(state)]
    assert main(["setup-box", "list", *args]) == 0
    out = capsys.readouterr().out
    assert "good one" in out and "(broken)" in out and "bad-one" in out
    assert main(["setup-box", "show", "--game", "on-the-way", "bad one", *args]) == 1
    assert "must be a table" in capsys.readouterr().err
    assert main(["setup-box", "export", "--game", "on-the-way", "good one", str(tmp_path), *args]) == 0
    assert main(["setup-box", "delete", "--game", "on-the-way", "bad one", *args]) == 0
    assert [p.name for p in (state / "datasets" / "on-the-way").iterdir()] == ["good-one"]


def test_a_fifo_or_a_device_is_refused_without_waiting(tmp_path: Path) -> None:
    import os

    fifo = tmp_path / "fifo.zip"
    os.mkfifo(fifo)
    for path in (fifo, Path("/dev/zero"), tmp_path):
        with pytest.raises(DataSetError, match="not a regular file"):
            DataSets(tmp_path / "state").import_file(path)
    assert not (tmp_path / "state").exists()
