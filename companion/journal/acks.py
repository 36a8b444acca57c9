"""The acknowledgement log: what the journal promised, kept where a fault in the journal cannot take it.

SQLite replays its ``-wal`` file frame by frame and stops, without a word, at the first frame whose
checksum does not match: a flipped bit or a zeroed page in the WAL (an SD card's media fault) makes
every later commit vanish, and the journal reads as a consistent but shorter game — or no game at all.
To notice, the journal writes a second record of every command it acknowledges, in another file:

    journal.sqlite-acks      one line per acknowledged command (or new game), fsynced after the commit:
    A <journal id> <game id> <seq> <chain> <crc32>      seq -1: the game was created
    L <journal id> <game id> <acknowledged> <present> <crc32>      a loss found earlier (kept, reported)

``chain`` is a hash chain over the game's commands (SHA-256 of the previous link and the command's
JSON, 16 hex digits), so the log also notices a command that changed, not only one that vanished.
At every open, ``verify`` compares the last record of each game with the journal: fewer commands
than acknowledged, a game that is gone, or a chain that does not match is a ``Loss`` — reported,
never repaired (what still reads is kept and exported). A line whose CRC does not match (the log's
own media fault) is skipped and counted. The log is compacted (one record per game, written to a
temporary file and renamed) at each writable open and after ``clear``; docs/journal.md says what is
detected and what is not.
"""

from __future__ import annotations

import hashlib
import logging
import os
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from companion.journal.paths import write_atomically

log = logging.getLogger(__name__)

SUFFIX = "-acks"
MAX_BYTES = 64 * 1024 * 1024  # an event writes a few hundred kB; a larger file is not ours: not read


def link(previous: str, command_json: bytes) -> str:
    """The next link of a game's hash chain (the first command's previous link is "")."""
    return hashlib.sha256(previous.encode() + b"\n" + command_json).hexdigest()[:16]


def chain_of(commands: Iterable[bytes]) -> str:
    value = ""
    for command in commands:
        value = link(value, command)
    return value


@dataclass(frozen=True, slots=True)
class Acked:
    """The last acknowledged state of one game: ``count`` commands (0: just created), chain ``chain``."""

    journal_id: str
    game_id: int
    count: int
    chain: str


@dataclass(frozen=True, slots=True)
class Loss:
    """Acknowledged commands the journal no longer has (or no longer has as they were)."""

    journal_id: str
    game_id: int
    acknowledged: int  # commands the journal had acknowledged
    present: int  # commands it has now (-1: the game itself is gone)
    altered: bool = False  # as many commands, but not the ones acknowledged

    def __str__(self) -> str:
        if self.present < 0:
            what = f"the whole game is gone ({self.acknowledged} acknowledged commands)"
        elif self.altered:
            what = f"its {self.acknowledged} acknowledged commands do not read as they were written"
        else:
            what = f"{self.acknowledged - self.present} of its {self.acknowledged} acknowledged commands are gone"
        return f"game {self.game_id}: {what} — a media fault in the journal (its -wal file?)"


@dataclass
class AckRecords:
    """What the log holds: the last ``Acked`` per game and the losses recorded earlier."""

    acked: dict[tuple[str, int], Acked]
    losses: dict[tuple[str, int], Loss]
    damaged_lines: int = 0


def _line(fields: list[str]) -> str:
    text = " ".join(fields)
    return f"{text} {zlib.crc32(text.encode()):08x}\n"


def read(path: Path) -> AckRecords:
    records = AckRecords({}, {})
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except FileNotFoundError:
        return records
    except OSError as exc:
        log.error("the acknowledgement log %s cannot be read (%s): lost commands go unnoticed", path, exc)
        records.damaged_lines += 1
        return records
    for raw in data[:MAX_BYTES].split(b"\n"):
        if not raw:
            continue
        try:
            text, _, crc = raw.decode("ascii").rpartition(" ")
            if f"{zlib.crc32(text.encode()):08x}" != crc:
                raise ValueError("CRC")
            kind, journal_id, *rest = text.split(" ")
            key = (journal_id, int(rest[0]))
            if kind == "A" and len(rest) == 3:
                records.acked[key] = Acked(journal_id, key[1], int(rest[1]) + 1, rest[2])
            elif kind == "L" and len(rest) == 4:
                records.losses[key] = Loss(journal_id, key[1], int(rest[1]), int(rest[2]), rest[3] == "altered")
            else:
                raise ValueError(kind)
        except (ValueError, IndexError, UnicodeDecodeError):
            records.damaged_lines += 1
    return records


class AckLog:
    """The log beside the journal at ``journal_path``; every method but ``read`` writes and fsyncs."""

    def __init__(self, journal_path: Path) -> None:
        self.path = journal_path.with_name(journal_path.name + SUFFIX)
        self.failures = 0  # acknowledgements that could not be written (logged once)

    def read(self) -> AckRecords:
        return read(self.path)

    def acknowledge(self, journal_id: str, game_id: int, seq: int, chain: str) -> None:
        """After the journal's commit: command ``seq`` of the game (-1: the game was created)."""
        self._append(_line(["A", journal_id, str(game_id), str(seq), chain or "-"]))

    def _append(self, line: str) -> None:
        try:  # opened per line: a compaction (rename) by another process never strands our writes
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            try:
                os.write(fd, line.encode("ascii"))
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as exc:
            self.failures += 1
            if self.failures == 1:
                log.error("the acknowledgement log %s cannot be written (%s): a later loss may go unnoticed",
                          self.path, exc)  # fmt: skip

    def rewrite(self, records: AckRecords) -> None:
        """Replace the log by ``records`` (temporary file, fsync, rename): one line per game."""
        lines = [_line(["A", a.journal_id, str(a.game_id), str(a.count - 1), a.chain or "-"])
                 for a in records.acked.values()]  # fmt: skip
        lines += [_line(["L", x.journal_id, str(x.game_id), str(x.acknowledged), str(x.present),
                         "altered" if x.altered else "short"]) for x in records.losses.values()]  # fmt: skip
        try:
            write_atomically(self.path, "".join(lines))
        except OSError as exc:
            log.error("the acknowledgement log %s cannot be compacted (%s)", self.path, exc)


def verify(records: AckRecords, journal_id: str | None, games: dict[int, list[bytes]]) -> list[Loss]:
    """Every loss: the recorded ones, and each game whose journal (``games``: game id -> its commands'
    JSON as stored, in order) holds fewer commands than acknowledged or other ones. Records of another
    journal id are games of a journal that is no longer this one: all of them are losses."""
    found: dict[tuple[str, int], Loss] = dict(records.losses)
    for key, acked in records.acked.items():
        if key in found:
            continue
        commands = games.get(acked.game_id) if acked.journal_id == journal_id else None
        if commands is None:
            if acked.count > 0 or acked.journal_id == journal_id:
                found[key] = Loss(acked.journal_id, acked.game_id, acked.count, -1)
        elif len(commands) < acked.count:
            found[key] = Loss(acked.journal_id, acked.game_id, acked.count, len(commands))
        elif chain_of(commands[: acked.count]) != (acked.chain if acked.chain != "-" else ""):
            found[key] = Loss(acked.journal_id, acked.game_id, acked.count, len(commands), altered=True)
    return sorted(found.values(), key=lambda x: (x.journal_id != journal_id, x.journal_id, x.game_id))
