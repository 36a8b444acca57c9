"""The admin lock: opened by the admin card, or by a PIN entered with PLUS / MINUS / OK.

PLUS / MINUS change the digit being entered, OK takes it, BACK removes the last digit (or cancels).
After ``attempts`` wrong PINs the lock refuses PIN entry for ``lockout_s`` seconds; the admin card
still opens it. The clock is the caller's (``now`` arguments), so tests are deterministic.

No public default PIN (docs/pi-install.md, "The admin PIN"): ``companion kiosk`` takes
``$COMPANION_ADMIN_PIN`` if it is set (and not the old published ``2468``), else a random 6-digit PIN
generated at the first start and kept in the state directory (``admin-pin``, mode 0600), which only
the kiosk user and root can read: ``companion kiosk --show-pin``. A lock built without any PIN gets a
random one that nobody knows (only the card opens it).

The lock-out survives a power cycle: with ``state_file`` the failures and an active lock-out are
written atomically at every change, and a lock-out that was running at power-off starts again in
full at the next start (the Pi has no battery clock to tell how long it was off).

An RFID UID is not a secret: any phone with NFC can read and clone a MIFARE Classic UID. With
``require_card`` the card alone no longer opens the menu: it asks for the PIN, and the PIN only
opens it within ``card_window_s`` after the card (PIN + card).
"""

from __future__ import annotations

import contextlib
import hmac
import json
import logging
import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from companion.journal.paths import write_atomically
from companion.setup_box.store import fsync_dir

log = logging.getLogger(__name__)

PIN_FILE = "admin-pin"
LOCK_FILE = "admin-lock.json"
PUBLISHED_PINS = frozenset({"2468"})  # the old default, in the repository and the docs: never accepted


def generate_pin(length: int = 6) -> str:
    return "".join(str(secrets.randbelow(10)) for _ in range(length))


PIN_LENGTHS = (4, 12)  # digits: 4 is the least worth having; 12 is as many as anyone enters with PLUS/MINUS


def valid_pin(pin: str) -> bool:
    """4-12 ASCII digits: only 0-9 can be entered with PLUS / MINUS / OK (a "٣" or "²" never can)."""
    return pin.isascii() and pin.isdigit() and PIN_LENGTHS[0] <= len(pin) <= PIN_LENGTHS[1]


@dataclass
class PinEntry:
    length: int
    digits: str = ""
    current: int = 0

    def step(self, delta: int) -> None:
        self.current = (self.current + delta) % 10

    def take(self) -> None:
        self.digits += str(self.current)
        self.current = 0

    def back(self) -> bool:
        """Remove the last digit; False when there was none (BACK then cancels the entry)."""
        if not self.digits:
            return False
        self.digits = self.digits[:-1]
        return True

    @property
    def complete(self) -> bool:
        return len(self.digits) >= self.length

    def masked(self) -> str:
        shown = ["*"] * len(self.digits) + [str(self.current)] + ["_"] * (self.length - len(self.digits) - 1)
        return " ".join(shown[: self.length])


class AdminLock:
    def __init__(
        self,
        pin: str,
        attempts: int = 3,
        lockout_s: float = 300.0,
        *,
        state_file: Path | str | None = None,
        require_card: bool = False,
        card_window_s: float = 60.0,
    ) -> None:
        if not valid_pin(pin):
            raise ValueError("the admin PIN must be 4-12 digits 0-9")
        self._pin = pin
        self.attempts = attempts
        self.lockout_s = lockout_s
        self.failures = 0
        self.locked_until: float | None = None
        self.require_card = require_card
        self.card_window_s = card_window_s
        self._card_at: float | None = None
        self.state_file = None if state_file is None else Path(state_file)
        self._resume_lockout = False  # a lock-out was running when the box went off
        self._load()

    @property
    def length(self) -> int:
        return len(self._pin)

    def locked_out(self, now: float) -> bool:
        if self._resume_lockout:
            self._resume_lockout = False
            self.locked_until = now + self.lockout_s
        if self.locked_until is not None and now >= self.locked_until:
            self.locked_until = None
            self.failures = 0
            self._save()
        return self.locked_until is not None

    def card_opens(self, now: float) -> bool:
        """The admin card was scanned: True if that alone opens the menu; with ``require_card`` it
        only arms the PIN for ``card_window_s`` (the caller then asks for the PIN)."""
        if not self.require_card:
            return True
        self._card_at = now
        return False

    def check(self, digits: str, now: float) -> bool:
        """True for the right PIN (and, with ``require_card``, a card scanned just before).
        Wrong ones count towards the lockout."""
        if self.locked_out(now):
            return False
        card_ok = not self.require_card or (self._card_at is not None and now - self._card_at <= self.card_window_s)
        if hmac.compare_digest(digits.encode(), self._pin.encode()) and card_ok:
            self.failures = 0
            self._card_at = None
            self._save()
            return True
        self.failures += 1
        if self.failures >= self.attempts:
            self.locked_until = now + self.lockout_s
        self._save()
        return False

    # -- persistence -------------------------------------------------------------------------
    def _load(self) -> None:
        if self.state_file is None:
            return
        try:
            data = json.loads(self.state_file.read_text(encoding="utf-8"))
            failures, locked = data["failures"], data["locked"]
            if not (isinstance(failures, int) and isinstance(locked, bool)):
                raise TypeError("bad field types")
        except OSError as exc:  # none yet, or no state directory at all (logged where the journal is)
            if not isinstance(exc, FileNotFoundError):
                log.warning("the admin lock state %s cannot be read (%s)", self.state_file, exc)
            return
        except (ValueError, TypeError, KeyError) as exc:
            # Damaged content: assume the worst (a lock-out), never "no failures".
            log.warning("the admin lock state %s is damaged (%s): locked out", self.state_file, exc)
            failures, locked = self.attempts, True
        self.failures = max(0, failures)
        self._resume_lockout = locked

    def _save(self) -> None:
        if self.state_file is None:
            return
        locked = self.locked_until is not None or self._resume_lockout
        try:
            write_atomically(self.state_file, json.dumps({"failures": self.failures, "locked": locked}))
        except OSError as exc:
            log.warning("cannot store the admin lock state in %s: %s", self.state_file, exc)


# -- where the PIN comes from -------------------------------------------------------------------------


def load_or_create_pin(state_dir: Path) -> str | None:
    """The box's PIN from ``state_dir/admin-pin``, generated (6 digits, mode 0600) if there is none.

    The new PIN is written to a temporary file, fsynced, then linked into place (atomic, and never
    over a PIN another start made first): a full disk or a power cut leaves either no PIN file (the
    next start tries again) or a whole one — never an empty file that would lock the PIN route out
    for good. An empty file left by an older version counts as none. None if the PIN can neither be
    read nor stored (then only the admin card opens the menu; logged).
    """
    path = state_dir / PIN_FILE
    try:
        pin = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        return _store_new_pin(state_dir, path, replace_empty=False)
    except (OSError, UnicodeDecodeError) as exc:
        log.error("cannot read the admin PIN %s (%s): only the admin card opens the admin menu", path, exc)
        return None
    if not pin:
        log.error("the admin PIN file %s is empty (a write cut short): a new PIN is generated", path)
        return _store_new_pin(state_dir, path, replace_empty=True)
    if not valid_pin(pin):
        log.error("the admin PIN in %s is not 4-12 digits 0-9: only the admin card opens the admin menu", path)
        return None
    return pin


def _store_new_pin(state_dir: Path, path: Path, *, replace_empty: bool) -> str | None:
    pin = generate_pin()
    temp = path.with_name(f".{PIN_FILE}.{os.getpid()}.tmp")
    try:
        state_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(pin + "\n")
            f.flush()
            os.fsync(f.fileno())
        if replace_empty:
            os.replace(temp, path)
        else:
            try:
                os.link(temp, path)  # fails if another start made the PIN first
            except FileExistsError:
                return load_or_create_pin(state_dir)
            except OSError:  # a file system without hard links: a rename (the last start wins)
                os.replace(temp, path)
        fsync_dir(state_dir)
    except OSError as exc:
        log.error("cannot store a new admin PIN in %s (%s): only the admin card opens the admin menu", path, exc)
        return None
    finally:
        with contextlib.suppress(OSError):
            temp.unlink()
    log.warning("a new admin PIN was generated: show it with `companion kiosk --show-pin` (as the kiosk user)")
    return pin


def admin_pin(environ: Mapping[str, str], state_dir: Path) -> tuple[str | None, str]:
    """The PIN to use and where it comes from: ``$COMPANION_ADMIN_PIN`` (unless invalid or published),
    else the state directory's generated PIN."""
    env_pin = environ.get("COMPANION_ADMIN_PIN", "").strip()
    if env_pin:
        if env_pin in PUBLISHED_PINS:
            log.warning("COMPANION_ADMIN_PIN is the published example PIN %s: ignored", env_pin)
        elif not valid_pin(env_pin):
            log.warning("COMPANION_ADMIN_PIN is not 4-12 digits 0-9: ignored")
        else:
            return env_pin, "COMPANION_ADMIN_PIN (the unit's EnvironmentFile, /etc/companion/kiosk.env)"
    return load_or_create_pin(state_dir), str(state_dir / PIN_FILE)
