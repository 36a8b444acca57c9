"""An MFRC522 emulator behind a fake ``spidev`` and a fake ``RPi.GPIO``, shipped with the package.

The real ``mfrc522`` library (0.0.7 imports ``spidev`` and ``RPi.GPIO`` at import time) and our own
driver run unchanged against it: :func:`installed` puts the fake modules in ``sys.modules`` (and
re-points an already imported ``mfrc522.MFRC522``) for as long as the context lasts.

What is emulated, register by register, is what the two code paths touch: soft reset, VersionReg,
FIFO (single and burst access), CommIrq/DivIrq with Set1 semantics, ErrorReg, ControlReg.RxLastBits,
BitFramingReg (TxLastBits, RxAlign, StartSend), CollReg, the timer (TAuto, prescaler, reload), the
antenna drivers, the CRC coprocessor, and ISO 14443-3 tags (REQA/WUPA, anticollision over all cascade
levels with real bit collisions, SELECT with CRC_A, HLTA, the IDLE/READY/ACTIVE/HALT states). Time is
the bus's own clock: every transfer advances it by its duration at ``max_speed_hz`` (plus an optional
per-transfer overhead), and :meth:`EmulatedSpiBus.sleep` advances it without a transfer. Faults can be
injected: a dead reader (MISO stuck), read errors (CRC/parity), two tags on one reader.
"""

from __future__ import annotations

import contextlib
import sys
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import Enum

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

# Register addresses (MFRC522 datasheet, section 9).
COMMAND, COMM_IEN, DIV_IEN, COMM_IRQ, DIV_IRQ, ERROR, STATUS1, STATUS2 = (
    0x01,
    0x02,
    0x03,
    0x04,
    0x05,
    0x06,
    0x07,
    0x08,
)
FIFO_DATA, FIFO_LEVEL, CONTROL, BIT_FRAMING, COLL = 0x09, 0x0A, 0x0C, 0x0D, 0x0E
MODE, TX_MODE, RX_MODE, TX_CONTROL = 0x11, 0x12, 0x13, 0x14
CRC_RESULT_M, CRC_RESULT_L = 0x21, 0x22
T_MODE, T_PRESCALER, T_RELOAD_H, T_RELOAD_L = 0x2A, 0x2B, 0x2C, 0x2D
VERSION = 0x37

CMD_IDLE, CMD_CALC_CRC, CMD_TRANSMIT, CMD_RECEIVE, CMD_TRANSCEIVE, CMD_AUTHENT, CMD_SOFT_RESET = (
    0x00,
    0x03,
    0x04,
    0x08,
    0x0C,
    0x0E,
    0x0F,
)

IRQ_TX, IRQ_RX, IRQ_IDLE, IRQ_ERR, IRQ_TIMER = 0x40, 0x20, 0x10, 0x02, 0x01
ERR_COLL, ERR_CRC, ERR_PARITY = 0x08, 0x04, 0x02

CARRIER_HZ = 13.56e6
BIT_TIME_S = 128 / CARRIER_HZ  # 106 kbit/s
FRAME_DELAY_S = 1236 / CARRIER_HZ  # PICC answers ~91 us after the end of the PCD frame

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
    rx_at: float | None = None
    rx_bytes: bytes = b""
    rx_last_bits: int = 0
    rx_error: int = 0
    coll_pos: int | None = None
    timer_at: float | None = None
    tx_at: float | None = None


@dataclass
class EmulatedMfrc522:
    """One MFRC522 chip and the tags lying on its antenna."""

    version: int = 0x92
    tags: list[EmulatedTag] = field(default_factory=list)
    dead: bool = False  # MISO stuck: every byte read is ``dead_value``
    dead_value: int = 0x00
    read_errors: int = 0  # the next N receptions arrive with a CRC/parity error
    frames_seen: int = 0

    def __post_init__(self) -> None:
        self.regs = [0] * 64
        self.fifo: list[int] = []
        self.pending = _Pending()
        self.soft_reset()

    # --- test helpers -------------------------------------------------------------------------
    def place(self, tag: EmulatedTag) -> None:
        tag.power_off()
        self.tags.append(tag)

    def remove(self, uid: bytes | None = None) -> None:
        self.tags = [t for t in self.tags if uid is not None and t.uid != uid]

    # --- chip behaviour -----------------------------------------------------------------------
    def soft_reset(self) -> None:
        self.regs = [0] * 64
        for reg, value in _RESET_VALUES.items():
            self.regs[reg] = value
        self.regs[VERSION] = self.version
        self.fifo.clear()
        self.pending = _Pending()
        for tag in self.tags:
            tag.power_off()

    def antenna_on(self) -> bool:
        return bool(self.regs[TX_CONTROL] & 0x03)

    def timer_period(self) -> float:
        prescaler = ((self.regs[T_MODE] & 0x0F) << 8) | self.regs[T_PRESCALER]
        reload = (self.regs[T_RELOAD_H] << 8) | self.regs[T_RELOAD_L]
        return (2 * prescaler + 1) * (reload + 1) / CARRIER_HZ

    def _advance(self, now: float) -> None:
        p = self.pending
        if p.tx_at is not None and now >= p.tx_at:
            self.regs[COMM_IRQ] |= IRQ_TX
            p.tx_at = None
        if p.rx_at is not None and now >= p.rx_at:
            self.fifo = list(p.rx_bytes)
            self.regs[CONTROL] = (self.regs[CONTROL] & ~0x07) | p.rx_last_bits
            self.regs[ERROR] = p.rx_error
            self.regs[COMM_IRQ] |= IRQ_RX | (IRQ_ERR if p.rx_error else 0)
            if p.coll_pos is not None:
                self.regs[COLL] = p.coll_pos % 32
            else:
                self.regs[COLL] = 0x20  # CollPosNotValid
            p.rx_at = None
        if p.timer_at is not None and now >= p.timer_at:
            self.regs[COMM_IRQ] |= IRQ_TIMER
            p.timer_at = None

    def transfer(self, tx: list[int], now: float) -> list[int]:
        """One SPI transaction (chip select low for the whole list), at bus time ``now``."""
        if self.dead:
            return [self.dead_value] * len(tx)
        self._advance(now)
        rx = [0] * len(tx)
        if not tx:
            return rx
        if tx[0] & 0x80:  # read: each byte names the next register to read
            for i in range(len(tx) - 1):
                rx[i + 1] = self._read((tx[i] >> 1) & 0x3F)
        else:  # write: every following byte goes to the same register
            addr = (tx[0] >> 1) & 0x3F
            for value in tx[1:]:
                self._write(addr, value & 0xFF, now)
        return rx

    def _read(self, addr: int) -> int:
        if addr == FIFO_DATA:
            return self.fifo.pop(0) if self.fifo else 0
        if addr == FIFO_LEVEL:
            return min(len(self.fifo), 64)
        if addr in (COMM_IRQ, DIV_IRQ):
            return self.regs[addr] & 0x7F
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
            self.regs[BIT_FRAMING] = value
            if value & 0x80 and self.regs[COMMAND] & 0x0F == CMD_TRANSCEIVE:
                self._transmit(now)
        elif addr in (VERSION, STATUS1, ERROR, COLL):
            pass  # read-only
        else:
            self.regs[addr] = value

    def _command(self, command: int, now: float) -> None:
        if command == CMD_SOFT_RESET:
            self.soft_reset()
            return
        self.regs[COMMAND] = (self.regs[COMMAND] & 0xF0) | command
        if command == CMD_IDLE:
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

    def _transmit(self, now: float) -> None:
        self.frames_seen += 1
        framing = self.regs[BIT_FRAMING]
        tx_last, rx_align = framing & 0x07, (framing >> 4) & 0x07
        data = list(self.fifo)
        self.fifo.clear()
        self.regs[ERROR] = 0
        nbits = len(data) * 8 - ((8 - tx_last) % 8 if data else 0)
        bits = bytes_to_bits(data, nbits)
        tx_end = now + nbits * BIT_TIME_S
        answers = [a for a in (t.respond(bits) for t in self.tags) if a is not None] if self.antenna_on() else []
        timer_at = tx_end + self.timer_period() if self.regs[T_MODE] & 0x80 else None
        if not answers:
            self.pending = _Pending(timer_at=timer_at, tx_at=tx_end)
            return
        length = min(len(a) for a in answers)
        merged = [max(a[i] for a in answers) for i in range(length)]  # wired-OR of the load modulation
        collision = next((i for i in range(length) if len({a[i] for a in answers}) > 1), None)
        error = ERR_COLL if collision is not None else 0
        coll_pos = None if collision is None else rx_align + collision + 1
        if self.read_errors > 0:
            self.read_errors -= 1
            error |= ERR_CRC | ERR_PARITY
            merged = [b ^ 1 for b in merged]
        total = rx_align + len(merged)
        self.pending = _Pending(
            rx_at=tx_end + FRAME_DELAY_S + len(merged) * BIT_TIME_S,
            rx_bytes=bits_to_bytes(merged, rx_align),
            rx_last_bits=total % 8,
            rx_error=error,
            coll_pos=coll_pos,
            tx_at=tx_end,
        )


class EmulatedSpiBus:
    """One SPI bus with its MFRC522 chips; ``selector`` says which chip a transfer reaches.

    The default selector maps the spidev device number (CE0, CE1, ...) to the chip at that index. A
    chip-select decoder or GPIO chip-select lines replace it with a function that reads the gpiozero
    mock pins, so the real chip-select code is what picks the emulated chip.
    """

    def __init__(self, bus: int = 0, xfer_overhead_s: float = 0.0) -> None:
        self.bus = bus
        self.chips: dict[int, EmulatedMfrc522] = {}
        self.selector: Callable[[int], int | None] = lambda device: device
        self.xfer_overhead_s = xfer_overhead_s
        self.now = 0.0
        self.transfers = 0
        self.bytes = 0
        self.slept = 0.0

    def add_chip(self, channel: int, chip: EmulatedMfrc522 | None = None) -> EmulatedMfrc522:
        self.chips[channel] = chip or EmulatedMfrc522()
        return self.chips[channel]

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
    """The subset of ``spidev.SpiDev`` that mfrc522 and our driver use."""

    def __init__(self) -> None:
        self.bus: EmulatedSpiBus | None = None
        self.device = 0
        self.max_speed_hz = 500_000
        self.mode = 0
        self.no_cs = False

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
