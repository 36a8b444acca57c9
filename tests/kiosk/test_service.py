"""The service side: sd_notify over a real AF_UNIX socket, the watchdog, the loop, SIGTERM, the display check."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.games.on_the_way.table.controller import TableController
from companion.intents import ButtonName, ButtonPressed, CardScanned
from companion.journal import JournalStore
from companion.kiosk import KioskView, Screen
from companion.kiosk.app import KioskLoop
from companion.kiosk.display_env import check_video_driver, kiosk_environment
from companion.kiosk.notify import SystemdNotifier, Watchdog
from companion.ledframe import LedFrame
from companion.table.tags import AdminTag, CardTag
from tests.kiosk.conftest import TAGS, Box


@pytest.fixture
def notify_socket(tmp_path: Path) -> Iterator[tuple[socket.socket, str]]:
    path = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(5.0)
    yield sock, path
    sock.close()


def test_ready_status_watchdog_stopping_reach_the_socket(notify_socket: tuple[socket.socket, str]) -> None:
    sock, path = notify_socket
    with SystemdNotifier({"NOTIFY_SOCKET": path}) as notifier:
        assert notifier.enabled
        assert notifier.ready("kiosk running")
        assert sock.recv(4096) == b"READY=1\nSTATUS=kiosk running"
        assert notifier.watchdog()
        assert sock.recv(4096) == b"WATCHDOG=1"
        assert notifier.stopping()
        assert sock.recv(4096) == b"STOPPING=1"


def test_abstract_namespace_socket() -> None:
    name = f"companion-test-{os.getpid()}-{time.monotonic_ns()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    sock.settimeout(5.0)
    try:
        notifier = SystemdNotifier({"NOTIFY_SOCKET": "@" + name})
        assert notifier.ready()
        assert sock.recv(4096) == b"READY=1"
        notifier.close()
        notifier.close()
    finally:
        sock.close()


def test_a_receiver_that_does_not_read_never_blocks_the_loop(notify_socket: tuple[socket.socket, str]) -> None:
    _, path = notify_socket
    notifier = SystemdNotifier({"NOTIFY_SOCKET": path})
    sent = [notifier.watchdog() for _ in range(500)]  # far beyond the datagram queue
    assert sent[0] and not sent[-1]
    notifier.close()


def test_without_systemd_notify_is_a_no_op(tmp_path: Path) -> None:
    assert not SystemdNotifier({}).ready()
    gone = SystemdNotifier({"NOTIFY_SOCKET": str(tmp_path / "missing")})
    assert not gone.watchdog() and not gone.watchdog()  # warns once, never raises


def test_watchdog_kicks_at_half_the_interval(notify_socket: tuple[socket.socket, str]) -> None:
    sock, path = notify_socket
    notifier = SystemdNotifier({"NOTIFY_SOCKET": path})
    dog = Watchdog(notifier, {"WATCHDOG_USEC": "10000000", "WATCHDOG_PID": str(os.getpid())})
    assert dog.interval == 10.0 and dog.period == 5.0
    assert dog.kick(100.0)
    assert not dog.kick(104.9)
    assert dog.kick(105.0)
    assert dog.next_deadline() == 110.0
    assert [sock.recv(64), sock.recv(64)] == [b"WATCHDOG=1", b"WATCHDOG=1"]
    assert Watchdog(notifier, {"WATCHDOG_USEC": "1000", "WATCHDOG_PID": "1"}).interval is None  # not for us
    assert not Watchdog(notifier, {}).kick(0.0)
    notifier.close()


class ScriptedFrontend:
    """A headless screen whose 'touch and keyboard' deliver a script of intents, one per poll."""

    closed = False

    def __init__(self, script: list[object]) -> None:
        self.script = list(script)
        self.views: list[KioskView] = []

    def render(self, view: KioskView, controller: TableController | None) -> None:
        self.views.append(view)

    def poll(self) -> list[object]:
        return [self.script.pop(0)] if self.script else []


class RecordingLeds:
    def __init__(self) -> None:
        self.frames: list[LedFrame] = []
        self.offs = 0

    def show(self, frame: LedFrame, now: float) -> None:
        self.frames.append(frame)

    def off(self) -> None:
        self.offs += 1


def test_the_loop_plays_and_leaves_only_through_the_admin_menu(
    tmp_path: Path, notify_socket: tuple[socket.socket, str]
) -> None:
    sock, path = notify_socket
    box = Box(tmp_path / "journal.sqlite")
    leds = RecordingLeds()
    box.kiosk.leds = leds
    ok, minus = (ButtonPressed(ButtonName(b)) for b in ("ok", "minus"))
    admin = TAGS.uid_of(AdminTag())
    card = TAGS.uid_of(CardTag("B01"))
    assert admin and card
    script = [ok, ok, ok, ok, ok, ok, CardScanned(card), CardScanned(admin), minus, ok, ok]
    frontend = ScriptedFrontend(script)
    notifier = SystemdNotifier({"NOTIFY_SOCKET": path})
    clock = iter(range(1000, 100000))
    loop = KioskLoop(
        box.kiosk,
        frontend,  # type: ignore[arg-type]
        leds=leds,
        notifier=notifier,
        watchdog=Watchdog(notifier, {"WATCHDOG_USEC": "20000000"}),  # a kick every 5 steps of the fake clock
        clock=lambda: float(next(clock)),
    )
    assert loop.run() == 0
    screens = [v.screen for v in frontend.views]
    assert Screen.PLAYING in screens and Screen.ADMIN_CONFIRM in screens
    assert box.kiosk.exit_requested and leds.offs == 1
    received = []
    sock.settimeout(0.5)
    try:
        while True:
            received.append(sock.recv(4096))
    except TimeoutError:
        pass
    assert received[0] == b"READY=1\nSTATUS=kiosk running"
    assert b"WATCHDOG=1" in received and received[-1] == b"STOPPING=1"
    with JournalStore.open(tmp_path / "journal.sqlite") as store:  # the loop closed the kiosk's journal
        assert [c["card"] for c in store.commands(store.games()[0].id)] == ["B01"]
    loop.shutdown()  # safe twice


def test_sigterm_stops_the_service_cleanly(tmp_path: Path, notify_socket: tuple[socket.socket, str]) -> None:
    """``companion kiosk --headless`` as systemd runs it: READY=1, watchdog pings, SIGTERM → LEDs off."""
    sock, path = notify_socket
    env = {**os.environ, "NOTIFY_SOCKET": path, "WATCHDOG_USEC": "200000", "COMPANION_ADMIN_PIN": "1357"}
    env.pop("WATCHDOG_PID", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "kiosk", "--headless", "--journal", str(tmp_path / "j.sqlite")],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        sock.settimeout(60.0)  # a cold start (Python, pygame, the engines) on a loaded 2-core machine
        assert sock.recv(4096).startswith(b"READY=1")
        sock.settimeout(5.0)
        assert sock.recv(4096) == b"WATCHDOG=1"
        assert sock.recv(4096) == b"WATCHDOG=1"  # the loop keeps kicking
        proc.send_signal(signal.SIGINT)  # Ctrl+C from a keyboard on the console: ignored under systemd
        assert sock.recv(4096) == b"WATCHDOG=1"
        assert proc.poll() is None
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    assert "LEDs off" in err and "journal closed" in err
    messages = []
    sock.settimeout(0.2)
    try:
        while True:
            messages.append(sock.recv(4096))
    except TimeoutError:
        pass
    assert messages[-1] == b"STOPPING=1"


def test_kiosk_environment_prefers_explicit_then_cage_then_kmsdrm() -> None:
    assert kiosk_environment({})["SDL_VIDEODRIVER"] == "kmsdrm"
    assert kiosk_environment({"WAYLAND_DISPLAY": "wayland-0"})["SDL_VIDEODRIVER"] == "wayland"
    assert kiosk_environment({"SDL_VIDEODRIVER": "dummy", "WAYLAND_DISPLAY": "w"})["SDL_VIDEODRIVER"] == "dummy"
    assert kiosk_environment({})["SDL_VIDEO_ALLOW_SCREENSAVER"] == "0"


@pytest.mark.allow_error_logs
def test_missing_kmsdrm_is_reported_with_the_cage_alternative() -> None:
    def no_kmsdrm(driver: str) -> str:
        raise RuntimeError("kmsdrm not available")

    check = check_video_driver("kmsdrm", probe=no_kmsdrm)
    assert not check.ok and "kmsdrm" in check.message and "cage" in check.message
    fallback = check_video_driver("kmsdrm", probe=lambda d: "offscreen")
    assert not fallback.ok and "cage" in fallback.message


def test_the_headless_driver_opens() -> None:
    assert check_video_driver("dummy").ok
