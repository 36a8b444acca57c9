"""Nothing lost: the game journal (SQLite, WAL, synchronous FULL), resume after power loss, export.

The wiring layer (the kiosk, the simulator, the Pi main loop) uses it like this::

    store = JournalStore.open_or_temporary(default_journal_path())  # never fails: see store.report
    record = store.unfinished()                            # offer it for resume, or None
    game = JournaledGame.resume(store, record) if record else JournaledGame.start(store, setup)
    controller = games.get(setup.game).table(game, tags, leds=leds)   # each push commits first
    ...
    store.close()                                          # on SIGTERM too; safe twice
"""

from __future__ import annotations

from companion.games.setup import GameSetup
from companion.journal.paths import default_journal_path, default_state_dir
from companion.journal.session import JournaledGame, JournalRefused, ResumeError, export_lines, standings
from companion.journal.store import (
    ABANDONED,
    APPLICATION_ID,
    BROKEN,
    ENDED,
    FINISHED,
    PLAYING,
    CorruptionReport,
    GameRecord,
    JournalBusy,
    JournalCorrupt,
    JournalError,
    JournalMissing,
    JournalNotice,
    JournalStore,
    JournalUnavailable,
    JournalWriteError,
    NotAJournal,
    ScoreEntry,
)

__all__ = [
    "ABANDONED",
    "APPLICATION_ID",
    "BROKEN",
    "ENDED",
    "FINISHED",
    "PLAYING",
    "CorruptionReport",
    "GameRecord",
    "GameSetup",
    "JournalBusy",
    "JournalCorrupt",
    "JournalError",
    "JournalMissing",
    "JournalNotice",
    "JournalRefused",
    "JournalStore",
    "JournalUnavailable",
    "JournalWriteError",
    "JournaledGame",
    "NotAJournal",
    "ResumeError",
    "ScoreEntry",
    "default_journal_path",
    "default_state_dir",
    "export_lines",
    "standings",
]
