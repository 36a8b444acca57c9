"""The machine and its kiosk: which Pi, the settings as the unit sees them, the hardware file, the
clock, the systemd unit, the compiled modules (the bots' playout kernel)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator

from companion.doctor.box import ENV_FILE, UNITS, Box
from companion.doctor.result import Findings, Result, fail, na, ok, warn
from companion.hardware.config import load
from companion.hardware.errors import ConfigError
from companion.journal.paths import default_journal_path
from companion.native import COMPILED, PURE_ENV, ROOT, why_not_compiled

# No clock reads earlier than this on a box running this code: 1 Jan 2026, 00:00 UTC.
EARLIEST_SANE_TIME = 1767225600


def platform(box: Box, found: Findings) -> Iterator[Result]:
    found.pi = box.model()
    states = [box.unit_state(unit) for unit in UNITS]
    found.kiosk_running = any(state is not None and state[1] == "active" for state in states)
    if found.pi:
        yield ok("platform", found.pi)
    else:
        yield na("platform", "not a Raspberry Pi: the checks of the box's devices do not apply here")


def settings(box: Box, found: Findings) -> Iterator[Result]:
    if not box.installed:
        if found.pi:
            yield fail("settings", f"no {ENV_FILE}: the kiosk is not installed", "sudo ./install/companion_install.py")
        else:
            yield na("settings", f"no {ENV_FILE}: not installed as a kiosk here (the simulator needs none)")
        return
    if box.settings_error:
        yield fail("settings", box.settings_error, "run it as root: sudo companion doctor")
    else:
        yield ok("settings", f"{ENV_FILE} read (the kiosk's environment, as its unit sets it)")


def hardware_file(box: Box, found: Findings) -> Iterator[Result]:
    path = box.hardware_path()
    if path is None:
        if found.pi:
            yield warn(
                "hardware file",
                "none: the kiosk runs with the screen only (no readers, LEDs, buttons)",
                "set COMPANION_HARDWARE_FILE in kiosk.env (docs/hardware.md)",
            )
        else:
            yield na("hardware file", "none: the simulator emulates the table")
        return
    try:
        found.config = load(path, env=box.settings())
    except ConfigError as exc:
        found.config_error = True
        yield fail("hardware file", str(exc), "correct that line (docs/hardware.md)")
        return
    config = found.config
    card = " + card reader" if config.card_channel is not None else ""
    yield ok("hardware file", f"{path}: backend {config.backend}, {len(config.readers)} city readers{card}")


def clock(box: Box, found: Findings) -> Iterator[Result]:
    now = box.wall_clock()
    shown = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(now))
    if now < EARLIEST_SANE_TIME:
        yield fail(
            "clock",
            f"{shown} is before this software was written: the time was never set",
            "connect the box to a network once (network time), or: sudo date -s 'YYYY-MM-DD HH:MM'",
        )
        return
    state = (box.journal or default_journal_path(box.settings())).parent
    newest = 0.0
    with contextlib.suppress(OSError):
        newest = max((p.stat().st_mtime for p in state.iterdir()), default=0.0)
    if newest > now + 60:
        last = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(newest))
        yield fail(
            "clock",
            f"{shown} is before the journal's last write ({last}): the clock went back",
            "connect the box to a network (network time), or set the date: sudo date -s ...",
        )
        return
    synced = box.ask(["timedatectl", "show", "--property=NTPSynchronized", "--value"])
    if synced == "no" and found.pi:
        yield warn(
            "clock",
            f"{shown}, not synchronised with network time (the Pi has no battery clock)",
            "give the box a network once a day, or a real-time clock",
        )
    else:
        yield ok("clock", shown + (", synchronised" if synced == "yes" else ""))


def service(box: Box, found: Findings) -> Iterator[Result]:
    if not box.installed:
        yield na("service", "the kiosk's systemd unit is not installed here")
        return
    states = {unit: box.unit_state(unit) for unit in UNITS}
    if all(state is None for state in states.values()):
        yield na("service", "no systemd to ask (a container or chroot)")
        return
    enabled = [unit for unit, state in states.items() if state and state[0] == "enabled"]
    if not enabled:
        yield fail(
            "service",
            "companion.service is not enabled: the kiosk does not start at boot",
            "sudo systemctl enable --now companion",
        )
        return
    unit = enabled[0]
    state = states[unit]
    assert state is not None
    if state[1] == "failed":
        yield fail("service", f"{unit} failed", f"journalctl -u {unit} -n 50; sudo systemctl restart {unit}")
    elif state[1] in ("unknown", "offline", ""):
        yield ok("service", f"{unit} enabled (systemd is not running here: it starts at boot)")
    else:
        yield ok("service", f"{unit} enabled, {state[1]}")


def compiled_modules(box: Box, found: Findings) -> Iterator[Result]:
    """Do the compiled modules (the bots' playout kernel, setup.py) run in the kiosk's environment? Plain
    Python plays the same moves about half as fast: an advice takes ~0.6 s of a Pi 4 instead of ~0.3 s
    (docs/bots.md)."""
    for package, compiled in COMPILED.items():
        reason = why_not_compiled(package, box.compiled_root or ROOT, box.kiosk_environment())
        if reason is None:
            yield ok(compiled.what, "compiled (mypyc): the bots and the advice think at full speed")
            continue
        message = f"plain Python ({reason}): the same moves, the advice about half as fast"
        if not found.pi:
            yield ok(compiled.what, message)  # a laptop's simulator needs no speed: nothing to fix
        elif PURE_ENV in reason:
            yield warn(compiled.what, message, f"remove {PURE_ENV} from {ENV_FILE}")
        else:
            yield warn(
                compiled.what, message, "sudo ./install/companion_install.py (it compiles with gcc and python3-dev)"
            )
