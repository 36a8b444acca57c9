"""Presence polling and UID reading for one MFRC522 on the Pi's SPI bus (the direct-SPI path).

The register logic is :class:`companion.hardware.mfrc522_core.Chip`, the same file the RP2040
firmware runs; this module adapts it to ``spidev`` (through the ``mfrc522`` package's ``spi`` object,
which the chip-select wrappers wrap) and to the host's clock in seconds, and gives typed results.

From the ``mfrc522`` package we only use the opened ``spidev`` and its reset-pin set-up: its
``MFRC522_ToCard`` wait is built from ``~`` on booleans, so it never sees the timer interrupt (an
empty reader costs ~2 000 register reads), and its ``MFRC522_Init`` writes the configuration right
after SoftReset without waiting for the chip. :meth:`Mfrc522Driver.init` resets, waits for the
oscillator (bounded), writes every configuration register and reads them all back.

A transceive is split in ``start`` and ``finish`` so a sweep can start every reader of a group and
then collect the answers while their receive timers run in parallel; ``finish`` looks first when an
answer would be complete ((9n + 2) bit times on air, ISO/IEC 14443-3) and otherwise at the timeout,
and never ends on the error interrupt alone. UIDs of 4, 7 and 10 bytes are read through the cascade
levels, with bit-wise anticollision when two tags answer at once.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any, Protocol

from companion.hardware import mfrc522_core as core
from companion.hardware.mfrc522_core import KNOWN_VERSIONS  # noqa: F401  (re-exported)


class RegisterApi(Protocol):
    """The part of ``mfrc522.MFRC522`` we rely on: ``spi`` is the ``spidev.SpiDev`` it opened."""

    spi: Any


class Status(Enum):
    OK = "ok"
    TIMEOUT = "timeout"  # nobody answered before the receive timer ran out: no tag
    COLLISION = "collision"  # two tags answered with different bits
    ERROR = "error"  # parity/CRC/protocol error, or a frame that makes no sense
    NO_IRQ = "no_irq"  # the chip never signalled anything: dead reader, or MISO held by another


_STATUS = {
    core.OK: Status.OK,
    core.TIMEOUT: Status.TIMEOUT,
    core.COLLISION: Status.COLLISION,
    core.ERROR_STATUS: Status.ERROR,
    core.NO_IRQ: Status.NO_IRQ,
}


@dataclass(frozen=True, slots=True)
class Reception:
    status: Status
    data: bytes = b""
    bits: int = 0
    collision_bit: int | None = None  # 0-based bit position in the received frame (RxAlign counted)


@dataclass(frozen=True, slots=True)
class UidRead:
    uid: bytes | None
    collided: bool = False
    status: Status = Status.OK


class Mfrc522Driver:
    """One chip, already selected on the bus by the caller. ``clock``/``sleep`` (seconds) are injectable."""

    def __init__(
        self,
        lib: RegisterApi,
        *,
        timeout_s: float = 0.001,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        max_polls: int = 4,
        antenna_idle: bool = True,
    ) -> None:
        self.lib = lib
        self.timeout_s = timeout_s
        self.clock = clock
        self.sleep = sleep
        self.chip = core.Chip(
            lambda data: list(self.lib.spi.xfer2(data)),
            lambda: round(self.clock() * 1e6),
            lambda us: self.sleep(us / 1e6),
            timeout_us=round(timeout_s * 1e6),
            max_polls=max_polls,
            antenna_idle=antenna_idle,
        )

    @property
    def collisions(self) -> int:
        return self.chip.collisions

    # --- register access ---------------------------------------------------------------------
    def write(self, reg: int, value: int) -> None:
        self.chip.write(reg, value)

    def read(self, reg: int) -> int:
        return self.chip.read(reg)

    def write_fifo(self, data: bytes) -> None:
        self.chip.write_fifo(data)

    def read_fifo(self, count: int) -> bytes:
        return self.chip.read_fifo(count)

    # --- set-up ------------------------------------------------------------------------------
    def version(self) -> int:
        return self.chip.version()

    def init(self) -> bool:
        """Reset (waiting for the oscillator), write and read back every configuration register."""
        return bool(self.chip.init())

    def configured(self) -> bool:
        """Still set up as :meth:`init` left it? A power dip resets the chip: slow timer, no CRC preset."""
        return bool(self.chip.configured())

    def antenna(self, on: bool) -> None:
        self.chip.antenna(on)

    # --- transceive in two halves ------------------------------------------------------------
    def start(self, data: bytes, tx_last_bits: int = 0, rx_align: int = 0, *, fresh: bool = True) -> None:
        """Load the FIFO and send. ``fresh=False`` reuses the Transceive command still running."""
        self.chip.start(data, tx_last_bits, rx_align, fresh)

    def finish(self) -> Reception:
        status, data, bits, coll = self.chip.finish()
        return Reception(_STATUS[status], bytes(data), bits, coll)

    def transceive(self, data: bytes, tx_last_bits: int = 0, rx_align: int = 0, *, fresh: bool = True) -> Reception:
        self.start(data, tx_last_bits, rx_align, fresh=fresh)
        return self.finish()

    # --- ISO 14443-3 -------------------------------------------------------------------------
    def start_wakeup(self) -> None:
        """WUPA (7 bits): every tag in the field answers, halted ones too."""
        self.chip.start_wakeup()

    def prepare_wakeup(self) -> None:
        """WUPA loaded but not sent (nothing on air): done during the guard time."""
        self.chip.prepare_wakeup()

    def send_wakeup(self) -> None:
        self.chip.send_wakeup()

    def halt(self) -> None:
        """HLTA, sent and not waited for (only needed when the antenna stays on between polls)."""
        self.chip.halt()

    def read_uid(self) -> UidRead:
        """Anticollision and SELECT over the cascade levels; the tags must be READY (after WUPA)."""
        uid, collided, status = self.chip.read_uid()
        if uid is not None and self.chip.antenna_idle:
            self.chip.halt()  # the field stays on: HALT it, or the next WUPA finds it ACTIVE and misses
        return UidRead(None if uid is None else bytes(uid), collided, _STATUS[status])
