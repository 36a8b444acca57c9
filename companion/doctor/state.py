"""What the kiosk keeps: the journal (writable, owned by its user, free space) and the admin PIN."""

from __future__ import annotations

import os
from collections.abc import Iterator

from companion.doctor.box import ENV_FILE, SERVICE_USER, Box
from companion.doctor.result import Findings, Result, fail, na, ok, warn
from companion.journal.paths import default_journal_path
from companion.kiosk.admin import PIN_FILE, PUBLISHED_PINS, valid_pin

MIN_FREE_BYTES = 50 * 1024 * 1024  # below this the journal may fail mid-game: FAIL
LOW_FREE_BYTES = 200 * 1024 * 1024  # below this: warn


def journal(box: Box, found: Findings) -> Iterator[Result]:
    path = box.journal or default_journal_path(box.settings())
    folder = path.parent
    if not folder.is_dir():
        if box.installed:
            yield fail("journal", f"no folder {folder}", f"sudo install -d -m 0700 -o {SERVICE_USER} {folder}")
        else:
            yield na("journal", f"no {folder} yet: made at the first game")
        return
    scratch = folder / f".doctor-{os.getpid()}.tmp"
    try:
        fd = os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(fd, b"\0" * 4096)
            os.fsync(fd)
        finally:
            os.close(fd)
            scratch.unlink()
    except OSError as exc:
        yield fail(
            "journal", f"{folder} is not writable: {exc.strerror or exc}", f"sudo chown {SERVICE_USER}: {folder}"
        )
        return
    if path.exists() and not os.access(path, os.W_OK):
        yield fail("journal", f"{path} is read-only", f"sudo chown {SERVICE_USER}: {path}")
        return
    ids = box.user_ids(SERVICE_USER) if box.installed else None
    if ids is not None:
        for item in (folder, path):
            if item.exists() and item.stat().st_uid != ids[0]:
                yield fail(
                    "journal",
                    f"{item} is not owned by {SERVICE_USER}: the kiosk cannot write it",
                    f"sudo chown -R {SERVICE_USER}: {folder}",
                )
                return
    free = box.free_space(folder)
    size = f"{free / 1e9:.1f} GB free" if free >= 1e9 else f"{free / 1e6:.0f} MB free"
    if free < MIN_FREE_BYTES:
        yield fail("journal", f"{folder}: only {size}", "free space on that file system (sudo apt clean, old logs)")
    elif free < LOW_FREE_BYTES:
        yield warn("journal", f"{path} writable, but only {size}", "free some space")
    else:
        yield ok("journal", f"{path} writable, {size}")


def admin_pin(box: Box, found: Findings) -> Iterator[Result]:
    if not (box.installed or found.pi):
        yield na("admin pin", "guards the kiosk's admin menu: no kiosk installed here")
        return
    env_pin = box.settings().get("COMPANION_ADMIN_PIN", "").strip()
    if env_pin:
        if env_pin in PUBLISHED_PINS:
            yield fail(
                "admin pin",
                "COMPANION_ADMIN_PIN is the published example PIN: the kiosk ignores it",
                f"choose another in {ENV_FILE}",
            )
        elif not valid_pin(env_pin):
            yield fail(
                "admin pin", "COMPANION_ADMIN_PIN is not 4+ digits: the kiosk ignores it", f"correct it in {ENV_FILE}"
            )
        else:
            yield ok("admin pin", f"set ({len(env_pin)} digits, COMPANION_ADMIN_PIN in {ENV_FILE})")
        return
    state = default_journal_path(box.settings()).parent if box.journal is None else box.journal.parent
    pin_file = state / PIN_FILE
    try:
        stored = pin_file.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        yield fail(
            "admin pin",
            "none set, and the kiosk has not generated one yet",
            f"set COMPANION_ADMIN_PIN in {ENV_FILE}, or start the kiosk once",
        )
        return
    except (OSError, UnicodeDecodeError) as exc:
        yield warn("admin pin", f"{pin_file} cannot be read here ({exc})", "run it as root: sudo companion doctor")
        return
    if valid_pin(stored):
        yield ok("admin pin", f"generated at the first start ({pin_file}; companion kiosk --show-pin)")
    else:
        yield fail(
            "admin pin",
            f"{pin_file} holds no 4+ digit PIN: only the admin card opens the menu",
            f"set COMPANION_ADMIN_PIN in {ENV_FILE}",
        )
