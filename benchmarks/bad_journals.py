"""A campaign of bad journal files: never a traceback, never a healthy journal renamed or hidden.

    python benchmarks/bad_journals.py [--cases 10000] [--seed 1] [--dir DIR]

Each case puts one file where a journal is expected, then does what the box does with it:

* the read-only commands: ``companion games`` and ``companion export`` (in process, ``main([...])``);
* the kiosk's start: ``JournalStore.open_or_temporary`` + ``Kiosk(...)``, OK on a resume offer (the
  resume may fail: then the game must be marked broken and the kiosk must go on), a new game set up,
  one command, the kiosk closed.

Kinds of file (the case knows which are *ours*, i.e. may be moved aside when damaged):

* healthy journals — current, from before the application id (renamed), under another file name,
  held locked by another connection, (when not root) read-only — must never be renamed or hidden:
  afterwards the file is in place and lists every game it had, each with all its commands;
* damaged journals of ours — truncated anywhere (0 bytes included), 1–8 flipped bytes anywhere,
  a flipped byte inside a row (invalid UTF-8), random bytes under our file name — may be moved aside,
  and then the moved file must hold exactly the damaged bytes (kept, not destroyed);
* files that are not ours — random bytes or text under another name, another program's SQLite
  database — must be left byte for byte as they were, with no file created beside them.

A *traceback* is any exception that escapes one of those steps. ``tests/journal/test_bad_files.py``
runs a small campaign and hypothesis-generated files through ``check_case``.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import logging
import os
import random
import shutil
import sqlite3
import sys
import tempfile
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from companion.cli import main as cli_main
from companion.games.on_the_way.data import load_reference
from companion.games.on_the_way.engine.serialize import command_from_json
from companion.intents import ButtonName, ButtonPressed
from companion.journal import GameSetup, JournaledGame, JournalError, JournalStore
from companion.kiosk import Kiosk, KioskSettings, Screen
from companion.table.tags import TagDirectory

ROOT_DIR = Path(__file__).resolve().parent.parent
GOLDEN = ROOT_DIR / "tests" / "otw" / "golden" / "three-players-end-at-4.jsonl"
GOLDEN_SETUP = GameSetup("on-the-way", ("red", "blue", "green"), end_at=4)
_BOARD, _DECK = load_reference()
TAGS = TagDirectory.simulated(
    ("red", "blue", "green", "yellow"), [c.id for c in _DECK.contracts] + [e.id for e in _DECK.events]
)
SETTINGS = KioskSettings(pin="135790", games=("on-the-way",), replay_step_s=0.0)
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0

KINDS_HEALTHY = ("healthy", "healthy_old", "healthy_other_name", "healthy_locked") + (
    () if IS_ROOT else ("healthy_read_only",)
)
# "flipped_other_name": a journal of ours from before the application id, damaged, under another name:
# ours while its schema still reads (then it may be moved aside), else refused and left alone.
KINDS_OURS_DAMAGED = ("truncated", "zero_bytes", "flipped", "flipped_row", "random_ours_name", "flipped_other_name")
KINDS_FOREIGN = ("random_other_name", "text_file", "foreign_sqlite")
KINDS = KINDS_HEALTHY + KINDS_OURS_DAMAGED + KINDS_FOREIGN


@dataclass
class Template:
    data: bytes = field(repr=False)
    games: dict[int, int]  # game id -> commands


@dataclass
class Case:
    kind: str
    path: Path
    data: bytes = field(repr=False)
    healthy: bool = False
    ours: bool = False
    games: dict[int, int] = field(default_factory=dict)


@dataclass
class CampaignReport:
    cases: int = 0
    tracebacks: int = 0
    healthy_renamed: int = 0
    healthy_hidden: int = 0
    foreign_touched: int = 0
    damaged_destroyed: int = 0  # moved aside but the moved file is not the damaged file
    moved_aside: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return (
            not (self.tracebacks or self.healthy_renamed or self.healthy_hidden or self.foreign_touched)
            and not self.damaged_destroyed
        )

    def __str__(self) -> str:
        return (
            f"{self.cases} cases in {self.seconds:.1f} s: {self.tracebacks} tracebacks, "
            f"{self.healthy_renamed} healthy journals renamed, {self.healthy_hidden} hidden, "
            f"{self.foreign_touched} foreign files touched, {self.damaged_destroyed} damaged journals destroyed; "
            f"{self.moved_aside} damaged journals of ours moved aside; kinds: {dict(sorted(self.kinds.items()))}"
        )


def make_template(directory: Path) -> Template:
    """A journal with the golden game finished (leaderboard rows) and a second game being played."""
    path = directory / "template" / "journal.sqlite"
    commands = [command_from_json(__import__("json").loads(line)) for line in GOLDEN.read_text().splitlines()]
    with JournalStore.open(path, clock=lambda: 1_790_000_000.0) as store:
        finished = JournaledGame.start(store, GOLDEN_SETUP)
        for command in commands:
            finished.push(command)
        playing = JournaledGame.start(store, GOLDEN_SETUP)
        for command in commands[:25]:
            playing.push(command)
        games = {finished.game_id: len(finished.log), playing.game_id: len(playing.log)}
    data = path.read_bytes()
    shutil.rmtree(path.parent)
    return Template(data, games)


def _flip(data: bytes, rng: random.Random, count: int, lo: int = 0) -> bytes:
    out = bytearray(data)
    for _ in range(count):
        i = rng.randrange(lo, len(out))
        out[i] ^= rng.randrange(1, 256)
    return bytes(out)


def _without_app_id(data: bytes) -> bytes:
    return data[:68] + b"\0\0\0\0" + data[72:]


def _foreign_sqlite(path: Path, rng: random.Random) -> bytes:
    """Another program's database: its own tables (sometimes one called ``games``), no application id."""
    table = rng.choice(("recipes", "games", "photos", "t42"))
    conn = sqlite3.connect(path)
    conn.execute(f"CREATE TABLE {table}(a TEXT, b INTEGER)")
    conn.executemany(f"INSERT INTO {table} VALUES (?, ?)", [("x" * rng.randrange(50), i) for i in range(20)])
    conn.commit()
    conn.close()
    return path.read_bytes()


def make_case(rng: random.Random, kind: str, directory: Path, template: Template) -> Case:
    directory.mkdir(parents=True, exist_ok=True)
    ours_name = directory / "journal.sqlite"
    other_name = directory / rng.choice(("notes.txt", "games.db", "backup.sqlite", "journal.sqlite.bak"))
    t = template.data
    match kind:
        case "healthy" | "healthy_locked" | "healthy_read_only":
            return Case(kind, ours_name, t, True, True, dict(template.games))
        case "healthy_old":  # from before the application id: recognised by its schema, under any name
            return Case(kind, other_name, _without_app_id(t), True, True, dict(template.games))
        case "healthy_other_name":
            return Case(kind, other_name, t, True, True, dict(template.games))
        case "truncated":
            return Case(kind, ours_name, t[: rng.randrange(1, len(t))], False, True)
        case "zero_bytes":
            return Case(kind, ours_name, b"", False, True)
        case "flipped":
            return Case(kind, ours_name, _flip(t, rng, rng.randrange(1, 9)), False, True)
        case "flipped_row":  # a byte inside a command's JSON turned into invalid UTF-8
            at = t.index(b'"action"', rng.randrange(len(t) // 4, len(t) // 2)) + rng.randrange(1, 7)
            return Case(kind, ours_name, t[:at] + bytes([rng.choice((0xFF, 0xC3, 0x80))]) + t[at + 1 :], False, True)
        case "random_ours_name":
            return Case(kind, ours_name, rng.randbytes(rng.randrange(0, 9000)), False, True)
        case "random_other_name":
            data = rng.randbytes(rng.randrange(0, 9000))
            if rng.random() < 0.3:  # with a plausible SQLite header in front
                data = b"SQLite format 3\0" + data
            return Case(kind, other_name, data, False, False)
        case "text_file":
            words = ("milk", "eggs", "game night", "Bremen", "On The Way", "täglich", "🚚", "\n")
            text = " ".join(rng.choice(words) for _ in range(rng.randrange(0, 400)))
            return Case(kind, other_name, text.encode(), False, False)
        case "foreign_sqlite":
            scratch = directory / "scratch.sqlite"
            data = _foreign_sqlite(scratch, rng)
            scratch.unlink()
            return Case(kind, rng.choice((ours_name, other_name)), data, False, False)
        case "flipped_other_name":  # a damaged file under a name that is not ours: maybe ours, maybe not
            data = _flip(_without_app_id(t), rng, rng.randrange(1, 9), lo=0)
            return Case(kind, other_name, data, False, True)
    raise ValueError(kind)


def _quiet_cli(argv: list[str]) -> int:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return cli_main(argv)


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def check_case(case: Case, report: CampaignReport) -> None:
    """Write the case's file, run the box's steps over it, check the invariants (adds to ``report``)."""
    directory = case.path.parent
    directory.mkdir(parents=True, exist_ok=True)
    for p in directory.iterdir():
        if p.is_dir():
            shutil.rmtree(p)
        else:
            p.unlink()
    case.path.write_bytes(case.data)
    report.cases += 1
    report.kinds[case.kind] += 1
    locker: sqlite3.Connection | None = None
    if case.kind == "healthy_locked":
        locker = sqlite3.connect(case.path, isolation_level=None)
        locker.execute("PRAGMA locking_mode=EXCLUSIVE")
        locker.execute("BEGIN IMMEDIATE")
        locker.execute("COMMIT")
    if case.kind == "healthy_read_only":
        case.path.chmod(0o444)

    def step(name: str, action: object) -> None:
        try:
            action()  # type: ignore[operator]
        except Exception:
            report.tracebacks += 1
            report.problems.append(f"{case.kind} {case.path.name} {name}: {traceback.format_exc()}")

    try:
        if locker is None:
            step("games", lambda: _quiet_cli(["games", "--journal", str(case.path)]))
            out = directory / "export.jsonl"
            step("export", lambda: _quiet_cli(["export", "2", "--journal", str(case.path), "-o", str(out)]))
            with contextlib.suppress(FileNotFoundError):
                out.unlink()
        step("kiosk", lambda: _kiosk_start(case.path))
    finally:
        if locker is not None:
            locker.close()
        if case.kind == "healthy_read_only":
            case.path.chmod(0o644)
    _check_files(case, report)


def _kiosk_start(path: Path) -> None:
    store = JournalStore.open_or_temporary(path, busy_timeout=0.01)
    kiosk = Kiosk(store, TAGS, now=0.0, settings=SETTINGS)
    try:
        ok = ButtonPressed(ButtonName.OK)
        if kiosk.screen is Screen.RESUME_OFFER:
            kiosk.handle(ok, 1.0)  # resume, or "cannot be resumed" and on to a new game
        if kiosk.screen is Screen.PLAYING:
            return
        if kiosk.screen is Screen.ATTRACT:
            kiosk.handle(ok, 2.0)
        for _ in range(5):  # players, colours, length, confirm
            kiosk.handle(ok, 3.0)
        if kiosk.screen is not Screen.PLAYING:
            raise AssertionError(f"no new game could start: {kiosk.screen} {kiosk.view.notice}")
    finally:
        kiosk.close()


def _check_files(case: Case, report: CampaignReport) -> None:
    names = sorted(p.name for p in case.path.parent.iterdir())
    moved = [case.path.parent / n for n in names if ".corrupt-" in n and not n.endswith(("-wal", "-shm"))]
    where = f"{case.kind} {case.path.name}"
    if case.healthy:
        if moved or not case.path.exists():
            report.healthy_renamed += 1
            report.problems.append(f"{where}: a healthy journal was moved: {names}")
            return
        try:
            with JournalStore.open(case.path, read_only=True) as store:
                found = {r.id: r.commands for r in store.games()}
        except JournalError as exc:
            found = {}
            report.problems.append(f"{where}: the healthy journal no longer opens: {exc}")
        if any(found.get(gid) != n for gid, n in case.games.items()):
            report.healthy_hidden += 1
            report.problems.append(f"{where}: games {case.games} became {found}")
    elif not case.ours:
        if moved or not case.path.exists() or _digest(case.path.read_bytes()) != _digest(case.data):
            report.foreign_touched += 1
            report.problems.append(f"{where}: a file that is not ours was changed or moved: {names}")
        elif names != [case.path.name]:
            report.foreign_touched += 1
            report.problems.append(f"{where}: files appeared beside a file that is not ours: {names}")
    elif moved:
        report.moved_aside += 1
        if moved[0].read_bytes() != case.data:
            report.damaged_destroyed += 1
            report.problems.append(f"{where}: the moved file is not the damaged file")


def run(
    cases: int = 10_000, seed: int = 1, directory: Path | None = None, time_budget: float | None = None
) -> CampaignReport:
    logging.disable(logging.CRITICAL)  # thousands of expected "journal damaged" errors
    try:
        with tempfile.TemporaryDirectory() as scratch:
            base = Path(directory or scratch)
            template = make_template(base)
            rng = random.Random(seed)
            report = CampaignReport()
            start = time.monotonic()
            for i in range(cases):
                kind = KINDS[i % len(KINDS)]
                case = make_case(rng, kind, base / "case", template)
                check_case(case, report)
                if time_budget is not None and time.monotonic() - start > time_budget:
                    break
            report.seconds = time.monotonic() - start
            return report
    finally:
        logging.disable(logging.NOTSET)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", type=Path, default=None)
    parser.add_argument(
        "--quick", action="store_true", help="small counts, for the test suite (tests/test_benchmarks.py)"
    )
    args = parser.parse_args()
    report = run(50 if args.quick else args.cases, args.seed, args.dir)
    print(report)
    for problem in report.problems[:20]:
        print(" -", problem, file=sys.stderr)
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
