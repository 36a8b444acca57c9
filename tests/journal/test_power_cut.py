"""Durability, not only atomicity: rebuild the files as a power cut leaves them (unsynced writes lost,
torn or reordered) from a strace of the real I/O, and check that nothing acknowledged is lost.

The harness is ``benchmarks/power_cut.py`` (run it directly for more cuts and the numbers).
"""

from __future__ import annotations

import importlib.util
import shutil
import sqlite3
import sys
from pathlib import Path
from types import ModuleType

import pytest

from companion.journal import APPLICATION_ID, JournalStore

HARNESS = Path(__file__).parent.parent.parent / "benchmarks" / "power_cut.py"


def load_harness() -> ModuleType:
    spec = importlib.util.spec_from_file_location("companion_power_cut", HARNESS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(shutil.which("strace") is None, reason="the power-cut simulation records I/O with strace")
def test_simulated_power_cuts_lose_no_acknowledged_command(tmp_path: Path) -> None:
    report = load_harness().run(cuts=100, seed=5, directory=tmp_path)
    print(report)
    assert report is not None and report.problems == [], report.problems[:3]
    assert report.cuts == 100 and report.syncs > 100  # the trace saw the fsyncs
    assert report.acked_at_cuts > 1000  # the cuts landed during play
    assert report.lost == 0 and report.corrupted == 0 and report.reports == 0


@pytest.mark.skipif(shutil.which("strace") is None, reason="the power-cut simulation records I/O with strace")
@pytest.mark.allow_error_logs
def test_without_fsync_the_same_simulation_loses_commands(tmp_path: Path) -> None:
    """The negative control: with synchronous=OFF acknowledged commands are lost — the check can fail.
    (The fsyncs left are the acknowledgement log's, which is why those losses are now reported.)"""
    report = load_harness().run(cuts=40, seed=5, directory=tmp_path, synchronous="OFF")
    assert report is not None and report.lost > 0 and report.reports > 0


def test_the_image_builder_really_drops_unsynced_writes() -> None:
    """The simulation can fail: a write without fsync may vanish; a synced one never does."""
    pc = load_harness()
    ops = [
        pc.Op("write", "journal.sqlite-wal", 0, b"synced"),
        pc.Op("sync", "journal.sqlite-wal"),
        pc.Op("write", "journal.sqlite-wal", 6, b"-volatile"),
    ]
    import random

    images = {pc.image_at(ops, 3, random.Random(seed))["journal.sqlite-wal"] for seed in range(40)}
    assert images >= {b"synced", b"synced-volatile"}
    assert all(image.startswith(b"synced") for image in images)


def test_a_journal_whose_creation_was_cut_short_by_an_older_version_is_still_ours(tmp_path: Path) -> None:
    """Older companions created the tables one by one: a cut could leave some, without the application id."""
    path = tmp_path / "games.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    conn.execute(
        "CREATE TABLE games(id INTEGER PRIMARY KEY AUTOINCREMENT, started_at REAL NOT NULL, game TEXT NOT NULL, "
        "players TEXT NOT NULL, config TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'playing', "
        "progress TEXT NOT NULL DEFAULT '{}', result TEXT, finished_at REAL, last_at REAL)"
    )
    conn.commit()
    conn.close()
    with JournalStore.open(path) as store:
        assert store.report is None and store.games() == []
    assert int.from_bytes(path.read_bytes()[68:72], "big") == APPLICATION_ID
