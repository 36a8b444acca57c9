"""Direct-SPI backend: many MFRC522 on one bus, swept group by group, debounced into intents.

RF-safe sweep (the default): the readers are split into groups with no two *close* readers in one
(:mod:`.rf_groups`: neighbouring cities, plus the hardware file's ``[rf] close`` pairs). Per group:
antennas on, wait the ISO/IEC 14443-3 guard time (5.1 ms), WUPA to every reader of the group, collect
the answers (the 1 ms receive timers run in parallel, so an empty reader costs a few register
transfers), read a UID only when it may have changed (the reader was empty, the ATQA changed, or
every ``reverify_every`` polls to catch a quick swap), antennas off. A tag whose field goes off falls
back to IDLE, so HLTA is not needed. ``scan_groups=None`` keeps the old always-on sweep (antennas on
all the time, HLTA after each read), which ghost-reads a neighbour's tag when antennas couple.

``mfrc522``, ``RPi.GPIO`` and ``spidev`` are imported in :meth:`SpiReaderArray.open` only.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.hardware.chip_select import ChipSelect
from companion.hardware.debounce import (
    CARD_DEBOUNCE,
    CITY_DEBOUNCE,
    UNKNOWN,
    DebounceSettings,
    Sample,
    TagVote,
)
from companion.hardware.mfrc522_core import GUARD_US
from companion.hardware.mfrc522_driver import KNOWN_VERSIONS, Mfrc522Driver, Status
from companion.hardware.protocols import IntentSink
from companion.hardware.rf_groups import colour_groups
from companion.intents import CardScanned, DeviceFault, TagLifted, TagPlaced, normalise_uid

if TYPE_CHECKING:
    from companion.hardware.config import HardwareConfig

log = logging.getLogger(__name__)


@dataclass
class _Reader:
    channel: int
    name: str  # city name, or "card"
    vote: TagVote
    driver: Mfrc522Driver
    is_card: bool = False
    last_uid: str | None = None
    last_atqa: bytes = b""
    polls_since_read: int = 0
    faulted: bool = False
    retry_at: float = 0.0
    started: bool = False


@dataclass
class SweepStats:
    sweeps: int = 0
    uid_reads: int = 0
    read_errors: int = 0
    collisions: int = 0
    faults: int = 0
    unknown_uids: int = 0
    reinits: int = 0
    groups: int = 0  # RF groups per sweep (0: the always-on sweep)


class SpiReaderArray:
    """City readers and the card reader on one SPI bus (satisfies ``CityReaders`` and ``CardReader``).

    ``cities`` maps a chip-select channel to a city name; ``card_channel`` is the card reader's.
    Intents go to ``sink`` (a callable such as ``queue.Queue.put``) from :meth:`poll` only.
    """

    def __init__(
        self,
        sink: IntentSink,
        *,
        cities: Mapping[int, str],
        chip_select: ChipSelect,
        card_channel: int | None = None,
        bus: int = 0,
        device: int = 0,
        speed_hz: int = 1_000_000,
        reset_pin: int = 25,
        timeout_s: float = 0.001,
        city_debounce: DebounceSettings = CITY_DEBOUNCE,
        card_debounce: DebounceSettings = CARD_DEBOUNCE,
        reverify_every: int = 10,
        retry_interval_s: float = 5.0,
        health_every: int = 100,
        known_uids: Callable[[str], bool] | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        scan_groups: Sequence[Sequence[int]] | None = None,
        guard_s: float = GUARD_US / 1e6,
    ) -> None:
        self.sink = sink
        self.cities = dict(cities)
        self.card_channel = card_channel
        self.chip_select = chip_select
        self.bus, self.device, self.speed_hz, self.reset_pin = bus, device, speed_hz, reset_pin
        self.timeout_s = timeout_s
        self.city_debounce, self.card_debounce = city_debounce, card_debounce
        self.reverify_every = reverify_every
        self.retry_interval_s = retry_interval_s
        self.health_every = health_every  # sweeps between checks that every chip kept its set-up
        self.known_uids = known_uids
        self.clock, self.sleep = clock, sleep
        self.scan_groups = None if scan_groups is None else [list(g) for g in scan_groups]
        self.guard_s = guard_s
        self.stats = SweepStats(groups=len(self.scan_groups or []))
        self.lib: Any = None
        self.readers: list[_Reader] = []
        self._closed = False

    @classmethod
    def from_config(
        cls,
        config: HardwareConfig,
        sink: IntentSink,
        chip_select: ChipSelect,
        *,
        adjacency: Mapping[str, Iterable[str]] | None = None,
        **overrides: Any,
    ) -> SpiReaderArray:
        """The array a hardware TOML describes. ``adjacency``: city → neighbouring cities on the board
        (built by the caller; with ``[rf] close`` it decides the RF groups). ``overrides``: e.g. the
        emulator's clock and sleep."""
        options: dict[str, Any] = {
            "cities": config.readers,
            "card_channel": config.card_channel,
            "chip_select": chip_select,
            "bus": config.spi.bus,
            "device": config.spi.device,
            "speed_hz": config.spi.speed_hz,
            "reset_pin": config.spi.reset_pin,
            "timeout_s": config.spi.receive_timeout_s,
            "city_debounce": config.debounce,
            "card_debounce": config.card_debounce,
            "reverify_every": config.reverify_every,
            "retry_interval_s": config.retry_interval_s,
            "known_uids": config.known_uid if (config.markers or config.cards) else None,
            "scan_groups": rf_scan_groups(config, adjacency),
            "guard_s": config.rf.guard_s,
        }
        options.update(overrides)
        return cls(sink, **options)

    # --- life cycle --------------------------------------------------------------------------
    def open(self, now: float = 0.0) -> SpiReaderArray:
        import RPi.GPIO as GPIO
        from mfrc522 import MFRC522

        if GPIO.getmode() is None:
            GPIO.setmode(GPIO.BCM)  # so mfrc522 takes reset_pin as a BCM number, like the rest of us
        self.lib = MFRC522(bus=self.bus, device=self.device, spd=self.speed_hz, pin_rst=self.reset_pin)
        self.lib.spi = self.chip_select.wrap(self.lib.spi)
        roles = dict(self.cities)
        if self.card_channel is not None:
            roles[self.card_channel] = "card"
        if self.scan_groups is not None:  # readers in no group (not coloured) get one of their own
            grouped = {ch for g in self.scan_groups for ch in g}
            self.scan_groups += [[ch] for ch in sorted(roles) if ch not in grouped]
            self.scan_groups = [[ch for ch in g if ch in roles] for g in self.scan_groups]
            self.scan_groups = [g for g in self.scan_groups if g]
            self.stats.groups = len(self.scan_groups)
        for channel, name in sorted(roles.items()):
            is_card = channel == self.card_channel
            driver = Mfrc522Driver(
                self.lib,
                timeout_s=self.timeout_s,
                clock=self.clock,
                sleep=self.sleep,
                antenna_idle=self.scan_groups is None,
            )
            vote = TagVote(self.card_debounce if is_card else self.city_debounce)
            reader = _Reader(channel, name, vote, driver, is_card=is_card)
            self.readers.append(reader)
            self._bring_up(reader, now, first=True)
        return self

    def __enter__(self) -> SpiReaderArray:
        return self.open() if self.lib is None else self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self.lib is not None:
            try:
                for reader in self.readers:
                    if not reader.faulted:
                        self.chip_select.select(reader.channel)
                        self.lib.AntennaOff()
            finally:
                self.lib.spi.close()
        self.chip_select.close()

    # --- queries -----------------------------------------------------------------------------
    def answering(self) -> dict[int, int]:
        """Channel → version register, for every configured reader that answers like an MFRC522."""
        found = {}
        for reader in self.readers:
            self.chip_select.select(reader.channel)
            version = reader.driver.version()
            if version in KNOWN_VERSIONS:
                found[reader.channel] = version
        return found

    def present(self) -> dict[str, str]:
        """City → settled UID."""
        return {r.name: r.vote.current for r in self.readers if not r.is_card and r.vote.current}

    # --- polling -----------------------------------------------------------------------------
    def _device(self, reader: _Reader) -> str:
        return f"reader {reader.channel} ({reader.name})"

    def _bring_up(self, reader: _Reader, now: float, *, first: bool = False) -> None:
        self.chip_select.select(reader.channel)
        version = reader.driver.version()
        if version not in KNOWN_VERSIONS:
            if not reader.faulted:
                reader.faulted = True
                self.stats.faults += 1
                self.sink(
                    DeviceFault(
                        self._device(reader),
                        f"not answering (version register 0x{version:02X}); retrying every {self.retry_interval_s:g} s",
                    )
                )
            reader.retry_at = now + self.retry_interval_s
            return
        if not reader.driver.init():
            self.stats.reinits += 1
            log.warning("%s: settings did not stick after a reset; trying again next time", self._device(reader))
        if reader.faulted:
            reader.faulted = False
            self.sink(DeviceFault(self._device(reader), f"answering again ({KNOWN_VERSIONS[version]})", recovered=True))
        elif first:
            log.debug("%s: %s", self._device(reader), KNOWN_VERSIONS[version])

    def poll(self, now: float) -> None:
        """One sweep over every reader; emits the debounced intents of this sweep."""
        self.stats.sweeps += 1
        for reader in self.readers:
            if reader.faulted and now >= reader.retry_at:
                self._bring_up(reader, now)
        live = [r for r in self.readers if not r.faulted]
        if self.stats.sweeps % self.health_every == 0:
            for reader in live:
                self.chip_select.select(reader.channel)
                self._check_settings(reader)
        if self.scan_groups is None:
            self._sweep(live, now)
            return
        by_channel = {r.channel: r for r in live}
        for group in self.scan_groups:
            readers = [by_channel[ch] for ch in group if ch in by_channel]
            if not readers:
                continue
            for reader in readers:
                self.chip_select.select(reader.channel)
                reader.driver.antenna(True)
            field_on = self.clock()
            for reader in readers:  # nothing goes on air before StartSend: load WUPA during the guard
                self.chip_select.select(reader.channel)
                reader.driver.prepare_wakeup()
            # ISO/IEC 14443-3 §5.2.1: tags accept WUPA within 5 ms of the field
            self.sleep(max(0.0, self.guard_s - (self.clock() - field_on)))
            self._sweep(readers, now, prepared=True)
            for reader in readers:
                if not reader.faulted:
                    self.chip_select.select(reader.channel)
                    reader.driver.antenna(False)

    def _sweep(self, readers: list[_Reader], now: float, *, prepared: bool = False) -> None:
        for reader in readers:
            self.chip_select.select(reader.channel)
            if prepared:
                reader.driver.send_wakeup()
            else:
                reader.driver.start_wakeup()
        for reader in readers:
            self.chip_select.select(reader.channel)
            self._vote(reader, self._sample(reader, now))

    def _check_settings(self, reader: _Reader, *, field_on: bool = False) -> None:
        if not reader.driver.configured():
            self.stats.reinits += 1
            log.warning("%s lost its settings (power dip?); set up again", self._device(reader))
            reader.driver.init()
            if field_on and self.scan_groups is not None:
                reader.driver.antenna(True)  # in the middle of its group's turn

    def _sample(self, reader: _Reader, now: float) -> Sample:
        driver = reader.driver
        answer = driver.finish()
        if answer.status is Status.TIMEOUT:
            if reader.vote.current is not None and reader.last_uid is not None:
                self._check_settings(reader, field_on=True)  # a settled tag just went missing: did the chip reset?
            reader.last_uid = None
            return None
        if answer.status in (Status.NO_IRQ, Status.ERROR) and driver.version() not in KNOWN_VERSIONS:
            self._bring_up(reader, now)  # reports the fault once and schedules the retry
            return UNKNOWN
        if answer.status is Status.NO_IRQ:
            return UNKNOWN
        atqa = answer.data[:2] if answer.status is Status.OK else b""
        need_read = (
            reader.last_uid is None or atqa != reader.last_atqa or reader.polls_since_read >= self.reverify_every
        )
        if not need_read:
            reader.polls_since_read += 1
            if self.scan_groups is None:
                driver.halt()  # the field stays on: without HLTA the tag would answer only every other WUPA
            return reader.last_uid
        reader.last_atqa = atqa
        result = driver.read_uid()
        if result.collided:
            self.stats.collisions += 1
            log.warning("%s: two tags answered at once; read the one on the '1' branch", self._device(reader))
        if result.uid is None:
            self.stats.read_errors += 1
            reader.last_uid = None
            if self.scan_groups is None:
                driver.halt()
            return UNKNOWN
        self.stats.uid_reads += 1
        reader.polls_since_read = 0
        reader.last_uid = normalise_uid(result.uid)
        return reader.last_uid

    def _vote(self, reader: _Reader, sample: Sample) -> None:
        change = reader.vote.add(sample)
        if change.lifted is not None and not reader.is_card:
            self.sink(TagLifted(reader.name, change.lifted))
        if change.placed is not None:
            if self.known_uids is not None and not self.known_uids(change.placed):
                self.stats.unknown_uids += 1
                log.warning("%s: unknown tag %s", self._device(reader), change.placed)
            if reader.is_card:
                self.sink(CardScanned(change.placed))
            else:
                self.sink(TagPlaced(reader.name, change.placed))


def rf_scan_groups(
    config: HardwareConfig, adjacency: Mapping[str, Iterable[str]] | None = None
) -> list[list[int]] | None:
    """Channels per RF group for this box (None when ``[rf] rf_safe = false``: the always-on sweep).

    ``[rf] groups`` (the plan's) are used as written. Without them the readers are coloured here: reader
    names are the cities and ``card``; ``adjacency`` (city → neighbours on the board) and the file's
    ``[rf] close`` pairs say which readers are close."""
    if not config.rf.rf_safe:
        return None
    names = {city: ch for ch, city in config.readers.items()}
    if config.card_channel is not None:
        names["card"] = config.card_channel
    if config.rf.groups:  # `companion hardware plan`: from the antennas' distances on the print, which
        # is what crosstalk follows; the board's neighbours were only a stand-in for it. The file's
        # check keeps every [rf] close pair (the plan writes all of them) out of a group.
        planned = [sorted(names[n] for n in group if n in names) for group in config.rf.groups]
        return [group for group in planned if group]
    adjacency_sets = {k: set(v) for k, v in adjacency.items()} if adjacency else None
    groups = colour_groups(sorted(names), adjacency_sets, config.rf.close)
    return [sorted(names[n] for n in group) for group in groups]
