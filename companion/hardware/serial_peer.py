"""An emulated bridge microcontroller on a local TCP socket (``socket://127.0.0.1:<port>``).

:class:`PtyBridgePeer` is the same on a pseudo-terminal, for code that wants a device path. The
protocol side is :class:`~companion.hardware.serial_protocol.BridgeLink`, the very class the RP2040
firmware runs, so the peer and the firmware cannot drift apart; only the readers are missing (the
caller says what they see). Usable at the REPL and in tests: ``place``/``lift``/``scan_card``/``fault``
change the reported state, ``send_raw`` injects garbage, ``unplug``/``replug`` drop and restore the
link, ``reboot`` forgets the session (as a power cycle does), ``led_bits`` is the last LED vector the
host sent. It is driven by :meth:`BridgePeer.pump` (no thread), so a test alternates
``peer.pump(now=t)`` and ``bridge.poll(t)``.
"""

from __future__ import annotations

import contextlib
import os
import select
import socket
import time
import tty

from companion.hardware.serial_protocol import HOST_VERBS, BridgeLink, Line, LineError, parse


class BridgePeer:
    def __init__(self, readers: int = 41, firmware: str = "emulated/2.0", port: int = 0, boot: str = "B007") -> None:
        self.readers = readers
        self.firmware = firmware
        self.led_bits: tuple[bool, ...] = ()
        self.host_lines: list[str] = []
        self.link = BridgeLink(readers, firmware, boot, self._write, on_led=self._on_led)
        self._listener: socket.socket | None = None
        self._conn: socket.socket | None = None
        self.port = port
        self._listen()

    @property
    def url(self) -> str:
        return f"socket://127.0.0.1:{self.port}"

    @property
    def tags(self) -> dict[int, str]:
        """Channel → UID the bridge reports (change it with ``place``/``lift``)."""
        return self.link.tags

    @property
    def host_bad_lines(self) -> int:
        return self.link.bad_lines

    def _listen(self) -> None:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(1)
        listener.setblocking(False)
        self.port = listener.getsockname()[1]
        self._listener = listener

    # --- test / REPL helpers -----------------------------------------------------------------
    def place(self, channel: int, uid: str) -> None:
        self.link.set_tag(channel, uid)

    def lift(self, channel: int) -> None:
        self.link.set_tag(channel, None)

    def scan_card(self, uid: str) -> None:
        self.link.card(uid)

    def fault(self, channel: int, text: str | None) -> None:
        self.link.set_fault(channel, text)

    def reboot(self, boot: str = "B008") -> None:
        """A power cycle: same tags, new boot id, no session, sequence numbers from 0."""
        old = self.link
        self.link = BridgeLink(self.readers, self.firmware, boot, self._write, on_led=self._on_led)
        for channel, uid in old.tags.items():
            self.link.tags[channel] = uid

    def send_raw(self, data: bytes) -> None:
        if self._conn is not None:
            self._conn.sendall(data)

    def unplug(self, *, refuse: bool = True) -> None:
        """Drop the link; with ``refuse`` also stop listening, so reopening fails until ``replug``."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        if refuse and self._listener is not None:
            self._listener.close()
            self._listener = None

    def replug(self) -> None:
        if self._listener is None:
            self._listen()

    @property
    def connected(self) -> bool:
        return self._conn is not None

    # --- the firmware loop -------------------------------------------------------------------
    def _write(self, data: bytes) -> None:
        if self._conn is not None:  # nobody listening: the host's next HELLO gets a snapshot anyway
            with contextlib.suppress(OSError):
                self._conn.sendall(data)

    def _on_led(self, nbits: int, data: bytes) -> None:
        self.led_bits = tuple(bool(data[i // 8] >> (i % 8) & 1) for i in range(nbits))

    def pump(self, timeout: float = 0.05, now: float | None = None) -> None:
        """Accept a connection, answer what the host sent (waiting up to ``timeout``), run the timers."""
        now_ms = int((time.monotonic() if now is None else now) * 1000)
        if self._conn is None and self._listener is not None:
            ready, _, _ = select.select([self._listener], [], [], timeout)
            if ready:
                self._conn, _ = self._listener.accept()
                self.link.buffer = bytearray()
        if self._conn is None:
            return
        ready, _, _ = select.select([self._conn], [], [], timeout)
        data = b""
        while ready:
            try:
                chunk = self._conn.recv(4096)
            except OSError:
                chunk = b""
            if not chunk:  # host closed
                self._conn.close()
                self._conn = None
                return
            data += chunk
            ready, _, _ = select.select([self._conn], [], [], 0)
        for raw in data.split(b"\n")[:-1]:
            self._record(raw)
        self.link.feed(data, now_ms)
        self.link.tick(now_ms)

    def _record(self, raw: bytes) -> None:
        try:
            line: Line = parse(raw, HOST_VERBS)
        except LineError:
            return
        self.host_lines.append(f"{line.verb} {' '.join(line.args)}".strip())

    def close(self) -> None:
        for sock in (self._conn, self._listener):
            if sock is not None:
                with contextlib.suppress(OSError):
                    sock.close()
        self._conn = self._listener = None

    def __enter__(self) -> BridgePeer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _PtyConnection:
    """The master side of a pseudo-terminal, with the few socket methods :class:`BridgePeer` uses."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def fileno(self) -> int:
        return self.fd

    def sendall(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(self.fd, view) :]

    def recv(self, size: int) -> bytes:
        return os.read(self.fd, size)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self.fd)


class PtyBridgePeer(BridgePeer):
    """The same emulated bridge on a pseudo-terminal: ``peer.url`` is a device path such as
    ``/dev/pts/5`` that pyserial opens like a USB serial port (POSIX only; no unplugging)."""

    def __init__(self, readers: int = 41, firmware: str = "emulated/2.0") -> None:
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no line discipline: bytes pass through as on a real UART
        self._slave_fd = slave
        self._path = os.ttyname(slave)
        super().__init__(readers, firmware)
        self._conn = _PtyConnection(master)  # type: ignore[assignment]

    def _listen(self) -> None:
        self._listener = None  # a pty is always "plugged in"

    @property
    def url(self) -> str:
        return self._path

    def unplug(self, *, refuse: bool = True) -> None:
        raise NotImplementedError("a pty cannot be unplugged; use BridgePeer (socket://) for that")

    def close(self) -> None:
        super().close()
        with contextlib.suppress(OSError):
            os.close(self._slave_fd)
