"""An emulated bridge microcontroller on a local TCP socket (``socket://127.0.0.1:<port>``).

:class:`BridgeDevice` is the bridge as the hardware behaves, without a transport: markers lie on
readers (``place``/``lift``), and from every boot the firmware's loop sweeps every reader each
``sweep_s``, votes on the samples *from zero* (:class:`~companion.hardware.debounce.TagVote`, which
tests/firmware proves equal to the firmware's ``vote.py``) and reports through a fresh
:class:`~companion.hardware.serial_protocol.BridgeLink`, the very class the RP2040 firmware runs, in
the same calls ``firmware/rp2040/bridge.py`` makes. A reboot keeps nothing but the table: a new boot
id, no session, sequence numbers and generations from 0, every reader unsettled (design/style.md
point 21: a test peer that copied the old tags into the new session would hide phantom moves).

Reboot kinds (:data:`REBOOT_KINDS`), as an RP2040 on USB behaves:

- ``power``: the board is off for ``off_s`` (USB gone with it), then boots;
- ``replug``: the USB cable is pulled for ``off_s`` (a bus-powered Pico is off meanwhile);
- ``watchdog``: ``machine.WDT`` resets the chip: USB re-enumerates (the host's port drops), no wait;
- ``soft``: ``machine.soft_reset()`` / Ctrl-D: the USB link stays, MicroPython prints
  ``MPY: soft reboot`` and ``main.py`` starts again.

After a boot the first sweep comes ``startup_s`` later (reset and the readers' oscillator start-up, 50 ms
as miguelbalboa/rfid waits, plus the readers' set-up), but the link answers a ``HELLO`` at once: the
worst case for a snapshot taken before the votes settled.

:class:`BridgePeer` puts a device on a socket; :class:`PtyBridgePeer` on a pseudo-terminal. Usable at
the REPL and in tests: ``place``/``lift``/``scan_card``/``fault`` change the table, ``send_raw``
injects garbage, ``unplug``/``replug`` drop and restore the link, ``reboot(kind)`` reboots,
``led_bits`` is the last LED vector the host sent. It is driven by :meth:`BridgePeer.pump` (no
thread) with the time, so a test alternates ``peer.pump(now=t)`` and ``bridge.poll(t)``.
"""

from __future__ import annotations

import contextlib
import os
import random
import select
import socket
import time
import tty
from collections.abc import Callable

from companion.hardware.debounce import CITY_DEBOUNCE, UNKNOWN, DebounceSettings, TagVote
from companion.hardware.serial_protocol import HOST_VERBS, NO_SESSION, BridgeLink, Line, LineError, parse

REBOOT_KINDS = ("power", "replug", "watchdog", "soft")
SWEEP_S = 0.03  # firmware/rp2040/bridge_config.py SWEEP_MS
STARTUP_S = 0.06  # boot to first sweep: NRSTPD + 50 ms oscillator start-up (miguelbalboa/rfid) + set-up
SOFT_REBOOT_TEXT = b"MPY: soft reboot\r\n"  # what MicroPython prints on a soft reset (pyexec.c)


class BridgeDevice:
    """One bridge: the table it senses, the firmware loop it runs (``run(now)``), its reboots."""

    def __init__(
        self,
        readers: int,
        write: Callable[[bytes], None],
        *,
        firmware: str = "emulated/3.0",
        boot: str = "B007",
        card_channel: int = -1,
        now: float = 0.0,
        sweep_s: float = SWEEP_S,
        startup_s: float = STARTUP_S,
        debounce: DebounceSettings = CITY_DEBOUNCE,
        read_errors: float = 0.0,
        rnd: random.Random | None = None,
        on_led: Callable[[int, bytes], None] | None = None,
        snapshot_ms: int = 2000,
        rf: str = NO_SESSION,
    ) -> None:
        self.readers = readers
        self.rf = rf  # the RF groups it says it was flashed with (serial_protocol.rf_digest)
        self.write = write
        self.firmware = firmware
        self.card_channel = card_channel
        self.sweep_s = sweep_s
        self.startup_s = startup_s
        self.debounce = debounce
        self.read_errors = read_errors  # chance a sample is a read error (UNKNOWN: it does not vote)
        self.rnd = rnd or random.Random(0)
        self.on_led = on_led
        self.snapshot_ms = snapshot_ms
        self.table: dict[int, str] = {}  # channel -> UID of the marker lying on it (the physical truth)
        self.broken: dict[int, str] = {}  # channel -> why the reader does not answer
        self.boots = 0
        self.link: BridgeLink = self._boot(boot, now)

    def _boot(self, boot: str, now: float) -> BridgeLink:
        self.boots += 1
        self.boot_at = now
        self.next_sweep = now + self.startup_s
        self.votes = [TagVote(self.debounce) for _ in range(self.readers)]
        self.link = BridgeLink(
            self.readers,
            self.firmware,
            boot,
            self.write,
            on_led=self.on_led,
            snapshot_ms=self.snapshot_ms,
            settle_samples=self.debounce.window,
            card_channel=self.card_channel,
            rf=self.rf,
        )
        for channel, why in sorted(self.broken.items()):  # found at bring-up
            self.link.set_fault(channel, why)
        return self.link

    def reboot(self, now: float, off_s: float = 0.0, boot: str | None = None) -> None:
        """Everything but the table is lost; the firmware starts again at ``now + off_s``."""
        self._boot(boot or f"{self.rnd.randrange(0x10000):04X}", now + off_s)

    def running(self, now: float) -> bool:
        return now >= self.boot_at

    def ms(self, now: float) -> int:
        """The firmware's clock: milliseconds since boot."""
        return max(0, int((now - self.boot_at) * 1000))

    def run(self, now: float) -> None:
        """The firmware loop up to ``now``: every sweep due, then the link's timers."""
        if not self.running(now):
            return
        while self.next_sweep <= now:
            self.sweep()
            self.next_sweep += self.sweep_s
        self.link.tick(self.ms(now))

    def feed(self, data: bytes, now: float) -> None:
        if self.running(now) and data:
            self.link.feed(data, self.ms(now))

    def sweep(self) -> None:
        """One sweep, reported as firmware/rp2040/bridge.py ``Bridge.sweep`` does."""
        for channel in range(self.readers):
            if channel == self.card_channel or channel in self.broken:
                continue
            sample = UNKNOWN if self.rnd.random() < self.read_errors else self.table.get(channel)
            change = self.votes[channel].add(sample)
            if change.placed is not None or change.lifted is not None:
                self.link.set_tag(channel, self.votes[channel].current)
            elif sample is not UNKNOWN and self.link.unsettled[channel]:
                self.link.settling(channel, sample is None)

    def fault(self, channel: int, text: str | None) -> None:
        """A reader stops answering (``text`` says why) or answers again (None)."""
        if text is None:
            self.broken.pop(channel, None)
            self.votes[channel] = TagVote(self.debounce)  # set up again: it votes from zero
        else:
            self.broken[channel] = text
        self.link.set_fault(channel, text)


class BridgePeer:
    def __init__(
        self,
        readers: int = 41,
        firmware: str = "emulated/3.0",
        port: int = 0,
        boot: str = "B007",
        *,
        card_channel: int = -1,
        now: float | None = None,
        startup_s: float = STARTUP_S,
        read_errors: float = 0.0,
        rf: str = NO_SESSION,
    ) -> None:
        self.readers = readers
        self.firmware = firmware
        self.led_bits: tuple[bool, ...] = ()
        self.host_lines: list[str] = []
        self.device = BridgeDevice(
            readers,
            self._write,
            firmware=firmware,
            boot=boot,
            card_channel=card_channel,
            now=time.monotonic() if now is None else now,
            startup_s=startup_s,
            read_errors=read_errors,
            on_led=self._on_led,
            rf=rf,
        )
        self._listener: socket.socket | None = None
        self._conn: socket.socket | None = None
        self._unplugged_until: float | None = None  # a power cycle / replug: the port comes back then
        self.port = port
        self._listen()

    @property
    def link(self) -> BridgeLink:
        """The running firmware's link (a new one after every reboot)."""
        return self.device.link

    @property
    def url(self) -> str:
        return f"socket://127.0.0.1:{self.port}"

    @property
    def tags(self) -> dict[int, str]:
        """Channel → UID the bridge reports now (its settled votes; change the table with ``place``)."""
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
        """A marker is put on the reader: the bridge reports it once its vote has settled."""
        self.device.table[channel] = uid

    def lift(self, channel: int) -> None:
        self.device.table.pop(channel, None)

    def scan_card(self, uid: str) -> None:
        """A card presentation (the card reader's own vote is not modelled: one call, one presentation)."""
        self.link.card(uid)

    def fault(self, channel: int, text: str | None) -> None:
        self.device.fault(channel, text)

    def reboot(
        self, kind: str = "soft", *, now: float | None = None, off_s: float = 0.0, boot: str | None = None
    ) -> None:
        """Reboot as ``kind`` (see :data:`REBOOT_KINDS`); ``off_s`` = how long a power cut or a pulled
        cable lasts. The table stays as it is; the firmware starts from nothing."""
        if kind not in REBOOT_KINDS:
            raise ValueError(f"reboot kind {kind!r}: one of {', '.join(REBOOT_KINDS)}")
        at = time.monotonic() if now is None else now
        off = off_s if kind in ("power", "replug") else 0.0
        if kind == "soft":
            self._write(SOFT_REBOOT_TEXT)
        else:  # USB goes away with the chip: the host's port drops
            self.unplug(refuse=True)
            self._unplugged_until = at + off
        self.device.reboot(at, off, boot)

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
        """Run the firmware up to ``now`` (sweeps due, timers), accept a connection, answer what the
        host sent (waiting up to ``timeout`` for it)."""
        now_s = time.monotonic() if now is None else now
        if self._unplugged_until is not None and now_s >= self._unplugged_until:
            self._unplugged_until = None
            self.replug()
        if not self.device.running(now_s):
            return
        self.device.run(now_s)
        if self._conn is None and self._listener is not None:
            ready, _, _ = select.select([self._listener], [], [], timeout)
            if ready:
                self._conn, _ = self._listener.accept()
                # USB CDC sends each write at once: no Nagle delay (40 ms on loopback with delayed ACKs)
                self._conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
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
        self.device.feed(data, now_s)
        self.device.run(now_s)

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

    def __init__(self, readers: int = 41, firmware: str = "emulated/3.0", *, now: float | None = None) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no line discipline: bytes pass through as on a real UART
        self._slave_fd = slave
        self._path = os.ttyname(slave)
        super().__init__(readers, firmware, now=now)
        self._conn = _PtyConnection(master)  # type: ignore[assignment]

    def _listen(self) -> None:
        self._listener = None  # a pty is always "plugged in"

    @property
    def url(self) -> str:
        return self._path

    def unplug(self, *, refuse: bool = True) -> None:
        raise NotImplementedError("a pty cannot be unplugged; use BridgePeer (socket://) for that")

    def reboot(
        self, kind: str = "soft", *, now: float | None = None, off_s: float = 0.0, boot: str | None = None
    ) -> None:
        if kind != "soft":
            raise NotImplementedError("a pty cannot drop its port; only a soft reboot (use BridgePeer for the others)")
        super().reboot(kind, now=now, off_s=off_s, boot=boot)

    def close(self) -> None:
        super().close()
        with contextlib.suppress(OSError):
            os.close(self._slave_fd)
