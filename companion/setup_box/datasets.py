"""Named data sets in the box's state directory, and one file to carry a data set to another box.

    state_dir/datasets/<game>/<slug>/   on-the-way.board.toml  on-the-way.contracts.toml
                                        on-the-way.events.toml  tags.toml  meta.json

The TOML files are the game's own formats (the reference files' names), validated by the game's
``check_files`` before they are kept; ``tags.toml`` holds the card tags (UID -> card id) and the
readers (reader -> city) the wizard enrolled, checked against the data set's own decks and board.
A data set is written to a temporary folder and renamed into place, so a box never holds half of one.

The store only ever changes what it created (issue 20): the reference data (the installed package's
files) is read-only by construction — it is never a folder of the store, so no delete, import or
rename can reach it — and delete, import and rename act only on folders directly inside
``state_dir/datasets/<game>/`` that hold a ``meta.json`` (real folders, never a symlink).

The export file is a zip: the same files plus ``manifest.json`` (format, game, name, SHA-256 of each
file). Importing checks all of it before anything is written — a zip within the limits below, no
encrypted member, no compression but stored/deflate, a manifest that lists exactly the zip's files,
a known game, every checksum, ``tags.toml``, the game's own check — and a wrong or damaged file raises
``DataSetError`` and leaves the store byte for byte as it was.

One broken data set (a damaged ``meta.json`` or ``tags.toml``, edited by hand or by a media fault)
never takes the others down: ``list`` leaves it out, ``broken`` names it and why, and it can still
be deleted.

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
import stat
import tempfile
import time
import tomllib
import zipfile
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion import games
from companion.games.setup import GameSetup
from companion.setup_box.store import fsync_dir
from companion.text import text_problem

EXPORT_FORMAT = 1
MANIFEST = "manifest.json"
META = "meta.json"
TAGS = "tags.toml"
REFERENCE = "reference"
# Limits: a data set's files are a few tens of kB (the reference On The Way deck is 30 kB); each
# limit is far above any printed game and far below what hurts a Pi (a zip bomb, a 1 GB manifest).
MAX_FILE = 4 * 1024 * 1024  # bytes of one data file, unpacked
MAX_MANIFEST = 64 * 1024  # bytes of manifest.json / meta.json: a few hundred bytes in practice
MAX_TOTAL = 16 * 1024 * 1024  # bytes of all members, unpacked
MAX_MEMBERS = 8  # manifest + the game's data files (3) + tags.toml, with room for one more role
MAX_NAME = 80  # characters of a data set's name: it is shown on one line of the kiosk's screen
MAX_TAGS = 5000  # card tags or readers in tags.toml: a printed game has a few hundred cards
ALLOWED_COMPRESSION = {zipfile.ZIP_STORED: "stored", zipfile.ZIP_DEFLATED: "deflate"}


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


@dataclass(frozen=True)
class BrokenDataSet:
    """A folder of the store that does not read as a data set, and why."""

    game: str
    folder: Path
    reason: str


def slug(name: str) -> str:
    text = re.sub(r"[^\w]+", "-", name.strip().lower()).strip("-")
    return text or "data-set"


def check_name(name: object) -> str:
    """The data set's name, stripped; DataSetError if it cannot name one."""
    problem = text_problem(name, limit=MAX_NAME, what="a data set's name")
    if problem is not None:
        raise DataSetError(problem)
    assert isinstance(name, str)
    if slug(name) == REFERENCE:
        raise DataSetError(f"{name!r} cannot name a data set: 'reference' is the shipped data")
    return name.strip()


def check_game(game: object) -> str:
    if not isinstance(game, str) or game not in games.names():
        raise DataSetError(f"no game {str(game)[:40]!r} on this box (there are: {', '.join(games.names())})")
    return game


def _now() -> str:
    now = time.time()
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + f".{int(now * 1e6) % 1_000_000:06d}Z"


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _role_files(game: str) -> dict[str, str]:
    """role -> file name in a data set: the names of the game's reference files."""
    return {role.field: role.reference.name for role in games.get(game).data_roles}


def _json(data: bytes, label: str) -> Any:
    try:
        return json.loads(data)
    except RecursionError:
        raise DataSetError(f"{label} is nested too deeply") from None
    except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError
        raise DataSetError(f"{label} is not JSON ({exc})") from None


def parse_tags(text: str, label: str = TAGS) -> tuple[dict[str, str], dict[str, str]]:
    """The card tags (UID -> card id) and readers (reader -> city) of a ``tags.toml``; DataSetError
    (``tags.toml:line: field: message``) if it is not TOML or not that shape."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataSetError(f"{label}: not TOML ({exc})") from None
    except RecursionError:
        raise DataSetError(f"{label}: nested too deeply") from None
    unknown = sorted(set(data) - {"cards", "readers"})
    if unknown:
        raise DataSetError(f"{label}: unknown key {unknown[0][:40]!r} (expected: cards, readers)")
    tables: list[dict[str, str]] = []
    for key, what in (("cards", "a card id"), ("readers", "a city")):
        table = data.get(key, {})
        if not isinstance(table, dict):
            raise DataSetError(f"{label}: [{key}] must be a table of names, not {type(table).__name__}")
        if len(table) > MAX_TAGS:
            raise DataSetError(f"{label}: [{key}] has {len(table)} entries; at most {MAX_TAGS}")
        for name, value in table.items():
            problem = text_problem(name, what=f"[{key}] key") or text_problem(value, what=f"{key}.{name[:40]}: {what}")
            if problem is not None:
                raise DataSetError(f"{label}: {problem}")
        tables.append(table)
    return tables[0], tables[1]


class DataSets:
    """The data sets of every game in ``state_dir``."""

    def __init__(self, state_dir: Path | str, *, clock: Callable[[], str] = _now) -> None:
        self.root = Path(state_dir) / "datasets"
        self.clock = clock

    # -- reading ---------------------------------------------------------------------------------
    def scan(self, game: str | None = None) -> tuple[list[DataSet], list[BrokenDataSet]]:
        """Every data set (of ``game``), oldest first, and every folder that does not read as one."""
        found: list[DataSet] = []
        broken: list[BrokenDataSet] = []
        names = [check_game(game)] if game else games.names()
        for name in names:
            for entry in self._folders(name):
                try:
                    found.append(self._open(name, entry))
                except DataSetError as exc:
                    broken.append(BrokenDataSet(name, entry, str(exc)))
        return sorted(found, key=lambda d: (d.created, d.name)), broken

    def broken(self, game: str | None = None) -> list[BrokenDataSet]:
        """The folders of the store that do not read as data sets, and why."""
        return self.scan(game)[1]

    def list(self, game: str | None = None) -> list[DataSet]:
        """Every data set (of ``game``) that reads, oldest first (``broken``: the others)."""
        return self.scan(game)[0]

    def _folders(self, game: str) -> Iterator[Path]:
        """The data set folders the store made for ``game``: real folders holding a meta.json, in a
        real ``datasets/<game>`` folder (a symlink there could lead the store out of the state directory)."""
        if self.root.is_symlink() or (self.root / game).is_symlink():
            return
        try:
            entries = sorted(os.scandir(self.root / game), key=lambda e: e.name)
        except OSError:
            return
        for entry in entries:
            if entry.name.startswith(".") or not entry.is_dir(follow_symlinks=False):
                continue
            if os.path.lexists(os.path.join(entry.path, META)):
                yield Path(entry.path)

    def latest(self, game: str) -> DataSet | None:
        """The data set digitised last for ``game`` (None: there is none)."""
        sets = self.list(game)
        return sets[-1] if sets else None

    def get(self, game: str, name: str) -> DataSet:
        check_game(game)
        if name == REFERENCE:
            return self.reference(game)
        return self._open(game, self._folder(game, name))

    def _folder(self, game: str, name: str) -> Path:
        """The store's folder of data set ``name``; DataSetError if the store has no such folder."""
        ok = isinstance(name, str) and bool(name.strip()) and len(name) <= 4 * MAX_NAME
        folder = self.root / game / slug(name if ok else "")
        if not ok or folder not in set(self._folders(game)):
            known = ", ".join(d.name for d in self.list(game)) or "none"
            raise DataSetError(f"no data set {str(name)[:MAX_NAME]!r} for {game} (there are: {known})")
        return folder

    def choose(self, game: str, name: str | None = None) -> DataSet:
        """The named data set, else the last one digitised, else the reference data."""
        if name:
            return self.get(game, name)
        return self.latest(game) or self.reference(game)

    @staticmethod
    def reference(game: str) -> DataSet:
        files = {role.field: role.reference for role in games.get(check_game(game)).data_roles}
        return DataSet(game, REFERENCE, files["board"].parent, "", files, reference=True)

    def _open(self, game: str, folder: Path) -> DataSet:
        """The data set in ``folder``; DataSetError saying what is wrong if it does not read."""
        label = f"data set folder {folder.name!r} of {game}"
        try:
            meta = _json(_read_bounded(folder / META, MAX_MANIFEST), f"{label}: {META}")
            roles = _role_files(game)
            if not isinstance(meta, dict) or meta.get("game") != game or meta.get("files") != roles:
                raise DataSetError(f"{label}: {META} does not describe a {game} data set")
            created = meta.get("created")
            if not isinstance(created, str) or len(created) > 40:
                raise DataSetError(f"{label}: {META} has no creation time")
            name = check_name(meta.get("name"))
            files = {role: folder / file_name for role, file_name in roles.items()}
            for path in files.values():
                if not path.is_file() or path.is_symlink():
                    raise DataSetError(f"{label}: {path.name} is missing")
            tags: tuple[dict[str, str], dict[str, str]] = ({}, {})
            if os.path.lexists(folder / TAGS):
                tags = parse_tags(_read_bounded(folder / TAGS, MAX_FILE).decode("utf-8"), f"{label}: {TAGS}")
        except UnicodeDecodeError:
            raise DataSetError(f"{label}: {TAGS} is not UTF-8 text") from None
        except OSError as exc:
            raise DataSetError(f"{label}: cannot be read ({exc.strerror or exc})") from None
        return DataSet(game, name, folder, created, files, tags[0], tags[1])

    # -- writing ---------------------------------------------------------------------------------
    def save(self, game: str, name: str, texts: Mapping[str, str], *, replace: bool = False) -> DataSet:
        """Keep ``texts`` (file name -> text: the game's three files, optionally tags.toml) as data set
        ``name``. Raises DataSetError — and changes nothing — if the name cannot be used or is taken,
        a file is not the game's, or the game's check or the tags' check finds problems."""
        plugin = games.get(check_game(game))
        name = check_name(name)
        roles = _role_files(game)
        missing = [n for n in roles.values() if n not in texts]
        if missing:
            raise DataSetError(f"a {game} data set needs {', '.join(roles.values())}; missing {', '.join(missing)}")
        extra = sorted(set(texts) - set(roles.values()) - {TAGS})
        if extra:
            raise DataSetError(f"{extra[0][:MAX_NAME]!r} is not a file of a {game} data set "
                               f"(expected: {', '.join(roles.values())}, {TAGS})")  # fmt: skip
        tags = parse_tags(texts[TAGS]) if TAGS in texts else ({}, {})
        target = self.root / game / slug(name)
        if os.path.lexists(target):
            if not replace:
                raise DataSetError(f"there is a data set {name!r} for {game} already")
            if target not in set(self._folders(game)):
                raise DataSetError(f"{target} is not a data set this box made: not replaced")
        with self._staging(game) as temp:
            for file_name, text in texts.items():
                _write_synced(temp / file_name, text.encode("utf-8"))
            report = plugin.check_files([temp / n for n in roles.values()])
            if report.problems:
                problems = tuple(p.replace(str(temp) + "/", "") for p in report.problems)
                raise DataSetError(f"the {game} data set {name!r} does not pass board check", problems)
            _check_tags_against_data(game, {r: temp / n for r, n in roles.items()}, *tags)
            meta = {"game": game, "name": name, "created": self.clock(), "files": roles,
                    "summary": report.summary}  # fmt: skip
            _write_synced(temp / META, json.dumps(meta, ensure_ascii=False, indent=1).encode("utf-8"))
            fsync_dir(temp)
            if os.path.lexists(target):
                old = target.with_name(f".old-{target.name}")
                _remove_tree(old)
                target.rename(old)
                temp.rename(target)
                _remove_tree(old)
            else:
                temp.rename(target)
            fsync_dir(target.parent)
        return self._open(game, target)

    @contextmanager
    def _staging(self, game: str) -> Iterator[Path]:
        """A temporary folder beside the data sets of ``game`` (a rename into place is atomic). On
        failure it is removed, and so is every folder made for it: the store is as it was."""
        if self.root.is_symlink() or (self.root / game).is_symlink():
            raise DataSetError(f"{self.root / game} is a symlink: the store writes only inside the state directory")
        made: list[Path] = []
        for folder in (self.root.parent, self.root, self.root / game):
            if not folder.exists():
                folder.mkdir()
                made.append(folder)
        temp = Path(tempfile.mkdtemp(prefix=".new-", dir=self.root / game))
        try:
            yield temp
        except BaseException:
            for folder in reversed(made):
                _remove_tree(folder) if folder == self.root / game else _rmdir_if_empty(folder)
            raise
        finally:
            _remove_tree(temp)

    def delete(self, game: str, name: str) -> None:
        """Delete data set ``name`` of ``game`` — a folder the store made, even if it no longer reads;
        never the reference data (the installed package's files)."""
        check_game(game)
        if not isinstance(name, str) or slug(name) == REFERENCE:
            raise DataSetError("the reference data ships with companion and cannot be deleted")
        folder = self._folder(game, name)
        doomed = folder.with_name(f".old-{folder.name}")
        _remove_tree(doomed)
        folder.rename(doomed)  # gone from the list at once, even if the removal below is cut short
        fsync_dir(folder.parent)
        _remove_tree(doomed)

    # -- one file to carry it ----------------------------------------------------------------------
    def export(self, game: str, name: str, dest: Path | str) -> Path:
        """Write data set ``name`` to the zip ``dest`` (a folder: ``<slug>.<game>.zip`` in it)."""
        data_set = self.get(game, name)
        path = Path(dest)
        if path.is_dir():
            path = path / f"{slug(data_set.name)}.{game}.zip"
        try:
            contents = {p.name: _read_bounded(p, MAX_FILE) for p in data_set.files.values()}
            if (data_set.folder / TAGS).exists() and not data_set.reference:
                contents[TAGS] = _read_bounded(data_set.folder / TAGS, MAX_FILE)
        except OSError as exc:
            raise DataSetError(f"data set {data_set.name!r} cannot be read ({exc.strerror or exc})") from None
        manifest = {"format": EXPORT_FORMAT, "kind": "companion data set", "game": game, "name": data_set.name,
                    "created": data_set.created, "files": {n: _sha256(b) for n, b in contents.items()}}  # fmt: skip
        temp = path.with_name(f".{path.name}.tmp")
        try:
            with zipfile.ZipFile(temp, "w", compression=zipfile.ZIP_DEFLATED) as archive:
                archive.writestr(MANIFEST, json.dumps(manifest, ensure_ascii=False, indent=1))
                for file_name, data in contents.items():
                    archive.writestr(file_name, data)
            temp.replace(path)
        except OSError as exc:
            temp.unlink(missing_ok=True) if temp.parent.is_dir() else None
            raise DataSetError(f"{path}: cannot be written ({exc.strerror or exc})") from None
        return path

    def import_file(self, path: Path | str, *, name: str | None = None, replace: bool = False,
                    game: str | None = None) -> DataSet:  # fmt: skip
        """Read an exported data set; everything is checked before anything is written."""
        if game is not None:
            check_game(game)
        manifest, contents = read_export(path)
        if game is not None and manifest["game"] != game:
            raise DataSetError(f"{path}: this is a data set of {manifest['game']}, not of {game}")
        texts = {}
        for file_name, data in contents.items():
            try:
                texts[file_name] = data.decode("utf-8")
            except UnicodeDecodeError:
                raise DataSetError(f"{path}: {file_name} is not UTF-8 text") from None
        try:
            return self.save(manifest["game"], name or manifest["name"], texts, replace=replace)
        except OSError as exc:  # a full disk, a read-only state directory: the staging is gone
            raise DataSetError(f"{path}: cannot be written ({exc.strerror or exc})") from None


def _check_tags_against_data(game: str, files: Mapping[str, Path], cards: Mapping[str, str],
                             readers: Mapping[str, str]) -> None:  # fmt: skip
    """Every card tag stands for a card of the data set's decks, every reader for a city of its board."""
    if not cards and not readers:
        return
    plugin = games.get(game)
    paths = {role: str(path) for role, path in files.items()}
    setup = GameSetup(game, ("red", "blue"), board=paths.get("board"), contracts=paths.get("contracts"),
                      events=paths.get("events"))  # fmt: skip
    known_cards = set(plugin.card_ids(setup))
    for uid, card in cards.items():
        if card not in known_cards:
            raise DataSetError(f"{TAGS}: cards.{uid[:40]} = {card[:40]!r} is not a card of this data set")
    cities = set(plugin.neighbours(setup))
    for reader, city in readers.items():
        if city not in cities:
            raise DataSetError(f"{TAGS}: readers.{reader[:40]} = {city[:40]!r} is not a city of this data set")


def read_export(path: Path | str) -> tuple[dict[str, Any], dict[str, bytes]]:
    """The manifest and the files of an export, every limit and checksum verified. Raises DataSetError."""
    label = str(path)
    try:
        found = os.stat(path)
    except FileNotFoundError:
        raise DataSetError(f"{label}: no such file") from None
    except (OSError, ValueError) as exc:  # a symlink loop, no permission, a NUL in the name
        raise DataSetError(f"{label}: cannot be read ({getattr(exc, 'strerror', None) or exc})") from None
    if not stat.S_ISREG(found.st_mode):  # a FIFO would block, a device never end
        raise DataSetError(f"{label}: not a data set file (not a regular file)")
    if found.st_size > MAX_TOTAL + MAX_MANIFEST + 64 * 1024:
        raise DataSetError(f"{label}: not a data set file ({found.st_size} bytes; a data set is far smaller)")
    try:
        archive = zipfile.ZipFile(path)
    except FileNotFoundError:
        raise DataSetError(f"{label}: no such file") from None
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError, NotImplementedError) as exc:
        raise DataSetError(f"{label}: not a data set file (not a readable zip: {exc})") from None
    with archive:
        infos = archive.infolist()
        if len(infos) > MAX_MEMBERS:
            raise DataSetError(f"{label}: {len(infos)} files in the zip; a data set has at most {MAX_MEMBERS}")
        by_name: dict[str, zipfile.ZipInfo] = {}
        total = 0
        for info in infos:
            shown = info.filename[:MAX_NAME]
            if len(info.filename) > MAX_NAME or text_problem(info.filename) is not None:
                raise DataSetError(f"{label}: a file name in the zip cannot be read ({shown!r})")
            if info.filename in by_name:
                raise DataSetError(f"{label}: {shown} is twice in the zip")
            if info.flag_bits & 0x1:
                raise DataSetError(f"{label}: {shown} is encrypted; a data set file is never encrypted")
            if info.compress_type not in ALLOWED_COMPRESSION:
                raise DataSetError(f"{label}: {shown} uses a compression this box does not read "
                                   f"(method {info.compress_type}; expected stored or deflate)")  # fmt: skip
            limit = MAX_MANIFEST if info.filename == MANIFEST else MAX_FILE
            if info.file_size > limit:
                raise DataSetError(f"{label}: {shown} is too large ({info.file_size} bytes; at most {limit})")
            total += info.file_size
            by_name[info.filename] = info
        if total > MAX_TOTAL:
            raise DataSetError(f"{label}: the files are too large together ({total} bytes; at most {MAX_TOTAL})")
        if MANIFEST not in by_name:
            raise DataSetError(f"{label}: not a data set file (no {MANIFEST})")
        manifest = _json(_read_member(archive, by_name[MANIFEST], label), f"{label}: the manifest")
        if not isinstance(manifest, dict) or manifest.get("kind") != "companion data set":
            raise DataSetError(f"{label}: not a companion data set")
        if manifest.get("format") != EXPORT_FORMAT:
            raise DataSetError(f"{label}: data set format {str(manifest.get('format'))[:20]!r}; "
                               f"this box reads {EXPORT_FORMAT}")  # fmt: skip
        game = manifest.get("game")
        if not isinstance(game, str) or game not in games.names():
            raise DataSetError(f"{label}: a data set of {str(game)[:40]!r}, a game this box does not have")
        listed = manifest.get("files")
        if not isinstance(listed, dict) or not isinstance(manifest.get("name"), str):
            raise DataSetError(f"{label}: the manifest has no file list or no name")
        problem = text_problem(manifest["name"], limit=MAX_NAME, what="the manifest's name")
        if problem is not None:
            raise DataSetError(f"{label}: {problem}")
        allowed = set(_role_files(game).values()) | {TAGS}
        members = set(by_name) - {MANIFEST}
        for file_name in sorted(set(listed) | members):
            shown = str(file_name)[:MAX_NAME]
            if file_name not in allowed:
                raise DataSetError(f"{label}: {shown!r} is not a file of a {game} data set "
                                   f"(expected: {', '.join(sorted(allowed))})")  # fmt: skip
            if file_name not in listed:
                raise DataSetError(f"{label}: {shown} is in the zip but not in the manifest")
            if file_name not in members:
                raise DataSetError(f"{label}: {shown} is missing")
        contents: dict[str, bytes] = {}
        for file_name, digest in listed.items():
            data = _read_member(archive, by_name[file_name], label)
            if not isinstance(digest, str) or _sha256(data) != digest:
                raise DataSetError(f"{label}: {file_name} is damaged (its checksum does not match)")
            contents[file_name] = data
    return manifest, contents


def _read_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo, label: str) -> bytes:
    """A member's bytes, never more than its limit whatever its header claims (a lying zip bomb)."""
    limit = MAX_MANIFEST if info.filename == MANIFEST else MAX_FILE
    try:
        with archive.open(info) as handle:
            data = handle.read(limit + 1)
    except (zipfile.BadZipFile, OSError, EOFError, ValueError, NotImplementedError, RuntimeError) as exc:
        raise DataSetError(f"{label}: {info.filename} is damaged ({exc})") from None
    except Exception as exc:  # zlib.error and the like from a crafted stream
        raise DataSetError(f"{label}: {info.filename} is damaged ({type(exc).__name__})") from None
    if len(data) > limit:
        raise DataSetError(f"{label}: {info.filename} is too large (more than {limit} bytes)")
    return data


def _read_bounded(path: Path, limit: int) -> bytes:
    """A regular file's bytes (OSError: not one, or too large)."""
    with open(path, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise OSError(f"{path.name} is not a regular file")
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise OSError(f"{path.name} is larger than {limit} bytes")
    return data


def _remove_tree(path: Path) -> None:
    """Remove a folder the store made (never following a symlink out of it)."""
    if path.is_symlink():
        path.unlink()
    elif path.exists():
        shutil.rmtree(path, ignore_errors=True)


def _rmdir_if_empty(path: Path) -> None:
    with suppress(OSError):
        path.rmdir()


def _write_synced(path: Path, data: bytes) -> None:
    with path.open("wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
