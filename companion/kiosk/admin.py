"""The admin lock: opened by the admin card, or by a PIN entered with PLUS / MINUS / OK.

PLUS / MINUS change the digit being entered, OK takes it, BACK removes the last digit (or cancels).
After ``attempts`` wrong PINs the lock refuses PIN entry for ``lockout_s`` seconds; the admin card
still opens it. The clock is the caller's (``now`` arguments), so tests are deterministic.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass


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
    def __init__(self, pin: str, attempts: int = 3, lockout_s: float = 300.0) -> None:
        if not (pin.isdigit() and len(pin) >= 4):
            raise ValueError("the admin PIN must be at least 4 digits")
        self._pin = pin
        self.attempts = attempts
        self.lockout_s = lockout_s
        self.failures = 0
        self.locked_until: float | None = None

    @property
    def length(self) -> int:
        return len(self._pin)

    def locked_out(self, now: float) -> bool:
        if self.locked_until is not None and now >= self.locked_until:
            self.locked_until = None
            self.failures = 0
        return self.locked_until is not None

    def check(self, digits: str, now: float) -> bool:
        """True for the right PIN. Wrong ones count towards the lockout."""
        if self.locked_out(now):
            return False
        if hmac.compare_digest(digits.encode(), self._pin.encode()):
            self.failures = 0
            return True
        self.failures += 1
        if self.failures >= self.attempts:
            self.locked_until = now + self.lockout_s
        return False
