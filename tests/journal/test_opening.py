"""Opening a journal never hides or destroys a good game: what is moved aside, refused, or reported.

Each test names the file it starts from and checks the file afterwards (bytes, name, siblings).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.cli import main
from companion.games.on_the_way.engine import TakeContract
from companion.journal import (
    APPLICATION_ID,
    BROKEN,
    PLAYING,
    CorruptionReport,
    GameSetup,
    JournalBusy,
    JournalCorrupt,
    JournaledGame,
    JournalMissing,
    JournalStore,
    JournalUnavailable,
    JournalWriteError,
    NotAJournal,
    ResumeError,
)
from tests.journal.conftest import GOLDEN_SETUP, FakeClock, golden_commands

TWO = GameSetup("on-the-way", ("red", "blue"))
ROOT = os.geteuid() == 0 if hasattr(os, "geteuid") else False


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def siblings(path: Path) -> list[str]:
    return sorted(p.name for p in path.parent.iterdir())


def make_journal(path: Path, commands: int = 12, finished: bool = False) -> int:
    """A healthy journal with one game being played (and the golden game finished, if asked)."""
    with JournalStore.open(path, clock=FakeClock()) as store:
        if finished:
            golden = JournaledGame.start(store, GOLDEN_SETUP)
            for command in golden_commands():
                golden.push(command)
        game = JournaledGame.start(store, GOLDEN_SETUP)
        for command in golden_commands()[:commands]:
            game.push(command)
        return game.game_id


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "journal.sqlite"
    make_journal(path)
    yield path


# -- files that are not ours are never touched ------------------------------------------------------


@pytest.mark.parametrize("read_only", [True, False])
def test_an_ordinary_text_file_given_as_journal_is_refused_and_left_alone(tmp_path: Path, read_only: bool) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("shopping: milk, eggs\nthe game night is on friday\n" * 50)
    before = digest(notes)
    with pytest.raises(NotAJournal, match="not a companion game journal"):
        JournalStore.open(notes, read_only=read_only)
    assert digest(notes) == before and siblings(notes) == ["notes.txt"]


def test_companion_games_on_a_text_file_says_so_and_renames_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    assert main(["games", "--journal", str(notes)]) == 1
    assert "not a companion game journal" in capsys.readouterr().err
    assert main(["games", "clear", "--journal", str(notes)]) == 1  # the writable open refuses too
    assert "left as it is" in capsys.readouterr().err
    assert notes.read_text() == "my notes\n" and siblings(notes) == ["notes.txt"]


def test_another_programs_database_is_refused_even_under_our_name(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE recipes(name TEXT, steps TEXT)")
    conn.execute("INSERT INTO recipes VALUES ('bread', 'knead')")
    conn.commit()
    conn.close()
    before = digest(path)
    with pytest.raises(NotAJournal, match="another program"):
        JournalStore.open(path)
    assert digest(path) == before and siblings(path) == ["journal.sqlite"]


def test_a_database_with_another_application_id_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA application_id=1234")
    conn.execute("CREATE TABLE games(id INTEGER)")
    conn.commit()
    conn.close()
    with pytest.raises(NotAJournal, match="application_id"):
        JournalStore.open(path)


# -- our journals: the application id, and old journals without it --------------------------------------


def test_new_journals_carry_the_application_id_and_old_ones_are_recognised_by_their_schema(journal: Path) -> None:
    assert int.from_bytes(journal.read_bytes()[68:72], "big") == APPLICATION_ID
    conn = sqlite3.connect(journal)
    conn.execute("PRAGMA application_id=0")  # as a journal written before the id existed
    conn.commit()
    conn.close()
    renamed = journal.with_name("old-games.sqlite")  # not our file name: only the schema says it is ours
    journal.rename(renamed)
    with JournalStore.open(renamed) as store:
        assert store.report is None
        record = store.unfinished()
        assert record is not None and record.commands == 12
    assert int.from_bytes(renamed.read_bytes()[68:72], "big") == APPLICATION_ID


def test_a_journal_from_a_newer_companion_is_left_alone(journal: Path) -> None:
    conn = sqlite3.connect(journal)
    conn.execute("PRAGMA user_version=7")
    conn.commit()
    conn.close()
    before = digest(journal)
    with pytest.raises(JournalUnavailable, match="newer companion"):
        JournalStore.open(journal)
    assert digest(journal) == before and siblings(journal) == ["journal.sqlite", "journal.sqlite-acks"]


# -- locked, full, read-only: a clear error, and the game is there once the cause is gone ---------------


@pytest.mark.allow_error_logs
def test_a_locked_journal_waits_then_says_so_and_the_game_is_still_there(
    journal: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = sqlite3.connect(journal, isolation_level=None)
    other.execute("PRAGMA locking_mode=EXCLUSIVE")
    other.execute("BEGIN IMMEDIATE")
    other.execute("UPDATE games SET last_at=last_at")
    other.execute("COMMIT")  # the exclusive lock is kept until the connection closes
    try:
        with pytest.raises(JournalBusy, match="locked by another program"):
            JournalStore.open(journal, busy_timeout=0.2)
        with JournalStore.open_or_temporary(journal, busy_timeout=0.2) as store:  # the kiosk goes on
            assert store.temporary and "locked" in str(store.report)
    finally:
        other.close()
    assert siblings(journal)[0] == "journal.sqlite" and not any(".corrupt-" in n for n in siblings(journal))
    with JournalStore.open(journal) as store:
        record = store.unfinished()
        assert record is not None and record.status == PLAYING and record.commands == 12


@pytest.mark.allow_error_logs
def test_the_kiosk_waits_out_a_short_lock(journal: Path) -> None:
    other = sqlite3.connect(journal, isolation_level=None, check_same_thread=False)
    other.execute("PRAGMA locking_mode=EXCLUSIVE")
    other.execute("BEGIN IMMEDIATE")
    other.execute("UPDATE games SET last_at=last_at")
    other.execute("COMMIT")
    release = threading.Timer(0.5, other.close)  # `games clear` finishes its vacuum
    release.start()
    try:
        with JournalStore.open_or_temporary(journal, busy_timeout=0.3, busy_attempts=5) as store:
            assert not store.temporary and store.unfinished() is not None
    finally:
        release.join()


def test_a_fifo_or_a_directory_is_never_opened_as_a_journal(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(JournalUnavailable, match="not a regular file"):
        JournalStore.open(fifo, read_only=True)  # would block forever reading a header
    with pytest.raises(JournalUnavailable, match="directory"):
        JournalStore.open(tmp_path)


def test_companion_games_reads_without_writing_anything(journal: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before, mtime = digest(journal), journal.stat().st_mtime_ns
    assert main(["games", "--journal", str(journal)]) == 0
    assert "playing" in capsys.readouterr().out
    assert main(["export", "1", "--journal", str(journal)]) == 0
    assert digest(journal) == before and journal.stat().st_mtime_ns == mtime
    assert siblings(journal) == ["journal.sqlite", "journal.sqlite-acks"]  # no -wal/-shm left, nothing renamed


def test_read_only_commands_never_create_a_journal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "nothing-here" / "journal.sqlite"
    assert main(["games", "--journal", str(path)]) == 0
    assert "no recorded games" in capsys.readouterr().out
    assert main(["export", "3", "--journal", str(path)]) == 2
    assert "no game 3" in capsys.readouterr().err
    assert not path.parent.exists()
    with pytest.raises(JournalMissing):
        JournalStore.open(path, read_only=True)


def test_a_read_only_store_refuses_to_write(journal: Path) -> None:
    with JournalStore.open(journal, read_only=True) as store, pytest.raises(JournalWriteError, match="read-only"):
        store.create_game(TWO)


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    """A 1 MB tmpfs: a disk that can be filled, or remounted read-only (needs root)."""
    mount = tmp_path / "tiny"
    mount.mkdir()
    if not ROOT or shutil.which("mount") is None:
        pytest.skip("a full disk is simulated with a small tmpfs, which needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)], check=False)
    if done.returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], check=False)


@pytest.mark.allow_error_logs
def test_a_read_only_journal_gives_a_clear_error_and_stays(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Not root: the file is chmod 0444. Root ignores permissions: a read-only filesystem then (tmpfs, ro)."""
    if ROOT:
        mount = tmp_path / "ro"
        mount.mkdir()
        if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)], check=False).returncode:
            pytest.skip("cannot mount a tmpfs here")
        path = mount / "journal.sqlite"
    else:
        path = tmp_path / "journal.sqlite"
    try:
        make_journal(path)
        if ROOT:
            subprocess.run(["mount", "-o", "remount,ro", str(path.parent)], check=True)
        else:
            path.chmod(0o444)
        with pytest.raises(JournalUnavailable, match="read-only"):
            JournalStore.open(path)
        with JournalStore.open_or_temporary(path) as store:  # the kiosk: a memory journal, and why
            assert store.temporary and "read-only" in str(store.report)
        assert main(["games", "--journal", str(path)]) == 0  # reading still works
        assert "playing" in capsys.readouterr().out
        assert siblings(path) == ["journal.sqlite", "journal.sqlite-acks"]
        if ROOT:
            subprocess.run(["mount", "-o", "remount,rw", str(path.parent)], check=True)
        else:
            path.chmod(0o644)
        with JournalStore.open(path) as store:  # the cause is gone: the game is offered again
            assert store.report is None and store.unfinished() is not None
    finally:
        if ROOT:
            subprocess.run(["umount", str(path.parent)], check=False)


@pytest.mark.allow_error_logs
def test_a_full_disk_refuses_new_commands_clearly_and_keeps_the_game(tiny_disk: Path) -> None:
    path = tiny_disk / "journal.sqlite"
    game_id = make_journal(path, commands=30)
    filler = tiny_disk / "filler"
    with filler.open("wb", buffering=0) as f, pytest.raises(OSError):
        while True:
            f.write(b"\0" * 4096)
    with JournalStore.open_or_temporary(path) as store:
        if not store.temporary:  # the journal opened (reading needs no space): writing fails cleanly
            game = JournaledGame.resume(store, game_id)
            with pytest.raises(JournalWriteError, match="full"):
                store.append(game_id, len(game.log), {"action": "pass", "player": "red"})
        else:
            assert "full" in str(store.report)
    assert not any(".corrupt-" in n for n in siblings(path))
    filler.unlink()
    with JournalStore.open(path) as store:  # space again: the game is offered, nothing lost
        record = store.unfinished()
        assert record is not None and record.id == game_id and record.commands == 30
        JournaledGame.resume(store, record)


def test_an_unwritable_state_directory_is_a_clear_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    path = blocker / "state" / "journal.sqlite"
    with pytest.raises(JournalUnavailable, match="state directory"):
        JournalStore.open(path)
    assert main(["games", "--journal", str(path)]) == 1
    err = capsys.readouterr().err
    assert "cannot be read" in err and "Traceback" not in err
    assert main(["games", "clear", "--journal", str(path)]) == 1
    assert "nothing to clear" in capsys.readouterr().err and not (blocker / "state").exists()


# -- damaged journals of ours: reported, kept aside -------------------------------------------------------


@pytest.mark.allow_error_logs
def test_a_journal_truncated_to_zero_bytes_is_reported_not_silently_new(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "journal.sqlite"
    make_journal(path)
    path.write_bytes(b"")
    assert main(["games", "--journal", str(path)]) == 1  # read-only: reported, not moved
    assert "empty (0 bytes)" in capsys.readouterr().err and path.exists()
    with JournalStore.open(path) as store:
        assert store.report is not None and "empty (0 bytes)" in str(store.report)
        assert isinstance(store.report, CorruptionReport) and store.report.moved_to is not None
        assert store.report.moved_to.exists()
    other = tmp_path / "mine.db"
    other.write_bytes(b"")
    with pytest.raises(NotAJournal):  # an empty file that is not named like ours: not touched
        JournalStore.open(other)
    assert other.exists()


def flip_in_file(path: Path, needle: bytes, new: bytes) -> None:
    data = path.read_bytes()
    at = data.index(needle)
    path.write_bytes(data[:at] + new + data[at + len(needle) :])


@pytest.mark.allow_error_logs
def test_a_flipped_byte_in_a_command_breaks_that_game_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "journal.sqlite"
    game_id = make_journal(path, commands=12)
    first = golden_commands()[0]
    assert isinstance(first, TakeContract)
    card = first.card
    flip_in_file(path, f'"card":"{card}"'.encode(), f'"card":"\xff{card[1:]}"'.encode("latin-1"))
    assert main(["export", str(game_id), "--journal", str(path)]) == 1
    assert "damaged" in capsys.readouterr().err
    with JournalStore.open(path) as store:
        # The file is sound, only a row is damaged: the acknowledgement log notices that game 1's
        # commands no longer read as they were written, and says so.
        assert store.report is not None and "game 1: its 12 acknowledged commands" in str(store.report)
        with pytest.raises(JournalCorrupt, match="command 0"):
            store.commands(game_id)
        record = store.unfinished()
        assert record is not None
        with pytest.raises(ResumeError, match="cannot be resumed"):
            JournaledGame.resume(store, record)
        kept = store.game(game_id)
        assert kept is not None and kept.status == BROKEN and kept.commands == 12  # kept, marked
        assert store.unfinished() is None
        JournaledGame.start(store, TWO).push(TakeContract("red", "B01"))  # a new game goes on


@pytest.mark.allow_error_logs
def test_a_flipped_byte_in_a_games_row_is_listed_as_damaged(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "journal.sqlite"
    game_id = make_journal(path)
    flip_in_file(path, b'"players": ["red"', b'"players": ["r\xffd"')
    assert main(["games", "--journal", str(path)]) == 0
    assert "DAMAGED RECORD" in capsys.readouterr().out
    with JournalStore.open(path) as store:
        record = store.unfinished()
        assert record is not None and record.damage is not None and "config" in record.damage
        with pytest.raises(ResumeError):
            JournaledGame.resume(store, record)
        broken = store.game(game_id)
        assert broken is not None and broken.status == BROKEN


def test_export_into_a_missing_folder_is_a_clear_error(journal: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = journal.parent / "no-such-folder" / "game.jsonl"
    assert main(["export", "1", "--journal", str(journal), "-o", str(out)]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert not out.parent.exists()


@pytest.mark.allow_error_logs
def test_a_flipped_byte_in_the_schema_text_is_damage_not_a_box_that_cannot_start_games(tmp_path: Path) -> None:
    """Found by the campaign: a column renamed by a flipped byte passed the integrity check, then every new
    game failed with "no column named last_at"."""
    path = tmp_path / "journal.sqlite"
    make_journal(path)
    flip_in_file(path, b"last_at REAL", b"last_aX REAL")
    with JournalStore.open(path) as store:
        assert isinstance(store.report, CorruptionReport) and "last_at" in store.report.reason
        JournaledGame.start(store, TWO).push(TakeContract("red", "B01"))  # the box plays on
    assert store.report.moved_to is not None and b"last_aX" in store.report.moved_to.read_bytes()
