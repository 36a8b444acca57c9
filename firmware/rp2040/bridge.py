"""The RP2040 reader bridge: polls every reader RF-safely, debounces, and reports state to the Pi.

Main loop (:meth:`Bridge.step`, forever from :func:`main`): feed the watchdog, one RF-safe sweep of
all readers (per group: antennas on, guard time, WUPA, answers, UIDs when they may have changed,
antennas off), the debounced changes into the link's state (:class:`serial_protocol.BridgeLink`), the
host's lines in (LED frames, HELLO, RESYNC, heartbeats), the link's timers (heartbeat, periodic
snapshot), then wait for the next sweep slot. No groups in the build means one reader at a time.

A group is swept by its precomputed transaction script (``scripts.GroupScript``: fixed bytes and
chip-select masks, tight loops of C calls). A reader whose look repeats its *reference* (the last
look judged into "nothing changes": the same tag or emptiness its vote holds, settled, no UID
re-read due) costs no Python; every other look is judged here (:meth:`Bridge.resolve`) with its
antenna still on, by ``Chip.finish_into`` as if the chip had made the look itself, then the vote
and the link. A staying tag's UID is re-read every ``REVERIFY`` sweeps (counted in sweeps since its
read): its reference is dropped when that is due (:meth:`Bridge.expire`).

A reader that stops answering is reported once (FAULT); its bank is reset through NRSTPD, the
readers get ``POWER_UP_US`` to start (DS §8.8.2, MB PCD_Init) and are set up again, and it is
reported back when it answers. A reset that does not cure it doubles its retry interval (up to
``RETRY_MAX_MS``), so a wedged reader does not keep taking its healthy bank-mates down.

Any exception in the main loop is reported on the link (a ``PANIC`` line) and the Pico resets
(``machine.reset``); the watchdog resets it if a step ever hangs.

Steady state allocates nothing (design/style.md point 21; measured on the MicroPython VM by
benchmarks/readers.py): the register logic works in preallocated buffers (``mfrc522_core.Buffers``),
a staying tag's UID is compared in place and its text reused, the vote keeps a ring, and an idle
link reads into a preallocated buffer. The register logic is ``mfrc522_core`` (the same file as the
host's direct-SPI driver).
"""

import binascii
import os
import time

import bridge_config
import hw
import machine
import mfrc522_core as core
import scripts
import serial_protocol as proto
import usb
from vote import UNKNOWN, TagVote

NEVER = 0x3FFFFFFF  # a sweep number no script reaches (the largest small int on the RP2040)


def boot_id():  # type: ignore[no-untyped-def]
    try:
        raw = os.urandom(2)
    except (AttributeError, NotImplementedError, OSError):
        raw = bytes((time.ticks_us() & 0xFF, (time.ticks_us() >> 8) & 0xFF))
    return f"{raw[0]:02X}{raw[1]:02X}"


class Reader:
    def __init__(self, channel, chip, vote, is_card):  # type: ignore[no-untyped-def]
        self.channel = channel
        self.chip = chip
        self.vote = vote
        self.is_card = is_card
        self.last_uid = None  # the UID text of the tag on the antenna now, or None
        self.uid = bytearray(10)  # the last UID read, and its text (reused while it stays)
        self.uid_len = 0
        self.uid_text = None
        self.atqa = -1
        self.read_sweep = 0  # the sweep its UID was last read in (re-read after REVERIFY sweeps)
        self.slot = scripts.Slot()  # its look and reference in the sweep scripts
        self.faulted = False
        self.retry_ms = 0
        self.retry_every = 0  # ms; doubles while bank resets do not cure it


class Bridge:
    def __init__(self, cfg=bridge_config, port=None, bus=None, leds=None):  # type: ignore[no-untyped-def]
        self.cfg = cfg
        self.leds = leds if leds is not None else hw.LedChain(cfg)  # first: dark before anything else
        self.bus = bus if bus is not None else hw.ReaderBus(cfg)
        self.port = port if port is not None else usb.UsbPort()
        self.last_ticks = time.ticks_ms()
        self.ms = 0
        self.sweeps = 0
        self.uid_reads = 0
        self.quiet = False  # the last sample changed nothing the reader knew (sample)
        self.wdt = None
        # Readers start unsettled: none is reported before its vote had its samples (a reboot never
        # moves a marker); settled empty after as many empty samples as the vote's window.
        self.link = proto.BridgeLink(
            cfg.READERS,
            cfg.FIRMWARE,
            boot_id(),
            self.port.write,
            self.leds.show,
            settle_samples=cfg.CITY_DEBOUNCE[1],
            card_channel=cfg.CARD_CHANNEL,
            led_bits=cfg.LED_BITS,
            rf=proto.rf_digest(cfg.GROUPS),  # HELLO names the flashed groups: `companion doctor` checks them
        )
        self.readers = []
        buffers = self.bus.buffers
        for channel in range(cfg.READERS):
            is_card = channel == cfg.CARD_CHANNEL
            k, n, m = cfg.CARD_DEBOUNCE if is_card else cfg.CITY_DEBOUNCE
            chip = core.Chip(
                self.bus.xfer,
                time.ticks_us,
                time.sleep_us,
                time.ticks_diff,
                cfg.RECEIVE_TIMEOUT_US,
                4,
                False,
                time.ticks_add,
                buffers,
                channel,
            )
            self.readers.append(Reader(channel, chip, TagVote(k, n, m), is_card))
        groups = cfg.GROUPS
        if groups is None:  # no plan flashed: one antenna at a time, never all of them together
            groups = [[ch] for ch in range(cfg.READERS)]
        self.groups = [[self.readers[ch] for ch in group if ch < cfg.READERS] for group in groups]
        self.banks = [[r for r in self.readers if r.channel // 8 == b] for b in range(cfg.BANKS)]
        self.fault_flips = 0  # readers that faulted or answered again: the scripts are rebuilt
        self.faulted_n = 0  # readers faulted now
        self.scripts = []
        self.scripts_at = -1  # fault_flips when the scripts were built
        time.sleep_us(core.POWER_UP_US)  # power-up: the oscillators start before VersionReg is read
        for reader in self.readers:
            self.bring_up(reader)

    def clock(self):  # type: ignore[no-untyped-def]
        """Milliseconds since boot that never wrap (ticks_ms wraps after ~12 days)."""
        now = time.ticks_ms()
        self.ms += time.ticks_diff(now, self.last_ticks)
        self.last_ticks = now
        return self.ms

    # --- readers ------------------------------------------------------------------------------
    def bring_up(self, reader):  # type: ignore[no-untyped-def]
        reader.slot.unsteady()  # set up again: its next look is judged, not compared
        version = reader.chip.version()
        if version in core.KNOWN_VERSIONS and reader.chip.init():
            reader.retry_every = 0
            if reader.faulted:
                reader.faulted = False
                self.faulted_n -= 1
                self.fault_flips += 1
                self.link.set_fault(reader.channel, None)
            return True
        reader.retry_every = min(self.cfg.RETRY_MAX_MS, 2 * reader.retry_every or self.cfg.RETRY_MS)
        reader.retry_ms = self.ms + reader.retry_every
        if not reader.faulted:
            reader.faulted = True
            self.faulted_n += 1
            self.fault_flips += 1
            self.link.set_fault(reader.channel, f"not answering (version register 0x{version:02X})")
        return False

    def retry_faulted(self):  # type: ignore[no-untyped-def]
        if not self.faulted_n:  # the usual case, once a step: no loop over every reader
            return
        for bank in range(len(self.banks)):  # reset only this bank: a wedged reader does not stop the others
            due = False
            for reader in self.banks[bank]:
                if reader.faulted and self.ms >= reader.retry_ms:
                    due = True
            if not due:
                continue
            self.bus.reset_bank(bank)
            time.sleep_us(core.POWER_UP_US)  # DS §8.8.2 / MB PCD_Init: the oscillator starts first
            for reader in self.banks[bank]:
                self.bring_up(reader)

    def sample(self, reader, status):  # type: ignore[no-untyped-def]
        """The look's ``status`` (``Chip.finish_into``) as a vote sample: a UID, None (empty) or
        UNKNOWN. ``quiet``: the sample says what the reader already knew (empty, or the same ATQA
        with no UID re-read due) and came from the look's bytes alone."""
        chip = reader.chip
        self.quiet = False
        if status == core.TIMEOUT:
            reader.last_uid = None
            self.quiet = True
            return None
        if (status == core.NO_IRQ or status == core.ERROR_STATUS) and chip.version() not in core.KNOWN_VERSIONS:
            self.bring_up(reader)
            return UNKNOWN
        if status == core.NO_IRQ:
            return UNKNOWN
        data = self.bus.buffers.data
        atqa = data[0] | (data[1] << 8) if status == core.OK and chip.count == 2 else -1
        if reader.last_uid is not None and atqa == reader.atqa and self.sweeps - reader.read_sweep <= self.cfg.REVERIFY:
            self.quiet = status == core.OK and chip.count == 2  # no COLL read, no FIFO read beyond the look
            return reader.last_uid
        reader.atqa = atqa
        if chip.read_uid_into() != core.OK:
            reader.last_uid = None
            return UNKNOWN
        self.uid_reads += 1
        reader.read_sweep = self.sweeps
        uid, n = self.bus.buffers.uid, chip.uid_len
        same = reader.uid_text is not None and n == reader.uid_len
        for i in range(n):
            if same and reader.uid[i] != uid[i]:
                same = False
            reader.uid[i] = uid[i]
        if not same:  # a new UID: its text (the only allocation, and not a steady-state one)
            reader.uid_len = n
            reader.uid_text = binascii.hexlify(bytes(uid[:n])).decode().upper()
        reader.last_uid = reader.uid_text
        return reader.last_uid

    def resolve(self, reader, sent_at, script):  # type: ignore[no-untyped-def]
        """A reader whose look was not its reference: judge the look, vote, report; its look becomes
        the reference when the same look would change nothing next time. ``sent_at``: its chunk's
        last StartSend, at or after its own (a later start only makes a second look wait longer)."""
        chip = reader.chip
        chip.wakeup_sent(sent_at)
        status = chip.finish_into(reader.slot.look)
        sample = self.sample(reader, status)
        placed, lifted = reader.vote.add(sample)
        if reader.is_card:
            if placed is not None:
                self.link.card(placed)
        elif placed is not None or lifted is not None:
            self.link.set_tag(reader.channel, reader.vote.current)
        elif sample is not UNKNOWN and self.link.unsettled[reader.channel]:
            self.link.settling(reader.channel, sample is None)
        if (
            self.quiet
            and chip.looks == 1
            and not reader.faulted
            and not self.link.unsettled[reader.channel]
            and reader.vote.holds(sample)
        ):
            reader.slot.steady(sample is not None)  # a tag: its complete ATQA was read, the FIFO is empty
            if sample is not None:  # its UID is re-read after REVERIFY sweeps: the reference goes then
                due = reader.read_sweep + self.cfg.REVERIFY + 1
                if due < script.due:
                    script.due = due
        else:
            reader.slot.unsteady()

    def expire(self, script):  # type: ignore[no-untyped-def]
        """Drop the references of the script's readers whose UID re-read is due (REVERIFY)."""
        due = NEVER
        for reader in script.readers:
            if reader.last_uid is None:
                continue
            if self.sweeps - reader.read_sweep > self.cfg.REVERIFY:
                reader.slot.unsteady()
            elif reader.read_sweep + self.cfg.REVERIFY + 1 < due:
                due = reader.read_sweep + self.cfg.REVERIFY + 1
        script.due = due

    def build_scripts(self):  # type: ignore[no-untyped-def]
        """One script per group of the readers on air (not faulted). Allocates: at boot and when a
        reader faults or answers again, never in a steady state."""
        self.scripts = []
        for group in self.groups:
            live = [r for r in group if not r.faulted]
            for reader in group:
                reader.slot.unsteady()
            if live:
                self.scripts.append(scripts.GroupScript(self.bus, live))
        self.scripts_at = self.fault_flips

    def sweep(self):  # type: ignore[no-untyped-def]
        """Every group: its script wakes and looks at every reader; the readers whose looks differ
        from their references are judged here (their antennas are still on: a UID read needs them)."""
        self.sweeps += 1
        if self.scripts_at != self.fault_flips:
            self.build_scripts()
        for script in self.scripts:
            if self.sweeps >= script.due:
                self.expire(script)
            script.wake()
            if not script.look():
                continue
            readers = script.readers
            for i in range(len(readers)):
                reader = readers[i]
                if reader.slot.matches():
                    continue
                self.resolve(reader, script.sent(i), script)
                if not reader.faulted:
                    reader.chip.antenna(False)

    # --- the main loop ------------------------------------------------------------------------
    def step(self):  # type: ignore[no-untyped-def]
        if self.wdt is not None:
            self.wdt.feed()
        start = self.clock()
        self.retry_faulted()
        self.sweep()
        self.link.feed(self.port.read(), self.clock())
        self.link.tick(self.clock())
        left = self.cfg.SWEEP_MS - (self.clock() - start)
        if left > 0:
            time.sleep_ms(left)

    def run(self, steps=-1):  # type: ignore[no-untyped-def]
        if self.wdt is None and steps < 0:
            self.wdt = machine.WDT(timeout=self.cfg.WDT_MS)
        while steps != 0:
            self.step()
            steps -= 1


def crash_text(exc):  # type: ignore[no-untyped-def]
    """One printable line naming the exception (bounded: it goes on the link)."""
    text = f"{type(exc).__name__}: {exc}"
    out = []
    for ch in text[:160]:
        out.append(ch if " " <= ch <= "~" else "?")
    return "".join(out)


def main():  # type: ignore[no-untyped-def]
    bridge = None
    try:
        bridge = Bridge()
        bridge.run()
    except Exception as exc:  # noqa: BLE001  anything: say what, then start again (Ctrl-C still reaches the REPL)
        text = crash_text(exc)
        if bridge is not None:
            bridge.link.panic(text)
        else:
            usb.UsbPort().write(proto.encode(0, "PANIC", proto.NO_SESSION, text))
        time.sleep_ms(100)  # let the line leave over USB
    machine.reset()
