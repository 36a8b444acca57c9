"""A crash loop never leaves the box dead: the start counter, safe mode, and a journal that cannot be used."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.journal import PLAYING, JournalStore
from companion.kiosk import Screen
from companion.kiosk.app import StartGuard, StartRecord, safe_mode_notice
from tests.kiosk.conftest import Box


def test_the_start_guard_counts_failed_starts_until_one_succeeds(tmp_path: Path) -> None:
    for expected in range(4):
        guard = StartGuard(tmp_path, threshold=3)
        assert guard.begin() == StartRecord(expected, None if expected == 0 else "boom")
        assert guard.safe_mode == (expected >= 3)
        guard.failed("boom")  # or killed: the count was already written by begin()
    assert (tmp_path / StartGuard.FILE).stat().st_mode & 0o777 == 0o600
    guard = StartGuard(tmp_path, threshold=3)
    guard.begin()
    guard.succeeded()
    assert StartGuard(tmp_path).begin() == StartRecord(0, None)


def test_a_killed_start_counts_and_a_damaged_counter_starts_from_zero(tmp_path: Path) -> None:
    StartGuard(tmp_path).begin()  # killed before succeeded(): no failed() call at all
    assert StartGuard(tmp_path).begin().failures == 1
    (tmp_path / StartGuard.FILE).write_bytes(b"\xff\x00 not json")
    assert StartGuard(tmp_path).begin() == StartRecord(0, None)


def test_an_unwritable_state_directory_never_stops_the_guard(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    guard = StartGuard(blocker / "state")
    assert guard.begin() == StartRecord(0, None) and not guard.safe_mode
    guard.failed("x")
    guard.succeeded()


def test_safe_mode_holds_the_resume_offer_and_says_why(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    first = Box(path)
    first.new_game(2, [0, 0])
    first.scan("B01")
    first.close()
    normal = Box(path)
    assert normal.screen is Screen.RESUME_OFFER  # without safe mode the game is offered
    normal.close()
    store = JournalStore.open(path)
    store.hold_resume(safe_mode_notice(StartRecord(3, "RuntimeError: boom")))
    safe = Box.__new__(Box)
    safe.__dict__.update(vars(Box(path)))  # a Box whose kiosk we rebuild on the held store
    safe.kiosk.close()
    from companion.kiosk import Kiosk
    from tests.kiosk.conftest import SETTINGS, TAGS

    safe.store = store
    safe.kiosk = Kiosk(store, TAGS, now=safe.now, settings=SETTINGS, wall_time=lambda t: "14:02")
    assert safe.screen is Screen.ATTRACT
    assert "SAFE MODE" in safe.view.notice and "boom" in safe.view.notice
    safe.new_game(2, [0, 0])
    assert safe.screen is Screen.PLAYING
    assert [r.status for r in store.games()] == [PLAYING, PLAYING]  # the old game is kept, still playing
    safe.close()


@pytest.mark.allow_error_logs
def test_a_journal_in_an_unwritable_place_still_lets_players_play(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    store = JournalStore.open_or_temporary(blocker / "state" / "journal.sqlite")
    from companion.kiosk import Kiosk
    from tests.kiosk.conftest import SETTINGS, TAGS

    kiosk = Kiosk(store, TAGS, now=0.0, settings=SETTINGS)
    assert kiosk.screen is Screen.ATTRACT and "NOT being saved" in kiosk.view.notice
    assert "state directory" in kiosk.view.notice
    kiosk.close()


@pytest.mark.allow_error_logs
def test_a_flipped_byte_in_the_unfinished_game_does_not_crash_the_kiosk(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    first = Box(path)
    first.new_game(2, [0, 0])
    first.scan("B01")
    first.close()
    data = path.read_bytes()
    at = data.index(b'"card":"B01"')
    path.write_bytes(data[: at + 8] + b"\xff" + data[at + 9 :])
    box = Box(path)
    assert box.screen is Screen.RESUME_OFFER
    box.press("ok")  # resume: the record no longer reads
    assert box.screen is Screen.SETUP_PLAYERS and "cannot be resumed" in box.view.notice
    assert [r.status for r in box.store.games()] == ["broken"]  # kept, marked
    box.close()
    again = Box(path)  # the next start offers nothing: no crash loop
    assert again.screen is Screen.ATTRACT
    again.close()


# -- the real process under a fake systemd ---------------------------------------------------------------


@pytest.fixture
def notify_socket(tmp_path: Path) -> Iterator[tuple[socket.socket, str]]:
    path = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(20.0)
    yield sock, path
    sock.close()


def start_kiosk(journal: Path, socket_path: str, **extra: str) -> subprocess.Popen[str]:
    env = {**os.environ, "NOTIFY_SOCKET": socket_path, "WATCHDOG_USEC": "200000", "COMPANION_ADMIN_PIN": "135790"}
    env.pop("WATCHDOG_PID", None)
    env.pop("COMPANION_HARDWARE_FILE", None)
    env.update(extra)
    return subprocess.Popen(
        [sys.executable, "-m", "companion", "kiosk", "--headless", "--journal", str(journal)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def running(sock: socket.socket) -> None:
    """READY=1, then two watchdog pings: the loop has stepped (and rendered) at least once."""
    assert sock.recv(4096).startswith(b"READY=1")
    assert sock.recv(4096) == b"WATCHDOG=1"
    assert sock.recv(4096) == b"WATCHDOG=1"


def stop(proc: subprocess.Popen[str]) -> tuple[int, str]:
    proc.send_signal(signal.SIGTERM)
    try:
        _, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return proc.returncode, err


def test_repeated_failed_starts_end_in_safe_mode_not_a_dead_box(
    tmp_path: Path, notify_socket: tuple[socket.socket, str]
) -> None:
    """A broken hardware file makes every start fail (exit 2) — systemd would give up after StartLimitBurst.
    The 4th start runs in safe mode: screen only, the error shown, no resume offer, new games allowed."""
    sock, socket_path = notify_socket
    journal = tmp_path / "state" / "journal.sqlite"
    box = Box(journal)
    box.new_game(2, [0, 0])
    box.scan("B01")
    box.close()
    broken = tmp_path / "hardware.toml"
    broken.write_text("this is [not toml\n")
    env = {"COMPANION_HARDWARE_FILE": str(broken)}
    for _ in range(3):
        proc = start_kiosk(journal, socket_path, **env)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 2, err
        assert "Traceback" not in err
    counter = json.loads((journal.parent / StartGuard.FILE).read_text())
    assert counter["failures"] == 3 and "hardware" in counter["last_error"]
    proc = start_kiosk(journal, socket_path, **env)
    running(sock)  # it runs
    status, err = stop(proc)
    assert status == 0, err
    assert "SAFE MODE" in err and "screen attract" in err and "resume_offer" not in err
    assert "hardware did not start" in err
    assert json.loads((journal.parent / StartGuard.FILE).read_text())["failures"] == 0  # a clean stop
    with JournalStore.open(journal, read_only=True) as store:
        assert [(r.status, r.commands) for r in store.games()] == [(PLAYING, 1)]  # the game is kept
    sock.settimeout(0.3)
    with contextlib.suppress(TimeoutError):
        while True:
            sock.recv(4096)  # what the stopped kiosk sent last
    sock.settimeout(20.0)
    proc = start_kiosk(journal, socket_path)  # the hardware is fixed: the game is offered again
    running(sock)
    status, err = stop(proc)
    assert status == 0 and "screen resume_offer" in err and "SAFE MODE" not in err
