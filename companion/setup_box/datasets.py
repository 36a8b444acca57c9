"""Named data sets in the box's state directory, and one file to carry a data set to another box.

    state_dir/datasets/<game>/<slug>/   on-the-way.board.toml  on-the-way.contracts.toml
                                        on-the-way.events.toml  tags.toml  meta.json

The TOML files are the game's own formats (the reference files' names), validated by the game's
``check_files`` before they are kept; ``tags.toml`` holds the card tags (UID -> card id) and the
readers (reader -> city) the wizard enrolled. A data set is written to a temporary folder and renamed
into place, so a box never holds half of one.

The export file is a zip: the same files plus ``manifest.json`` (format, game, name, SHA-256 of each
file). Importing checks all of it — a zip, a manifest, a known game, every checksum, the game's own
check — before anything is written; a wrong or damaged file raises ``DataSetError`` and changes nothing.

For the kiosk and the simulator::

    sets = DataSets(state_dir)
    chosen = sets.choose("on-the-way")          # the last one digitised, else the reference data
    setup = GameSetup("on-the-way", players, **chosen.setup_files())
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
import time
import tomllib
import zipfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion import games
from companion.setup_box.store import fsync_dir

EXPORT_FORMAT = 1
MANIFEST = "manifest.json"
META = "meta.json"
TAGS = "tags.toml"
REFERENCE = "reference"
MAX_FILE = 4 * 1024 * 1024  # a data set's file is a few tens of kB; refuse a zip bomb


class DataSetError(ValueError):
    """A data set that cannot be saved, found or imported; ``problems`` lists what ``board check``
    found (``file:line: field: message``), if that was the reason."""

    def __init__(self, message: str, problems: tuple[str, ...] = ()) -> None:
        super().__init__(message + ("".join(f"\n  {p}" for p in problems[:20]) if problems else ""))
        self.problems = problems


@dataclass(frozen=True)
class DataSet:
    game: str
    name: str
    folder: Path
    created: str  # ISO 8601, UTC
    files: Mapping[str, Path]  # role (board, contracts, events) -> file
    tags: Mapping[str, str] = field(default_factory=dict)  # card tag UID -> card id
    readers: Mapping[str, str] = field(default_factory=dict)  # reader -> city
    reference: bool = False  # the shipped data, not one digitised on this box

    @property
    def board(self) -> Path:
        return self.files["board"]

    @property
    def contracts(self) -> Path:
        return self.files["contracts"]

    @property
    def events(self) -> Path:
        return self.files["events"]

    def setup_files(self) -> dict[str, str | None]:
        """``GameSetup(game, players, **data_set.setup_files())``; the reference data is None (the default)."""
        if self.reference:
            return {"board": None, "contracts": None, "events": None}
        return {role: str(path) for role, path in self.files.items()}


def slug(name: str) -> str:
    text = re.sub(r"[^\w]+", "-", name.strip().lower()).strip("-")
    return text or "data-set"


def _now() -> str:
    now = time.time()
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + f".{int(now * 1e6) % 1_000_000:06d}Z"


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _role_files(game: str) -> dict[str, str]:
    """role -> file name in a data set: the names of the game's reference files."""
    return {role.field: role.reference.name for role in games.get(game).data_roles}


class DataSets:
    """The data sets of every game in ``state_dir``."""

    def __init__(self, state_dir: Path | str, *, clock: Callable[[], str] = _now) -> None:
        self.root = Path(state_dir) / "datasets"
        self.clock = clock

    # -- reading ---------------------------------------------------------------------------------
    def list(self, game: str | None = None) -> list[DataSet]:
        """Every data set (of ``game``), oldest first."""
        found = []
        folders = [self.root / game] if game else sorted(p for p in self.root.glob("*") if p.is_dir())
        for folder in folders:
            for entry in sorted(folder.glob("*")):
                if entry.is_dir() and not entry.name.startswith(".") and (entry / META).exists():
                    found.append(self._open(entry))
        return sorted(found, key=lambda d: (d.created, d.name))

    def latest(self, game: str) -> DataSet | None:
        """The data set digitised last for ``game`` (None: there is none)."""
        sets = self.list(game)
        return sets[-1] if sets else None

    def get(self, game: str, name: str) -> DataSet:
        if name == REFERENCE:
            return self.reference(game)
        folder = self.root / game / slug(name)
        if not (folder / META).exists():
            known = ", ".join(d.name for d in self.list(game)) or "none"
            raise DataSetError(f"no data set {name!r} for {game} (there are: {known})")
        return self._open(folder)

    def choose(self, game: str, name: str | None = None) -> DataSet:
        """The named data set, else the last one digitised, else the reference data."""
        if name:
            return self.get(game, name)
        return self.latest(game) or self.reference(game)

    @staticmethod
    def reference(game: str) -> DataSet:
        files = {role.field: role.reference for role in games.get(game).data_roles}
        return DataSet(game, REFERENCE, files["board"].parent, "", files, reference=True)

    def _open(self, folder: Path) -> DataSet:
        meta = json.loads((folder / META).read_text(encoding="utf-8"))
        files = {role: folder / name for role, name in meta["files"].items()}
        tags: dict[str, Any] = {}
        if (folder / TAGS).exists():
            tags = tomllib.loads((folder / TAGS).read_text(encoding="utf-8"))
        return DataSet(meta["game"], meta["name"], folder, meta["created"], files,
                       dict(tags.get("cards", {})), dict(tags.get("readers", {})))  # fmt: skip

    # -- writing ---------------------------------------------------------------------------------
    def save(self, game: str, name: str, texts: Mapping[str, str], *, replace: bool = False) -> DataSet:
        """Keep ``texts`` (file name -> text: the game's three files, optionally tags.toml) as data set
        ``name``. Raises DataSetError if the game's check finds problems or the name is taken."""
        plugin = games.get(game)
        roles = _role_files(game)
        missing = [n for n in roles.values() if n not in texts]
        if missing:
            raise DataSetError(f"a {game} data set needs {', '.join(roles.values())}; missing {', '.join(missing)}")
        if not name.strip() or name == REFERENCE:
            raise DataSetError(f"{name!r} cannot name a data set")
        target = self.root / game / slug(name)
        if target.exists() and not replace:
            raise DataSetError(f"there is a data set {name!r} for {game} already")
        target.parent.mkdir(parents=True, exist_ok=True)
        temp = Path(tempfile.mkdtemp(prefix=".new-", dir=target.parent))
        try:
            for file_name, text in texts.items():
                _write_synced(temp / file_name, text.encode("utf-8"))
            report = plugin.check_files([temp / n for n in roles.values()])
            if report.problems:
                problems = tuple(p.replace(str(temp) + "/", "") for p in report.problems)
                raise DataSetError(f"the {game} data set {name!r} does not pass board check", problems)
            meta = {"game": game, "name": name.strip(), "created": self.clock(), "files": roles,
                    "summary": report.summary}  # fmt: skip
            _write_synced(temp / META, json.dumps(meta, ensure_ascii=False, indent=1).encode("utf-8"))
            fsync_dir(temp)
            if target.exists():
                old = target.with_name(f".old-{target.name}")
                shutil.rmtree(old, ignore_errors=True)
                target.rename(old)
                temp.rename(target)
                shutil.rmtree(old, ignore_errors=True)
            else:
                temp.rename(target)
            fsync_dir(target.parent)
        finally:
            shutil.rmtree(temp, ignore_errors=True)
        return self._open(target)

    def delete(self, game: str, name: str) -> None:
        shutil.rmtree(self.get(game, name).folder)

    # -- one file to carry it ----------------------------------------------------------------------
    def export(self, game: str, name: str, dest: Path | str) -> Path:
        """Write data set ``name`` to the zip ``dest`` (a folder: ``<slug>.<game>.zip`` in it)."""
        data_set = self.get(game, name)
        path = Path(dest)
        if path.is_dir():
            path = path / f"{slug(data_set.name)}.{game}.zip"
        contents = {p.name: p.read_bytes() for p in data_set.files.values()}
        if (data_set.folder / TAGS).exists() and not data_set.reference:
            contents[TAGS] = (data_set.folder / TAGS).read_bytes()
        manifest = {"format": EXPORT_FORMAT, "kind": "companion data set", "game": game, "name": data_set.name,
                    "created": data_set.created, "files": {n: _sha256(b) for n, b in contents.items()}}  # fmt: skip
        temp = path.with_name(f".{path.name}.tmp")
        with zipfile.ZipFile(temp, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            archive.writestr(MANIFEST, json.dumps(manifest, ensure_ascii=False, indent=1))
            for file_name, data in contents.items():
                archive.writestr(file_name, data)
        temp.replace(path)
        return path

    def import_file(self, path: Path | str, *, name: str | None = None, replace: bool = False,
                    game: str | None = None) -> DataSet:  # fmt: skip
        """Read an exported data set; everything is checked before anything is written."""
        manifest, contents = read_export(path)
        if game is not None and manifest["game"] != game:
            raise DataSetError(f"{path}: this is a data set of {manifest['game']}, not of {game}")
        texts = {}
        for file_name, data in contents.items():
            try:
                texts[file_name] = data.decode("utf-8")
            except UnicodeDecodeError:
                raise DataSetError(f"{path}: {file_name} is not UTF-8 text") from None
        return self.save(manifest["game"], name or manifest["name"], texts, replace=replace)


def read_export(path: Path | str) -> tuple[dict[str, Any], dict[str, bytes]]:
    """The manifest and the files of an export, every checksum verified. Raises DataSetError."""
    label = str(path)
    try:
        archive = zipfile.ZipFile(path)
    except FileNotFoundError:
        raise DataSetError(f"{label}: no such file") from None
    except (zipfile.BadZipFile, OSError) as exc:
        raise DataSetError(f"{label}: not a data set file (not a readable zip: {exc})") from None
    with archive:
        try:
            manifest = json.loads(archive.read(MANIFEST))
        except KeyError:
            raise DataSetError(f"{label}: not a data set file (no {MANIFEST})") from None
        except (ValueError, zipfile.BadZipFile, OSError) as exc:
            raise DataSetError(f"{label}: the manifest is damaged ({exc})") from None
        if not isinstance(manifest, dict) or manifest.get("kind") != "companion data set":
            raise DataSetError(f"{label}: not a companion data set")
        if manifest.get("format") != EXPORT_FORMAT:
            raise DataSetError(f"{label}: data set format {manifest.get('format')!r}; this box reads {EXPORT_FORMAT}")
        game = manifest.get("game")
        if game not in games.names():
            raise DataSetError(f"{label}: a data set of {game!r}, a game this box does not have")
        listed = manifest.get("files")
        if not isinstance(listed, dict) or not isinstance(manifest.get("name"), str):
            raise DataSetError(f"{label}: the manifest has no file list or no name")
        contents: dict[str, bytes] = {}
        for file_name, digest in listed.items():
            if "/" in file_name or "\\" in file_name or file_name.startswith("."):
                raise DataSetError(f"{label}: bad file name {file_name!r} in the manifest")
            try:
                info = archive.getinfo(file_name)
                if info.file_size > MAX_FILE:
                    raise DataSetError(f"{label}: {file_name} is too large ({info.file_size} bytes)")
                data = archive.read(file_name)
            except KeyError:
                raise DataSetError(f"{label}: {file_name} is missing") from None
            except (zipfile.BadZipFile, OSError) as exc:  # a CRC error: the zip is damaged
                raise DataSetError(f"{label}: {file_name} is damaged ({exc})") from None
            if _sha256(data) != digest:
                raise DataSetError(f"{label}: {file_name} is damaged (its checksum does not match)")
            contents[file_name] = data
    return manifest, contents


def _write_synced(path: Path, data: bytes) -> None:
    with path.open("wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
