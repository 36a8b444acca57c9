"""Issue 20, part 4: a media fault in the journal never loses an acknowledged command silently.

The faults are made as an SD card makes them — a zeroed page, a flipped bit — in the files SQLite
left at a power cut (the store still open: the last commits only in the -wal file).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from companion.cli import main
from companion.games.setup import GameSetup
from companion.journal import JournalStore

WAL_HEADER, FRAME = 32, 24 + 4096  # sqlite.org/fileformat2.html#walformat, 4 KiB pages


def power_cut_copy(tmp_path: Path, games: int = 2, commands: int = 20) -> tuple[Path, dict[int, int]]:
    live = tmp_path / "live" / "journal.sqlite"
    live.parent.mkdir()
    store = JournalStore.open(live)
    counts = {}
    for _ in range(games):
        game = store.create_game(GameSetup("on-the-way", ("red", "blue")))
        for seq in range(commands):
            store.append(game, seq, {"player": "red", "action": "move", "n": seq, "pad": "x" * 500})
        counts[game] = commands
    cut = tmp_path / "cut"
    cut.mkdir()
    for suffix in ("", "-wal", "-acks"):
        shutil.copyfile(live.with_name(live.name + suffix), cut / f"journal.sqlite{suffix}")
    store.close()
    return cut / "journal.sqlite", counts


def zero_frame(wal: Path, frame: int) -> None:
    data = bytearray(wal.read_bytes())
    start = WAL_HEADER + frame * FRAME
    data[start : start + FRAME] = bytes(FRAME)
    wal.write_bytes(bytes(data))


@pytest.mark.allow_error_logs
def test_a_zeroed_wal_frame_is_reported_and_what_reads_is_exported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, counts = power_cut_copy(tmp_path)
    wal = path.with_name("journal.sqlite-wal")
    zero_frame(wal, (wal.stat().st_size - WAL_HEADER) // FRAME // 2)  # SQLite replays only the frames before
    with JournalStore.open(path, read_only=True) as store:
        present = {r.id: r.commands for r in store.games()}
        losses = {x.game_id: x for x in store.losses}
    assert sum(present.values()) < sum(counts.values())  # the fault did shorten the journal ...
    for game, acknowledged in counts.items():  # ... and every shortened or vanished game is reported
        if present.get(game, -1) < acknowledged:
            loss = losses[game]
            assert loss.acknowledged == acknowledged and loss.present == present.get(game, -1)
    assert main(["games", "--journal", str(path)]) == 0
    err = capsys.readouterr().err
    assert "lost acknowledged commands" in err and "media fault" in err
    shortened = next(g for g in counts if 0 < present.get(g, 0) < counts[g]) if any(
        0 < present.get(g, 0) < counts[g] for g in counts) else None  # fmt: skip
    if shortened is not None:
        out = tmp_path / "export.jsonl"
        assert main(["export", str(shortened), "--journal", str(path), "-o", str(out)]) == 0
        lines = out.read_text().splitlines()
        assert len(lines) == present[shortened] and json.loads(lines[0])["n"] == 0


@pytest.mark.allow_error_logs
def test_a_whole_game_that_vanished_is_reported_at_every_start(tmp_path: Path) -> None:
    path, _ = power_cut_copy(tmp_path, games=1, commands=5)
    zero_frame(path.with_name("journal.sqlite-wal"), 0)  # the first frame: nothing of the game replays
    for _ in range(2):  # reported again at the next start, not only once
        with JournalStore.open(path) as store:
            assert [(x.game_id, x.acknowledged, x.present) for x in store.losses] == [(1, 5, -1)]
            assert "the whole game is gone" in str(store.report)
    with JournalStore.open(path) as store:
        store.clear(keep_playing=False)  # the admin clears the records: the report goes with them
    with JournalStore.open(path) as store:
        assert store.losses == [] and store.report is None


def test_an_intact_journal_reports_nothing_across_restarts(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    for round_ in range(3):
        with JournalStore.open(path) as store:
            assert store.losses == [] and store.report is None
            game = store.create_game(GameSetup("on-the-way", ("red", "blue")))
            for seq in range(4):
                store.append(game, seq, {"n": seq, "round": round_})
    lines = path.with_name("journal.sqlite-acks").read_text().splitlines()
    assert len(lines) <= 3 + 3 * 5  # compacted at each open: one line per game, plus the last session's


def test_clearing_a_journal_that_is_not_there_creates_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "typo" / "journal.sqlite"
    assert main(["games", "clear", "--journal", str(path)]) == 1
    assert "nothing to clear" in capsys.readouterr().err
    assert main(["games", "clear", "--all", "--journal", str(tmp_path / "jounral.sqlite")]) == 1
    assert list(tmp_path.iterdir()) == []
