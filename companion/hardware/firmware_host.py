"""Run the RP2040 bridge firmware (``firmware/rp2040``) under CPython against emulated readers.

A tiny ``machine`` / ``micropython`` / ``time`` shim (design/style.md point 20): ``machine.SPI(0)``
reaches the emulated MFRC522 chips of an :class:`EmulatedSpiBus` through the chip select the firmware
decodes from its own ``machine.Pin`` lines (strobe, A0..A2, B0..B2), the NRSTPD pins power banks
down and up, ``machine.SPI(1)`` shifts into an emulated 74HC595 chain latched by its RCLK pin, and
``time.ticks_us``/``sleep_us``/``ticks_ms``/``sleep_ms`` run on the bus clock. The firmware files are
loaded unchanged, with the shared modules (``mfrc522_core``, ``iso14443``, ``serial_protocol``,
``rf_groups``) taken from this package, exactly the files ``companion hardware flash`` copies.

Time: every SPI transaction costs its bits at the firmware's baud rate plus ``xfer_overhead_s`` (the
MicroPython cost of one ``write_readinto`` with its pin writes on an RP2040 at 125 MHz; a guess,
see ``RP2040_XFER_S``), and the firmware's sleeps pass on the same clock, so a sweep's duration in
``bus.now`` is an estimate of the real one.

    >>> with FirmwareHost() as host:              # the reference build: 45 readers
    ...     host.place(3, "04A1B2C3D4E5F6")
    ...     host.run(0.3)                         # 300 ms of firmware main loop
"""

from __future__ import annotations

import importlib.util
import os
import sys
import tty
import types
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from companion.hardware import iso14443, mfrc522_core, rf_groups, serial_protocol
from companion.hardware.emulated_mfrc522 import EmulatedSpiBus, EmulatedTag

FIRMWARE_DIR = Path(__file__).resolve().parents[2] / "firmware" / "rp2040"
SHARED_MODULES = {
    "iso14443": iso14443,
    "mfrc522_core": mfrc522_core,
    "serial_protocol": serial_protocol,
    "rf_groups": rf_groups,
}
FIRMWARE_MODULES = ("bridge_config", "vote", "usb", "hw", "scripts", "bridge")
# Guess: one machine.SPI.write_readinto() of a few bytes plus two Pin.value() calls and the bytes /
# bytearray allocations, in MicroPython on a 125 MHz RP2040 (~5 us per bytecode-level call).
RP2040_XFER_S = 30e-6


TICKS_PERIOD = 1 << 30  # the RP2040 port's MICROPY_PY_TIME_TICKS_PERIOD (its small ints are 31-bit)
_HALF = TICKS_PERIOD // 2


SIO_GPIO_OUT_SET = 0xD0000014  # RP2040 datasheet §2.3.1.7
SIO_GPIO_OUT_CLR = 0xD0000018
SIO_GPIO_OUT_XOR = 0xD000001C


def _tick(value: object, name: str) -> int:
    """A tick as the RP2040 port takes it: a small int in [0, 2**30); anything else fails loudly
    (the port itself would misread a long int's pointer as a tick)."""
    if not isinstance(value, int) or not 0 <= value < TICKS_PERIOD:
        raise OverflowError(f"{name}: {value!r} is not a tick (0 <= t < 2**30 on the RP2040)")
    return value


def ticks_diff(end: int, start: int) -> int:
    """MicroPython's extmod/modtime.c ``time_ticks_diff`` with the RP2040's period."""
    return ((_tick(end, "ticks_diff") - _tick(start, "ticks_diff") + _HALF) & (TICKS_PERIOD - 1)) - _HALF


def ticks_add(ticks: int, delta: int) -> int:
    """MicroPython's ``time_ticks_add``: OverflowError for a delta ticks_diff could not measure."""
    if not -_HALF <= delta < _HALF:
        raise OverflowError("ticks interval overflow")
    return (_tick(ticks, "ticks_add") + delta) % TICKS_PERIOD


def _shim_time(bus: EmulatedSpiBus, host: FirmwareHost, offset_us: int) -> types.ModuleType:
    """``time`` as on the RP2040: ticks wrap at 2**30 and start ``offset_us`` into the period."""
    mod = types.ModuleType("time")

    def ticks_us() -> int:
        return (round(bus.now * 1e6) + offset_us) % TICKS_PERIOD

    def ticks_ms() -> int:
        return (int(bus.now * 1000) + offset_us // 1000) % TICKS_PERIOD

    def sleep_us(us: float) -> None:
        host.advance(us / 1e6)

    def sleep_ms(ms: float) -> None:
        host.advance(ms / 1000)

    for name, fn in {
        "ticks_us": ticks_us,
        "ticks_ms": ticks_ms,
        "sleep_us": sleep_us,
        "sleep_ms": sleep_ms,
        "sleep": lambda s: host.advance(s),
        "ticks_diff": ticks_diff,
        "ticks_add": ticks_add,
        "time": lambda: bus.now,
    }.items():
        setattr(mod, name, fn)
    return mod


def _shim_micropython() -> types.ModuleType:
    mod = types.ModuleType("micropython")
    mod.const = lambda value: value  # type: ignore[attr-defined]
    mod.kbd_intr = lambda chr_: None  # type: ignore[attr-defined]
    return mod


class FirmwareReset(Exception):
    """The firmware called ``machine.reset()`` (the Pico would reboot here)."""


class FirmwareHost:
    """The firmware on emulated hardware; ``bridge`` is the firmware's own ``Bridge`` object."""

    def __init__(
        self,
        *,
        readers: int = 45,
        card_channel: int = 44,
        config: dict[str, Any] | None = None,
        xfer_overhead_s: float = RP2040_XFER_S,
        pty: bool = True,
        tick_offset_us: int = 0,
    ) -> None:
        self.bus = EmulatedSpiBus(0, xfer_overhead_s=xfer_overhead_s)
        for channel in range(readers):
            self.bus.add_chip(channel).soft_reset(0.0, power_up=True)  # powered up with the Pico: deaf 50 ms
        self.pins: dict[int, int] = {}
        self.events: list[tuple[float, Any]] = []  # (bus time, callable): things that happen mid-sweep
        self.sent: list[tuple[float, bytes]] = []  # (bus time, bytes) the firmware wrote to the host
        self.tick_offset_us = tick_offset_us
        self.led_chain: list[int] = []
        self.led_latched: list[int] = [1] * 256  # a 74HC595's storage register is undefined at power-up
        self.led_frames = 0  # LED frames the firmware shifted out and latched after set-up
        self.lit_while_booting = False  # an LED shone (OE low, a latched 1) before the first host frame
        self.wdt_feeds: list[float] = []
        self.modules = self._load({"READERS": readers, "CARD_CHANNEL": card_channel, **(config or {})})
        self.cfg = self.modules["bridge_config"]
        pins = self.cfg.PINS
        self._strobe, self._addr, self._bank, self._rst = pins["strobe"], pins["addr"], pins["bank"], pins["rst"]
        self.bus.selector = self._selected
        self._fds: list[int] = []
        port = None
        self.url = ""
        if pty:
            master, slave = os.openpty()
            tty.setraw(slave)  # no echo, no line discipline: bytes pass through as on USB CDC
            self._fds = [slave]
            self.url = os.ttyname(slave)
            port = self.modules["usb"].UsbPort(
                os.fdopen(master, "rb", buffering=0), _Recorder(os.fdopen(os.dup(master), "wb", buffering=0), self)
            )
            self._streams = (port.inp, port.out)
        self.bridge = self.modules["bridge"].Bridge(port=port) if port is not None else None

    # --- the shim -----------------------------------------------------------------------------
    def _selected(self, _device: int) -> int | None:
        if self.pins.get(self._strobe, 1):
            return None  # strobe high: no reader selected
        addr = sum(self.pins.get(p, 0) << i for i, p in enumerate(self._addr))
        bank = sum(self.pins.get(p, 0) << i for i, p in enumerate(self._bank))
        return bank * 8 + addr

    def _pin_changed(self, pin: int, old: int, new: int) -> None:
        if pin in getattr(self, "_rst", ()):
            bank = self._rst.index(pin)
            for channel, chip in self.bus.chips.items():
                if channel // 8 == bank:
                    chip.hard_reset(new == 0, self.bus.now)
        if pin == self.cfg.PINS["led_latch"] and old == 0 and new == 1:
            self.led_latched = list(self.led_chain)
        bridge = getattr(self, "bridge", None)
        before_first_frame = bridge is None or not bridge.link.led_nbits
        if self.pins.get(self.cfg.PINS["led_oe"], 1) == 0 and before_first_frame:
            self.lit_while_booting = self.lit_while_booting or any(self.led_latched[: self.cfg.LED_BITS])

    def _shim_machine(self) -> types.ModuleType:
        host = self
        mod = types.ModuleType("machine")

        class Pin:
            OUT, IN, PULL_UP, PULL_DOWN, OPEN_DRAIN = 1, 0, 1, 2, 2

            def __init__(self, pin: int, mode: int = -1, pull: int = -1, value: int | None = None) -> None:
                self.id = pin
                if value is not None:
                    self.value(value)

            def value(self, v: int | None = None) -> int:
                if v is None:
                    return host.pins.get(self.id, 0)
                old = host.pins.get(self.id, 0)
                host.pins[self.id] = 1 if v else 0
                host._pin_changed(self.id, old, host.pins[self.id])
                return host.pins[self.id]

            def on(self) -> None:
                self.value(1)

            def off(self) -> None:
                self.value(0)

            __call__ = value

        class SPI:
            def __init__(self, spi_id: int, baudrate: int = 1_000_000, **_: Any) -> None:
                self.spi_id = spi_id
                self.baudrate = baudrate

            def write_readinto(self, tx: bytes, rx: bytearray) -> None:
                host.fire_events()
                rx[:] = bytes(host.bus.xfer(0, list(tx), self.baudrate))

            def write(self, data: bytes) -> None:
                if self.spi_id == 1:  # the LED chain: MSB first into QA of the first 74HC595
                    for byte in data:
                        for bit in range(7, -1, -1):
                            host.led_chain.insert(0, (byte >> bit) & 1)
                    del host.led_chain[host.cfg.LED_BITS + 8 :]
                    host.bus.sleep(len(data) * 8 / self.baudrate)
                else:
                    host.bus.xfer(0, list(data), self.baudrate)

        class Mem32:
            """RP2040 SIO GPIO_OUT_SET/CLR/XOR stores (RP2040 datasheet §2.3.1.7); nothing else."""

            def __setitem__(self, addr: int, mask: int) -> None:
                ops = {SIO_GPIO_OUT_SET: "set", SIO_GPIO_OUT_CLR: "clr", SIO_GPIO_OUT_XOR: "xor"}
                if addr not in ops:
                    raise ValueError(f"mem32[0x{addr:08X}]: only SIO GPIO_OUT_SET/CLR/XOR are emulated")
                for pin in range(30):
                    if mask >> pin & 1:
                        old = host.pins.get(pin, 0)
                        new = {"set": 1, "clr": 0, "xor": old ^ 1}[ops[addr]]
                        host.pins[pin] = new
                        if new != old:
                            host._pin_changed(pin, old, new)

        class WDT:
            def __init__(self, id: int = 0, timeout: int = 5000) -> None:
                self.timeout_ms = timeout
                host.wdt_feeds.append(host.bus.now)

            def feed(self) -> None:
                host.wdt_feeds.append(host.bus.now)

        def reset() -> None:
            raise FirmwareReset("machine.reset()")

        mod.Pin = Pin  # type: ignore[attr-defined]
        mod.SPI = SPI  # type: ignore[attr-defined]
        mod.WDT = WDT  # type: ignore[attr-defined]
        mod.mem32 = Mem32()  # type: ignore[attr-defined]
        mod.reset = reset  # type: ignore[attr-defined]
        mod.unique_id = lambda: b"\xe6\x61\x41\x04\x03\x2b\x2a\x2b"  # type: ignore[attr-defined]
        return mod

    def _load(self, overrides: dict[str, Any]) -> dict[str, types.ModuleType]:
        shims = {
            "machine": self._shim_machine(),
            "micropython": _shim_micropython(),
            "time": _shim_time(self.bus, self, self.tick_offset_us),
        }
        names = [*shims, *SHARED_MODULES, *FIRMWARE_MODULES]
        saved = {name: sys.modules.get(name) for name in names}
        loaded: dict[str, types.ModuleType] = {}
        try:
            sys.modules.update(shims)
            sys.modules.update(SHARED_MODULES)
            for name in FIRMWARE_MODULES:
                spec = importlib.util.spec_from_file_location(name, FIRMWARE_DIR / f"{name}.py")
                assert spec is not None and spec.loader is not None
                module = importlib.util.module_from_spec(spec)
                sys.modules[name] = module
                spec.loader.exec_module(module)
                if name == "bridge_config":
                    for key, value in overrides.items():
                        setattr(module, key, value)
                loaded[name] = module
        finally:
            for name, before in saved.items():
                if before is None:
                    sys.modules.pop(name, None)
                else:
                    sys.modules[name] = before
        return loaded

    # --- helpers ------------------------------------------------------------------------------
    @property
    def now(self) -> float:
        return self.bus.now

    def at(self, when: float, action: Any) -> None:
        """Run ``action()`` when the bus clock reaches ``when`` (in the middle of a sweep, say)."""
        self.events.append((when, action))
        self.events.sort(key=lambda e: e[0])

    def fire_events(self) -> None:
        while self.events and self.events[0][0] <= self.bus.now:
            _, action = self.events.pop(0)
            action()

    def advance(self, seconds: float) -> None:
        """The firmware sleeps: time passes, and the events due meanwhile happen at their time."""
        until = self.bus.now + seconds
        while self.events and self.events[0][0] < until:
            self.bus.sleep(max(0.0, self.events[0][0] - self.bus.now))
            self.fire_events()
        self.bus.sleep(until - self.bus.now)

    def place(self, channel: int, uid: str, *, ready_after_s: float = 0.005) -> None:
        tag = EmulatedTag.from_hex(uid)
        tag.ready_after_s = ready_after_s
        self.bus.chips[channel].place(tag)

    def lift(self, channel: int) -> None:
        self.bus.chips[channel].tags.clear()

    def step(self) -> None:
        assert self.bridge is not None
        self.bridge.step()

    def run(self, seconds: float) -> None:
        until = self.bus.now + seconds
        while self.bus.now < until:
            self.step()

    def led_bits(self, nbits: int) -> tuple[bool, ...]:
        """The latched 74HC595 outputs: bit i = output i of the chain (QA of the first chip = 0)."""
        return tuple(bool(self.led_latched[i]) if i < len(self.led_latched) else False for i in range(nbits))

    def close(self) -> None:
        for stream in getattr(self, "_streams", ()):
            stream.close()
        for fd in self._fds:
            with suppress(OSError):
                os.close(fd)
        self._fds = []

    def __enter__(self) -> FirmwareHost:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _Recorder:
    """The firmware's USB output stream, noting when each write happened (bus time)."""

    def __init__(self, stream: Any, host: FirmwareHost) -> None:
        self.stream, self.host = stream, host

    def write(self, data: bytes) -> int:
        self.host.sent.append((self.host.bus.now, bytes(data)))
        return int(self.stream.write(data))

    def close(self) -> None:
        self.stream.close()


@contextmanager
def firmware_modules(**kwargs: Any) -> Iterator[dict[str, types.ModuleType]]:
    """The firmware's modules loaded on the shim without a serial port (for unit tests)."""
    host = FirmwareHost(pty=False, **kwargs)
    try:
        yield host.modules
    finally:
        host.close()
