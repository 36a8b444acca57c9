"""Presence polling and UID reading for one MFRC522, over the ``mfrc522`` package's register access.

We use the library for what it does well (``Write_MFRC522``/``Read_MFRC522``, ``MFRC522_Init``) and
replace its ``MFRC522_ToCard`` wait: in mfrc522 0.0.7 that loop's condition is built from ``~`` on
booleans, so it never sees the timer interrupt and an empty reader costs ~2 000 register reads. Here
the receive timer is set to ``timeout_s`` (1 ms by default), a transceive is split in ``start`` and
``finish`` so a sweep can start all readers and then collect the answers while their timers run in
parallel, and ``finish`` waits on the right interrupt bits (Rx, Timer, Err) with a bounded number of
reads. A present tag is put to sleep with HLTA after each poll, so the next WUPA wakes it again (a
tag left in READY would miss every other REQA/WUPA). UIDs of 4, 7 and 10 bytes are read through the
cascade levels, with bit-wise anticollision when two tags answer at once.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any, Protocol

from companion.hardware.iso14443 import (
    CASCADE_TAG,
    HLTA,
    NVB_SELECT,
    SAK_CASCADE,
    SEL_CL,
    WUPA,
    bcc,
    crc_a,
)

COMMAND, COMM_IRQ, ERROR, FIFO_DATA, FIFO_LEVEL, CONTROL, BIT_FRAMING, COLL = (
    0x01,
    0x04,
    0x06,
    0x09,
    0x0A,
    0x0C,
    0x0D,
    0x0E,
)
T_MODE, T_PRESCALER, T_RELOAD_H, T_RELOAD_L, VERSION, TX_CONTROL = 0x2A, 0x2B, 0x2C, 0x2D, 0x37, 0x14
CMD_IDLE, CMD_TRANSCEIVE = 0x00, 0x0C
IRQ_RX, IRQ_IDLE, IRQ_ERR, IRQ_TIMER = 0x20, 0x10, 0x02, 0x01
ERR_FATAL = 0x17  # BufferOvfl | CRCErr | ParityErr | ProtocolErr
ERR_COLL = 0x08

KNOWN_VERSIONS = {
    0x91: "MFRC522 v1.0",
    0x92: "MFRC522 v2.0",
    0x88: "FM17522 clone",
    0x12: "counterfeit",
    0xB2: "FM17522 clone",
}
TIMER_PRESCALER = 169  # (2*169+1)/13.56 MHz = 25 us per timer tick
BIT_TIME_S = 128 / 13.56e6
ANSWER_WAIT_S = 0.0005  # first look at CommIrqReg this long after our frame ends
TIMER_MARGIN_S = 0.00005


class RegisterApi(Protocol):
    """The part of ``mfrc522.MFRC522`` we rely on (``spi`` is the ``spidev.SpiDev`` it opened)."""

    spi: Any

    def Write_MFRC522(self, addr: int, val: int) -> None: ...

    def Read_MFRC522(self, addr: int) -> int: ...

    def MFRC522_Init(self) -> None: ...


class Status(Enum):
    OK = "ok"
    TIMEOUT = "timeout"  # nobody answered before the receive timer ran out: no tag
    COLLISION = "collision"  # two tags answered with different bits
    ERROR = "error"  # parity/CRC/protocol error, or a frame that makes no sense
    NO_IRQ = "no_irq"  # the chip never signalled anything: dead reader, or MISO held by another


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
    """One chip, already selected on the bus by the caller. ``clock``/``sleep`` are injectable."""

    def __init__(
        self,
        lib: RegisterApi,
        *,
        timeout_s: float = 0.001,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        max_polls: int = 4,
    ) -> None:
        self.lib = lib
        self.timeout_s = timeout_s
        self.clock = clock
        self.sleep = sleep
        self.max_polls = max_polls
        self._expect_by = 0.0
        self._answer_at = 0.0
        self._reload_low = -1
        self.collisions = 0

    # --- register access ---------------------------------------------------------------------
    def write(self, reg: int, value: int) -> None:
        self.lib.Write_MFRC522(reg, value)

    def read(self, reg: int) -> int:
        return int(self.lib.Read_MFRC522(reg))

    def write_fifo(self, data: bytes) -> None:
        # One transaction: the MFRC522 writes every byte after the address to the same register.
        self.lib.spi.xfer2([(FIFO_DATA << 1) & 0x7E, *data])

    def read_fifo(self, count: int) -> bytes:
        addr = ((FIFO_DATA << 1) & 0x7E) | 0x80
        return bytes(self.lib.spi.xfer2([addr] * count + [0])[1:])

    # --- set-up ------------------------------------------------------------------------------
    def version(self) -> int:
        return self.read(VERSION)

    def init(self) -> None:
        """The library's reset and antenna set-up, then our short receive timer."""
        self.lib.MFRC522_Init()
        ticks = max(1, round(self.timeout_s * 13.56e6 / (2 * TIMER_PRESCALER + 1))) - 1
        self.write(T_MODE, 0x80 | (TIMER_PRESCALER >> 8))  # TAuto: start at the end of transmission
        self.write(T_PRESCALER, TIMER_PRESCALER & 0xFF)
        self.write(T_RELOAD_H, ticks >> 8)
        self.write(T_RELOAD_L, ticks & 0xFF)
        self._reload_low = ticks & 0xFF

    def configured(self) -> bool:
        """Still set up as :meth:`init` left it? A power dip resets the chip: antenna off, slow timer."""
        return self.read(TX_CONTROL) & 0x03 == 0x03 and self.read(T_RELOAD_L) == self._reload_low

    # --- transceive in two halves ------------------------------------------------------------
    def start(self, data: bytes, tx_last_bits: int = 0, rx_align: int = 0, *, fresh: bool = True) -> None:
        """Load the FIFO and send. ``fresh=False`` reuses the Transceive command still running."""
        framing = (rx_align << 4) | tx_last_bits
        if fresh:
            self.write(COMMAND, CMD_IDLE)
            self.write(COMM_IRQ, 0x7F)
            self.write(FIFO_LEVEL, 0x80)
            self.write(BIT_FRAMING, framing)
            self.write_fifo(data)
            self.write(COMMAND, CMD_TRANSCEIVE)
        else:
            self.write(COMM_IRQ, 0x7F)
            self.write(BIT_FRAMING, framing)
            self.write_fifo(data)
        self.write(BIT_FRAMING, 0x80 | framing)
        tx_bits = len(data) * 8 - ((8 - tx_last_bits) % 8)
        tx_end = self.clock() + tx_bits * BIT_TIME_S
        # A tag answers ~90 us after our frame; 40 bits (anticollision) take ~380 us more.
        self._answer_at = tx_end + ANSWER_WAIT_S
        self._expect_by = tx_end + self.timeout_s + TIMER_MARGIN_S

    def finish(self) -> Reception:
        """Wait for the answer or the timer: read CommIrqReg when an answer is due, then at the timeout."""
        irq = 0
        for _ in range(self.max_polls):
            now = self.clock()
            if now < self._answer_at:
                self.sleep(self._answer_at - now)
            irq = self.read(COMM_IRQ)
            if irq & (IRQ_RX | IRQ_IDLE | IRQ_TIMER | IRQ_ERR):
                break
            now = self.clock()
            if now >= self._expect_by:
                return Reception(Status.NO_IRQ)
            self.sleep(self._expect_by - now)  # no answer yet: the next look is at the timeout
        else:
            return Reception(Status.NO_IRQ)
        if not irq & (IRQ_RX | IRQ_IDLE):
            return Reception(Status.ERROR if irq & IRQ_ERR else Status.TIMEOUT)
        error = self.read(ERROR)
        if error & ERR_FATAL:
            return Reception(Status.ERROR)
        level = self.read(FIFO_LEVEL)
        last = self.read(CONTROL) & 0x07
        if level == 0 or level > 64:
            return Reception(Status.ERROR)
        data = self.read_fifo(level)
        bits = (level - 1) * 8 + last if last else level * 8
        if error & ERR_COLL:
            coll = self.read(COLL)
            if coll & 0x20:  # CollPosNotValid
                return Reception(Status.ERROR)
            pos = (coll & 0x1F) or 32
            return Reception(Status.COLLISION, data, bits, pos - 1)
        return Reception(Status.OK, data, bits)

    def transceive(self, data: bytes, tx_last_bits: int = 0, rx_align: int = 0, *, fresh: bool = True) -> Reception:
        self.start(data, tx_last_bits, rx_align, fresh=fresh)
        return self.finish()

    # --- ISO 14443-3 -------------------------------------------------------------------------
    def start_wakeup(self) -> None:
        """WUPA (7 bits): every tag in the field answers, halted ones too."""
        self.start(bytes((WUPA,)), tx_last_bits=7)

    def halt(self) -> None:
        """HLTA, sent and not waited for: the tag answers nothing and sleeps until the next WUPA."""
        frame = bytes((HLTA, 0))
        self.write(BIT_FRAMING, 0x00)
        self.write_fifo(frame + crc_a(frame))
        self.write(BIT_FRAMING, 0x80)

    def read_uid(self) -> UidRead:
        """Anticollision and SELECT over the cascade levels; the tags must be READY (after WUPA)."""
        uid = bytearray()
        collided = False
        for sel in SEL_CL:
            level, status, coll = self._anticollision(sel)
            collided = collided or coll
            if level is None:
                return UidRead(None, collided, status)
            answer = self.transceive(
                bytes((sel, NVB_SELECT)) + level + crc_a(bytes((sel, NVB_SELECT)) + level), fresh=False
            )
            if answer.status is not Status.OK or answer.bits != 24 or crc_a(answer.data[:1]) != answer.data[1:3]:
                return UidRead(None, collided, Status.ERROR if answer.status is Status.OK else answer.status)
            sak = answer.data[0]
            if level[0] == CASCADE_TAG and sak & SAK_CASCADE:
                uid += level[1:4]
                continue
            uid += level[:4]
            self.halt()
            return UidRead(bytes(uid), collided)
        return UidRead(None, collided, Status.ERROR)

    def _anticollision(self, sel: int) -> tuple[bytes | None, Status, bool]:
        """One cascade level: the 4 UID bytes + BCC, walking the '1' branch at each collision."""
        field = bytearray(5)
        known = 0
        collided = False
        for _ in range(33):
            nvb = ((2 + known // 8) << 4) | (known % 8)
            partial = (known + 7) // 8
            frame = bytes((sel, nvb)) + bytes(field[:partial])
            answer = self.transceive(frame, known % 8, known % 8, fresh=False)
            if answer.status not in (Status.OK, Status.COLLISION):
                return None, answer.status, collided
            start_byte = known // 8
            for i, byte in enumerate(answer.data):
                if start_byte + i >= 5:
                    break
                if i == 0 and known % 8:
                    keep = (1 << (known % 8)) - 1
                    field[start_byte] = (field[start_byte] & keep) | (byte & ~keep & 0xFF)
                else:
                    field[start_byte + i] = byte
            if answer.status is Status.OK:
                if start_byte * 8 + answer.bits < 40 or bcc(field[:4]) != field[4]:
                    return None, Status.ERROR, collided
                return bytes(field), Status.OK, collided
            assert answer.collision_bit is not None
            position = start_byte * 8 + answer.collision_bit
            if position < known or position >= 40:
                return None, Status.ERROR, collided
            collided = True
            self.collisions += 1
            field[position // 8] |= 1 << (position % 8)  # take the '1' branch
            field[position // 8] &= (1 << (position % 8 + 1)) - 1
            known = position + 1
        return None, Status.ERROR, collided
