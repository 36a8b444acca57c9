"""Serial-bridge backend: a microcontroller scans the readers and drives the LEDs; we speak
:mod:`~companion.hardware.serial_protocol` (version 3, and version 2 with older firmware) with it over
pyserial's ``serial_for_url`` (a real port, ``socket://host:port`` or ``loop://``).

The link carries state, not edges. On every (re)connect, and whenever the bridge stops answering or
answers for another session, we send ``HELLO`` with a fresh session nonce, again every
``hello_interval_s`` until it is answered. Each reader's state is applied only when its generation
is newer than the one we hold, so duplicates, replays and reorderings are dropped; a sequence gap, or
a heartbeat announcing a generation we never saw, asks for a snapshot (``RESYNC``), and the bridge
sends one every few seconds anyway. Intents are the differences between what we reported and the
bridge's state, so a lost line is late, never invented. No valid line for ``link_timeout_s`` gives
one ``DeviceFault``; the next answered ``HELLO`` its recovery. Malformed lines are counted and dropped:
nothing raises out of :meth:`SerialBridge.poll`.

A reboot never moves a marker: readers a snapshot lists as unsettled (a bridge that has just booted
and whose votes have not had their samples yet) keep the state we hold until the bridge reports them.

Every number is bounded before use, and a generation must be possible: an honest bridge's generation
never goes back and grows by at most one per line it sent (every bump sends exactly one line), so a
line claiming more than ``last + sequence gap`` is refused (counted as ``implausible``, a snapshot
asked for) instead of blocking its reader until the next reboot. Lines that keep claiming less than
we hold mean what we hold is wrong: after ``BACKWARDS_LIMIT`` of them in a row we start a new session,
whose snapshot replaces every generation (within one snapshot period, without a reboot).

With a version 3 bridge and LEDs we tell it, after every HELLO, which LEDs are each city reader's
SEEN light (``SEEN``), and stamp every LED frame with the newest generation we had when the table drew
it: the bridge then lights a placement the sweep it settles and keeps it until our table's frame shows it.

A Pico sitting at the MicroPython REPL (:mod:`~companion.hardware.micropython_repl`) is not running
the firmware: we send Ctrl-C, Ctrl-B, Ctrl-D (a soft reset runs ``main.py``), at most every
``repl_retry_s``, and report one ``DeviceFault``, naming the exception the REPL printed.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.hardware.leds import LedMap, render_bits
from companion.hardware.micropython_repl import RESTART_FIRMWARE, ReplWatch
from companion.hardware.protocols import IntentSink
from companion.hardware.serial_protocol import (
    BRIDGE_VERBS,
    MAX_LINE,
    MAX_READERS,
    NO_SESSION,
    OLDEST_PROTOCOL,
    PROTOCOL_VERSION,
    SEQ_WINDOW,
    Line,
    LineError,
    bits_to_hex,
    encode,
    is_uid,
    number,
    parse,
    parse_channels,
    parse_map,
    seq_delta,
)
from companion.intents import CardScanned, DeviceFault, TagLifted, TagPlaced
from companion.ledframe import LedFrame

log = logging.getLogger(__name__)

BACKWARDS_LIMIT = 3  # lines in a row whose generation is older than ours: what we hold is wrong
MAX_NAME = 40  # characters of a firmware name or a fault text we pass on


@dataclass
class BridgeStats:
    lines: int = 0
    garbage: int = 0
    bad_checksum: int = 0
    partial: int = 0
    malformed: int = 0  # valid CRC, but arguments that make no sense
    lost: int = 0  # lines missing from sequence-number gaps
    duplicates: int = 0  # old or repeated sequence numbers
    stale: int = 0  # lines of another session (an earlier connection, a rebooted bridge)
    outdated: int = 0  # state lines older than what we hold
    implausible: int = 0  # a generation or card number the bridge cannot have reached
    unsettled: int = 0  # readers a snapshot said it does not know yet (their state kept)
    repl: int = 0  # times the Pico was found at the MicroPython REPL (and restarted)
    resyncs: int = 0
    hellos: int = 0
    connects: int = 0
    link_faults: int = 0
    unknown_uids: int = 0
    firmware: str = ""
    readers: int = 0
    protocol: int = 0
    rf: str = ""  # the bridge's RF groups as rf_digest names them ("": a bridge before protocol 4)


class SerialBridge:
    def __init__(
        self,
        sink: IntentSink,
        url: str,
        *,
        cities: Mapping[int, str],
        card_channel: int | None = None,
        led_map: LedMap | None = None,
        baudrate: int = 115200,
        retry_interval_s: float = 2.0,
        known_uids: Callable[[str], bool] | None = None,
        hello_interval_s: float = 1.0,
        beat_interval_s: float = 0.5,
        link_timeout_s: float = 2.0,
        led_refresh_s: float = 1.0,
        resync_interval_s: float = 0.25,
        opener: Callable[[], Any] | None = None,
        nonce: Callable[[], str] | None = None,
        repl_retry_s: float = 5.0,
    ) -> None:
        self.sink = sink
        self.url = url
        self.cities = dict(cities)
        self.card_channel = card_channel
        self.led_map = led_map
        self.baudrate = baudrate
        self.retry_interval_s = retry_interval_s
        self.known_uids = known_uids
        self.hello_interval_s = hello_interval_s
        self.beat_interval_s = beat_interval_s
        self.link_timeout_s = link_timeout_s
        self.led_refresh_s = led_refresh_s
        self.resync_interval_s = resync_interval_s
        self.repl_retry_s = repl_retry_s
        self._opener = opener
        self._nonce = nonce or (lambda: os.urandom(4).hex().upper())
        self.stats = BridgeStats()
        self.port: Any = None
        self._buffer = bytearray()
        self._tx_seq = 0
        self._rx_seq: int | None = None
        # the session
        self.session: str | None = None  # established (HELLO answered)
        self._pending: str | None = None  # nonce of the HELLO we are waiting on
        self._hello_at = 0.0
        self._beat_at = 0.0
        self._resync_at = 0.0
        self._heard_at = 0.0  # last valid line of the session (or when we started waiting)
        self._boot: str | None = None
        # what we know of the bridge, and what we reported
        self._ver: dict[int, int] = {}  # channel → generation of the tag state we hold
        self._fver: dict[int, int] = {}  # channel → generation of the fault state we hold
        self._max_gen = -1
        self._gen: int | None = None  # generation of the last accepted line that carries one
        self._gen_seq = 0  # ... and its sequence number
        self._backwards = 0  # lines in a row with a generation below ``_gen``
        self._card_n = 0
        self._repl_at: float | None = None  # when we last restarted a Pico found at the REPL
        self._repl_fault = False
        self._repl = ReplWatch()
        self._state: dict[int, str] = {}  # channel → UID as last reported to the sink
        self._faults: set[int] = set()
        self._retry_at = 0.0
        self._port_fault = False
        self._link_fault = False
        self._frame = LedFrame()
        self._frame_gen = -1  # the newest generation we had when the table handed us ``_frame``
        self._bits: tuple[bool, ...] | None = None
        self._led_at = 0.0
        self._closed = False
        self._now = 0.0

    # --- connection --------------------------------------------------------------------------
    @property
    def connected(self) -> bool:
        return self.port is not None

    @property
    def linked(self) -> bool:
        """Connected and the bridge answers our session."""
        return self.port is not None and self.session is not None

    def open(self, now: float = 0.0) -> SerialBridge:
        self._connect(now)
        return self

    def __enter__(self) -> SerialBridge:
        return self if self.connected else self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _connect(self, now: float) -> None:
        import serial

        self._now = now
        try:
            if self._opener is not None:
                self.port = self._opener()
            else:
                self.port = serial.serial_for_url(self.url, baudrate=self.baudrate, timeout=0, write_timeout=1)
        except (serial.SerialException, OSError, ValueError) as exc:
            self._lost(now, f"cannot open {self.url}: {exc}")
            return
        self.stats.connects += 1
        sock = getattr(self.port, "_socket", None)  # socket:// (ser2net, the emulated peer)
        if sock is not None:  # each line at once, as USB sends it: Nagle holds a short line for an ACK
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._buffer.clear()
        if self._port_fault:
            self._port_fault = False
            self.sink(DeviceFault("serial bridge", f"reconnected on {self.url}", recovered=True))
        self._restart_session(now)

    def _restart_session(self, now: float) -> None:
        """A fresh nonce; HELLO now and every ``hello_interval_s`` until the bridge answers it."""
        self.session = None
        self._pending = self._nonce()
        self._rx_seq = None
        self._gen = None  # the snapshot after HELLO is the new reference
        self._backwards = 0
        self._heard_at = now
        self._hello_at = now
        self._send_hello(now)

    def _send_hello(self, now: float) -> None:
        if self._pending is not None and now >= self._hello_at:
            self.stats.hellos += 1
            if self.port is not None:  # end whatever partial line the bridge holds (a cut line, junk
                with contextlib.suppress(Exception):  # from before it rebooted), or it eats this HELLO
                    self.port.write(b"\n")
            self._send("HELLO", PROTOCOL_VERSION, self._pending)
            self._hello_at = now + self.hello_interval_s

    def _lost(self, now: float, why: str) -> None:
        if self.port is not None:
            with contextlib.suppress(Exception):  # a dead port may fail to close in any way
                self.port.close()
            self.port = None
        if self._buffer:
            self.stats.partial += 1
            self._buffer.clear()
        self.session = self._pending = None
        self._retry_at = now + self.retry_interval_s
        if not self._port_fault and not self._link_fault:
            self.sink(DeviceFault("serial bridge", f"{why}; retrying every {self.retry_interval_s:g} s"))
        self._port_fault = True
        self._link_fault = False

    def _send(self, verb: str, *args: object) -> bool:
        if self.port is None:
            return False
        import serial

        try:
            self.port.write(encode(self._tx_seq, verb, *args))
        except (serial.SerialException, OSError) as exc:
            self._lost(self._now, str(exc))
            return False
        self._tx_seq = (self._tx_seq + 1) & 0xFFFF
        return True

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self.port is not None and self.led_map is not None and self.session is not None:
            self._send("LED", self.session, self.led_map.size, bits_to_hex((False,) * self.led_map.size))
        if self.port is not None:
            with contextlib.suppress(Exception):
                self.port.close()
            self.port = None

    # --- polling -----------------------------------------------------------------------------
    def poll(self, now: float) -> None:
        if self._closed:
            return
        self._now = now
        if self.port is None:
            if now < self._retry_at:
                return
            self._connect(now)
            if self.port is None:
                return
        import serial

        try:
            data = self.port.read(4096)
        except (serial.SerialException, OSError) as exc:
            self._lost(now, str(exc))
            return
        self._feed(data)
        if self.port is None:
            return
        self._timers(now)
        self._refresh_leds(now)

    def _timers(self, now: float) -> None:
        if now - self._heard_at > self.link_timeout_s:
            what = "no heartbeat" if self.session is not None else "no answer to HELLO"
            # A HELLO still unanswered keeps its nonce and its own repeat timer (_send_hello).
            self._link_down(f"{what} for {self.link_timeout_s:g} s on {self.url}", restart=self.session is not None)
        if self._pending is not None:
            self._send_hello(now)
        elif self.session is not None and now >= self._beat_at:
            self._send("BEAT", self.session, self._card_n)  # acknowledges the cards we reported
            self._beat_at = now + self.beat_interval_s

    def _request_resync(self) -> None:
        if self.session is not None and self._now >= self._resync_at:
            self.stats.resyncs += 1
            self._send("RESYNC", self.session)
            self._resync_at = self._now + self.resync_interval_s

    def _feed(self, data: bytes) -> None:
        self._buffer += data
        while self.port is not None:
            newline = self._buffer.find(b"\n")
            if newline < 0:
                if self._repl.prompt_waiting(self._buffer):
                    self._buffer.clear()
                    self._at_repl()
                elif len(self._buffer) > MAX_LINE:
                    self.stats.garbage += 1
                    self._buffer.clear()
                return
            raw = bytes(self._buffer[:newline])
            del self._buffer[: newline + 1]
            if raw.strip(b"\r"):  # an empty line ends a partial one (see _send_hello): nothing to count
                self._line(raw)

    def _at_repl(self) -> None:
        """The Pico is at the REPL: restart the firmware (soft reset), at most every ``repl_retry_s``."""
        now = self._now
        if self._repl_at is not None and now < self._repl_at + self.repl_retry_s:
            return
        self._repl_at = now
        self.stats.repl += 1
        if self.port is not None:
            try:
                self.port.write(RESTART_FIRMWARE)
            except OSError as exc:
                self._lost(now, str(exc))
                return
        why = f" after {self._repl.why}" if self._repl.why else ""
        self._link_down(
            f"the Pico on {self.url} is at the MicroPython prompt{why}, not running the firmware; "
            "restarting it (soft reset)",
            more_precise=not self._repl_fault,  # said once, even after a "no heartbeat" for the same stop
        )
        self._repl_fault = True

    def _line(self, raw: bytes) -> None:
        try:
            line = parse(raw, BRIDGE_VERBS)
        except LineError as exc:
            repl = self._repl.at_repl(raw) if exc.kind != "checksum" else False
            if repl is None:  # a traceback: the prompt follows
                return
            if repl:
                self._at_repl()
                return
            if exc.kind == "checksum":
                self.stats.bad_checksum += 1
            else:
                self.stats.garbage += 1
            log.debug("serial bridge: dropped line: %s", exc)
            return
        try:
            self._accept(line)
        except (ValueError, KeyError, IndexError) as exc:
            self.stats.malformed += 1
            log.debug("serial bridge: malformed %s line: %s", line.verb, exc)

    def _accept(self, line: Line) -> None:
        if line.verb == "HELLO":
            self._hello(line)
            return
        session = line.args[0]
        if session != self.session:
            self.stats.stale += 1
            if self.session is not None and self._pending is None:
                self._restart_session(self._now)  # the bridge rebooted, or serves an older connection
            return
        if self._rx_seq is not None:
            delta = seq_delta(line.seq, self._rx_seq)
            if delta == 0 or delta >= SEQ_WINDOW:
                self.stats.duplicates += 1
                return
            if delta > 1:
                self.stats.lost += delta - 1
                self._request_resync()
        self._rx_seq = line.seq
        self.stats.lines += 1
        self._heard_at = self._now
        if line.verb == "PANIC":
            self._panic(" ".join(line.args[1:])[:80])
            return
        gen = number(line.args[1])  # every bridge line but HELLO carries the generation second
        if self._plausible(line, gen):
            self._apply(line, gen)

    def _plausible(self, line: Line, gen: int) -> bool:
        """Could an honest bridge have sent ``gen`` now? See the module docstring."""
        if self._gen is not None:
            if gen > self._gen + seq_delta(line.seq, self._gen_seq):
                self.stats.implausible += 1
                self._request_resync()
                return False
            if gen < self._gen:
                self.stats.outdated += 1
                self._backwards += 1
                if self._backwards >= BACKWARDS_LIMIT:
                    log.warning("serial bridge: generations keep going back; starting a new session")
                    self._ver.clear()
                    self._fver.clear()
                    self._restart_session(self._now)
                return False
        self._gen, self._gen_seq, self._backwards = gen, line.seq, 0
        return True

    def _panic(self, why: str) -> None:
        """The firmware's main loop raised and the bridge resets: one fault, recovered at the next HELLO."""
        self._link_down(f"the firmware stopped ({why or 'no reason given'}); it restarts")

    def _link_down(self, message: str, *, restart: bool = True, more_precise: bool = False) -> None:
        """The bridge stopped talking (no heartbeat, a panic, the REPL): one fault and one count per stop,
        cleared when it answers a HELLO again (``_hello``); a new session unless one is being offered.
        ``more_precise``: this message says more than the one already given (the REPL after a timeout)."""
        if not self._link_fault or more_precise:
            if not self._link_fault:
                self.stats.link_faults += 1
            self._link_fault = True
            self.sink(DeviceFault("serial bridge", message))
        if restart:
            self._restart_session(self._now)

    def _hello(self, line: Line) -> None:
        protocol, firmware, readers, boot, session, cards, *more = line.args
        rf = more[0] if more else ""  # version 4: the RF groups it was flashed with (rf_digest)
        if session != self._pending:
            self.stats.stale += 1  # an answer to an older HELLO, or a repeat of the one we have
            return
        version = number(protocol)
        if not OLDEST_PROTOCOL <= version <= PROTOCOL_VERSION:
            self.sink(
                DeviceFault(
                    "serial bridge",
                    f"speaks protocol {protocol[:10]}, we speak {OLDEST_PROTOCOL}..{PROTOCOL_VERSION}",
                )
            )
            self._pending = None  # do not retry a bridge that cannot understand us
            return
        readers_n, card_n = number(readers, MAX_READERS), number(cards)
        if readers_n == 0 or len(boot) > 16 or len(firmware) > MAX_NAME:
            raise ValueError(f"HELLO with {readers_n} readers, boot {boot[:20]!r}, firmware {firmware[:50]!r}")
        if rf not in ("", NO_SESSION) and (len(rf) != 8 or any(c not in "0123456789ABCDEF" for c in rf)):
            raise ValueError(f"HELLO with RF groups {rf[:20]!r}")
        self.stats.lines += 1
        self.stats.firmware, self.stats.readers, self.stats.protocol = firmware, readers_n, version
        self.stats.rf = rf
        if boot != self._boot:  # a new power-up: its generations and card counter start afresh
            self._boot = boot
            self._ver.clear()
            self._fver.clear()
            self._max_gen = -1
            self._card_n = card_n
        self.session, self._pending = session, None
        self._rx_seq = line.seq
        self._heard_at = self._now
        self._beat_at = self._now
        self._bits = None  # the bridge may have rebooted: send the LEDs again
        self._frame_gen = -1  # its generations may have started afresh
        if version >= 3 and self.led_map is not None:
            self._send("SEEN", session, self._seen_lights())
        self._repl_fault = False
        self._repl.why = ""
        if self._link_fault:
            self._link_fault = False
            self.sink(DeviceFault("serial bridge", f"answering again on {self.url}", recovered=True))

    def _channel(self, text: str) -> int:
        return number(text, self.stats.readers - 1)

    def _apply(self, line: Line, gen: int) -> None:
        match line.verb:
            case "TAG":
                channel = self._channel(line.args[2])
                uid = self._uid(line.args[3])
                self._seen(gen)
                if gen > self._ver.get(channel, -1):
                    self._ver[channel] = gen
                    self._set(channel, uid)
                else:
                    self.stats.outdated += 1
            case "CARD":
                n = number(line.args[2], gen)  # every presentation bumps the generation: n <= gen
                uid = self._uid(line.args[3])
                if uid is None:
                    raise ValueError("CARD without a UID")
                self._seen(gen)
                if n == self._card_n + 1:
                    self._cards({n: uid})
                elif n > self._card_n:
                    self._request_resync()  # one before it was lost: the snapshot has both, in order
                else:
                    self.stats.outdated += 1
            case "FAULT":
                channel, flag = self._channel(line.args[2]), line.args[3]
                if flag not in ("0", "1"):
                    raise ValueError(f"fault flag {flag[:10]!r}")
                self._seen(gen)
                if gen > self._fver.get(channel, -1):
                    self._fver[channel] = gen
                    text = " ".join(line.args[4:])[:MAX_NAME] or "not answering"
                    self._fault(channel, text if flag == "1" else None)
                else:
                    self.stats.outdated += 1
            case "SNAP":
                self._snapshot(line, gen)
            case "BEAT":
                if gen > self._max_gen:
                    self._request_resync()  # a change we never heard about

    def _snapshot(self, line: Line, gen: int) -> None:
        """The whole table at ``gen``; readers the bridge lists as unsettled keep what we hold."""
        tags, cards = parse_map(line.args[2]), parse_map(line.args[3])
        faults = set(parse_channels(line.args[4], self.stats.readers - 1))
        unsettled = set(parse_channels(line.args[5], self.stats.readers - 1)) if len(line.args) > 5 else set()
        if any(ch >= self.stats.readers for ch in tags) or len(cards) > 64 or any(n > gen for n in cards):
            raise ValueError("SNAP with a reader or card out of range")
        self._seen(gen)
        if self._card_n > gen:  # impossible (each card bumps the generation): ours is wrong
            self.stats.implausible += 1
            self._card_n = min(cards, default=gen + 1) - 1
        self.stats.unsettled += len(unsettled)
        for channel in sorted(set(self._state) | set(tags) | set(self._ver)):
            if channel == self.card_channel or channel in unsettled:
                continue
            if self._ver.get(channel, -1) <= gen:
                self._ver[channel] = gen
                self._set(channel, tags.get(channel))
        for channel in sorted(self._faults | faults | set(self._fver)):
            if self._fver.get(channel, -1) <= gen:
                self._fver[channel] = gen
                self._fault(channel, "not answering" if channel in faults else None)
        self._cards(cards)

    def _seen(self, gen: int) -> None:
        self._max_gen = max(self._max_gen, gen)

    def _cards(self, cards: Mapping[int, str]) -> None:
        for n in sorted(cards):
            if n > self._card_n:
                self._card_n = n
                self._check_known(cards[n])
                self.sink(CardScanned(cards[n]))

    def _fault(self, channel: int, text: str | None) -> None:
        if (channel in self._faults) == (text is not None):
            return
        if text is None:
            self._faults.discard(channel)
            self.sink(DeviceFault(self._device(channel), "answering again", recovered=True))
        else:
            self._faults.add(channel)
            self.sink(DeviceFault(self._device(channel), text))

    def _device(self, channel: int) -> str:
        name = self.cities.get(channel, "card" if channel == self.card_channel else "?")
        return f"bridge reader {channel} ({name})"

    def _uid(self, text: str) -> str | None:
        if text == "-":
            return None
        if not is_uid(text):
            raise ValueError(f"not a UID: {text[:24]!r}")
        return text

    def _check_known(self, uid: str) -> None:
        if self.known_uids is not None and not self.known_uids(uid):
            self.stats.unknown_uids += 1
            log.warning("serial bridge: unknown tag %s", uid)

    def _set(self, channel: int, uid: str | None) -> None:
        old = self._state.get(channel)
        if old == uid:
            return
        city = self.cities.get(channel)
        if city is None:
            log.warning("serial bridge: tag on reader %s, which is not mapped to a city", channel)
            return
        if old is not None:
            del self._state[channel]
            self.sink(TagLifted(city, old))
        if uid is not None:
            self._state[channel] = uid
            self._check_known(uid)
            self.sink(TagPlaced(city, uid))

    def present(self) -> dict[str, str]:
        return {self.cities[ch]: uid for ch, uid in self._state.items() if ch in self.cities}

    # --- LEDs --------------------------------------------------------------------------------
    def _seen_lights(self) -> str:
        """``ch=bit+bit,...``: the LEDs a city reader's SEEN light uses (both colours; see leds.py)."""
        assert self.led_map is not None
        items = []
        for channel, city in sorted(self.cities.items()):
            if city in self.led_map.cities:
                a, b = self.led_map.cities[city]
                items.append(f"{channel}={a}" + ("" if b is None else f"+{b}"))
        return ",".join(items) or "-"

    def show(self, frame: LedFrame, now: float) -> None:
        self._frame = frame
        self._frame_gen = self._max_gen
        self._now = now
        if self.port is not None:
            self._refresh_leds(now)

    def _refresh_leds(self, now: float) -> None:
        if self.led_map is None or self.session is None:
            return
        bits = render_bits(self._frame, self.led_map, now)
        drawn_at = (max(self._frame_gen, 0),) if self.stats.protocol >= 3 else ()  # version 2 takes three
        if (bits != self._bits or now >= self._led_at) and self._send(
            "LED", self.session, len(bits), bits_to_hex(bits), *drawn_at
        ):
            self._bits = bits
            self._led_at = now + self.led_refresh_s
