"""The systemd unit: what the issue asks of it, readable without systemd; scored when systemd-analyze exists."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

UNITS = Path(__file__).parent.parent.parent / "systemd"


def settings(path: Path) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            out.setdefault(key.strip(), []).append(value.strip())
    return out


def test_the_kiosk_unit_has_what_the_issue_asks() -> None:
    unit = settings(UNITS / "companion.service")
    assert unit["Type"] == ["notify"] and unit["NotifyAccess"] == ["main"]
    assert int(unit["WatchdogSec"][0]) > 0 and unit["Restart"] == ["on-failure"]
    assert unit["StateDirectory"] == ["companion"] and unit["User"] == ["companion"]
    assert set(unit["SupplementaryGroups"][0].split()) == {"gpio", "spi", "dialout", "video", "render", "input"}
    assert unit["KillSignal"] == ["SIGTERM"]
    assert "SDL_VIDEODRIVER=kmsdrm" in unit["Environment"][0]
    assert "ListenStream" not in unit  # no network listener
    assert unit["ExecStart"][0].endswith("companion kiosk")


def test_every_relaxed_option_says_why() -> None:
    for name in ("companion.service", "companion-cage.service"):
        lines = (UNITS / name).read_text(encoding="utf-8").splitlines()
        relaxed: tuple[str, ...] = (
            "PrivateUsers=no",
            "PrivateDevices=no",
            "RestrictAddressFamilies=",
            "IPAddressAllow=",
        )
        relaxed += ("ProcSubset=all",) if name == "companion.service" else ("NotifyAccess=all",)
        for option in relaxed:
            i = next(n for n, line in enumerate(lines) if line.startswith(option))
            j = i - 1
            while j >= 0 and not lines[j].startswith("#"):  # a comment above the block it belongs to
                assert lines[j] and "=" in lines[j], f"{name}: {option} needs a comment saying why"
                j -= 1
            assert j >= 0 and i - j <= 3, f"{name}: {option} needs a comment saying why"


@pytest.mark.parametrize("name", ["companion.service", "companion-cage.service"])
def test_the_serial_devices_of_a_real_pi_are_allowed(name: str) -> None:
    """GPIO UART (/dev/serial0 → ttyS0 or ttyAMA0), USB CDC (ttyACM*, the reader bridge), USB serial."""
    unit = settings(UNITS / name)
    allowed = {entry.split()[0] for entry in unit["DeviceAllow"]}
    assert {"/dev/serial0", "/dev/ttyS0", "char-ttyAMA", "char-ttyACM", "char-ttyUSB"} <= allowed
    assert "char-ttyS" not in allowed  # major 4 is every virtual console too
    assert all(entry.endswith(" rw") for entry in unit["DeviceAllow"])
    assert unit["DevicePolicy"] == ["closed"]
    # char-* groups are resolved from /proc/devices at start: the USB serial drivers load first.
    assert "systemd-modules-load.service" in " ".join(unit["After"])
    modules = (UNITS / "companion-modules.conf").read_text(encoding="utf-8").split()
    assert "cdc_acm" in modules and "usbserial" in modules


@pytest.mark.parametrize("name", ["companion.service", "companion-cage.service"])
def test_the_network_is_reachable_for_clients_but_not_wide_open(name: str) -> None:
    """socket:// serial URLs and the MQTT leaderboard need IP; hot-plugged input needs the host's udev events."""
    unit = settings(UNITS / name)
    assert "PrivateNetwork" not in unit or unit["PrivateNetwork"] == ["no"]
    families = set(unit["RestrictAddressFamilies"][0].split())
    assert families == {"AF_UNIX", "AF_NETLINK", "AF_INET", "AF_INET6"}  # no AF_PACKET, no raw sockets
    assert unit["IPAddressDeny"] == ["any"]
    allow = unit["IPAddressAllow"][0].split()
    assert "localhost" in allow and "192.168.0.0/16" in allow and "0.0.0.0/0" not in allow and "any" not in allow


@pytest.mark.parametrize("name", ["companion.service", "companion-cage.service"])
def test_hot_plugged_keyboards_and_touchscreens_are_seen(name: str) -> None:
    unit = settings(UNITS / name)
    assert "char-input rw" in unit["DeviceAllow"]  # every /dev/input/event*, present at start or not
    assert "AF_NETLINK" in unit["RestrictAddressFamilies"][0]  # libudev's monitor
    assert "input" in unit["SupplementaryGroups"][0].split()


def test_the_crash_loop_limit_is_above_the_safe_mode_threshold() -> None:
    from companion.kiosk.app import StartGuard

    unit = settings(UNITS / "companion.service")
    assert int(unit["StartLimitBurst"][0]) > StartGuard(Path("/nonexistent")).threshold + 1
    assert unit["Restart"] == ["on-failure"]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
@pytest.mark.parametrize("name", ["companion.service", "companion-cage.service"])
def test_security_exposure_is_ok(name: str) -> None:
    proc = subprocess.run(
        ["systemd-analyze", "security", "--offline=true", str(UNITS / name)],
        capture_output=True,
        text=True,
        check=False,
    )
    found = re.search(rf"Overall exposure level for {re.escape(name)}: ([0-9.]+)", proc.stdout + proc.stderr)
    if found is None:
        pytest.skip(f"this systemd-analyze cannot score offline: {proc.stderr.strip()[:200]}")
    assert float(found.group(1)) <= 2.0
