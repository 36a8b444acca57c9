"""The RP2040 reader bridge: polls every reader RF-safely, debounces, and reports state to the Pi.

Main loop (:meth:`Bridge.step`, forever from :func:`main`): one RF-safe sweep of all readers (per
group: antennas on, guard time, WUPA, answers, UIDs when they may have changed, antennas off), the
debounced changes into the link's state (:class:`serial_protocol.BridgeLink`), the host's lines in
(LED frames, HELLO, RESYNC, heartbeats), the link's timers (heartbeat, periodic snapshot), then wait
for the next sweep slot. A reader that stops answering is reported once (FAULT), its bank is reset
through NRSTPD every ``RETRY_MS`` and its readers set up again, and it is reported back when it
answers. The register logic is ``mfrc522_core`` (the same file as the host's direct-SPI driver).
"""

import os
import time

import bridge_config
import hw
import mfrc522_core as core
import rf_groups
import serial_protocol as proto
import usb
from vote import UNKNOWN, TagVote


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
        self.last_uid = None
        self.last_atqa = b""
        self.since_read = 0
        self.faulted = False
        self.retry_ms = 0


class Bridge:
    def __init__(self, cfg=bridge_config, port=None, bus=None, leds=None):  # type: ignore[no-untyped-def]
        self.cfg = cfg
        self.bus = bus if bus is not None else hw.ReaderBus(cfg)
        self.leds = leds if leds is not None else hw.LedChain(cfg)
        self.port = port if port is not None else usb.UsbPort()
        self.last_ticks = time.ticks_ms()
        self.ms = 0
        self.sweeps = 0
        self.uid_reads = 0
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
        )
        self.readers = []
        for channel in range(cfg.READERS):
            is_card = channel == cfg.CARD_CHANNEL
            k, n, m = cfg.CARD_DEBOUNCE if is_card else cfg.CITY_DEBOUNCE
            chip = core.Chip(
                self._xfer_for(channel), time.ticks_us, time.sleep_us, time.ticks_diff, cfg.RECEIVE_TIMEOUT_US
            )
            self.readers.append(Reader(channel, chip, TagVote(k, n, m), is_card))
        groups = cfg.GROUPS
        if groups is None:
            groups = rf_groups.colour_groups(list(range(cfg.READERS)), None, cfg.CLOSE)
        self.groups = [[self.readers[ch] for ch in group if ch < cfg.READERS] for group in groups]
        for reader in self.readers:
            self.bring_up(reader)

    def _xfer_for(self, channel):  # type: ignore[no-untyped-def]
        bus = self.bus
        return lambda data: bus.xfer(channel, data)

    def clock(self):  # type: ignore[no-untyped-def]
        """Milliseconds since boot that never wrap (ticks_ms wraps after ~12 days)."""
        now = time.ticks_ms()
        self.ms += time.ticks_diff(now, self.last_ticks)
        self.last_ticks = now
        return self.ms

    # --- readers ------------------------------------------------------------------------------
    def bring_up(self, reader):  # type: ignore[no-untyped-def]
        version = reader.chip.version()
        if version in core.KNOWN_VERSIONS and reader.chip.init():
            if reader.faulted:
                reader.faulted = False
                self.link.set_fault(reader.channel, None)
            return True
        if not reader.faulted:
            reader.faulted = True
            self.link.set_fault(reader.channel, f"not answering (version register 0x{version:02X})")
        reader.retry_ms = self.ms + self.cfg.RETRY_MS
        return False

    def retry_faulted(self):  # type: ignore[no-untyped-def]
        banks = []
        for reader in self.readers:
            if reader.faulted and self.ms >= reader.retry_ms and reader.channel // 8 not in banks:
                banks.append(reader.channel // 8)
        for bank in banks:  # reset only this bank: a wedged reader does not stop the others
            self.bus.reset_bank(bank)
            for reader in self.readers:
                if reader.channel // 8 == bank:
                    self.bring_up(reader)

    def sample(self, reader):  # type: ignore[no-untyped-def]
        chip = reader.chip
        status, data, _bits, _coll = chip.finish()
        if status == core.TIMEOUT:
            reader.last_uid = None
            return None
        if status in (core.NO_IRQ, core.ERROR_STATUS) and chip.version() not in core.KNOWN_VERSIONS:
            self.bring_up(reader)
            return UNKNOWN
        if status == core.NO_IRQ:
            return UNKNOWN
        atqa = bytes(data[:2]) if status == core.OK else b""
        if reader.last_uid is not None and atqa == reader.last_atqa and reader.since_read < self.cfg.REVERIFY:
            reader.since_read += 1
            return reader.last_uid
        reader.last_atqa = atqa
        uid, _collided, _status = chip.read_uid()
        if uid is None:
            reader.last_uid = None
            return UNKNOWN
        self.uid_reads += 1
        reader.since_read = 0
        reader.last_uid = "".join(f"{b:02X}" for b in uid)
        return reader.last_uid

    def sweep(self):  # type: ignore[no-untyped-def]
        self.sweeps += 1
        for group in self.groups:
            live = [r for r in group if not r.faulted]
            if not live:
                continue
            for reader in live:
                reader.chip.antenna(True)
            field_on = time.ticks_us()
            for reader in live:  # nothing goes on air until StartSend: use the guard time
                reader.chip.prepare_wakeup()
            wait = core.GUARD_US - time.ticks_diff(time.ticks_us(), field_on)
            if wait > 0:
                time.sleep_us(wait)  # ISO/IEC 14443-3 §5.2.1
            for reader in live:
                reader.chip.send_wakeup()
            for reader in live:
                sample = self.sample(reader)
                placed, lifted = reader.vote.add(sample)
                if reader.is_card:
                    if placed is not None:
                        self.link.card(placed)
                elif placed is not None or lifted is not None:
                    self.link.set_tag(reader.channel, reader.vote.current)
                elif sample is not UNKNOWN and self.link.unsettled[reader.channel]:
                    self.link.settling(reader.channel, sample is None)
            for reader in live:
                if not reader.faulted:
                    reader.chip.antenna(False)

    # --- the main loop ------------------------------------------------------------------------
    def step(self):  # type: ignore[no-untyped-def]
        start = self.clock()
        self.retry_faulted()
        self.sweep()
        self.link.feed(self.port.read(), self.clock())
        self.link.tick(self.clock())
        left = self.cfg.SWEEP_MS - (self.clock() - start)
        if left > 0:
            time.sleep_ms(left)

    def run(self, steps=-1):  # type: ignore[no-untyped-def]
        while steps != 0:
            self.step()
            steps -= 1


def main():  # type: ignore[no-untyped-def]
    Bridge().run()
