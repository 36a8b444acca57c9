"""The journal: one SQLite file holding every game's set-up and every accepted command.

Durability: WAL with ``synchronous=FULL`` and one transaction per command, so a command that
``append`` returned from is on the storage medium (fsync) before anyone sees it accepted; a torn
last write is rolled back by SQLite at the next open. What is tested and what is SQLite's promise:
docs/journal.md.

Opening never hides or destroys a good game (docs/journal.md, "Opening a journal"):

* a journal that is *ours* (our ``application_id``, our schema, or our file name ``journal.sqlite``)
  and damaged (``PRAGMA integrity_check``, not a database, truncated to 0 bytes) is moved aside as
  ``journal.sqlite.corrupt-<timestamp>`` (with its -wal/-shm), reported in ``JournalStore.report``
  and logged as an error — never deleted — and a fresh journal starts;
* a file that is not ours (another program's database, a text file given as ``--journal``) raises
  ``NotAJournal`` and is not touched;
* a journal that cannot be used *now* — locked by another program after the busy timeout, disk full,
  read-only, a directory without write permission, written by a newer companion — raises
  ``JournalUnavailable`` and is not touched, so its game is offered again once the cause is gone;
* ``read_only=True`` (``companion games``, ``companion export``) opens with SQLite's ``mode=ro``:
  nothing is written, created or renamed;
* a damaged *row* (a flipped byte: invalid UTF-8, broken JSON, a wrong column type) never escapes as
  a ``sqlite3`` or decoding error: reading commands raises ``JournalCorrupt`` (a ``JournalError`` and a
  ``ValueError``, which resume turns into ``ResumeError``), and a damaged game row is listed with
  ``GameRecord.damage`` set instead of failing the whole listing.

Schema (version 1, ``PRAGMA application_id`` = ``APPLICATION_ID``; journals written before the
application id existed are recognised by their schema and get it at their next writable open)::

    games(id, started_at, game, players, config, status, progress, result, finished_at, last_at)
    commands(game_id, seq, json, at)       -- seq counts from 0; undos are commands too
    scores(game_id, colour, place, score, day)  -- the leaderboard, filled when a game finishes

``status`` is ``playing`` | ``finished`` | ``ended`` (ended early by the admin) | ``abandoned``
(a new game was started instead of resuming) | ``broken`` (its log no longer replays).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import secrets
import sqlite3
import time
import urllib.parse
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from companion.games.setup import GameSetup
from companion.journal.acks import SUFFIX as ACKS_SUFFIX
from companion.journal.acks import AckLog, Loss, chain_of, link, verify
from companion.journal.paths import JOURNAL_NAME

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1
# PRAGMA application_id of a companion journal: "OTWj" (offset 68 of the SQLite header, big-endian).
APPLICATION_ID = int.from_bytes(b"OTWj", "big")
SQLITE_MAGIC = b"SQLite format 3\x00"
STATUSES = frozenset({"playing", "finished", "ended", "abandoned", "broken"})
PLAYING, FINISHED, ENDED, ABANDONED, BROKEN = "playing", "finished", "ended", "abandoned", "broken"
DONE = (FINISHED, ENDED)  # kept and listed until an admin clears them
_JOURNAL_ID = re.compile(r"[0-9a-f]{12}")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games(
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    started_at REAL NOT NULL,
    game TEXT NOT NULL,
    players TEXT NOT NULL,
    config TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'playing',
    progress TEXT NOT NULL DEFAULT '{}',
    result TEXT,
    finished_at REAL,
    last_at REAL
);
CREATE TABLE IF NOT EXISTS commands(
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    json TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS scores(
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    colour TEXT NOT NULL,
    place INTEGER NOT NULL,
    score INTEGER NOT NULL,
    day TEXT NOT NULL,
    PRIMARY KEY (game_id, colour)
);
CREATE INDEX IF NOT EXISTS scores_day ON scores(day, score);
"""


class JournalError(Exception):
    """Root of everything the journal raises."""


class JournalWriteError(JournalError, OSError):
    """A command could not be committed (disk full, I/O error, ...): it must not be acknowledged."""


class JournalCorrupt(JournalError, ValueError):
    """The file, or a row in it, is not a readable journal.

    At a writable open a damaged journal of ours is moved aside (``report``); later, a damaged row
    raises this from the read that met it.
    """


class JournalUnavailable(JournalError, OSError):
    """The journal cannot be used now (locked, disk full, read-only, no permission, newer schema).

    Nothing was changed: the file and its games are still there once the cause is gone.
    """


class JournalBusy(JournalUnavailable):
    """Another program held the journal locked for longer than the busy timeout."""


class JournalMissing(JournalUnavailable):
    """A read-only open of a journal that does not exist (nothing was created)."""


class NotAJournal(JournalError, ValueError):
    """The file is not a companion journal (another program's database, a text file): it is left alone."""


@dataclass(frozen=True, slots=True)
class CorruptionReport:
    """A journal that could not be used and where it went."""

    path: Path  # the journal path that was unreadable
    moved_to: Path | None  # where the file now is (None if even moving it failed)
    reason: str

    def __str__(self) -> str:
        where = f"moved to {self.moved_to}" if self.moved_to else "could not be moved"
        return f"the game journal {self.path} was unreadable ({self.reason}); {where}; a new journal was started"


@dataclass(frozen=True, slots=True)
class JournalNotice:
    """Something the kiosk must show at start that is not a moved file (a memory journal, safe mode)."""

    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class GameRecord:
    id: int
    started_at: float
    setup: GameSetup
    status: str
    commands: int
    progress: dict[str, Any]
    result: list[dict[str, Any]] | None
    finished_at: float | None
    last_at: float | None
    damage: str | None = None  # the row could not be read as written (a flipped byte...): why

    @property
    def game(self) -> str:
        return self.setup.game

    @property
    def players(self) -> tuple[str, ...]:
        return self.setup.players


@dataclass(frozen=True, slots=True)
class ScoreEntry:
    game_id: int
    colour: str
    place: int
    score: int


def local_day(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp).date().isoformat()


class JournalStore:
    """The journal file. ``JournalStore.open(path)`` moves a damaged journal of ours aside (see
    ``report``) and raises ``JournalUnavailable`` / ``NotAJournal`` where touching the file could lose
    a game; ``open_or_temporary`` never fails (the kiosk).

    A context manager; ``close()`` is safe twice.
    """

    def __init__(
        self, conn: sqlite3.Connection, path: Path, clock: Callable[[], float], *, read_only: bool = False
    ) -> None:
        self._conn: sqlite3.Connection | None = conn
        self.path = path
        self.clock = clock
        self.read_only = read_only
        self.report: CorruptionReport | JournalNotice | None = None
        self.temporary = False  # True: an in-memory journal, its games do not survive a restart
        self.resume_held = False  # True: ``unfinished()`` offers nothing (the kiosk's safe mode)
        self._journal_id: str | None = None
        self.acks: AckLog | None = None  # the acknowledgement log (acks.py); None: a journal in memory
        self.losses: list[Loss] = []  # acknowledged commands this journal no longer has (found at open)
        self._chains: dict[int, tuple[int, str]] = {}  # game id -> (commands acknowledged, hash chain)

    # -- opening ---------------------------------------------------------------------------
    @classmethod
    def open(
        cls,
        path: Path | str,
        *,
        clock: Callable[[], float] = time.time,
        read_only: bool = False,
        busy_timeout: float = 5.0,
    ) -> JournalStore:
        """The journal at ``path``; see the module docstring for what happens to a bad file.

        ``read_only``: SQLite ``mode=ro``; raises ``JournalMissing`` if there is no file, and
        ``JournalCorrupt`` (nothing moved) if it is damaged.
        """
        path = Path(path)
        if read_only:
            try:
                store = cls(_connect(path, read_only=True, timeout=busy_timeout), path, clock, read_only=True)
                store._check_acknowledged(AckLog(path))
                return store
            except _Damaged as exc:
                if not (exc.ours or path.name == JOURNAL_NAME):
                    raise NotAJournal(f"{path} is not a companion game journal ({exc}); it was left as it is") from exc
                raise
        _ensure_directory(path.parent)
        try:
            store = cls(_connect(path, read_only=False, timeout=busy_timeout), path, clock)
        except _Damaged as exc:
            if not (exc.ours or path.name == JOURNAL_NAME):
                raise NotAJournal(
                    f"{path} is not a companion game journal ({exc}); it was left as it is. "
                    "Point --journal at a journal file, or at a new file name to start one."
                ) from exc
            report = _move_aside(path, str(exc), clock())
            if report.moved_to is None:
                raise JournalUnavailable(
                    f"the game journal {path} is damaged ({report.reason}); it could not be moved aside, "
                    "so no new journal was started there"
                ) from exc
            log.error("%s", report)
            store = cls(_connect(path, read_only=False, timeout=busy_timeout), path, clock)
            store.report = report
        store._check_acknowledged(AckLog(path))
        return store

    @classmethod
    def open_or_temporary(
        cls,
        path: Path | str,
        *,
        clock: Callable[[], float] = time.time,
        busy_timeout: float = 5.0,
        busy_attempts: int = 3,
    ) -> JournalStore:
        """Never fails: the journal, or — when it cannot be used without risking a game in it — a journal
        in memory, with ``report`` saying why (its games do not survive a restart; the file is untouched
        and its game is offered again at the next start once the cause is gone)."""
        path = Path(path)
        try:
            for attempt in range(1, busy_attempts + 1):
                try:
                    return cls.open(path, clock=clock, busy_timeout=busy_timeout)
                except JournalBusy as exc:  # e.g. `companion games clear` vacuuming: wait it out a while
                    if attempt == busy_attempts:
                        raise
                    log.warning("the game journal is locked (%s); trying again", exc)
            raise AssertionError("unreachable")  # pragma: no cover
        except JournalError as exc:
            log.error("the game journal cannot be used, games are kept in memory only: %s", exc)
            store = cls(_connect(Path(":memory:"), read_only=False, timeout=busy_timeout), path, clock)
            store.temporary = True
            store.report = JournalNotice(f"Games are NOT being saved: {exc}")
            return store

    def _check_acknowledged(self, acks: AckLog) -> None:
        """Compare the acknowledgement log with the journal (``losses``, reported); a writable journal
        then keeps the log: losses recorded for good, one line per game."""
        records = acks.read()
        journal_id = self.journal_id
        try:
            games = self._raw_commands({g for (j, g) in records.acked if j == journal_id})
        except JournalError as exc:  # unreadable now: the read that meets it reports it
            log.error("the acknowledged commands cannot be checked: %s", exc)
            games = None
        if games is not None:
            self.losses = verify(records, journal_id, games)
        if self.losses:
            text = "; ".join(str(x) for x in self.losses[:5]) + (f"; and {len(self.losses) - 5} more"
                                                                   if len(self.losses) > 5 else "")  # fmt: skip
            log.error("the game journal %s lost acknowledged commands: %s", self.path, text)
            notice = f"The game journal lost acknowledged commands ({text}). What still reads is kept."
            self.report = JournalNotice(notice if self.report is None else f"{self.report} {notice}")
        if records.damaged_lines:
            log.error("the acknowledgement log %s has %d damaged lines: a loss in those games may go unnoticed",
                      acks.path, records.damaged_lines)  # fmt: skip
        if self.read_only or journal_id is None:
            return
        self.acks = acks
        for loss in self.losses:
            records.losses[(loss.journal_id, loss.game_id)] = loss
        acks.rewrite(records)

    def _raw_commands(self, game_ids: set[int]) -> dict[int, list[bytes]]:
        """Each game's commands' JSON as stored, in order (a game that is not in the journal: absent)."""
        out: dict[int, list[bytes]] = {}
        with self._reading("the commands to check") as conn:
            present = {row[0] for row in conn.execute("SELECT id FROM games").fetchall()}
            for game_id in sorted(game_ids & present):
                rows = conn.execute("SELECT seq, json FROM commands WHERE game_id=? ORDER BY seq", (game_id,))
                commands: list[bytes] = []
                for expected, (seq, raw) in enumerate(rows.fetchall()):
                    if seq != expected or not isinstance(raw, bytes):
                        break  # a gap or a damaged row: the chain stops where the game stops reading
                    commands.append(raw)
                out[game_id] = commands
        return out

    def _acknowledge(self, game_id: int, seq: int, command_json: str) -> None:
        """After a commit: the command is acknowledged; write it to the log (never raises)."""
        if self.acks is None or self._journal_id is None:
            return
        if seq < 0:
            self._chains[game_id] = (0, "")
            self.acks.acknowledge(self._journal_id, game_id, -1, "")
            return
        known = self._chains.get(game_id)
        if known is None or known[0] != seq:
            try:
                before = self._raw_commands({game_id}).get(game_id, [])[:seq]
            except JournalError:
                before = []
            known = (len(before), chain_of(before))
        chain = link(known[1], command_json.encode("utf-8"))
        self._chains[game_id] = (seq + 1, chain)
        self.acks.acknowledge(self._journal_id, game_id, seq, chain)

    def hold_resume(self, reason: str) -> None:
        """Safe mode: offer no unfinished game (it stays recorded and playing), and say why."""
        self.resume_held = True
        self.report = JournalNotice(reason if self.report is None else f"{reason} {self.report}")

    def close(self) -> None:
        if self._conn is not None:
            conn, self._conn = self._conn, None
            if not self.read_only:
                with contextlib.suppress(sqlite3.Error, UnicodeDecodeError):  # else the WAL is replayed at next open
                    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            conn.close()

    def __enter__(self) -> JournalStore:
        return self

    def __exit__(self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    @property
    def journal_id(self) -> str | None:
        """This journal's random id (12 hex digits), made when the journal is first opened for writing:
        "game 7" of this journal is never "game 7" of the journal that replaced it (the leaderboard's
        result ids, the acknowledgement log). None: a read-only journal that never had one."""
        if self._journal_id is None:
            try:
                with self._reading("the journal's id") as conn:
                    row = conn.execute("SELECT value FROM meta WHERE key='journal_id'").fetchone()
                if row is None and not self.read_only:
                    with self._transaction() as conn:
                        conn.execute("INSERT OR IGNORE INTO meta(key, value) VALUES ('journal_id', ?)",
                                     (secrets.token_hex(6),))  # fmt: skip
                    return self.journal_id
                text = None if row is None else _text(row[0])
                self._journal_id = text if text is not None and _JOURNAL_ID.fullmatch(text) else None
            except (JournalError, ValueError, TypeError) as exc:
                log.error("the journal's id cannot be read: %s", exc)
        return self._journal_id

    @property
    def conn(self) -> sqlite3.Connection:
        if self._conn is None:
            raise JournalError("the journal is closed")
        return self._conn

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        conn = self.conn
        if self.read_only:
            raise JournalWriteError(f"the game journal {self.path} was opened read-only")
        try:
            conn.execute("BEGIN IMMEDIATE")
            yield conn
            conn.execute("COMMIT")
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            if conn.in_transaction:
                with contextlib.suppress(sqlite3.Error, UnicodeDecodeError):
                    conn.execute("ROLLBACK")
            why = _describe(exc) if isinstance(exc, sqlite3.Error) else f"damaged text ({exc})"
            raise JournalWriteError(f"the game journal {self.path} could not be written: {why}") from exc

    @contextmanager
    def _reading(self, what: str) -> Iterator[sqlite3.Connection]:
        """Reads see raw bytes for text (decoded by the caller, row by row); SQLite errors become ours."""
        conn = self.conn
        conn.text_factory = bytes
        try:
            yield conn
        except sqlite3.Error as exc:
            raise _classify(exc, self.path, what) from exc
        except UnicodeDecodeError as exc:  # SQLite's error message quoted damaged bytes
            raise JournalCorrupt(f"the game journal {self.path}: cannot read {what}: damaged text ({exc})") from exc
        finally:
            conn.text_factory = _strict_text

    # -- games -----------------------------------------------------------------------------
    def create_game(self, setup: GameSetup) -> int:
        now = self.clock()
        with self._transaction() as conn:
            cur = conn.execute(
                "INSERT INTO games(started_at, game, players, config, status, last_at) VALUES (?,?,?,?,?,?)",
                (now, setup.game, json.dumps(list(setup.players)), json.dumps(setup.to_json()), PLAYING, now),
            )
            assert cur.lastrowid is not None
            game_id = cur.lastrowid
        self._acknowledge(game_id, -1, "")
        return game_id

    def append(
        self,
        game_id: int,
        seq: int,
        command: dict[str, object],
        *,
        progress: dict[str, object] | None = None,
        result: list[dict[str, object]] | None = None,
        status: str | None = None,
    ) -> None:
        """Commit one command (and, in the same transaction, the game's progress / final result).

        ``seq`` must be the next number: a gap or a repeat raises ``JournalWriteError``.
        """
        now = self.clock()
        text = json.dumps(command, ensure_ascii=False, separators=(",", ":"))
        with self._transaction() as conn:
            conn.execute("INSERT INTO commands(game_id, seq, json, at) VALUES (?,?,?,?)", (game_id, seq, text, now))
            if (
                seq > 0
                and conn.execute("SELECT 1 FROM commands WHERE game_id=? AND seq=?", (game_id, seq - 1)).fetchone()
                is None
            ):
                raise sqlite3.IntegrityError(f"command {seq} of game {game_id} does not follow the journal")
            conn.execute(
                "UPDATE games SET last_at=?, progress=COALESCE(?, progress) WHERE id=?",
                (now, None if progress is None else json.dumps(progress), game_id),
            )
            if status is not None:
                self._set_status(conn, game_id, status, result, now)
        self._acknowledge(game_id, seq, text)

    def set_status(self, game_id: int, status: str, result: list[dict[str, object]] | None = None) -> None:
        with self._transaction() as conn:
            self._set_status(conn, game_id, status, result, self.clock())

    @staticmethod
    def _set_status(
        conn: sqlite3.Connection, game_id: int, status: str, result: list[dict[str, object]] | None, now: float
    ) -> None:
        done = status in DONE
        conn.execute(
            "UPDATE games SET status=?, result=?, finished_at=? WHERE id=?",
            (status, None if result is None else json.dumps(result), now if done else None, game_id),
        )
        conn.execute("DELETE FROM scores WHERE game_id=?", (game_id,))
        if status == FINISHED and result:
            day = local_day(now)
            conn.executemany(
                "INSERT INTO scores(game_id, colour, place, score, day) VALUES (?,?,?,?,?)",
                [(game_id, str(r["colour"]), int(r["place"]), int(r["score"]), day) for r in result],  # type: ignore[call-overload]
            )

    def commands(self, game_id: int) -> list[dict[str, Any]]:
        """The game's commands in order; ``JournalCorrupt`` if one is missing or damaged."""
        with self._reading(f"the commands of game {game_id}") as conn:
            rows = conn.execute("SELECT seq, json FROM commands WHERE game_id=? ORDER BY seq", (game_id,)).fetchall()
        out: list[dict[str, Any]] = []
        for expected, (seq, raw) in enumerate(rows):
            if seq != expected:
                raise JournalCorrupt(f"game {game_id}: command {expected} is missing from {self.path}")
            try:
                data = json.loads(_text(raw))
            except (ValueError, TypeError) as exc:
                raise JournalCorrupt(f"game {game_id}: command {seq} in {self.path} is damaged ({exc})") from exc
            if not isinstance(data, dict):
                raise JournalCorrupt(f"game {game_id}: command {seq} in {self.path} is damaged (not an object)")
            out.append(data)
        return out

    def readable_commands(self, game_id: int) -> tuple[list[dict[str, Any]], str | None]:
        """The game's commands up to the first that is missing or damaged, and what stopped the reading
        (None: every command read). What a broken game still has (``companion export``)."""
        try:
            return self.commands(game_id), None
        except JournalCorrupt as exc:
            problem = str(exc)
        out: list[dict[str, Any]] = []
        try:
            for raw in self._raw_commands({game_id}).get(game_id, []):
                data = json.loads(raw.decode("utf-8"))
                if not isinstance(data, dict):
                    break
                out.append(data)
        except (JournalError, ValueError):
            pass
        return out, problem

    def game(self, game_id: int) -> GameRecord | None:
        rows = self._games("WHERE g.id=?", (game_id,))
        return rows[0] if rows else None

    def games(self, statuses: Sequence[str] | None = None) -> list[GameRecord]:
        if statuses is None:
            return self._games("", ())
        marks = ",".join("?" * len(statuses))
        return self._games(f"WHERE g.status IN ({marks})", tuple(statuses))

    def unfinished(self) -> GameRecord | None:
        """The most recent game still being played (the one to offer for resume); None in safe mode."""
        if self.resume_held:
            return None
        rows = self.games([PLAYING])
        return rows[-1] if rows else None

    def _games(self, where: str, params: tuple[object, ...]) -> list[GameRecord]:
        sql = (
            "SELECT g.id, g.started_at, g.config, g.status, g.progress, g.result, g.finished_at, g.last_at, "
            "(SELECT COUNT(*) FROM commands c WHERE c.game_id = g.id) "
            f"FROM games g {where} ORDER BY g.id"
        )
        with self._reading("the list of games") as conn:
            rows = conn.execute(sql, params).fetchall()
        return [_record(row) for row in rows]

    def clear(self, *, keep_playing: bool = True) -> int:
        """The admin's "clear records": delete finished, ended, abandoned and broken games.

        The game being played is kept unless ``keep_playing`` is False. Returns how many were deleted.
        """
        with self._transaction() as conn:
            if keep_playing:
                cur = conn.execute("DELETE FROM games WHERE status != ?", (PLAYING,))
            else:
                cur = conn.execute("DELETE FROM games")
            deleted = cur.rowcount
            kept = {row[0] for row in conn.execute("SELECT id FROM games").fetchall()}
        if self.acks is not None:  # the cleared games' acknowledgements (and losses) go with them
            records = self.acks.read()
            records.acked = {k: v for k, v in records.acked.items() if k[0] == self._journal_id and k[1] in kept}
            records.losses = {k: v for k, v in records.losses.items() if k[0] == self._journal_id and k[1] in kept}
            self.acks.rewrite(records)
            self.losses = [x for x in self.losses if x.journal_id == self._journal_id and x.game_id in kept]
        with contextlib.suppress(sqlite3.Error, UnicodeDecodeError):  # else the space is reclaimed later
            self.conn.execute("VACUUM")
        return deleted

    def leaderboard(self, day: str | None = None, limit: int = 5, game: str | None = None) -> list[ScoreEntry]:
        """Best scores of one day (default: today, by the store's clock), best first; of one ``game``
        (its registry name) or, with None, of every game (scores of different games rarely compare).
        Damaged rows are skipped."""
        day = local_day(self.clock()) if day is None else day
        with self._reading("the leaderboard") as conn:
            rows = conn.execute(
                "SELECT s.game_id, s.colour, s.place, s.score FROM scores s JOIN games g ON g.id = s.game_id "
                "WHERE s.day=? AND (? IS NULL OR g.game=?) ORDER BY s.score DESC, s.place, s.game_id LIMIT ?",
                (day, game, game, limit),
            ).fetchall()
        out = []
        for game_id, colour, place, score in rows:
            try:
                out.append(ScoreEntry(_integer(game_id), _text(colour), _integer(place), _integer(score)))
            except (ValueError, TypeError) as exc:
                log.warning("a damaged leaderboard row of game %r is skipped: %s", game_id, exc)
        return out


# -- reading rows: bytes in, checked values out ------------------------------------------------------

DAMAGED_GAME = "(damaged record)"  # the placeholder set-up's game: resume refuses it (unknown game)


def _strict_text(raw: bytes) -> str:
    """The connection's text_factory outside ``_reading``: invalid UTF-8 is a damaged journal, not a crash."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise JournalCorrupt(f"damaged text in the journal ({exc})") from exc


def _text(value: object) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8")  # UnicodeDecodeError is a ValueError
    if isinstance(value, str):
        return value
    raise TypeError(f"expected text, found {type(value).__name__}")


def _integer(value: object) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise TypeError(f"expected an integer, found {type(value).__name__}")


def _number(value: object) -> float:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    raise TypeError(f"expected a number, found {type(value).__name__}")


def _timestamp(value: object) -> float:
    """A wall-clock time; a flipped byte in a REAL can make it absurd (and ``localtime`` then fails)."""
    t = _number(value)
    if not 0.0 <= t < 2.0**33:  # 1970 .. 2242
        raise ValueError(f"time {t!r} out of range")
    return t


def _record(row: tuple[Any, ...]) -> GameRecord:
    """One ``games`` row; a damaged column is replaced by a harmless value and named in ``damage``."""
    gid, started, config, status, progress, result, finished_at, last_at, count = row
    damage: list[str] = []

    def check(name: str, read: Callable[[], Any], fallback: Any) -> Any:
        try:
            return read()
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            damage.append(f"{name}: {exc}")
            return fallback

    setup = check("config", lambda: GameSetup.from_json(_json_object(config)), GameSetup(DAMAGED_GAME, ()))
    state = check("status", lambda: _status(status), BROKEN)
    rec = GameRecord(
        id=_integer(gid),  # the primary key: SQLite guarantees an integer
        started_at=check("started_at", lambda: _timestamp(started), 0.0),
        setup=setup,
        status=state,
        commands=_integer(count),
        progress=check("progress", lambda: _json_object(progress or b"{}"), {}),
        result=check("result", lambda: None if result is None else _result(result), None),
        finished_at=check("finished_at", lambda: None if finished_at is None else _timestamp(finished_at), None),
        last_at=check("last_at", lambda: None if last_at is None else _timestamp(last_at), None),
        damage="; ".join(damage) or None,
    )
    if rec.damage:
        log.error("game %s in the journal is damaged: %s", rec.id, rec.damage)
    return rec


def _json_object(raw: object) -> dict[str, Any]:
    data = json.loads(_text(raw))
    if not isinstance(data, dict):
        raise TypeError("not a JSON object")
    return data


def _status(raw: object) -> str:
    status = _text(raw)
    if status not in STATUSES:
        raise ValueError(f"unknown status {status!r}")
    return status


def _result(raw: object) -> list[dict[str, Any]]:
    data = json.loads(_text(raw))
    if not isinstance(data, list) or not all(
        isinstance(r, dict) and {"place", "colour", "score"} <= r.keys() for r in data
    ):
        raise TypeError("not a list of placings")
    return data


# -- opening: what a file is, and what may be done to it ------------------------------------------------

_BUSY = {5: "it is locked by another program", 6: "it is locked by another connection"}
_UNAVAILABLE = {
    3: "permission denied",
    7: "out of memory",
    8: "the file or its folder is read-only",
    10: "an I/O error (failing storage?)",
    13: "the disk is full",
    14: "the file cannot be opened (its folder must be writable for the -wal/-shm files)",
    23: "permission denied",
}
_DAMAGE = {11: "the database image is malformed", 26: "it is not a database"}


class _Damaged(JournalCorrupt):
    """Damage found while opening; ``ours`` if the file was recognised as a companion journal."""

    def __init__(self, reason: str, ours: bool) -> None:
        super().__init__(reason)
        self.ours = ours


def _describe(exc: sqlite3.Error) -> str:
    code = getattr(exc, "sqlite_errorcode", None)
    primary = None if code is None else code & 0xFF
    known = _BUSY.get(primary or -1) or _UNAVAILABLE.get(primary or -1) or _DAMAGE.get(primary or -1)
    return f"{known} ({exc})" if known else str(exc)


def _classify(exc: sqlite3.Error, path: Path, doing: str) -> JournalError:
    """A SQLite error as one of ours. Unknown errors are 'unavailable': only known damage may move a file."""
    code = getattr(exc, "sqlite_errorcode", None)
    primary = None if code is None else code & 0xFF
    message = f"the game journal {path}: cannot read {doing}: {_describe(exc)}"
    if primary in _BUSY:
        return JournalBusy(message)
    if primary in _DAMAGE:
        return JournalCorrupt(message)
    return JournalUnavailable(message)


def _ensure_directory(directory: Path) -> None:
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise JournalUnavailable(
            f"the state directory {directory} cannot be created ({exc.strerror or exc}); "
            "make it writable for this user, or choose another place with --journal FILE or $COMPANION_STATE_DIR"
        ) from exc
    if not os.access(directory, os.W_OK | os.X_OK):
        why = "is not writable for this user"
        with contextlib.suppress(OSError):
            if os.statvfs(directory).f_flag & os.ST_RDONLY:
                why = "is on a read-only filesystem (an overlay root? see docs/pi-install.md)"
        raise JournalUnavailable(
            f"the state directory {directory} {why}; the journal needs it writable "
            "(and its -wal/-shm files): fix it, or use --journal FILE or $COMPANION_STATE_DIR"
        )


def _header(path: Path) -> bytes | None:
    """The first 100 bytes, or None if there is no file. Raises JournalUnavailable if it cannot be read."""
    try:
        if path.is_dir():
            raise JournalUnavailable(f"{path} is a directory, not a journal file")
        if path.exists() and not path.is_file():  # a FIFO or a device: opening it could block or worse
            raise JournalUnavailable(f"{path} is not a regular file, not a journal; it was left as it is")
        with path.open("rb") as f:
            return f.read(100)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise JournalUnavailable(f"the game journal {path} cannot be read ({exc.strerror or exc})") from exc


def _never_written(path: Path) -> bool:
    """No sign that the journal at ``path`` ever held a command: its -wal and its acknowledgement log
    (``journal/acks.py``) are missing or empty. Then an empty main file lost nothing."""
    for suffix in ("-wal", ACKS_SUFFIX):
        try:
            if path.with_name(path.name + suffix).stat().st_size > 0:
                return False
        except FileNotFoundError:
            continue
        except OSError:
            return False
    return True


def _connect(path: Path, *, read_only: bool, timeout: float) -> sqlite3.Connection:
    """Open and check ``path``; write only once the file is known to be an intact journal of ours.

    Raises ``_Damaged`` (the caller decides whether to move it aside), ``NotAJournal``,
    ``JournalUnavailable`` / ``JournalBusy`` / ``JournalMissing``.
    """
    memory = str(path) == ":memory:"
    header = None if memory else _header(path)
    named_ours = path.name == JOURNAL_NAME
    if header is None and read_only:
        raise JournalMissing(f"there is no game journal at {path}")
    if header == b"" and named_ours and not read_only and _never_written(path):
        # A first start cut off (power, kill) between creating the file and SQLite's first write:
        # no -wal and no acknowledgement log, so nothing was ever acknowledged. It becomes the new
        # journal (found by benchmarks/crash.py: a kill at the first start was reported as damage).
        log.info("the game journal %s is empty and was never written: a first start was cut off", path)
        header = None
    if header is not None:
        if len(header) == 0:
            raise _Damaged("it is empty (0 bytes): truncated?", ours=named_ours)
        if not header.startswith(SQLITE_MAGIC) or len(header) < 100:
            raise _Damaged("it is not an SQLite database", ours=False)
    ours = header is not None and int.from_bytes(header[68:72], "big") == APPLICATION_ID
    if header is not None and not read_only and not os.access(path, os.R_OK | os.W_OK):
        raise JournalUnavailable(
            f"the game journal {path} is read-only for this user; it was left as it is: "
            "fix its owner or permissions (the kiosk runs as the companion user)"
        )

    if memory:
        target, uri = ":memory:", False
    else:
        mode = "ro" if read_only else ("rw" if header is not None else "rwc")
        if read_only and not path.with_name(path.name + "-wal").exists():
            # No -wal: no writer has it open and everything is in the main file. ``immutable`` makes
            # SQLite read it without creating -wal/-shm (so a read-only medium works too).
            mode += "&immutable=1"
        target, uri = f"file:{urllib.parse.quote(str(path.absolute()))}?mode={mode}", True
    try:
        conn = sqlite3.connect(target, uri=uri, isolation_level=None, timeout=timeout, check_same_thread=True)
    except sqlite3.Error as exc:
        raise _at_open(exc, path, ours) from exc
    conn.text_factory = _strict_text
    try:
        conn.execute(f"PRAGMA busy_timeout={int(timeout * 1000)}")
        # 1. Read only: is it ours, is it intact?
        app_id, version = _read_identity(conn)
        if app_id not in (0, APPLICATION_ID):
            raise NotAJournal(f"{path} belongs to another program (SQLite application_id {app_id:#x}); left as it is")
        tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        ours = ours or app_id == APPLICATION_ID or _has_our_schema(conn, tables) or _partly_ours(conn, tables)
        if not ours and tables - {"sqlite_sequence"}:
            raise NotAJournal(
                f"{path} is an SQLite database of another program (tables: {', '.join(sorted(tables)[:5])}); "
                "left as it is"
            )
        problems = [row[0] for row in conn.execute("PRAGMA integrity_check").fetchall()]
        if problems != ["ok"]:
            raise _Damaged("integrity check: " + "; ".join(problems[:3]), ours=ours or named_ours)
        if version > SCHEMA_VERSION:
            raise JournalUnavailable(
                f"the game journal {path} was written by a newer companion (schema {version}, this one reads "
                f"{SCHEMA_VERSION}); it was left as it is: update the companion"
            )
        if read_only:
            if not tables:
                raise _Damaged("it holds no journal tables", ours=named_ours)
            _check_schema(conn)
            return conn
        # 2. Writes: the journal's settings, then the schema and identity only where they are missing.
        mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if str(mode).lower() not in ("wal", "memory"):
            raise JournalUnavailable(f"the game journal {path} cannot switch to WAL (journal_mode is {mode})")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA foreign_keys=ON")
        if not {"meta", "games", "commands", "scores"} <= tables or version != SCHEMA_VERSION or app_id == 0:
            # One transaction: a power cut (or a kill) while creating leaves no journal or a whole
            # one, never a half schema without the application id (found by benchmarks/power_cut.py).
            conn.executescript(
                f"BEGIN IMMEDIATE;\n{_SCHEMA}\nPRAGMA user_version={SCHEMA_VERSION};\n"
                f"PRAGMA application_id={APPLICATION_ID};\nCOMMIT;"
            )
        _check_schema(conn)
    except sqlite3.Error as exc:
        conn.close()
        raise _at_open(exc, path, ours or named_ours) from exc
    except (JournalCorrupt, UnicodeDecodeError) as exc:
        # Damaged text met while checking: a table name, or SQLite's own error message quoting a
        # damaged schema ("malformed database schema ..."), which Python decodes as UTF-8.
        conn.close()
        if isinstance(exc, _Damaged):
            raise
        raise _Damaged(str(exc), ours=ours or named_ours) from exc
    except BaseException:
        conn.close()
        raise
    return conn


def _read_identity(conn: sqlite3.Connection) -> tuple[int, int]:
    app_id = int(conn.execute("PRAGMA application_id").fetchone()[0])
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    return app_id, version


def _at_open(exc: sqlite3.Error, path: Path, ours: bool) -> JournalError:
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None and code & 0xFF in _DAMAGE:
        return _Damaged(_describe(exc), ours=ours)
    found = _classify(exc, path, "it")
    return type(found)(f"the game journal {path} cannot be opened: {_describe(exc)}; it was left as it is")


# Every column the store reads or writes: a flipped byte in the schema text can rename one without
# the integrity check noticing (found by benchmarks/bad_journals.py: "no column named last_at").
_WANTED = {
    "games": {
        "id",
        "started_at",
        "game",
        "players",
        "config",
        "status",
        "progress",
        "result",
        "finished_at",
        "last_at",
    },
    "commands": {"game_id", "seq", "json", "at"},
    "scores": {"game_id", "colour", "place", "score", "day"},
}


def _has_our_schema(conn: sqlite3.Connection, tables: set[str]) -> bool:
    if not set(_WANTED) <= tables:
        return False
    return all(columns <= _columns(conn, table) for table, columns in _WANTED.items())


def _partly_ours(conn: sqlite3.Connection, tables: set[str]) -> bool:
    """Only our tables, each with our columns: a journal whose creation was cut short by an older
    companion (which created its tables one by one). It holds nothing of anyone else's."""
    ours = tables - {"sqlite_sequence"}
    if not ours or not ours <= {"meta", *_WANTED}:
        return False
    return all(_WANTED[t] <= _columns(conn, t) for t in ours if t in _WANTED)


def _columns(conn: sqlite3.Connection, table: str) -> set[str]:
    return {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}


def _check_schema(conn: sqlite3.Connection) -> None:
    for table, columns in _WANTED.items():
        have = _columns(conn, table)
        if not columns <= have:
            raise _Damaged(f"table {table} lacks {', '.join(sorted(columns - have))}", ours=True)


def _move_aside(path: Path, reason: str, now: float) -> CorruptionReport:
    stamp = datetime.fromtimestamp(now).strftime("%Y%m%dT%H%M%S")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
    try:
        path.rename(target)
    except FileNotFoundError:
        return CorruptionReport(path, None, reason)
    except OSError as exc:
        return CorruptionReport(path, None, f"{reason}; moving it failed: {exc}")
    for suffix in ("-wal", "-shm", ACKS_SUFFIX):
        side = path.with_name(path.name + suffix)
        if side.exists():
            try:
                side.rename(target.with_name(target.name + suffix))  # the acknowledgements go with their journal
            except OSError:
                if suffix != ACKS_SUFFIX:
                    side.unlink(missing_ok=True)  # never apply an old WAL to the fresh file
    return CorruptionReport(path, target, reason)
