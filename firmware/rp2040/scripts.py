"""Precomputed transaction scripts: one RF group's steady-state wake-up look as tight loops of C calls.

Every reader of every sweep goes through the same register transactions
(``mfrc522_core.wakeup_script``: antenna on, Transceive, FIFO flush, WUPA, ComIrq clear, StartSend,
one look that reads the status and the ATQA, antenna off); only the chip select differs. A
:class:`GroupScript` fixes at boot, per group, the bytes of each transaction and the GPIO mask of each
chip-select change (one ``mem32`` store to SIO GPIO_OUT_XOR from the previous reader's decoder lines
to the next one's while the strobe is high, RP2040 datasheet §2.3.1.7), so a sweep of a group is a
few loops of ``mem32[...] = mask`` and ``SPI.write_readinto`` with no Python call below them (each
Python call level costs ~10 us on an RP2040; the per-transaction path made ~765 of them a sweep).

Each reader's look lands in its own buffer. A reader whose look is byte for byte its *reference*
(the last look the bridge judged into an outcome that changes nothing: the same tag or the same
emptiness its vote already holds, settled, no UID re-read due) is done: its antenna goes off in the
same loop and no Python looks at it. Any other look (a new tag, a lost tag, an error, a dead reader,
the periodic UID re-verify, a reader still settling after boot) keeps its antenna on and is handed to
the bridge, which judges it with ``mfrc522_core.Chip.finish_into(first=look)`` exactly as a look the
chip made itself. The references are set and cleared by the bridge (``Bridge.resolve``).

Fewer transactions for a reader whose last look matched a reference with a tag's ATQA: that look
found the frame complete (RxIRq) and read both FIFO bytes, so Transceive is waiting for StartSend
again ("each transmit process must be started by setting the BitFramingReg register's StartSend
bit", DS §10.3.1.8) with its receiver off and an empty FIFO (DS §9.3.1.10-11): the Transceive
command and the FIFO flush are not written again, only the WUPA and the ComIrq clear. (An empty
reader's receiver may still be waiting after its timeout: it gets the command and the flush, as
the emulator insists, DS §10.3.1.8.)

Timing, exact per reader with a clock read per *chunk* (the group's two halves): the antennas go on
chunk by chunk, and each chunk's StartSends wait for the guard time after that chunk's last antenna
(ISO/IEC 14443-3 §5.2.1); each chunk's looks wait for the answer time after that chunk's last
StartSend. So the first half's guard runs while the second half's antennas go on and every WUPA is
loaded, and the first half's answers arrive while the second half is sent: no idle wait in a group
whose preparation fills the guard time. (Smaller chunks shorten a small group's wait a little but
cost a clock read each, about a transaction.) The chip-select chain is cyclic (the first reader's
mask comes from the last reader): every loop starts and ends with the group's last reader selected.
Nothing here allocates after ``__init__``.
"""

import time

import mfrc522_core as core
from hw import SIO_GPIO_OUT_CLR, SIO_GPIO_OUT_SET, SIO_GPIO_OUT_XOR

VALID = 0  # the reference's byte 7 (the look buffer's byte 8 is always 0): a valid reference matches
INVALID = 1  # no look matches: the bridge judges this reader's next look

SCRIPT = core.wakeup_script()  # (on, off, transceive, flush, wupa, clear, start, look), every reader's
LOOK_US = core.wakeup_look_us()  # StartSend to the first look, as Chip.send's answer_at for the ATQA


class Slot:
    """One reader's buffers in the scripts: its look (the 8 bytes of the look transaction, then a 0
    that no reference marked INVALID matches) and its reference (7 answer bytes, the validity, then
    1 when the reference is valid and ended in a complete ATQA: the next preparation is short)."""

    def __init__(self):  # type: ignore[no-untyped-def]
        self.look = bytearray(9)
        self.view = memoryview(self.look)[:8]  # what write_readinto fills (exact length)
        self.answer = memoryview(self.look)[1:]  # the answer bytes + the 0: compared with ``compared``
        self.ref = bytearray(9)
        self.compared = memoryview(self.ref)[:8]
        self.ref[7] = INVALID

    def steady(self, short):  # type: ignore[no-untyped-def]
        """This look is the reference from now on; ``short``: a match leaves Transceive waiting for
        StartSend with an empty FIFO (a complete ATQA, both bytes read)."""
        look, ref = self.look, self.ref
        for i in range(7):
            ref[i] = look[i + 1]
        ref[7] = VALID
        ref[8] = 1 if short else 0

    def unsteady(self):  # type: ignore[no-untyped-def]
        self.ref[7] = INVALID
        self.ref[8] = 0

    def matches(self):  # type: ignore[no-untyped-def]
        return self.answer == self.compared


class GroupScript:
    """The steady-state sweep of one RF group: ``readers`` (objects with ``channel`` and ``slot``),
    all of them on air."""

    def __init__(self, bus, readers):  # type: ignore[no-untyped-def]
        self.bus = bus
        self.write_readinto = bus.spi.write_readinto  # bound once: loading a method allocates one
        self.readers = readers
        n = len(readers)
        self.last = readers[n - 1].channel
        masks = [bus.line_masks[readers[i - 1].channel ^ readers[i].channel] for i in range(n)]  # cyclic
        self.chunk = (n + 1) // 2  # two halves (one for a group of one)
        chunk = self.chunk
        self.masks = [masks[i : i + chunk] for i in range(0, n, chunk)]
        self.preps = [(masks[i], r.slot.ref) for i, r in enumerate(readers)]
        self.looks = [
            [(masks[i], r.slot.view, r.slot.answer, r.slot.compared) for i, r in enumerate(readers) if i // chunk == c]
            for c in range(len(self.masks))
        ]
        self.on_at = [0] * len(self.masks)  # ticks_us after each chunk's last antenna went on, this sweep
        self.sent_at = [0] * len(self.masks)  # ticks_us after each chunk's last StartSend, this sweep
        self.now = 0  # the last clock read of wake()
        self.due = 0  # the sweep from which a reference must be dropped (a UID re-verify): Bridge.expire

    def wake(self):  # type: ignore[no-untyped-def]
        """Antennas on, the guard time spent loading every reader's WUPA (nothing goes on air before
        StartSend), StartSend; each chunk's times in ``on_at`` and ``sent_at``."""
        bus = self.bus
        bus.select(self.last)
        m = bus.mem32
        wr = self.write_readinto
        s = bus.strobe_mask
        rx = bus.scratch
        xor = SIO_GPIO_OUT_XOR
        clr = SIO_GPIO_OUT_CLR
        put = SIO_GPIO_OUT_SET
        on, _, transceive, flush, wupa, clear, start, _ = SCRIPT
        ticks_us = time.ticks_us
        on_at = self.on_at
        c = 0  # not enumerate(): it would allocate an iterator every sweep
        for masks in self.masks:
            for mask in masks:
                m[xor] = mask
                m[clr] = s
                wr(on, rx)
                m[put] = s
            on_at[c] = ticks_us()
            c += 1  # noqa: SIM113
        short = 0
        for mask, ref in self.preps:
            m[xor] = mask
            # A valid reference is the reader's last look (it matched, or the bridge made it the
            # reference after judging it; anything else drops it), so ref[8] says how it ended.
            if ref[8]:
                short += 1
            else:
                m[clr] = s
                wr(transceive, rx)
                m[put] = s
                m[clr] = s
                wr(flush, rx)
                m[put] = s
            m[clr] = s
            wr(wupa, rx)
            m[put] = s
            m[clr] = s
            wr(clear, rx)
            m[put] = s
        sent_at = self.sent_at
        now = ticks_us()
        c = 0  # not enumerate(): it would allocate an iterator every sweep
        for masks in self.masks:
            wait = core.GUARD_US - time.ticks_diff(now, on_at[c])
            if wait > 0:
                time.sleep_us(wait)  # ISO/IEC 14443-3 §5.2.1: every antenna of the chunk on for the guard time
            for mask in masks:
                m[xor] = mask
                m[clr] = s
                wr(start, rx)
                m[put] = s
            now = ticks_us()  # after the chunk's last StartSend, and before the next chunk's guard check
            sent_at[c] = now
            c += 1  # noqa: SIM113
        self.now = now
        bus.transactions += 7 * len(self.preps) - 2 * short

    def look(self):  # type: ignore[no-untyped-def]
        """Each reader's look, none before its answer time; a reader whose look is its reference goes
        off at once. True when some reader's look was not: the bridge judges those (antennas still on)."""
        bus = self.bus
        m = bus.mem32
        wr = self.write_readinto
        s = bus.strobe_mask
        rx = bus.scratch
        xor = SIO_GPIO_OUT_XOR
        clr = SIO_GPIO_OUT_CLR
        put = SIO_GPIO_OUT_SET
        off = SCRIPT[1]
        look = SCRIPT[7]
        sent_at = self.sent_at
        now = self.now  # a clock read from before now (the last StartSend): it only ever makes us wait longer
        left_on = 0
        c = 0  # not enumerate(): it would allocate an iterator every sweep
        for looks in self.looks:
            # the chunk's last reader's answer is due LOOK_US after the chunk's last StartSend, and
            # every other reader's of the chunk before it
            if time.ticks_diff(now, sent_at[c]) < LOOK_US:
                now = time.ticks_us()
                early = LOOK_US - time.ticks_diff(now, sent_at[c])
                if early > 0:
                    time.sleep_us(early)
            c += 1  # noqa: SIM113
            for mask, view, answer, compared in looks:
                m[xor] = mask
                m[clr] = s
                wr(look, view)
                m[put] = s
                if answer == compared:
                    m[clr] = s
                    wr(off, rx)
                    m[put] = s
                else:
                    left_on += 1
        bus.transactions += 2 * len(self.preps) - left_on
        return left_on > 0

    def sent(self, i):  # type: ignore[no-untyped-def]
        """When reader ``i``'s StartSend had certainly happened: its chunk's last StartSend."""
        return self.sent_at[i // self.chunk]
