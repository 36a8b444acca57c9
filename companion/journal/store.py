"""The journal: one SQLite file holding every game's set-up and every accepted command.

Durability: WAL with ``synchronous=FULL`` and one transaction per command, so a command that
``append`` returned from survives a power cut; a torn last write is rolled back by SQLite at the
next open. At open the file is checked (``PRAGMA integrity_check``); a corrupt or unreadable file is
moved aside as ``journal.sqlite.corrupt-<timestamp>`` (with its -wal/-shm), reported in
``JournalStore.report`` and logged as an error — never silently deleted — and a fresh journal starts.

Schema (version 1)::

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
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from companion.games.setup import GameSetup

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1
PLAYING, FINISHED, ENDED, ABANDONED, BROKEN = "playing", "finished", "ended", "abandoned", "broken"
DONE = (FINISHED, ENDED)  # kept and listed until an admin clears them

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
    """The file is not a readable journal (raised inside ``open``, which moves the file aside)."""


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
    """The journal file. ``JournalStore.open(path)`` never fails on a bad file: see ``report``.

    A context manager; ``close()`` is safe twice.
    """

    def __init__(self, conn: sqlite3.Connection, path: Path, clock: Callable[[], float]) -> None:
        self._conn: sqlite3.Connection | None = conn
        self.path = path
        self.clock = clock
        self.report: CorruptionReport | None = None

    # -- opening ---------------------------------------------------------------------------
    @classmethod
    def open(cls, path: Path | str, *, clock: Callable[[], float] = time.time) -> JournalStore:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            return cls(_connect(path), path, clock)
        except (sqlite3.DatabaseError, JournalCorrupt) as exc:
            report = _move_aside(path, f"{type(exc).__name__}: {exc}", clock())
            log.error("%s", report)
            store = cls._fresh(path, clock)
            store.report = report
            return store

    @classmethod
    def _fresh(cls, path: Path, clock: Callable[[], float]) -> JournalStore:
        """A new journal where the bad one was; failing that, beside it; failing that, in memory.

        A bad journal must never stop a new game from starting (the memory fallback is logged: its
        games do not survive a restart).
        """
        for candidate in (path, path.with_name(f"{path.stem}-{int(clock())}{path.suffix}")):
            try:
                return cls(_connect(candidate), candidate, clock)
            except (sqlite3.Error, JournalCorrupt, OSError) as exc:
                log.error("cannot start a journal at %s: %s", candidate, exc)
        log.error("the game journal is kept in memory only: games will not survive a restart")
        return cls(_connect(Path(":memory:")), path, clock)

    def close(self) -> None:
        if self._conn is not None:
            conn, self._conn = self._conn, None
            with contextlib.suppress(sqlite3.Error):  # else the WAL stays and is replayed at the next open
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            conn.close()

    def __enter__(self) -> JournalStore:
        return self

    def __exit__(self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    @property
    def conn(self) -> sqlite3.Connection:
        if self._conn is None:
            raise JournalError("the journal is closed")
        return self._conn

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        conn = self.conn
        try:
            conn.execute("BEGIN IMMEDIATE")
            yield conn
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise JournalWriteError(f"the game journal {self.path} could not be written: {exc}") from exc

    # -- games -----------------------------------------------------------------------------
    def create_game(self, setup: GameSetup) -> int:
        now = self.clock()
        with self._transaction() as conn:
            cur = conn.execute(
                "INSERT INTO games(started_at, game, players, config, status, last_at) VALUES (?,?,?,?,?,?)",
                (now, setup.game, json.dumps(list(setup.players)), json.dumps(setup.to_json()), PLAYING, now),
            )
            assert cur.lastrowid is not None
            return cur.lastrowid

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
        with self._transaction() as conn:
            conn.execute(
                "INSERT INTO commands(game_id, seq, json, at) VALUES (?,?,?,?)",
                (game_id, seq, json.dumps(command, ensure_ascii=False, separators=(",", ":")), now),
            )
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
        rows = self.conn.execute("SELECT seq, json FROM commands WHERE game_id=? ORDER BY seq", (game_id,)).fetchall()
        for expected, (seq, _) in enumerate(rows):
            if seq != expected:
                raise JournalCorrupt(f"game {game_id}: command {expected} is missing")
        return [json.loads(text) for _, text in rows]

    def game(self, game_id: int) -> GameRecord | None:
        rows = self._games("WHERE g.id=?", (game_id,))
        return rows[0] if rows else None

    def games(self, statuses: Sequence[str] | None = None) -> list[GameRecord]:
        if statuses is None:
            return self._games("", ())
        marks = ",".join("?" * len(statuses))
        return self._games(f"WHERE g.status IN ({marks})", tuple(statuses))

    def unfinished(self) -> GameRecord | None:
        """The most recent game still being played (the one to offer for resume)."""
        rows = self.games([PLAYING])
        return rows[-1] if rows else None

    def _games(self, where: str, params: tuple[object, ...]) -> list[GameRecord]:
        sql = (
            "SELECT g.id, g.started_at, g.config, g.status, g.progress, g.result, g.finished_at, g.last_at, "
            "(SELECT COUNT(*) FROM commands c WHERE c.game_id = g.id) "
            f"FROM games g {where} ORDER BY g.id"
        )
        out = []
        for gid, started, config, status, progress, result, finished_at, last_at, count in self.conn.execute(
            sql, params
        ):
            out.append(
                GameRecord(
                    id=gid,
                    started_at=started,
                    setup=GameSetup.from_json(json.loads(config)),
                    status=status,
                    commands=count,
                    progress=json.loads(progress or "{}"),
                    result=None if result is None else json.loads(result),
                    finished_at=finished_at,
                    last_at=last_at,
                )
            )
        return out

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
        with contextlib.suppress(sqlite3.Error):  # else the space is reclaimed later
            self.conn.execute("VACUUM")
        return deleted

    def leaderboard(self, day: str | None = None, limit: int = 5, game: str | None = None) -> list[ScoreEntry]:
        """Best scores of one day (default: today, by the store's clock), best first; of one ``game``
        (its registry name) or, with None, of every game (scores of different games rarely compare)."""
        day = local_day(self.clock()) if day is None else day
        rows = self.conn.execute(
            "SELECT s.game_id, s.colour, s.place, s.score FROM scores s JOIN games g ON g.id = s.game_id "
            "WHERE s.day=? AND (? IS NULL OR g.game=?) ORDER BY s.score DESC, s.place, s.game_id LIMIT ?",
            (day, game, game, limit),
        ).fetchall()
        return [ScoreEntry(*row) for row in rows]


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None, timeout=5.0, check_same_thread=True)
    try:
        conn.execute("PRAGMA busy_timeout=5000")
        mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if str(mode).lower() not in ("wal", "memory"):
            raise JournalCorrupt(f"cannot switch to WAL (journal_mode is {mode})")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA foreign_keys=ON")
        problems = [row[0] for row in conn.execute("PRAGMA integrity_check").fetchall()]
        if problems != ["ok"]:
            raise JournalCorrupt("integrity check: " + "; ".join(problems[:3]))
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version not in (0, SCHEMA_VERSION):
            raise JournalCorrupt(f"schema version {version}, this companion reads {SCHEMA_VERSION}")
        conn.executescript(_SCHEMA)
        conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        _check_schema(conn)
    except BaseException:
        conn.close()
        raise
    return conn


def _check_schema(conn: sqlite3.Connection) -> None:
    wanted = {
        "games": {"id", "started_at", "game", "players", "config", "status", "progress", "result"},
        "commands": {"game_id", "seq", "json", "at"},
        "scores": {"game_id", "colour", "place", "score", "day"},
    }
    for table, columns in wanted.items():
        have = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
        if not columns <= have:
            raise JournalCorrupt(f"table {table} lacks {', '.join(sorted(columns - have))}")


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
    for suffix in ("-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        if side.exists():
            try:
                side.rename(target.with_name(target.name + suffix))
            except OSError:
                side.unlink(missing_ok=True)  # never apply an old WAL to the fresh file
    return CorruptionReport(path, target, reason)
