"""An MFRC522 emulator behind a fake ``spidev`` and a fake ``RPi.GPIO``, shipped with the package.

The real ``mfrc522`` library (0.0.7 imports ``spidev`` and ``RPi.GPIO`` at import time) and our own
driver run unchanged against it: :func:`installed` puts the fake modules in ``sys.modules`` (and
re-points an already imported ``mfrc522.MFRC522``) for as long as the context lasts. The RP2040
firmware reaches the same chips through ``firmware/shim`` (``machine.SPI`` / ``machine.Pin``).

What is emulated, register by register, is what the code paths touch: soft reset (with the time the
oscillator takes), VersionReg, FIFO (single and burst access), CommIrq/DivIrq with Set1 semantics,
ErrorReg, ControlReg.RxLastBits, BitFramingReg (TxLastBits, RxAlign, StartSend), CollReg, the timer
(TAuto, prescaler, reload), the antenna drivers, the CRC coprocessor, and ISO 14443-3 tags
(REQA/WUPA, anticollision over all cascade levels with real bit collisions, SELECT with CRC_A, HLTA,
the IDLE/READY/ACTIVE/HALT states, power from the field). Time is the bus's own clock: every transfer
advances it by its duration at ``max_speed_hz`` (plus an optional per-transfer overhead), and
:meth:`EmulatedSpiBus.sleep` advances it without a transfer. Faults can be injected: a dead reader
(MISO stuck), read errors (CRC/parity), two tags on one reader, RF coupling between readers.

The register numbers come from :mod:`companion.hardware.mfrc522_core` (one set in the repo). The
*behaviour* is written here independently from the driver, from the documents, so that a driver bug
is not mirrored (each assumption is cited; "guess" marks what no document fixes):

* a frame on air takes (9n + 2) bit times of 128/fc (8 data + 1 parity bit per byte, start and end
  bits; a short frame 9): ISO/IEC 14443-3 §6.1, §6.2.3. Bytes land in the FIFO as each one completes.
* the tag answers 1236/fc after the end of our frame: ISO/IEC 14443-3 §6.2.1.2.
* a parity/CRC error or a collision raises ErrIRq while the frame is still arriving (at the bit where
  it is detected); RxIRq only at its end (DS §9.3.1.5, and MB ends its wait on RxIRq/IdleIRq/TimerIRq
  only). A driver that stops on ErrIRq reads a half-filled FIFO.
* after SoftReset the PowerDown bit of CommandReg reads 1 until the chip runs again (DS §8.8.2,
  §9.3.1.2): 38 us (the internal 37.74 us). Register writes in that time are lost (a guess, the
  conservative one: MB waits before writing anything).
* after power-up / NRSTPD release the chip is deaf for ``startup_s`` = 50 ms: every read returns
  0x00 (VersionReg too) and every write is lost. DS §8.8.2 gives the start-up as the crystal's
  start-up time + 37.74 us and leaves the crystal's time open; the reference driver (MB
  ``PCD_Init``) waits 50 ms ("Let us be generous"). The emulator takes the pessimistic end: all of
  it, so firmware that reads VersionReg sooner sees a dead reader.
* a tag is powered only by a field: on its own reader's antenna, or a coupled reader's with strength
  ≥ ``POWER_COUPLING`` (1.0: strengths are normalised so, see ``loop_field``). It accepts commands
  ``ready_after_s`` after the field reaches it (ISO/IEC 14443-3 §5.2.1 allows up to 5 ms;
  ``TAG_READY_WORST_S``), and loses its state when the field goes (POWER-OFF → IDLE, §6.3.1).
* RF coupling (:meth:`EmulatedSpiBus.couple`): while reader B powers a tag, a coupled reader A's
  frames reach that tag too (it changes state: a WUPA wakes it, a later frame knocks it back to IDLE,
  ISO §6.3), and A receives its answers as if the tag were on A's own antenna (a ghost read), when
  the strength is ≥ ``HEAR_COUPLING``. The strength comes from the antennas' geometry
  (:func:`companion.hardware.loop_field.coupling`, the field of a circular loop through the tag, 1.0 =
  the neighbour's field alone powers the tag; ``EmulatedTable.place_antennas``) or is set by a test.
"""

from __future__ import annotations

import contextlib
import sys
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from companion.hardware.iso14443 import (
    HLTA,
    NVB_SELECT,
    REQA,
    SAK_CASCADE,
    SEL_CL,
    WUPA,
    bcc,
    bits_to_bytes,
    bytes_to_bits,
    cascade_levels,
    crc_a,
)
from companion.hardware.mfrc522_core import (
    BIT_FRAMING,
    CMD_AUTHENT,
    CMD_CALC_CRC,
    CMD_IDLE,
    CMD_SOFT_RESET,
    CMD_TRANSCEIVE,
    COLL,
    COMM_IEN,
    COMM_IRQ,
    COMMAND,
    CONTROL,
    CRC_RESULT_L,
    CRC_RESULT_M,
    DIV_IRQ,
    ERR_COLL,
    ERR_CRC,
    ERR_PARITY,
    ERROR,
    FIFO_DATA,
    FIFO_LEVEL,
    IRQ_ERR,
    IRQ_RX,
    IRQ_TIMER,
    IRQ_TX,
    MODE,
    POWER_DOWN,
    STATUS1,
    STATUS2,
    T_MODE,
    T_PRESCALER,
    T_RELOAD_H,
    T_RELOAD_L,
    TX_CONTROL,
    VERSION,
)

CARRIER_HZ = 13.56e6
BIT_TIME_S = 128 / CARRIER_HZ  # 106 kbit/s, ISO/IEC 14443-3 §6.1
FRAME_DELAY_S = 1236 / CARRIER_HZ  # PICC answers ~91 us after the end of the PCD frame, §6.2.1.2
TAG_READY_WORST_S = 0.005  # a tag may take up to 5 ms in a field before it accepts REQA/WUPA, §5.2.1
POWER_COUPLING = 1.0  # the neighbour's field alone reaches the activation field (loop_field's unit)
# guess, the pessimistic side: a tag whose own reader gives it ~20x the activation field still hears
# a neighbour whose field there is a tenth of it, and the neighbour hears the tag's answers.
HEAR_COUPLING = 0.1


def air_bits(nbits: int) -> int:
    """Bit times on air for ``nbits`` data bits: start + a parity bit per whole byte + end (§6.2.3)."""
    if nbits == 7:
        return 9  # short frame
    return 2 + nbits + nbits // 8


_RESET_VALUES = {
    COMMAND: 0x20,
    COMM_IEN: 0x80,
    FIFO_LEVEL: 0x00,
    CONTROL: 0x10,
    MODE: 0x3F,
    TX_CONTROL: 0x80,
    0x15: 0x00,
    0x18: 0x84,
    0x19: 0x4D,
    0x26: 0x48,
    0x27: 0x88,
}


class TagState(Enum):
    IDLE = "idle"
    READY = "ready"
    ACTIVE = "active"
    HALT = "halt"


@dataclass
class EmulatedTag:
    """An ISO 14443-3 type A tag: a 4-byte MIFARE Classic or a 7-byte NTAG sticker."""

    uid: bytes
    atqa: bytes = b""
    sak: int = -1
    state: TagState = TagState.IDLE
    halted: bool = False  # woken from HALT: falls back to HALT rather than IDLE on an error
    level: int = 0
    ready_after_s: float = 0.0  # time in a field before it accepts commands (ISO allows up to 5 ms)
    powered: bool = False
    powered_at: float = 0.0

    def __post_init__(self) -> None:
        self.levels = cascade_levels(self.uid)
        if not self.atqa:
            self.atqa = b"\x44\x00" if len(self.uid) == 7 else b"\x04\x00"
        if self.sak < 0:
            self.sak = 0x00 if len(self.uid) == 7 else 0x08

    @classmethod
    def from_hex(cls, uid: str) -> EmulatedTag:
        return cls(bytes.fromhex(uid))

    def power_off(self) -> None:
        self.state, self.halted, self.level = TagState.IDLE, False, 0

    def set_power(self, powered: bool, now: float) -> None:
        if powered and not self.powered:
            self.powered, self.powered_at = True, now
            self.power_off()  # POWER-OFF → IDLE (ISO/IEC 14443-3 §6.3.1)
        elif not powered and self.powered:
            self.powered = False
            self.power_off()

    def ready(self, now: float) -> bool:
        return self.powered and now >= self.powered_at + self.ready_after_s

    def _error(self) -> None:
        self.state = TagState.HALT if self.halted else TagState.IDLE
        self.level = 0

    def respond(self, bits: list[int]) -> list[int] | None:
        """The tag's answer (air-order bits) to one PCD frame, or None when it stays silent."""
        if len(bits) == 7:
            code = bits_to_bytes(bits)[0]
            if code == WUPA and self.state in (TagState.IDLE, TagState.HALT):
                self.halted = self.state is TagState.HALT
                self.state, self.level = TagState.READY, 0
                return bytes_to_bits(self.atqa)
            if code == REQA and self.state is TagState.IDLE:
                self.state, self.level = TagState.READY, 0
                return bytes_to_bits(self.atqa)
            if self.state in (TagState.READY, TagState.ACTIVE):
                self._error()
            return None
        if len(bits) < 16:
            return None
        data = bits_to_bytes(bits)
        if self.state is TagState.READY and data[0] in SEL_CL:
            return self._anticollision_or_select(bits, data)
        if self.state is TagState.ACTIVE and len(bits) == 32 and data[:2] == bytes((HLTA, 0)):
            if crc_a(data[:2]) == data[2:4]:
                self.state = TagState.HALT
            return None
        if self.state in (TagState.READY, TagState.ACTIVE):
            self._error()
        return None

    def _anticollision_or_select(self, bits: list[int], data: bytes) -> list[int] | None:
        if SEL_CL.index(data[0]) != self.level:
            return None
        field_bytes = self.levels[self.level] + bytes((bcc(self.levels[self.level]),))
        if data[1] == NVB_SELECT and len(bits) == 72:
            if crc_a(data[:7]) != data[7:9] or data[2:7] != field_bytes:
                return None  # not for us, or corrupted: stay READY and silent
            if self.level + 1 < len(self.levels):
                self.level += 1
                sak = SAK_CASCADE
            else:
                self.state = TagState.ACTIVE
                sak = self.sak
            return bytes_to_bits(bytes((sak,)) + crc_a(bytes((sak,))))
        known = ((data[1] >> 4) - 2) * 8 + (data[1] & 0x0F)
        if not 0 <= known < 40 or len(bits) != 16 + known:
            return None
        field_bits = bytes_to_bits(field_bytes)
        if bits[16:] != field_bits[:known]:
            return None  # another tag's branch of the anticollision tree
        return field_bits[known:]


@dataclass
class _Pending:
    rx_start: float = 0.0
    rx_at: float | None = None
    rx_bytes: bytes = b""
    byte_done: list[float] = field(default_factory=list)  # when each FIFO byte is complete
    delivered: int = 0
    rx_last_bits: int = 0
    rx_error: int = 0
    error_at: float | None = None
    coll_pos: int | None = None
    timer_at: float | None = None
    tx_at: float | None = None
    sent: bool = False  # StartSend took effect since the command was written
    received: bool = False  # ... and an answer came in full after it


@dataclass
class EmulatedMfrc522:
    """One MFRC522 chip and the tags lying on its antenna."""

    version: int = 0x92
    tags: list[EmulatedTag] = field(default_factory=list)
    dead: bool = False  # MISO stuck: every byte read is ``dead_value``
    dead_value: int = 0x00
    read_errors: int = 0  # the next N receptions arrive with a CRC/parity error
    frames_seen: int = 0
    wedged: bool = False  # hung (MISO stuck) until NRSTPD is pulsed: only a hard reset cures it
    hard_resets: int = 0
    soft_reset_s: float = 38e-6  # SoftReset with the oscillator running: the 37.74 us of DS §8.8.2
    reset_s: float = 0.0005  # then PowerDown reads 1 a little longer (guess: the SoftReset path of DS §8.8.2)
    startup_s: float = 0.05  # deaf after power-up / NRSTPD release: MB PCD_Init's 50 ms (DS §8.8.2)
    bus: Any = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self.regs = [0] * 64
        self.fifo: list[int] = []
        self.pending = _Pending()
        self.now = 0.0
        self.reset_until = 0.0
        self.deaf_until = 0.0  # the oscillator is starting after power-up: nothing answers
        self.lost_writes = 0  # register writes that arrived while the oscillator was starting
        self.early_irq_reads = 0  # CommIrqReg reads while an answer was arriving
        self.in_reset = False  # NRSTPD held low: the chip is off (hard power-down, DS §8.8.1)
        self.soft_reset()
        self.reset_until = 0.0

    # --- test helpers -------------------------------------------------------------------------
    def place(self, tag: EmulatedTag) -> None:
        tag.power_off()
        tag.powered = False
        self.tags.append(tag)
        self._power_changed(self.bus.now if self.bus is not None else self.now)

    def remove(self, uid: bytes | None = None) -> None:
        self.tags = [t for t in self.tags if uid is not None and t.uid != uid]

    # --- chip behaviour -----------------------------------------------------------------------
    def soft_reset(self, now: float | None = None, *, power_up: bool = False) -> None:
        """SoftReset command (or, with ``power_up``, a power-on / NRSTPD release)."""
        now = self.now if now is None else now
        self.regs = [0] * 64
        for reg, value in _RESET_VALUES.items():
            self.regs[reg] = value
        self.regs[VERSION] = self.version
        self.fifo.clear()
        self.pending = _Pending()
        self.reset_until = now + (self.reset_s if power_up else self.soft_reset_s)
        if power_up:
            self.deaf_until = now + self.startup_s
            self.reset_until += self.startup_s
        self._power_changed(now)

    def hard_reset(self, low: bool, now: float) -> None:
        """NRSTPD driven low (``low``) or released: off while low, a reset on release (DS §8.8.1)."""
        if low and not self.in_reset:
            self.in_reset = True
            self.regs[TX_CONTROL] = 0x80
            self._power_changed(now)
        elif not low and self.in_reset:
            self.in_reset = False
            self.wedged = False
            self.hard_resets += 1
            self.soft_reset(now, power_up=True)

    def antenna_on(self) -> bool:
        return not self.in_reset and bool(self.regs[TX_CONTROL] & 0x03)

    def _power_changed(self, now: float) -> None:
        if self.bus is not None:
            self.bus.update_power(now, self)
        else:
            for tag in self.tags:
                tag.set_power(self.antenna_on(), now)

    def timer_period(self) -> float:
        prescaler = ((self.regs[T_MODE] & 0x0F) << 8) | self.regs[T_PRESCALER]
        reload = (self.regs[T_RELOAD_H] << 8) | self.regs[T_RELOAD_L]
        return (2 * prescaler + 1) * (reload + 1) / CARRIER_HZ

    def _advance(self, now: float) -> None:
        p = self.pending
        if p.tx_at is not None and now >= p.tx_at:
            self.regs[COMM_IRQ] |= IRQ_TX
            p.tx_at = None
        if p.error_at is not None and now >= p.error_at:  # flagged while the frame still arrives
            self.regs[ERROR] = p.rx_error
            self.regs[COMM_IRQ] |= IRQ_ERR
            if p.coll_pos is not None:
                self.regs[COLL] = p.coll_pos % 32
            p.error_at = None
        if p.rx_at is not None:
            while p.delivered < len(p.byte_done) and now >= p.byte_done[p.delivered]:
                self.fifo.append(p.rx_bytes[p.delivered])
                p.delivered += 1
        if p.rx_at is not None and now >= p.rx_at:
            self.fifo.extend(p.rx_bytes[p.delivered :])
            self.regs[CONTROL] = (self.regs[CONTROL] & ~0x07) | p.rx_last_bits
            self.regs[ERROR] = p.rx_error
            self.regs[COMM_IRQ] |= IRQ_RX | (IRQ_ERR if p.rx_error else 0)
            if p.coll_pos is not None:
                self.regs[COLL] = p.coll_pos % 32
            else:
                self.regs[COLL] = 0x20  # CollPosNotValid
            p.rx_at = None
            p.received = True  # the frame is in: Transceive waits for StartSend again
        if p.timer_at is not None and now >= p.timer_at:
            self.regs[COMM_IRQ] |= IRQ_TIMER
            p.timer_at = None

    def transfer(self, tx: list[int], now: float) -> list[int]:
        """One SPI transaction (chip select low for the whole list), at bus time ``now``."""
        if self.dead or self.wedged or self.in_reset:
            return [self.dead_value if (self.dead or self.wedged) else 0x00] * len(tx)
        if now < self.deaf_until:
            if tx and not tx[0] & 0x80:
                self.lost_writes += 1
            return [0x00] * len(tx)
        self.now = now
        self._advance(now)
        rx = [0] * len(tx)
        if not tx:
            return rx
        if tx[0] & 0x80:  # read: each byte names the next register to read
            for i in range(len(tx) - 1):
                rx[i + 1] = self._read((tx[i] >> 1) & 0x3F, now)
        elif now < self.reset_until:
            self.lost_writes += 1  # the oscillator is not running yet
        else:  # write: every following byte goes to the same register
            addr = (tx[0] >> 1) & 0x3F
            for value in tx[1:]:
                self._write(addr, value & 0xFF, now)
        return rx

    def _read(self, addr: int, now: float) -> int:
        if addr == FIFO_DATA:
            return self.fifo.pop(0) if self.fifo else 0
        if addr == FIFO_LEVEL:
            return min(len(self.fifo), 64)
        if addr in (COMM_IRQ, DIV_IRQ):
            p = self.pending
            if addr == COMM_IRQ and p.rx_at is not None and now >= p.rx_start:
                self.early_irq_reads += 1  # looked while the answer was still on the air
            return self.regs[addr] & 0x7F
        if addr == STATUS2:  # ModemState (DS §9.3.1.9): what the transceive path is doing now
            p = self.pending
            if self.regs[COMMAND] & 0x0F != CMD_TRANSCEIVE:
                state = 0b000  # idle
            elif p.rx_at is not None and now >= p.rx_start:
                state = 0b110  # receiving
            elif p.tx_at is not None:
                state = 0b011  # transmitting
            elif p.sent and not p.received:
                state = 0b101  # waiting for data
            else:
                state = 0b001  # waiting for StartSend
            return (self.regs[STATUS2] & 0xF8) | state
        if addr == COMMAND and now < self.reset_until:
            return self.regs[COMMAND] | POWER_DOWN
        return self.regs[addr]

    def _write(self, addr: int, value: int, now: float) -> None:
        if addr in (COMM_IRQ, DIV_IRQ):
            if value & 0x80:
                self.regs[addr] |= value & 0x7F
            else:
                self.regs[addr] &= ~value & 0x7F
        elif addr == FIFO_DATA:
            if len(self.fifo) < 64:
                self.fifo.append(value)
        elif addr == FIFO_LEVEL:
            if value & 0x80:
                self.fifo.clear()
        elif addr == COMMAND:
            self._command(value & 0x0F, now)
        elif addr == BIT_FRAMING:
            self.regs[BIT_FRAMING] = value & 0x7F  # StartSend is a trigger, not a state
            if value & 0x80 and self.regs[COMMAND] & 0x0F == CMD_TRANSCEIVE and self._awaiting_start(now):
                self._transmit(now)
        elif addr == TX_CONTROL:
            self.regs[TX_CONTROL] = value
            self._power_changed(now)
        elif addr in (VERSION, STATUS1, ERROR, COLL):
            pass  # read-only
        else:
            self.regs[addr] = value

    def _awaiting_start(self, now: float) -> bool:
        """Transceive takes StartSend only while it waits for it (Status2Reg ModemState 001, DS
        §9.3.1.9): once written, and again after a frame was received (DS §10.3.1.8: it "repeats
        transmitting ... and receiving"). Pessimistic where the datasheet is silent: while its
        receiver still waits for an answer that never came (after a timeout), StartSend is ignored;
        the driver must write the command again."""
        p = self.pending
        return not p.sent or (p.rx_at is None and p.received)

    def _command(self, command: int, now: float) -> None:
        if command == CMD_SOFT_RESET:
            self.soft_reset(now)
            return
        self.regs[COMMAND] = (self.regs[COMMAND] & 0xF0) | command
        if command in (CMD_IDLE, CMD_TRANSCEIVE):
            # any command ends the running one, and its receiver with it (DS §10.3.1.8: Transceive
            # "must be cleared by software by writing any command to the CommandReg register")
            self.pending = _Pending()
        elif command == CMD_CALC_CRC:
            crc = crc_a(self.fifo)
            self.fifo.clear()
            self.regs[CRC_RESULT_L], self.regs[CRC_RESULT_M] = crc[0], crc[1]
            self.regs[DIV_IRQ] |= 0x04
            self.regs[COMMAND] &= 0xF0  # CalcCRC with an empty FIFO ends at once
        elif command == CMD_AUTHENT:
            # MIFARE Crypto1 is not emulated: the card never answers, the timer ends the wait.
            self.pending = _Pending(timer_at=now + self.timer_period())

    def hearers(self, now: float) -> list[EmulatedTag]:
        """The tags our frames reach now: ours, and those a coupled reader is powering."""
        if not self.antenna_on():
            return []
        out = [t for t in self.tags if t.ready(now)]
        if self.bus is not None:
            for other, strength in self.bus.neighbours(self):
                if strength >= HEAR_COUPLING:
                    out += [t for t in other.tags if t.ready(now)]
        return out

    def _transmit(self, now: float) -> None:
        self.frames_seen += 1
        framing = self.regs[BIT_FRAMING]
        tx_last, rx_align = framing & 0x07, (framing >> 4) & 0x07
        data = list(self.fifo)
        self.fifo.clear()
        self.regs[ERROR] = 0
        nbits = len(data) * 8 - ((8 - tx_last) % 8 if data else 0)
        bits = bytes_to_bits(data, nbits)
        tx_end = now + air_bits(nbits) * BIT_TIME_S
        answers = [a for a in (t.respond(bits) for t in self.hearers(now)) if a is not None]
        timer_at = tx_end + self.timer_period() if self.regs[T_MODE] & 0x80 else None
        if not answers:
            self.pending = _Pending(timer_at=timer_at, tx_at=tx_end, sent=True)
            return
        length = min(len(a) for a in answers)
        merged = [max(a[i] for a in answers) for i in range(length)]  # wired-OR of the load modulation
        collision = next((i for i in range(length) if len({a[i] for a in answers}) > 1), None)
        error = ERR_COLL if collision is not None else 0
        coll_pos = None if collision is None else rx_align + collision + 1
        error_bit = collision
        if self.read_errors > 0:
            self.read_errors -= 1
            error |= ERR_CRC | ERR_PARITY
            merged = [b ^ 1 for b in merged]
            error_bit = min(8, len(merged) - 1)  # the first parity bit is already wrong
        rx_bytes = bits_to_bytes(merged, rx_align)
        total = rx_align + len(merged)
        rx_start = tx_end + FRAME_DELAY_S
        # byte k of the FIFO is complete after its last data bit and parity bit: 1 + 9(k + 1) bit times
        done = [
            rx_start + min(1 + 9 * (k + 1) - rx_align, air_bits(len(merged)) - 1) * BIT_TIME_S
            for k in range(len(rx_bytes))
        ]
        self.pending = _Pending(
            rx_start=rx_start,
            rx_at=rx_start + air_bits(len(merged)) * BIT_TIME_S,
            rx_bytes=rx_bytes,
            byte_done=done,
            rx_last_bits=total % 8,
            rx_error=error,
            error_at=None if error_bit is None else rx_start + (1 + error_bit + error_bit // 8 + 1) * BIT_TIME_S,
            coll_pos=coll_pos,
            tx_at=tx_end,
            sent=True,
        )


class EmulatedSpiBus:
    """One SPI bus with its MFRC522 chips; ``selector`` says which chip a transfer reaches.

    The default selector maps the spidev device number (CE0, CE1, ...) to the chip at that index. A
    chip-select decoder or GPIO chip-select lines replace it with a function that reads the gpiozero
    mock pins, so the real chip-select code is what picks the emulated chip.
    """

    def __init__(self, bus: int = 0, xfer_overhead_s: float = 0.0, pi_model: int = 5) -> None:
        self.bus = bus
        self.pi_model = pi_model
        self.chips: dict[int, EmulatedMfrc522] = {}
        self.coupling: dict[tuple[int, int], float] = {}
        self._near: dict[int, list[tuple[int, float]]] = {}
        self._channel_of: dict[int, int] = {}
        self.rf_overlaps = 0
        self.selector: Callable[[int], int | None] = lambda device: device
        self.xfer_overhead_s = xfer_overhead_s
        self.now = 0.0
        self.transfers = 0
        self.bytes = 0
        self.slept = 0.0

    def add_chip(self, channel: int, chip: EmulatedMfrc522 | None = None) -> EmulatedMfrc522:
        chip = chip or EmulatedMfrc522()
        chip.bus = self
        self.chips[channel] = chip
        self._channel_of[id(chip)] = channel
        return chip

    def couple(self, a: int, b: int, strength: float = 0.5) -> None:
        """RF coupling between the antennas of channels ``a`` and ``b`` (see the module docstring)."""
        self.coupling[(min(a, b), max(a, b))] = strength
        self._near.setdefault(a, []).append((b, strength))
        self._near.setdefault(b, []).append((a, strength))
        self.update_power(self.now)

    def neighbours(self, chip: EmulatedMfrc522) -> list[tuple[EmulatedMfrc522, float]]:
        return [(self.chips[ch], s) for ch, s in self._near.get(self._channel_of.get(id(chip), -1), [])]

    def update_power(self, now: float, chip: EmulatedMfrc522 | None = None) -> None:
        """Power every tag from the fields now on (only ``chip`` and its neighbours, if given)."""
        if (
            chip is not None
            and chip.antenna_on()
            and any(o.antenna_on() and s >= HEAR_COUPLING for o, s in self.neighbours(chip))
        ):
            self.rf_overlaps += 1  # two coupled antennas on at once: what the RF-safe sweep must avoid
        chips = list(self.chips.values()) if chip is None else [chip, *(o for o, _ in self.neighbours(chip))]
        for one in chips:
            if not one.tags:
                continue
            powered = one.antenna_on() or any(
                strength >= POWER_COUPLING and other.antenna_on() for other, strength in self.neighbours(one)
            )
            for tag in one.tags:
                tag.set_power(powered, now)

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            self.now += seconds
            self.slept += seconds

    def reset_counters(self) -> None:
        self.transfers, self.bytes, self.slept = 0, 0, 0.0

    def xfer(self, device: int, tx: list[int], speed_hz: int) -> list[int]:
        self.transfers += 1
        self.bytes += len(tx)
        self.now += len(tx) * 8 / max(speed_hz, 1) + self.xfer_overhead_s
        channel = self.selector(device)
        chip = self.chips.get(channel) if channel is not None else None
        if chip is None:
            return [0] * len(tx)  # nobody drives MISO: the pull-down reads zeros
        return chip.transfer(list(tx), self.now)


# --- the fake modules -------------------------------------------------------------------------
_BUSES: dict[int, EmulatedSpiBus] = {}


class FakeSpiDev:
    """The subset of ``spidev.SpiDev`` that mfrc522 and our driver use.

    Like a Pi 5, it refuses ``no_cs`` (SPI_NO_CS) unless the bus says it is a Pi 4
    (``EmulatedSpiBus(pi_model=4)``). Source: the review in issue #10 (the Pi 5's SPI controller
    driver does not support SPI_NO_CS); the errno (EINVAL) is an assumption.
    """

    def __init__(self) -> None:
        self.bus: EmulatedSpiBus | None = None
        self.device = 0
        self.max_speed_hz = 500_000
        self.mode = 0
        self._no_cs = False

    @property
    def no_cs(self) -> bool:
        return self._no_cs

    @no_cs.setter
    def no_cs(self, value: bool) -> None:
        if value and (self.bus is None or self.bus.pi_model >= 5):
            raise OSError(22, "Invalid argument")  # what spidev's SPI_IOC_WR_MODE ioctl gives on a Pi 5
        self._no_cs = bool(value)

    def open(self, bus: int, device: int) -> None:
        if bus not in _BUSES:
            raise FileNotFoundError(f"/dev/spidev{bus}.{device} (no emulated bus {bus})")
        self.bus, self.device = _BUSES[bus], device

    def xfer2(self, data: list[int]) -> list[int]:
        if self.bus is None:
            raise OSError("spidev not open")
        return self.bus.xfer(self.device, list(data), int(self.max_speed_hz))

    xfer = xfer2

    def close(self) -> None:
        self.bus = None


def _make_spidev_module() -> types.ModuleType:
    module = types.ModuleType("spidev")
    module.SpiDev = FakeSpiDev  # type: ignore[attr-defined]
    module.__dict__["EMULATED"] = True
    return module


def _make_gpio_module() -> types.ModuleType:
    gpio = types.ModuleType("RPi.GPIO")
    state: dict[str, object] = {"mode": None, "pins": {}}

    def setmode(mode: int) -> None:
        state["mode"] = mode

    def getmode() -> object:
        return state["mode"]

    def setup(pin: int, direction: int, **_: object) -> None:
        pins = state["pins"]
        assert isinstance(pins, dict)
        pins[pin] = 0

    def output(pin: int, value: int) -> None:
        pins = state["pins"]
        assert isinstance(pins, dict)
        pins[pin] = int(value)

    def input_(pin: int) -> int:
        pins = state["pins"]
        assert isinstance(pins, dict)
        return int(pins.get(pin, 0))

    def cleanup(*_: object) -> None:
        pins = state["pins"]
        assert isinstance(pins, dict)
        pins.clear()
        state["mode"] = None

    def setwarnings(_: bool) -> None:
        pass

    for name, value in {
        "BOARD": 10,
        "BCM": 11,
        "OUT": 0,
        "IN": 1,
        "HIGH": 1,
        "LOW": 0,
        "setmode": setmode,
        "getmode": getmode,
        "setup": setup,
        "output": output,
        "input": input_,
        "cleanup": cleanup,
        "setwarnings": setwarnings,
        "STATE": state,
        "EMULATED": True,
    }.items():
        setattr(gpio, name, value)
    return gpio


@contextlib.contextmanager
def installed(*buses: EmulatedSpiBus) -> Iterator[None]:
    """Make ``import spidev`` / ``import RPi.GPIO`` / ``mfrc522`` talk to these emulated buses."""
    saved = {name: sys.modules.get(name) for name in ("spidev", "RPi", "RPi.GPIO")}
    saved_buses = dict(_BUSES)
    spidev, gpio = _make_spidev_module(), _make_gpio_module()
    rpi = types.ModuleType("RPi")
    rpi.GPIO = gpio  # type: ignore[attr-defined]
    sys.modules.update({"spidev": spidev, "RPi": rpi, "RPi.GPIO": gpio})
    lib = sys.modules.get("mfrc522.MFRC522")
    lib_saved = (getattr(lib, "spidev", None), getattr(lib, "GPIO", None)) if lib else None
    if lib is not None:  # already imported with the real modules: re-point its globals
        lib.spidev, lib.GPIO = spidev, gpio  # type: ignore[attr-defined]
    for bus in buses:
        _BUSES[bus.bus] = bus
    try:
        yield
    finally:
        _BUSES.clear()
        _BUSES.update(saved_buses)
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
        lib_now = sys.modules.get("mfrc522.MFRC522")
        if lib_now is not None:
            if lib_saved is not None and lib_saved[0] is not None:
                lib_now.spidev, lib_now.GPIO = lib_saved  # type: ignore[attr-defined]
            elif lib is None:
                # First imported under emulation: forget it so a later real import binds real modules.
                sys.modules.pop("mfrc522.MFRC522", None)
                sys.modules.pop("mfrc522.SimpleMFRC522", None)
                sys.modules.pop("mfrc522", None)
