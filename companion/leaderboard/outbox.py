"""The publisher's durable outbox: a SQLite file of its own, one row per topic.

Every message is retained, so only the newest payload of a topic matters: putting a message replaces
the topic's row (a table's live state coalesces; each result has its own topic). A row is pending
until the broker acknowledged (PUBACK) its newest version. Durability as in the journal: WAL,
``synchronous=FULL``, one transaction per change, so a message that ``put`` returned from survives a
power cut. A corrupt file is moved aside (``outbox.sqlite.corrupt-<time>``) and a fresh one started:
the journal still holds every result, and the kiosk publishes them again at start.

Delivered results are kept (``keep`` seconds, a day by default) to be published again after every
reconnection: a broker restarted without persistence has forgotten its retained messages, and a board
started later must still find them. The board dedupes by result id, so this costs no duplicates.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import sqlite3
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from types import TracebackType

log = logging.getLogger(__name__)

RESULT, LIVE, ONLINE = "result", "live", "online"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS outbox(
    topic TEXT PRIMARY KEY,
    payload BLOB NOT NULL,
    kind TEXT NOT NULL,
    version INTEGER NOT NULL,
    queued_at REAL NOT NULL,
    delivered_version INTEGER,
    delivered_at REAL
) WITHOUT ROWID;
"""


@dataclass(frozen=True, slots=True)
class Pending:
    topic: str
    payload: bytes
    kind: str
    version: int


class Outbox:
    """``Outbox.open(path)``; used by one thread (the publisher's). A context manager; ``close()`` is safe twice."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self._conn: sqlite3.Connection | None = conn
        self.path = path
        self.moved_aside: Path | None = None

    @classmethod
    def open(cls, path: Path | str, *, now: float = 0.0) -> Outbox:
        path = Path(path)
        if str(path) != ":memory:":
            path.parent.mkdir(parents=True, exist_ok=True)
        try:
            return cls(_connect(path), path)
        except sqlite3.DatabaseError as exc:
            moved = _move_aside(path, now)
            log.warning(
                "the leaderboard outbox %s was unreadable (%s); moved to %s, a new one started", path, exc, moved
            )
            box = cls(_connect(path), path)
            box.moved_aside = moved
            return box

    def close(self) -> None:
        if self._conn is not None:
            conn, self._conn = self._conn, None
            with contextlib.suppress(sqlite3.Error):
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            conn.close()

    def __enter__(self) -> Outbox:
        return self

    def __exit__(self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    @property
    def conn(self) -> sqlite3.Connection:
        if self._conn is None:
            raise sqlite3.ProgrammingError("the leaderboard outbox is closed")
        return self._conn

    # -- identity and counters ---------------------------------------------------------------
    def session(self) -> str:
        """A random id of this outbox file: the board orders live states by (session, seq)."""
        row = self.conn.execute("SELECT value FROM meta WHERE key='session'").fetchone()
        if row:
            return str(row[0])
        value = secrets.token_hex(6)
        with self.conn:
            self.conn.execute("INSERT INTO meta(key, value) VALUES ('session', ?)", (value,))
        return value

    def next_seq(self) -> int:
        with self.conn:
            self.conn.execute(
                "INSERT INTO meta(key, value) VALUES ('seq', '1') "
                "ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1"
            )
            row = self.conn.execute("SELECT value FROM meta WHERE key='seq'").fetchone()
        return int(row[0])

    # -- messages ------------------------------------------------------------------------------
    def put(self, topic: str, payload: bytes, kind: str, now: float) -> bool:
        """Queue ``payload`` as the newest message of ``topic``. False if it is exactly what the topic
        already holds (nothing to send again: publishing a result twice is a no-op)."""
        with self.conn:
            row = self.conn.execute("SELECT payload FROM outbox WHERE topic=?", (topic,)).fetchone()
            if row is not None and bytes(row[0]) == payload:
                return False
            self.conn.execute(
                "INSERT INTO outbox(topic, payload, kind, version, queued_at) VALUES (?,?,?,1,?) "
                "ON CONFLICT(topic) DO UPDATE SET payload=excluded.payload, kind=excluded.kind, "
                "version=version+1, queued_at=excluded.queued_at",
                (topic, payload, kind, now),
            )
        return True

    def pending(self) -> list[Pending]:
        """What the broker has not acknowledged yet, oldest first (results before live states of the
        same moment: a result must never wait behind a table's chatter)."""
        rows = self.conn.execute(
            "SELECT topic, payload, kind, version FROM outbox "
            "WHERE delivered_version IS NULL OR delivered_version < version "
            "ORDER BY queued_at, CASE kind WHEN 'result' THEN 0 ELSE 1 END, topic"
        ).fetchall()
        return [Pending(t, bytes(p), k, v) for t, p, k, v in rows]

    def pending_count(self) -> int:
        row = self.conn.execute(
            "SELECT COUNT(*) FROM outbox WHERE delivered_version IS NULL OR delivered_version < version"
        ).fetchone()
        return int(row[0])

    def delivered(self, topic: str, version: int, now: float) -> None:
        """The broker acknowledged ``version`` of ``topic`` (an older version's ack changes nothing)."""
        with self.conn:
            self.conn.execute(
                "UPDATE outbox SET delivered_version=?, delivered_at=? "
                "WHERE topic=? AND (delivered_version IS NULL OR delivered_version < ?) AND version >= ?",
                (version, now, topic, version, version),
            )

    def send_again(self, since: float) -> int:
        """Mark the results queued since ``since`` and the live states pending again (after a
        reconnection: the broker may have lost its retained messages). Returns how many."""
        with self.conn:
            cur = self.conn.execute(
                "UPDATE outbox SET delivered_version=NULL WHERE delivered_version IS NOT NULL "
                "AND (kind != 'result' OR queued_at >= ?)",
                (since,),
            )
        return cur.rowcount

    def prune(self, before: float) -> int:
        """Forget delivered results queued before ``before`` (the outbox stays small over a season)."""
        with self.conn:
            cur = self.conn.execute(
                "DELETE FROM outbox WHERE kind='result' AND queued_at < ? AND delivered_version = version", (before,)
            )
        return cur.rowcount


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None, timeout=5.0, check_same_thread=False)
    try:
        conn.execute("PRAGMA busy_timeout=5000")
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        problems = [row[0] for row in conn.execute("PRAGMA integrity_check").fetchall()]
        if problems != ["ok"]:
            raise sqlite3.DatabaseError("integrity check: " + "; ".join(problems[:3]))
        conn.executescript(_SCHEMA)
        # sqlite3's "with conn" commits/rolls back; with isolation_level=None it needs explicit BEGIN:
        conn.isolation_level = "IMMEDIATE"
    except BaseException:
        conn.close()
        raise
    return conn


def _move_aside(path: Path, now: float) -> Path | None:
    stamp = datetime.fromtimestamp(now).strftime("%Y%m%dT%H%M%S")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
    moved: Path | None = target
    try:
        path.rename(target)
    except OSError:
        path.unlink(missing_ok=True)
        moved = None
    for suffix in ("-wal", "-shm"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)  # never apply an old WAL to the fresh file
    return moved
