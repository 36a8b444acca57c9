"""sd_notify without a dependency: one datagram to ``$NOTIFY_SOCKET`` per state change.

systemd's ``Type=notify`` waits for ``READY=1``; with ``WatchdogSec=`` it expects ``WATCHDOG=1``
at least every ``$WATCHDOG_USEC`` microseconds and kills + restarts a loop that stops sending
(``Restart=on-failure``). Outside systemd (no ``NOTIFY_SOCKET``) every call is a cheap no-op.
The protocol: newline-separated ``KEY=VALUE`` in one ``AF_UNIX``/``SOCK_DGRAM`` datagram; a socket
path starting with ``@`` is in the abstract namespace (``\\0`` + the rest).
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Mapping
from types import TracebackType

log = logging.getLogger(__name__)


class SystemdNotifier:
    """``ready()``, ``watchdog()``, ``status()``, ``stopping()``; a context manager, ``close()`` safe twice."""

    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        address = env.get("NOTIFY_SOCKET", "")
        if address.startswith("@"):
            address = "\0" + address[1:]
        self._address = address
        self._sock: socket.socket | None = None
        self._warned = False

    @property
    def enabled(self) -> bool:
        return bool(self._address)

    def notify(self, *fields: str) -> bool:
        """Send ``fields`` (e.g. ``"READY=1"``) in one datagram; False if not under systemd or it failed."""
        if not self._address:
            return False
        try:
            if self._sock is None:
                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
                # Never block the main loop on a receiver that does not read (a full datagram queue).
                self._sock.setblocking(False)
            self._sock.sendto("\n".join(fields).encode(), self._address)
        except (OSError, ValueError, UnicodeError) as exc:  # ValueError: a NUL inside a path address
            if not self._warned:  # once: a missing socket must not flood the log every watchdog tick
                log.warning("sd_notify to %r failed: %s", self._address, exc)
                self._warned = True
            return False
        return True

    def ready(self, status: str | None = None) -> bool:
        return self.notify("READY=1", *([] if status is None else [f"STATUS={status}"]))

    def status(self, text: str) -> bool:
        return self.notify(f"STATUS={text}")

    def watchdog(self) -> bool:
        return self.notify("WATCHDOG=1")

    def stopping(self) -> bool:
        return self.notify("STOPPING=1")

    def close(self) -> None:
        if self._sock is not None:
            sock, self._sock = self._sock, None
            sock.close()

    def __enter__(self) -> SystemdNotifier:
        return self

    def __exit__(self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None) -> None:
        self.close()


class Watchdog:
    """Sends ``WATCHDOG=1`` from the main loop at half the interval systemd asked for.

    Call ``kick(now)`` once per loop iteration (``now`` from a monotonic clock); a hung loop stops
    kicking and systemd restarts the service. Disabled when ``WATCHDOG_USEC`` is unset or
    ``WATCHDOG_PID`` names another process.
    """

    def __init__(self, notifier: SystemdNotifier, environ: Mapping[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        self._notifier = notifier
        usec = env.get("WATCHDOG_USEC", "")
        pid = env.get("WATCHDOG_PID", "")
        # ASCII digits only ("²".isdigit() is True, int("²") fails); at most a day (a wider value is a typo).
        mine = not pid or (pid.isascii() and pid.isdigit() and int(pid) == os.getpid())
        valid = usec.isascii() and usec.isdigit() and 0 < int(usec) <= 86_400_000_000
        self.interval: float | None = int(usec) / 1e6 if valid and mine else None
        self._last: float | None = None

    @property
    def period(self) -> float | None:
        """How often to kick: half the interval (systemd's own advice)."""
        return None if self.interval is None else self.interval / 2

    def kick(self, now: float) -> bool:
        period = self.period
        if period is None:
            return False
        if self._last is not None and now - self._last < period:
            return False
        self._last = now
        return self._notifier.watchdog()

    def next_deadline(self) -> float | None:
        period = self.period
        if period is None:
            return None
        return 0.0 if self._last is None else self._last + period
