"""The MFRC522 register logic: one specification for the host's direct-SPI driver and the firmware.

``companion.hardware.mfrc522_driver`` wraps :class:`Chip` for the Pi (spidev), the RP2040 firmware
runs it on ``machine.SPI`` (``firmware/rp2040``; this file is copied to the Pico as it is), and the
emulator takes its register numbers from here. So it is written in the subset MicroPython has (no
``typing``, ``dataclasses``, ``enum``, ``__future__``); time is integer microseconds from the caller's
``ticks_us`` / ``sleep_us`` / ``ticks_diff`` / ``ticks_add`` (``time.ticks_*`` on the Pico). Every
deadline is built with ``ticks_add`` and compared with ``ticks_diff``: on the RP2040 ``ticks_us``
wraps at 2**30 (~17.9 min), and ``ticks_us() + n`` past the wrap is a long int that ``ticks_diff``
misreads (the bridge then slept ~268 s; issue #19).

Allocation: the firmware's steady state allocates nothing (design/style.md point 21). With a shared
:class:`Buffers` the register transactions, frames, FIFO reads, CRCs and UIDs live in preallocated
bytearrays and ``xfer(n)`` exchanges the first ``n`` bytes of ``Buffers.io`` in place; results are
left in attributes (``count``, ``bits``, ``coll_bit``, ``uid_len``) instead of tuples. The
tuple-returning methods (``finish``, ``read_uid``, ``read_fifo``...) are the host driver's
convenience wrappers over them.

Where the numbers come from (NXP MFRC522 datasheet rev. 3.9, "DS"; ISO/IEC 14443-3, "ISO"; the
miguelbalboa/rfid Arduino driver ``src/MFRC522.cpp``, "MB"):

* register addresses and bits: DS §9.2 (table 20) and §9.3; commands: DS §10.3 (table 149).
* SPI address byte ``(reg << 1) & 0x7E``, bit 7 = read: DS §8.1.2.3.
* one bit on air = 128/fc = 9.44 µs at 106 kbit/s; a byte is 8 data bits + an odd parity bit, and a
  standard frame adds a start and an end bit: (9n + 2) bit times; a short frame (REQA/WUPA) is
  S + 7 + E = 9: ISO §6.1, §6.2.3.
* the tag answers 1236/fc (91 µs; 1172/fc when the last bit was 0) after the end of our frame
  (frame delay time): ISO §6.2.1.2.
* a tag must accept REQA/WUPA within 5 ms of an unmodulated field; the PCD should leave the field
  unmodulated for at least 5.1 ms: ISO §5.2.1 (the guard time of the RF-safe sweep).
* power-up and NRSTPD release: the oscillator needs the crystal's start-up time + 37.74 us before
  the chip answers (DS §8.8.2, which leaves the crystal's time open); MB's ``PCD_Init`` waits 50 ms
  after releasing NRSTPD ("Let us be generous: 50ms"), and so do we (``POWER_UP_US``) before
  reading VersionReg.
* soft reset: the oscillator starts in the crystal's start-up time + 37.74 µs (DS §8.8.2) and the
  PowerDown bit of CommandReg reads 1 until it runs (DS §9.3.1.2); MB's ``PCD_Reset`` waits and polls
  that bit a bounded number of times. We poll every ``RESET_POLL_US`` up to ``RESET_POLLS`` times.
* configuration (MB ``PCD_Init``): TxModeReg = RxModeReg = 0x00 (106 kbit/s), ModWidthReg = 0x26,
  TxASKReg = 0x40 (100 % ASK), ModeReg = 0x3D (CRC preset 0x6363), the timer with TAuto; our timer
  reloads after ``timeout_us`` (prescaler 169: 25 µs per tick, DS §8.5 f = 13.56 MHz / (2·169+1)).
* the wait: MB's ``PCD_CommunicateWithPICC`` ends on RxIRq/IdleIRq or TimerIRq and reads ErrorReg
  only then; ErrIRq alone is not the end of a frame (a parity or collision error is flagged while
  the frame is still arriving, DS §9.3.1.5), so neither do we.

Guesses (not from a document): ``MARGIN_US`` = 150 µs of slack on top of the frame times (the
review's figure: SPI latency and clock granularity), ``RESET_POLL_US``/``RESET_POLLS`` (1 ms × 50:
50 ms as MB allows), and the 1 ms receive timer.
"""

try:
    from companion.hardware.iso14443 import CASCADE_TAG, HLTA, NVB_SELECT, SAK_CASCADE, SEL_CL, WUPA, crc_a_of
except ImportError:  # on the Pico, next to iso14443.py
    from iso14443 import CASCADE_TAG, HLTA, NVB_SELECT, SAK_CASCADE, SEL_CL, WUPA, crc_a_of  # type: ignore[no-redef,import-not-found]

try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:  # CPython

    def const(value):  # type: ignore[no-untyped-def]
        return value


# --- registers (DS §9.2) -------------------------------------------------------------------------
COMMAND = const(0x01)
COMM_IEN = const(0x02)
DIV_IEN = const(0x03)
COMM_IRQ = const(0x04)
DIV_IRQ = const(0x05)
ERROR = const(0x06)
STATUS1 = const(0x07)
STATUS2 = const(0x08)
FIFO_DATA = const(0x09)
FIFO_LEVEL = const(0x0A)
CONTROL = const(0x0C)
BIT_FRAMING = const(0x0D)
COLL = const(0x0E)
MODE = const(0x11)
TX_MODE = const(0x12)
RX_MODE = const(0x13)
TX_CONTROL = const(0x14)
TX_ASK = const(0x15)
CRC_RESULT_M = const(0x21)
CRC_RESULT_L = const(0x22)
MOD_WIDTH = const(0x24)
RF_CFG = const(0x26)
T_MODE = const(0x2A)
T_PRESCALER = const(0x2B)
T_RELOAD_H = const(0x2C)
T_RELOAD_L = const(0x2D)
VERSION = const(0x37)

# --- commands (DS §10.3) -------------------------------------------------------------------------
CMD_IDLE = const(0x00)
CMD_CALC_CRC = const(0x03)
CMD_TRANSMIT = const(0x04)
CMD_RECEIVE = const(0x08)
CMD_TRANSCEIVE = const(0x0C)
CMD_AUTHENT = const(0x0E)
CMD_SOFT_RESET = const(0x0F)
POWER_DOWN = const(0x10)  # CommandReg bit 4: reads 1 until the oscillator runs (DS §9.3.1.2)

# --- ComIrqReg (DS §9.3.1.5), ErrorReg (DS §9.3.1.7), TxControlReg (DS §9.3.2.5) -------------------
IRQ_TX = const(0x40)
IRQ_RX = const(0x20)
IRQ_IDLE = const(0x10)
IRQ_ERR = const(0x02)
IRQ_TIMER = const(0x01)
ERR_PROTOCOL = const(0x01)
ERR_PARITY = const(0x02)
ERR_CRC = const(0x04)
ERR_COLL = const(0x08)
ERR_BUFFER = const(0x10)
ERR_FATAL = const(0x17)  # BufferOvfl | CRCErr | ParityErr | ProtocolErr
MODEM_RECEIVING = const(0x06)  # Status2Reg ModemState: receiving (DS §9.3.1.9)
TX_CONTROL_OFF = const(0x80)  # reset value: InvTx2RFOn, both drivers off
TX_CONTROL_ON = const(0x83)  # + Tx1RFEn, Tx2RFEn: the antenna field is on

LOOK = (COMM_IRQ, ERROR, FIFO_LEVEL, CONTROL, STATUS2)  # what one look at a transceive reads

KNOWN_VERSIONS = {
    0x91: "MFRC522 v1.0",
    0x92: "MFRC522 v2.0",
    0x88: "FM17522 clone",
    0x12: "counterfeit",
    0xB2: "FM17522 clone",
}

# --- timing --------------------------------------------------------------------------------------
CARRIER_HZ = const(13560000)
ETU_NS = const(9439)  # 128 / 13.56 MHz, ISO §6.1
FDT_US = const(92)  # 1236/fc rounded up, ISO §6.2.1.2
GUARD_US = const(5100)  # ISO §5.2.1
MARGIN_US = const(150)  # guess: SPI latency, clock granularity
TIMER_PRESCALER = const(169)  # 25 µs per timer tick
RESET_POLL_US = const(1000)  # guess
RESET_POLLS = const(50)  # guess: 50 ms in all, as MB allows
POWER_UP_US = const(50000)  # after power-up / NRSTPD release, before VersionReg: MB PCD_Init (DS §8.8.2)
MAX_FIFO = const(64)  # DS §8.3.1

# --- results -------------------------------------------------------------------------------------
OK = const(0)
TIMEOUT = const(1)  # nobody answered before the receive timer ran out: no tag
COLLISION = const(2)  # two tags answered with different bits
ERROR_STATUS = const(3)  # parity/CRC/protocol error, or a frame that makes no sense
NO_IRQ = const(4)  # the chip never signalled anything: dead reader, or MISO held by another
STATUS_NAMES = ("ok", "timeout", "collision", "error", "no_irq")


def frame_bits(nbytes: int, last_bits: int = 0) -> int:
    """Bit times on air of a frame of ``nbytes`` (the last one ``last_bits`` long, 0 = whole): ISO §6.2.3."""
    if nbytes == 1 and last_bits == 7:
        return 9  # short frame: S + 7 data bits + E
    if last_bits:
        return 2 + 9 * (nbytes - 1) + last_bits  # bit-oriented frame: no parity after a split byte
    return 2 + 9 * nbytes


def frame_us(nbytes: int, last_bits: int = 0) -> int:
    return (frame_bits(nbytes, last_bits) * ETU_NS + 999) // 1000


def timer_reload(timeout_us: int) -> int:
    """TReloadReg value for a receive timer of ``timeout_us`` (DS §8.5: (2·presc+1)·(reload+1)/fc)."""
    ticks = (timeout_us * CARRIER_HZ // 1000000 + TIMER_PRESCALER) // (2 * TIMER_PRESCALER + 1)
    return max(1, ticks) - 1


def configuration(timeout_us: int) -> tuple:  # type: ignore[type-arg]
    """(register, value) written by :meth:`Chip.init` and read back by :meth:`Chip.configured`."""
    reload = timer_reload(timeout_us)
    return (
        (TX_MODE, 0x00),
        (RX_MODE, 0x00),
        (MOD_WIDTH, 0x26),
        (T_MODE, 0x80 | (TIMER_PRESCALER >> 8)),  # TAuto: the timer starts when our frame ends
        (T_PRESCALER, TIMER_PRESCALER & 0xFF),
        (T_RELOAD_H, reload >> 8),
        (T_RELOAD_L, reload & 0xFF),
        (TX_ASK, 0x40),
        (MODE, 0x3D),
    )


def wakeup_script() -> tuple:  # type: ignore[type-arg]
    """The SPI transactions of one steady-state wake-up look, the same for every reader, as the
    firmware's sweep script sends them (``Chip`` sends the same bytes one call at a time: antenna,
    prepare_wakeup, send_wakeup, finish_into's first look): (antenna on, antenna off, Transceive,
    FIFO flush, WUPA into the FIFO, ComIrq clear, StartSend with 7 bits, the look). The look reads
    ComIrq, Error, FIFOLevel, Control, Status2 and the ATQA's 2 FIFO bytes (DS §8.1.2.1: each byte
    names the next register to read)."""

    def write(reg: int, value: int) -> bytes:
        return bytes(((reg << 1) & 0x7E, value))

    def read(reg: int) -> int:
        return ((reg << 1) & 0x7E) | 0x80

    look = bytes(
        (
            read(COMM_IRQ),
            read(ERROR),
            read(FIFO_LEVEL),
            read(CONTROL),
            read(STATUS2),
            read(FIFO_DATA),
            read(FIFO_DATA),
            0,
        )
    )
    return (
        write(TX_CONTROL, TX_CONTROL_ON),
        write(TX_CONTROL, TX_CONTROL_OFF),
        write(COMMAND, CMD_TRANSCEIVE),
        write(FIFO_LEVEL, 0x80),  # FlushBuffer (DS §9.3.1.11)
        write(FIFO_DATA, WUPA),
        write(COMM_IRQ, 0x7F),  # Set1 = 0: clear every interrupt bit (DS §9.3.1.5)
        write(BIT_FRAMING, 0x80 | 7),  # StartSend, TxLastBits = 7 (DS §9.3.1.14)
        look,
    )


def wakeup_look_us() -> int:
    """From StartSend of a WUPA to its first look (:meth:`Chip.send`'s ``answer_at`` for the 2-byte
    ATQA): our 7-bit frame, the frame delay, the answer, the margin (ISO §6.1, §6.2.1.2, §6.2.3)."""
    return frame_us(1, 7) + FDT_US + ((2 + 9 * 2) * ETU_NS + 999) // 1000 + MARGIN_US


class Buffers:
    """The preallocated bytearrays one :class:`Chip` works in. The firmware shares one set among all
    its readers (they are polled one at a time): ``io`` is what the SPI bus exchanges in place."""

    def __init__(self, io=None):  # type: ignore[no-untyped-def]
        self.io = io if io is not None else bytearray(MAX_FIFO + 2)
        self.data = bytearray(MAX_FIFO)  # the last answer's bytes (Chip.count of them)
        self.frame = bytearray(9)  # the frame to send: SEL, NVB, 5 UID/BCC bytes, CRC_A
        self.field = bytearray(5)  # one cascade level: 4 UID bytes + BCC
        self.uid = bytearray(10)  # the UID read (Chip.uid_len bytes)


class Chip:
    """One MFRC522. Transport: with ``buffers`` (the firmware), ``xfer(port, n)`` is one chip-select-low
    transaction exchanging ``buffers.io[0:n]`` in place; without (the host), ``xfer(list_of_bytes)
    -> list_of_bytes``. (The hot paths below call ``xfer`` themselves rather than through ``_x``: each
    Python call level costs ~10 us on an RP2040.)

    ``antenna_idle`` is the antenna state :meth:`init` leaves: off for the RF-safe sweep (the scanner
    switches it on per group), on for the old always-on sweep.
    """

    def __init__(
        self,
        xfer,  # type: ignore[no-untyped-def]
        ticks_us,  # type: ignore[no-untyped-def]
        sleep_us,  # type: ignore[no-untyped-def]
        ticks_diff=None,  # type: ignore[no-untyped-def]
        timeout_us: int = 1000,
        max_polls: int = 4,
        antenna_idle: bool = False,
        ticks_add=None,  # type: ignore[no-untyped-def]
        buffers=None,  # type: ignore[no-untyped-def]
        port: int = 0,
    ) -> None:
        self.xfer = xfer
        self.port = port  # with buffers: passed to every xfer(port, n) (the firmware: the reader's channel)
        self.in_place = buffers is not None
        self.buffers = buffers if buffers is not None else Buffers()
        self.ticks_us = ticks_us
        self.sleep_us = sleep_us
        self.ticks_diff = ticks_diff or _minus
        self.ticks_add = ticks_add or _plus
        self.timeout_us = timeout_us
        self.max_polls = max_polls
        self.antenna_idle = antenna_idle
        self.config = configuration(timeout_us)
        self.answer_at = 0
        self.expect_by = 0
        self.framing = 0
        self.tx_us = 0  # our prepared frame's time on air
        self.peek = 0  # FIFO bytes the next look reads along
        self.count = 0  # bytes of the last answer, in buffers.data
        self.bits = 0  # bits of the last answer
        self.coll_bit = -1  # 0-based collision position in the last answer (RxAlign counted), -1: none
        self.uid_len = 0  # bytes of the last UID read, in buffers.uid
        self.collided = False  # the last UID read walked a collision
        self.collisions = 0
        self.reset_polls = 0  # CommandReg reads spent waiting for the oscillator, last reset
        self.looks = 0  # looks the last finish_into took

    # --- register access (DS §8.1.2.3) --------------------------------------------------------
    def _x(self, n: int) -> None:
        """One transaction of ``buffers.io[0:n]``, answered in place."""
        if self.in_place:
            self.xfer(self.port, n)
        else:
            self._x_list(n)

    def _x_list(self, n: int) -> None:
        """The host's transport: a list out, a list back. (Its own function: a comprehension's
        captured names become cells that MicroPython allocates on every call of the enclosing one.)"""
        io = self.buffers.io
        rx = self.xfer([io[i] for i in range(n)])
        for i in range(n):
            io[i] = rx[i]

    def write(self, reg: int, value: int) -> None:
        io = self.buffers.io
        io[0] = (reg << 1) & 0x7E
        io[1] = value & 0xFF
        if self.in_place:
            self.xfer(self.port, 2)
        else:
            self._x_list(2)

    def read(self, reg: int) -> int:
        io = self.buffers.io
        io[0] = ((reg << 1) & 0x7E) | 0x80
        io[1] = 0
        if self.in_place:
            self.xfer(self.port, 2)
        else:
            self._x_list(2)
        return io[1]

    def read_regs(self, regs) -> bytes:  # type: ignore[no-untyped-def]
        """Several registers in one transaction: each byte names the next one to read (DS §8.1.2.1)."""
        io = self.buffers.io
        for i in range(len(regs)):
            io[i] = ((regs[i] << 1) & 0x7E) | 0x80
        io[len(regs)] = 0
        self._x(len(regs) + 1)
        return bytes(io[1 : len(regs) + 1])

    def _write_frame(self, n: int) -> None:
        """``buffers.frame[0:n]`` into the FIFO in one transaction (every byte after the address goes
        to the same register)."""
        io, frame = self.buffers.io, self.buffers.frame
        io[0] = (FIFO_DATA << 1) & 0x7E
        for i in range(n):
            io[i + 1] = frame[i]
        self._x(n + 1)

    def _read_fifo_into(self, count: int, at: int = 0) -> None:
        """``count`` FIFO bytes into ``buffers.data[at:at + count]``."""
        io, data = self.buffers.io, self.buffers.data
        addr = ((FIFO_DATA << 1) & 0x7E) | 0x80
        for i in range(count):
            io[i] = addr
        io[count] = 0
        self._x(count + 1)
        for i in range(count):
            data[at + i] = io[i + 1]

    def _set_frame(self, data) -> int:  # type: ignore[no-untyped-def]
        frame = self.buffers.frame
        for i in range(len(data)):
            frame[i] = data[i]
        return len(data)

    def write_fifo(self, data) -> None:  # type: ignore[no-untyped-def]
        self._write_frame(self._set_frame(data))

    def read_fifo(self, count: int) -> bytes:
        self._read_fifo_into(count)
        return bytes(self.buffers.data[:count])

    # --- set-up --------------------------------------------------------------------------------
    def version(self) -> int:
        return self.read(VERSION)

    def wait_awake(self) -> bool:
        """Poll CommandReg until PowerDown reads 0 (the oscillator runs), bounded. False: it never did."""
        for _ in range(RESET_POLLS):
            if not self.read(COMMAND) & POWER_DOWN:
                return True
            self.sleep_us(RESET_POLL_US)
            self.reset_polls += 1
        return not self.read(COMMAND) & POWER_DOWN

    def soft_reset(self) -> bool:
        """SoftReset, then wait (bounded) until the oscillator runs. False: it never came back.

        It waits before the command too: just after power-up or NRSTPD the chip may still be starting,
        and a command written then is lost."""
        self.reset_polls = 0
        if not self.wait_awake():
            return False
        self.write(COMMAND, CMD_SOFT_RESET)
        self.sleep_us(50)  # DS §8.8.2: at least the internal 37.74 us
        return self.wait_awake()

    def init(self) -> bool:
        """Reset, write every configuration register, read them all back. True if they all stuck."""
        if not self.soft_reset():
            return False
        for reg, value in self.config:
            self.write(reg, value)
        self.antenna(self.antenna_idle)
        return self.configured()

    def configured(self) -> bool:
        """Every configuration register still holds what :meth:`init` wrote (a power dip resets them)."""
        for reg, value in self.config:  # noqa: SIM110  (a generator would allocate on the Pico)
            if self.read(reg) != value:
                return False
        return True

    def antenna(self, on: bool) -> None:
        io = self.buffers.io
        io[0] = (TX_CONTROL << 1) & 0x7E
        io[1] = TX_CONTROL_ON if on else TX_CONTROL_OFF
        if self.in_place:  # inline: twice per reader per sweep
            self.xfer(self.port, 2)
        else:
            self._x_list(2)

    # --- transceive in two halves -------------------------------------------------------------
    def start(self, data, tx_last_bits: int = 0, rx_align: int = 0, fresh: bool = True, answer: int = 5) -> None:  # type: ignore[no-untyped-def]
        """Load the FIFO and send; ``answer`` = the longest answer expected, in bytes (for the first look)."""
        self.prepare(data, tx_last_bits, rx_align, fresh)
        self.send(answer)

    def prepare(self, data, tx_last_bits: int = 0, rx_align: int = 0, fresh: bool = True) -> None:  # type: ignore[no-untyped-def]
        """Everything but StartSend: nothing goes on air yet, so a sweep does this during the guard time."""
        self.prepare_frame(self._set_frame(data), tx_last_bits, rx_align, fresh)

    def prepare_frame(self, n: int, tx_last_bits: int, rx_align: int, fresh: bool) -> None:
        """:meth:`prepare` of ``buffers.frame[0:n]``.

        ``fresh`` (the first frame of an exchange): Transceive is written first, which ends a running
        one (DS §10.3.1.8: "cleared by software by writing any command to the CommandReg"; its
        receiver stops, so nothing lands in the FIFO after the flush) and waits for StartSend again;
        then the FIFO is flushed, the frame written and the interrupt bits cleared. Otherwise (the
        next frame of an anticollision, after an answer was received: Transceive is waiting for
        StartSend again) only the interrupt bits and the frame. BitFramingReg is written once, with
        StartSend, by :meth:`send` (TxLastBits and RxAlign take effect with the transmission)."""
        framing = (rx_align << 4) | tx_last_bits
        if not self.in_place:
            if fresh:
                self.write(COMMAND, CMD_TRANSCEIVE)
                self.write(FIFO_LEVEL, 0x80)
            self._write_frame(n)
            self.write(COMM_IRQ, 0x7F)
        else:  # the firmware's path: each transaction inline (a Python call level costs ~10 us on an RP2040)
            io = self.buffers.io
            xfer = self.xfer
            port = self.port
            if fresh:
                io[0] = (COMMAND << 1) & 0x7E
                io[1] = CMD_TRANSCEIVE
                xfer(port, 2)
                io[0] = (FIFO_LEVEL << 1) & 0x7E
                io[1] = 0x80  # FlushBuffer
                xfer(port, 2)
            frame = self.buffers.frame
            io[0] = (FIFO_DATA << 1) & 0x7E
            for i in range(n):
                io[i + 1] = frame[i]
            xfer(port, n + 1)
            io[0] = (COMM_IRQ << 1) & 0x7E
            io[1] = 0x7F  # Set1 = 0: clear every interrupt bit
            xfer(port, 2)
        self.framing = framing
        # bit times on air (frame_bits, inline: this runs for every reader on every sweep)
        if n == 1 and tx_last_bits == 7:
            bits = 9
        elif tx_last_bits:
            bits = 2 + 9 * (n - 1) + tx_last_bits
        else:
            bits = 2 + 9 * n
        self.tx_us = (bits * ETU_NS + 999) // 1000

    def send(self, answer: int = 5, peek: int = 0) -> None:
        """StartSend (with TxLastBits/RxAlign in the same write): the prepared frame goes on air.
        ``peek``: FIFO bytes :meth:`finish_into`'s first look reads along (at most ``answer``)."""
        self.peek = peek
        io = self.buffers.io
        io[0] = (BIT_FRAMING << 1) & 0x7E
        io[1] = 0x80 | self.framing
        if self.in_place:
            self.xfer(self.port, 2)
        else:
            self._x_list(2)
        self._sent_at(self.ticks_us(), answer)

    def _sent_at(self, now: int, answer: int) -> None:
        tx_us = self.tx_us
        # the answer comes FDT after our frame and lasts (9·answer + 2) bit times (ISO §6.2.1.2, §6.2.3)
        self.answer_at = self.ticks_add(now, tx_us + FDT_US + ((2 + 9 * answer) * ETU_NS + 999) // 1000 + MARGIN_US)
        self.expect_by = self.ticks_add(now, tx_us + self.timeout_us + MARGIN_US)

    def wakeup_sent(self, now: int) -> None:
        """The firmware's sweep script sent this chip the transactions of :meth:`prepare_wakeup` and
        :meth:`send_wakeup` itself (:func:`wakeup_script`), StartSend at ``now``: :meth:`finish_into`
        can follow, as after :meth:`send_wakeup`."""
        self.framing = 7
        self.tx_us = frame_us(1, 7)
        self.peek = 2
        self._sent_at(now, 2)

    def finish_into(self, first=None) -> int:  # type: ignore[no-untyped-def]
        """Wait for the end of the answer or the timer; the status. The answer is left in
        ``buffers.data[0:count]`` (``bits`` long, collision at ``coll_bit``, -1 for none). ``looks``:
        the looks it took. ``first``: the answer of a first look the caller already made at
        ``answer_at`` (the firmware's sweep script: :func:`wakeup_script`'s look, laid out as
        ``buffers.io``); it is judged as this method's own first look would be.

        Each look is one transaction reading CommIrqReg, ErrorReg, FIFOLevelReg, ControlReg and
        Status2Reg; the middle three count only once RxIRq/IdleIRq says the frame is complete. After :meth:`send` with
        ``peek`` (the WUPA: a 2-byte ATQA), the same transaction also reads that many FIFO bytes: an
        answer complete at the first look needs no second transaction. Bytes read from a frame that
        was not complete yet are lost to it: that exchange ends as an error."""
        io = self.buffers.io
        irq = error = level = last = 0
        done = False
        torn = False  # FIFO bytes were read before the frame was complete
        peek = self.peek
        self.count = self.bits = 0
        self.coll_bit = -1
        buf = io
        self.looks = 0
        for _ in range(self.max_polls):
            self.looks += 1
            if first is not None and self.looks == 1:
                buf = first
            else:
                buf = io
                wait = self.ticks_diff(self.answer_at, self.ticks_us())
                if wait > 0:
                    self.sleep_us(wait)
                io[0] = ((COMM_IRQ << 1) & 0x7E) | 0x80
                io[1] = ((ERROR << 1) & 0x7E) | 0x80
                io[2] = ((FIFO_LEVEL << 1) & 0x7E) | 0x80
                io[3] = ((CONTROL << 1) & 0x7E) | 0x80
                io[4] = ((STATUS2 << 1) & 0x7E) | 0x80
                for i in range(peek):
                    io[5 + i] = ((FIFO_DATA << 1) & 0x7E) | 0x80
                io[5 + peek] = 0
                if self.in_place:
                    self.xfer(self.port, 6 + peek)
                else:
                    self._x_list(6 + peek)
            irq = buf[1]  # one name per line: a 4-tuple assignment allocates on MicroPython
            error = buf[2]
            level = buf[3]
            last = buf[4] & 0x07
            receiving = buf[5] & 0x07 == MODEM_RECEIVING
            if irq & (IRQ_RX | IRQ_IDLE | IRQ_TIMER):
                done = True  # ErrIRq alone is not the end: the frame may still be arriving
                break
            if peek and level:
                torn = True
            if irq & (IRQ_TX | IRQ_ERR) == IRQ_TX and not level and not receiving:
                # Our frame went out and, by answer_at, nothing arrived and nothing is arriving
                # (Status2Reg ModemState, DS §9.3.1.9): every answer we wait for (ATQA,
                # anticollision, SAK) starts a fixed FDT after our frame (ISO §6.2.1.1), so it would
                # be complete by now. No need to wait for the receive timer. (A dead reader reads
                # no TxIRq: it still ends as NO_IRQ below.)
                return TIMEOUT
            if self.ticks_diff(self.expect_by, self.ticks_us()) <= 0:
                break
            self.answer_at = self.expect_by  # nothing yet: the next look is at the timeout
        if not done:
            return ERROR_STATUS if irq & IRQ_ERR else NO_IRQ
        if not irq & (IRQ_RX | IRQ_IDLE):
            return TIMEOUT
        if error & ERR_FATAL or torn:
            return ERROR_STATUS
        if level == 0 or level > MAX_FIFO:
            return ERROR_STATUS
        if peek:
            data = self.buffers.data
            have = level if level < peek else peek
            for i in range(have):
                data[i] = buf[6 + i]
            if level > peek:
                self._read_fifo_into(level - peek, peek)
        else:
            self._read_fifo_into(level, 0)
        self.count = level
        self.bits = (level - 1) * 8 + last if last else level * 8
        if error & ERR_COLL:
            coll = self.read(COLL)
            if coll & 0x20:  # CollPosNotValid
                self.count = self.bits = 0
                return ERROR_STATUS
            self.coll_bit = ((coll & 0x1F) or 32) - 1
            return COLLISION
        return OK

    def finish(self):  # type: ignore[no-untyped-def]
        """:meth:`finish_into` as (status, data bytes, bits, collision bit or None)."""
        status = self.finish_into()
        data = bytes(self.buffers.data[: self.count]) if status in (OK, COLLISION) else b""
        return (status, data, self.bits if data else 0, self.coll_bit if status == COLLISION else None)

    def transceive(self, data, tx_last_bits: int = 0, rx_align: int = 0, fresh: bool = True, answer: int = 5):  # type: ignore[no-untyped-def]
        self.start(data, tx_last_bits, rx_align, fresh, answer)
        return self.finish()

    def _transceive_frame(self, n: int, tx_last_bits: int, rx_align: int, answer: int) -> int:
        self.prepare_frame(n, tx_last_bits, rx_align, False)
        self.send(answer)
        return self.finish_into()

    # --- ISO 14443-3 ---------------------------------------------------------------------------
    def start_wakeup(self) -> None:
        """WUPA (7 bits): every tag in the field answers ATQA (2 bytes), halted ones too."""
        self.prepare_wakeup()
        self.send_wakeup()

    def prepare_wakeup(self) -> None:
        """WUPA loaded, not sent: :meth:`send_wakeup` sends it (after the guard time)."""
        self.buffers.frame[0] = WUPA
        self.prepare_frame(1, 7, 0, True)

    def send_wakeup(self) -> None:
        self.send(2, 2)  # the ATQA's 2 bytes come with the first look

    def halt(self) -> None:
        """HLTA, sent and not waited for: the tag answers nothing and sleeps until the next WUPA."""
        frame = self.buffers.frame
        frame[0] = HLTA
        frame[1] = 0
        crc = crc_a_of(frame, 0, 2)
        frame[2] = crc & 0xFF
        frame[3] = crc >> 8
        self.write(BIT_FRAMING, 0x00)
        self._write_frame(4)
        self.write(BIT_FRAMING, 0x80)

    def read_uid_into(self) -> int:
        """Anticollision and SELECT over the cascade levels (tags READY after WUPA). The status; the
        UID is left in ``buffers.uid[0:uid_len]`` (``uid_len`` 0 when none), ``collided`` says
        whether two tags answered at once. Allocates nothing."""
        buf = self.buffers
        frame = buf.frame
        field = buf.field
        data = buf.data
        uid = buf.uid
        self.uid_len = 0
        self.collided = False
        n = 0
        for sel in SEL_CL:
            status = self._anticollision(sel)
            if status != OK:
                return status
            frame[0] = sel
            frame[1] = NVB_SELECT
            for i in range(5):
                frame[2 + i] = field[i]
            crc = crc_a_of(frame, 0, 7)
            frame[7] = crc & 0xFF
            frame[8] = crc >> 8
            status = self._transceive_frame(9, 0, 0, 3)
            if status != OK or self.bits != 24 or crc_a_of(data, 0, 1) != data[1] | (data[2] << 8):
                return ERROR_STATUS if status == OK else status
            if field[0] == CASCADE_TAG and data[0] & SAK_CASCADE:
                for i in range(3):
                    uid[n + i] = field[1 + i]
                n += 3
                continue
            for i in range(4):
                uid[n + i] = field[i]
            self.uid_len = n + 4
            return OK
        return ERROR_STATUS

    def read_uid(self):  # type: ignore[no-untyped-def]
        """:meth:`read_uid_into` as (uid bytes or None, collided, status)."""
        status = self.read_uid_into()
        uid = bytes(self.buffers.uid[: self.uid_len]) if status == OK else None
        return (uid, self.collided, status)

    def _anticollision(self, sel: int) -> int:
        """One cascade level into ``buffers.field`` (4 UID bytes + BCC), walking the '1' branch at
        each collision. The status."""
        buf = self.buffers
        field = buf.field
        frame = buf.frame
        data = buf.data
        for i in range(5):
            field[i] = 0
        known = 0
        for _ in range(33):
            frame[0] = sel
            frame[1] = ((2 + known // 8) << 4) | (known % 8)
            partial = (known + 7) // 8
            for i in range(partial):
                frame[2 + i] = field[i]
            status = self._transceive_frame(2 + partial, known % 8, known % 8, 5)
            if status != OK and status != COLLISION:
                return status
            start_byte = known // 8
            for i in range(self.count):
                if start_byte + i >= 5:
                    break
                byte = data[i]
                if i == 0 and known % 8:
                    keep = (1 << (known % 8)) - 1
                    field[start_byte] = (field[start_byte] & keep) | (byte & ~keep & 0xFF)
                else:
                    field[start_byte + i] = byte
            if status == OK:
                if start_byte * 8 + self.bits < 40 or field[0] ^ field[1] ^ field[2] ^ field[3] != field[4]:
                    return ERROR_STATUS
                return OK
            position = start_byte * 8 + self.coll_bit
            if position < known or position >= 40:
                return ERROR_STATUS
            self.collided = True
            self.collisions += 1
            field[position // 8] |= 1 << (position % 8)  # take the '1' branch
            field[position // 8] &= (1 << (position % 8 + 1)) - 1
            known = position + 1
        return ERROR_STATUS


def _minus(a: int, b: int) -> int:
    return a - b


def _plus(a: int, b: int) -> int:
    return a + b
