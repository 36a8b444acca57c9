"""The durable outbox: one row per topic, pending until acknowledged, survives a kill and a bad file."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.leaderboard.outbox import LIVE, RESULT, Outbox


def test_a_topic_holds_only_its_newest_message(tmp_path: Path) -> None:
    with Outbox.open(tmp_path / "outbox.sqlite") as box:
        assert box.put("t/A/live", b"1", LIVE, 1.0)
        assert box.put("t/A/live", b"2", LIVE, 2.0)
        assert box.put("t/results/A/1", b"r", RESULT, 3.0)
        assert [(p.topic, p.payload, p.version) for p in box.pending()] == [("t/A/live", b"2", 2),
                                                                            ("t/results/A/1", b"r", 1)]  # fmt: skip


def test_the_same_message_again_is_not_sent_again(tmp_path: Path) -> None:
    with Outbox.open(tmp_path / "outbox.sqlite") as box:
        box.put("t/results/A/1", b"r", RESULT, 1.0)
        box.delivered("t/results/A/1", 1, 2.0)
        assert not box.put("t/results/A/1", b"r", RESULT, 3.0)  # the kiosk publishing its journal again at start
        assert box.pending() == []


def test_an_old_acknowledgement_does_not_deliver_a_newer_version(tmp_path: Path) -> None:
    with Outbox.open(tmp_path / "outbox.sqlite") as box:
        box.put("t/A/live", b"1", LIVE, 1.0)
        box.put("t/A/live", b"2", LIVE, 2.0)
        box.delivered("t/A/live", 1, 3.0)
        assert [p.payload for p in box.pending()] == [b"2"]
        box.delivered("t/A/live", 2, 4.0)
        assert box.pending_count() == 0


def test_after_a_reconnection_recent_results_go_again_and_old_ones_are_pruned(tmp_path: Path) -> None:
    with Outbox.open(tmp_path / "outbox.sqlite") as box:
        for n, at in ((1, 100.0), (2, 5000.0)):
            box.put(f"t/results/A/{n}", b"r", RESULT, at)
            box.delivered(f"t/results/A/{n}", 1, at)
        assert box.send_again(since=1000.0) == 1
        assert [p.topic for p in box.pending()] == ["t/results/A/2"]
        assert box.prune(before=1000.0) == 1


def test_sessions_and_sequence_numbers_survive_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "outbox.sqlite"
    with Outbox.open(path) as box:
        session = box.session()
        assert [box.next_seq() for _ in range(3)] == [1, 2, 3]
    with Outbox.open(path) as box:
        assert box.session() == session and box.next_seq() == 4


def test_a_corrupt_file_is_moved_aside_and_a_new_one_started(tmp_path: Path) -> None:
    path = tmp_path / "outbox.sqlite"
    path.write_bytes(b"this is not a database" * 100)
    with Outbox.open(path, now=0.0) as box:
        assert box.moved_aside is not None and box.moved_aside.read_bytes().startswith(b"this is not")
        assert box.put("t/A/live", b"1", LIVE, 1.0)


WRITER = """
import sys
from companion.leaderboard.outbox import Outbox, RESULT
box = Outbox.open(sys.argv[1])
n = 0
while True:
    box.put(f"t/results/A/{n}", b"r" * 200, RESULT, float(n))
    print(n, flush=True)  # only after put returned: this one must survive
    n += 1
"""


@pytest.mark.parametrize("run", range(3))
def test_every_message_put_survives_a_kill(tmp_path: Path, run: int) -> None:
    path = tmp_path / "outbox.sqlite"
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE, text=True,
                            cwd=Path(__file__).resolve().parents[2])  # fmt: skip
    assert proc.stdout is not None
    acknowledged = -1
    deadline = time.monotonic() + 0.3 + 0.2 * run
    while time.monotonic() < deadline or acknowledged < 5:
        acknowledged = int(proc.stdout.readline())
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    with Outbox.open(path) as box:
        topics = {p.topic for p in box.pending()}
    assert {f"t/results/A/{n}" for n in range(acknowledged + 1)} <= topics
