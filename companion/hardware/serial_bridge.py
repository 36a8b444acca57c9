"""Serial-bridge backend: a microcontroller scans the readers and drives the LEDs; we speak
:mod:`~companion.hardware.serial_protocol` with it over pyserial's ``serial_for_url`` (a real port,
``socket://host:port`` or ``loop://``).

The port is read without blocking from :meth:`SerialBridge.poll`. Garbage, partial lines and bad
checksums are counted and dropped; a port that fails is closed, reported once, and reopened every
``retry_interval_s``; after each (re)connect we send HELLO, the bridge re-reports every reader, and
we emit only the differences with what we had reported before (a tag lifted while unplugged gives
its ``TagLifted``). One object serves as city readers, card reader and LED output.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.hardware.leds import LedMap, render_bits
from companion.hardware.protocols import IntentSink
from companion.hardware.serial_protocol import (
    BRIDGE_VERBS,
    MAX_LINE,
    PROTOCOL_VERSION,
    Line,
    LineError,
    bits_to_hex,
    encode,
    parse,
)
from companion.intents import CardScanned, DeviceFault, TagLifted, TagPlaced, normalise_uid
from companion.ledframe import LedFrame

log = logging.getLogger(__name__)


@dataclass
class BridgeStats:
    lines: int = 0
    garbage: int = 0
    bad_checksum: int = 0
    partial: int = 0
    lost: int = 0  # sequence-number gaps
    connects: int = 0
    unknown_uids: int = 0
    firmware: str = ""
    readers: int = 0


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
    ) -> None:
        self.sink = sink
        self.url = url
        self.cities = dict(cities)
        self.card_channel = card_channel
        self.led_map = led_map
        self.baudrate = baudrate
        self.retry_interval_s = retry_interval_s
        self.known_uids = known_uids
        self.stats = BridgeStats()
        self.port: Any = None
        self._buffer = bytearray()
        self._tx_seq = 0
        self._rx_seq: int | None = None
        self._state: dict[int, str] = {}  # channel → UID as last reported to the sink
        self._sync: dict[int, str] | None = None  # full report being collected
        self._retry_at = 0.0
        self._fault_reported = False
        self._frame = LedFrame()
        self._bits: tuple[bool, ...] | None = None
        self._closed = False
        self._now = 0.0

    # --- connection --------------------------------------------------------------------------
    @property
    def connected(self) -> bool:
        return self.port is not None

    def open(self, now: float = 0.0) -> SerialBridge:
        self._connect(now)
        return self

    def __enter__(self) -> SerialBridge:
        return self if self.connected else self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _connect(self, now: float) -> None:
        import serial

        try:
            self.port = serial.serial_for_url(self.url, baudrate=self.baudrate, timeout=0, write_timeout=1)
        except (serial.SerialException, OSError, ValueError) as exc:
            self._lost(now, f"cannot open {self.url}: {exc}")
            return
        self.stats.connects += 1
        self._buffer.clear()
        self._rx_seq = None
        self._sync = None
        if self._fault_reported:
            self._fault_reported = False
            self.sink(DeviceFault("serial bridge", f"reconnected on {self.url}", recovered=True))
        self._send("HELLO", PROTOCOL_VERSION)
        self._bits = None  # the bridge may have rebooted: send the LEDs again on the next poll

    def _lost(self, now: float, why: str) -> None:
        if self.port is not None:
            with contextlib.suppress(Exception):  # a dead port may fail to close in any way
                self.port.close()
            self.port = None
        if self._buffer:
            self.stats.partial += 1
            self._buffer.clear()
        self._retry_at = now + self.retry_interval_s
        if not self._fault_reported:
            self._fault_reported = True
            self.sink(DeviceFault("serial bridge", f"{why}; retrying every {self.retry_interval_s:g} s"))

    def _send(self, verb: str, *args: object) -> bool:
        if self.port is None:
            return False
        import serial

        try:
            self.port.write(encode(self._tx_seq, verb, *args))
        except (serial.SerialException, OSError) as exc:
            self._lost(self._now, str(exc))
            return False
        self._tx_seq = (self._tx_seq + 1) & 0xFF
        return True

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self.port is not None and self.led_map is not None:
            self._send("LED", self.led_map.size, bits_to_hex((False,) * self.led_map.size))
        if self.port is not None:
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
        self._refresh_leds(now)

    def _feed(self, data: bytes) -> None:
        self._buffer += data
        while True:
            newline = self._buffer.find(b"\n")
            if newline < 0:
                if len(self._buffer) > MAX_LINE:
                    self.stats.garbage += 1
                    self._buffer.clear()
                return
            raw = bytes(self._buffer[:newline])
            del self._buffer[: newline + 1]
            self._line(raw)

    def _line(self, raw: bytes) -> None:
        try:
            line = parse(raw, BRIDGE_VERBS)
        except LineError as exc:
            if exc.kind == "checksum":
                self.stats.bad_checksum += 1
            else:
                self.stats.garbage += 1
            log.debug("serial bridge: dropped line: %s", exc)
            return
        if self._rx_seq is not None and line.seq != (self._rx_seq + 1) & 0xFF:
            self.stats.lost += (line.seq - self._rx_seq - 1) & 0xFF
        self._rx_seq = line.seq
        self.stats.lines += 1
        self._apply(line)

    def _apply(self, line: Line) -> None:
        match line.verb:
            case "HELLO":
                self.stats.firmware, self.stats.readers = line.args[1], int(line.args[2])
                if line.args[0] != str(PROTOCOL_VERSION):
                    self.sink(
                        DeviceFault("serial bridge", f"speaks protocol {line.args[0]}, we speak {PROTOCOL_VERSION}")
                    )
                self._sync = {}
            case "TAG":
                channel, uid = self._channel(line.args[0]), self._uid(line.args[1])
                if channel is None:
                    return
                if self._sync is not None:
                    if uid is not None:
                        self._sync[channel] = uid
                else:
                    self._set(channel, uid)
            case "SYNC":
                report, self._sync = self._sync or {}, None
                for channel in sorted(set(self._state) | set(report)):
                    self._set(channel, report.get(channel))
            case "CARD":
                uid = self._uid(line.args[0])
                if uid is not None:
                    self._check_known(uid)
                    self.sink(CardScanned(uid))
            case "FAULT":
                self.sink(DeviceFault(self._device(line.args[0]), " ".join(line.args[1:])))
            case "RECOVERED":
                self.sink(DeviceFault(self._device(line.args[0]), "answering again", recovered=True))

    def _device(self, channel: str) -> str:
        name = "?"
        if channel.isdigit():
            name = self.cities.get(int(channel), "card" if int(channel) == self.card_channel else "?")
        return f"bridge reader {channel} ({name})"

    def _channel(self, text: str) -> int | None:
        if not text.isdigit():
            self.stats.garbage += 1
            return None
        return int(text)

    def _uid(self, text: str) -> str | None:
        if text == "-":
            return None
        try:
            return normalise_uid(text)
        except ValueError:
            self.stats.garbage += 1
            return None

    def _check_known(self, uid: str) -> None:
        if self.known_uids is not None and not self.known_uids(uid):
            self.stats.unknown_uids += 1
            log.warning("serial bridge: unknown tag %s", uid)

    def _set(self, channel: int, uid: str | None) -> None:
        old = self._state.get(channel)
        if old == uid:
            return
        if channel == self.card_channel:
            if uid is not None:
                self._check_known(uid)
                self.sink(CardScanned(uid))
            if uid is None:
                self._state.pop(channel, None)
            else:
                self._state[channel] = uid
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
    def show(self, frame: LedFrame, now: float) -> None:
        self._frame = frame
        self._now = now
        if self.port is not None:
            self._refresh_leds(now)

    def _refresh_leds(self, now: float) -> None:
        if self.led_map is None:
            return
        bits = render_bits(self._frame, self.led_map, now)
        if bits != self._bits and self._send("LED", len(bits), bits_to_hex(bits)):
            self._bits = bits
