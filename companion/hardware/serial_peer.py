"""An emulated bridge microcontroller on a local TCP socket (``socket://127.0.0.1:<port>``).

:class:`PtyBridgePeer` is the same firmware on a pseudo-terminal, for code that wants a device path.
Usable at the REPL and in tests: ``place``/``lift``/``scan_card`` change what its readers see,
``send_raw`` injects garbage, ``unplug``/``replug`` drop and restore the link, ``led_bits`` is the
last LED vector the host sent. It is driven by :meth:`BridgePeer.pump` (no thread), so a test
alternates ``peer.pump()`` and ``bridge.poll(now)``.
"""

from __future__ import annotations

import contextlib
import os
import select
import socket
import tty

from companion.hardware.serial_protocol import (
    HOST_VERBS,
    PROTOCOL_VERSION,
    LineError,
    encode,
    hex_to_bits,
    parse,
)


class BridgePeer:
    def __init__(self, readers: int = 41, firmware: str = "emulated/1.0", port: int = 0) -> None:
        self.readers = readers
        self.firmware = firmware
        self.tags: dict[int, str] = {}
        self.led_bits: tuple[bool, ...] = ()
        self.host_lines: list[str] = []
        self.host_bad_lines = 0
        self._seq = 0
        self._listener: socket.socket | None = None
        self._conn: socket.socket | None = None
        self._buffer = bytearray()
        self.port = port
        self._listen()

    @property
    def url(self) -> str:
        return f"socket://127.0.0.1:{self.port}"

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
        self.tags[channel] = uid
        self._line("TAG", channel, uid)

    def lift(self, channel: int) -> None:
        self.tags.pop(channel, None)
        self._line("TAG", channel, "-")

    def scan_card(self, uid: str) -> None:
        self._line("CARD", uid)

    def fault(self, channel: int, text: str) -> None:
        self._line("FAULT", channel, text)

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
    def _line(self, verb: str, *args: object) -> None:
        if self._conn is None:
            return  # nobody listening: a real bridge would re-report on the next HELLO anyway
        self._conn.sendall(encode(self._seq, verb, *args))
        self._seq = (self._seq + 1) & 0xFF

    def pump(self, timeout: float = 0.05) -> None:
        """Accept a connection and answer whatever the host sent (waits up to ``timeout`` for it)."""
        if self._conn is None and self._listener is not None:
            ready, _, _ = select.select([self._listener], [], [], timeout)
            if ready:
                self._conn, _ = self._listener.accept()
                self._buffer.clear()
        if self._conn is None:
            return
        ready, _, _ = select.select([self._conn], [], [], timeout)
        while ready:
            try:
                data = self._conn.recv(4096)
            except OSError:
                data = b""
            if not data:  # host closed
                self._conn.close()
                self._conn = None
                return
            self._buffer += data
            ready, _, _ = select.select([self._conn], [], [], 0)
        while b"\n" in self._buffer:
            raw, _, rest = bytes(self._buffer).partition(b"\n")
            self._buffer = bytearray(rest)
            self._host_line(raw)

    def _host_line(self, raw: bytes) -> None:
        try:
            line = parse(raw, HOST_VERBS)
        except LineError:
            self.host_bad_lines += 1
            return
        self.host_lines.append(f"{line.verb} {' '.join(line.args)}".strip())
        if line.verb == "HELLO":
            self._line("HELLO", PROTOCOL_VERSION, self.firmware, self.readers)
            self._report()
        elif line.verb == "RESYNC":
            self._report()
        elif line.verb == "LED":
            self.led_bits = hex_to_bits(int(line.args[0]), line.args[1])

    def _report(self) -> None:
        for channel, uid in sorted(self.tags.items()):
            self._line("TAG", channel, uid)
        self._line("SYNC", len(self.tags))

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

    def __init__(self, readers: int = 41, firmware: str = "emulated/1.0") -> None:
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
