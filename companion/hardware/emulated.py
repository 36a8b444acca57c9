"""A whole table emulated: the real adapters (SPI reader array + mfrc522, 74HC595 LEDs, gpiozero
buttons) running against the MFRC522 emulator and gpiozero's ``MockFactory``.

    >>> with EmulatedTable(["Bremen", "Warsaw"]) as table:
    ...     table.place_tag("Bremen", "04A1B2C3D4E5F6")
    ...     table.intents()
    [TagPlaced(city='Bremen', uid='04A1B2C3D4E5F6')]

Time is the table's own (``table.now``, advanced by ``step``); nothing sleeps. Helpers that change the
table (``place_tag``, ``lift_tag``, ``scan_card``, ``press``) run enough polls for the debounced
intent to come out, unless ``settle=False``.
"""

from __future__ import annotations

import contextlib
import gc
import math
import queue
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from gpiozero.pins.mock import MockFactory

from companion.hardware.buttons import GpioButtons
from companion.hardware.chip_select import ChipSelect, DecoderChipSelect, GpioChipSelect
from companion.hardware.config import ButtonSettings, HardwareConfig, LedSettings, SpiSettings
from companion.hardware.emulated_mfrc522 import (
    TAG_READY_WORST_S,
    EmulatedMfrc522,
    EmulatedSpiBus,
    EmulatedTag,
    installed,
)
from companion.hardware.leds import DECODE_PHASES, GpioLeds, LedMap, decode_bits
from companion.hardware.protocols import IntentSink
from companion.hardware.rig import HardwareRig
from companion.hardware.shift_register import Emulated595Chain, ShiftRegisterLeds
from companion.hardware.spi_readers import SpiReaderArray
from companion.intents import ButtonName, Intent, normalise_uid
from companion.ledframe import LedFrame

DEFAULT_ADDRESS_PINS = (5, 6, 13, 19, 26, 16)
DEFAULT_BUTTONS = {
    ButtonName.OK: 4,
    ButtonName.BACK: 24,
    ButtonName.PLUS: 12,
    ButtonName.MINUS: 20,
    ButtonName.MENU: 21,
}
DEFAULT_595 = {"data_pin": 17, "clock_pin": 27, "latch_pin": 22, "enable_pin": 18}
COUPLING_FLOOR = 0.02  # weaker pairs are left out of the bus (below HEAR_COUPLING they change nothing)
FAR_COILS = 8.0  # beyond 8 coil sizes loop_field.coupling is < 0.005 (0.1 at 2.6 coil sizes, then 1/d³)


def config_for(cities: Sequence[str], *, card_reader: bool = True) -> HardwareConfig:
    """A hardware config for an emulated table with these cities (channel i = cities[i])."""
    channels = len(cities) + (1 if card_reader else 0)
    bits = max(1, math.ceil(math.log2(max(channels, 2))))
    return HardwareConfig(
        backend="emulated",
        spi=SpiSettings(address_pins=DEFAULT_ADDRESS_PINS[:bits] if bits <= 6 else tuple(range(2, 2 + bits))),
        readers=dict(enumerate(cities)),
        card_channel=len(cities) if card_reader else None,
        leds=LedSettings(
            backend="shift_register",
            led_map=LedMap.sequential(cities),
            data_pin=17,
            clock_pin=27,
            latch_pin=22,
            enable_pin=18,
        ),
        buttons=ButtonSettings(dict(DEFAULT_BUTTONS)),
    )


class EmulatedTable:
    """Emulated readers under ``cities``, a card reader, the LED chain and the five buttons."""

    def __init__(
        self,
        cities: Sequence[str] | None = None,
        *,
        config: HardwareConfig | None = None,
        card_reader: bool = True,
        sink: IntentSink | None = None,
        xfer_overhead_s: float = 0.0,
        dead: Sequence[str] = (),
        adjacency: Mapping[str, Iterable[str]] | None = None,
    ) -> None:
        # Objects of an earlier emulated table that are only waiting for the cycle collector still hold
        # gpiozero devices; collect them now, not in the middle of this table's sweeps.
        gc.collect()
        if config is None:
            config = config_for(list(cities or []), card_reader=card_reader)
        self.config = config
        self.adjacency = adjacency
        self.queue: queue.Queue[Intent] = queue.Queue()
        self.sink: IntentSink = sink if sink is not None else self.queue.put
        self.now = 0.0
        self.factory = MockFactory()
        self.bus = EmulatedSpiBus(config.spi.bus, xfer_overhead_s=xfer_overhead_s)
        self.channels = {city: ch for ch, city in config.readers.items()}
        for channel in [*config.readers, *([config.card_channel] if config.card_channel is not None else [])]:
            self.bus.add_chip(channel)
        for city in dead:  # readers that do not answer from the start (MISO stuck low)
            self.chip(city).dead = True
        self._stack = contextlib.ExitStack()
        self._stack.enter_context(installed(self.bus))
        try:
            self._build()
        except BaseException:
            self._stack.close()
            raise

    def _build(self) -> None:
        config, factory = self.config, self.factory
        chip_select: ChipSelect
        if config.spi.chip_select == "gpio":
            cs = config.spi.cs_pins
            chip_select = GpioChipSelect(cs, pin_factory=factory)
            # The mock pins, looked up once: factory.pin() searches every header's pin names, and the
            # emulated bus asks which chip is selected on every transfer.
            cs_pins = [factory.pin(pin) for pin in cs]

            def selector(_device: int) -> int | None:
                low = [i for i, pin in enumerate(cs_pins) if not pin.state]
                return low[0] if len(low) == 1 else None
        else:
            address = config.spi.address_pins or DEFAULT_ADDRESS_PINS
            chip_select = DecoderChipSelect(address, pin_factory=factory)
            address_pins = [factory.pin(pin) for pin in address]

            def selector(_device: int) -> int | None:
                return sum(int(pin.state) << bit for bit, pin in enumerate(address_pins))

        self.bus.selector = selector
        self.readers = SpiReaderArray.from_config(
            config, self.sink, chip_select, adjacency=self.adjacency, clock=self.bus.clock, sleep=self.bus.sleep
        )
        self._stack.callback(self.readers.close)
        self.readers.open(self.now)
        leds = config.leds
        self.chain: Emulated595Chain | None = None
        self.leds: Any = None
        if leds.backend == "gpio":
            self.leds = GpioLeds(leds.led_map, leds.pins, pin_factory=factory)
        elif leds.backend != "none":
            pins = {k: getattr(leds, k) if getattr(leds, k) is not None else v for k, v in DEFAULT_595.items()}
            self.chain = Emulated595Chain(
                factory,
                data_pin=pins["data_pin"],
                clock_pin=pins["clock_pin"],
                latch_pin=pins["latch_pin"],
                length=leds.led_map.size,
            )
            self.leds = ShiftRegisterLeds(leds.led_map, pin_factory=factory, **pins)
        self.button_pins = dict(config.buttons.pins or DEFAULT_BUTTONS)
        self.buttons = GpioButtons(
            self.sink,
            self.button_pins,
            long_press_s=config.buttons.long_press_s,
            bounce_s=None,
            clock=lambda: self.now,
            pin_factory=factory,
        )
        self.rig = HardwareRig(readers=self.readers, card_reader=self.readers, leds=self.leds, buttons=self.buttons)
        self._stack.callback(self.rig.close)

    # --- time --------------------------------------------------------------------------------
    @property
    def settle_polls(self) -> int:
        d, c = self.config.debounce, self.config.card_debounce
        return max(d.place_votes, d.lift_misses, c.place_votes, c.lift_misses) + 1

    def step(self, polls: int = 1) -> None:
        """Advance the table clock by ``polls`` poll intervals, polling every device each time."""
        for _ in range(polls):
            self.bus.now = max(self.bus.now, self.now)  # the idle time between polls passes for the chips too
            self.rig.poll(self.now)
            self.now += self.config.poll_interval_s

    def intents(self) -> list[Intent]:
        """Drain and return the intents emitted so far (when no ``sink`` was given)."""
        out: list[Intent] = []
        while True:
            try:
                out.append(self.queue.get_nowait())
            except queue.Empty:
                return out

    # --- tags --------------------------------------------------------------------------------
    def chip(self, city: str) -> EmulatedMfrc522:
        if city == "card" and self.config.card_channel is not None:
            return self.bus.chips[self.config.card_channel]
        if city not in self.channels:
            raise KeyError(f"no emulated reader under {city!r}; cities: {', '.join(self.channels)}")
        return self.bus.chips[self.channels[city]]

    def place_tag(self, city: str, uid: str, *, settle: bool = True) -> None:
        tag = EmulatedTag.from_hex(normalise_uid(uid))
        tag.ready_after_s = TAG_READY_WORST_S  # as slow as ISO/IEC 14443-3 allows: the guard time must cover it
        self.chip(city).place(tag)
        if settle:
            self.step(self.settle_polls)

    def lift_tag(self, city: str, uid: str | None = None, *, settle: bool = True) -> None:
        """Take the tag (or only ``uid``) off the reader under ``city``."""
        chip = self.chip(city)
        if uid is None:
            chip.tags.clear()
        else:
            chip.tags = [t for t in chip.tags if t.uid != bytes.fromhex(normalise_uid(uid))]
        if settle:
            self.step(self.settle_polls)

    def scan_card(self, uid: str) -> None:
        """Hold a card over the card reader until it is read, then take it away."""
        self.place_tag("card", uid)
        self.lift_tag("card")

    def flap(self, city: str, uid: str, pattern: str) -> None:
        """One poll per character: ``1`` = the tag answers, ``0`` = it does not (a wobbly marker)."""
        tag = EmulatedTag.from_hex(normalise_uid(uid))
        chip = self.chip(city)
        for seen in pattern:
            if seen == "1" and tag not in chip.tags:
                chip.place(tag)
            elif seen != "1":
                chip.tags = []
                tag.set_power(False, self.bus.now)  # taken out of the field
            self.step()

    def kill_reader(self, city: str, stuck_at: int = 0x00) -> None:
        chip = self.chip(city)
        chip.dead, chip.dead_value = True, stuck_at

    def revive_reader(self, city: str) -> None:
        chip = self.chip(city)
        chip.dead = False
        chip.soft_reset()  # it lost power: registers back to reset values

    def brownout_reader(self, city: str) -> None:
        """A power dip: the chip keeps answering but is back to its reset values (antenna off)."""
        self.chip(city).soft_reset()

    def couple(self, a: str, b: str, strength: float = 0.5) -> None:
        """RF coupling between the antennas under ``a`` and ``b`` (see ``emulated_mfrc522``)."""
        channel = dict(self.channels)
        if self.config.card_channel is not None:
            channel["card"] = self.config.card_channel
        self.bus.couple(channel[a], channel[b], strength)

    def place_antennas(
        self, positions_mm: Mapping[str, tuple[float, float]], coil_mm: float
    ) -> dict[tuple[str, str], float]:
        """Couple every pair of readers from where their antennas lie (reader name → centre, mm) and
        the coil size, by :func:`companion.hardware.loop_field.coupling`; pairs too weak to matter
        (< ``COUPLING_FLOOR``) stay uncoupled. Returns the couplings set."""
        from companion.hardware.loop_field import coupling

        names = sorted(positions_mm)
        out: dict[tuple[str, str], float] = {}
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                (xa, ya), (xb, yb) = positions_mm[a], positions_mm[b]
                distance = math.hypot(xa - xb, ya - yb)
                if distance > FAR_COILS * coil_mm:
                    continue  # a dipole's field falls as 1/d³: far below COUPLING_FLOOR out here
                strength = coupling(distance, coil_mm)
                if strength >= COUPLING_FLOOR:
                    self.couple(a, b, strength)
                    out[(a, b)] = strength
        return out

    def inject_read_errors(self, city: str, count: int) -> None:
        self.chip(city).read_errors += count

    # --- buttons -----------------------------------------------------------------------------
    def press(self, button: ButtonName | str, long: bool = False) -> None:
        name = ButtonName(button)
        pin = self.factory.pin(self.button_pins[name])
        pin.drive_low()
        held = self.config.buttons.long_press_s + 0.1 if long else 0.1
        self.now += held
        self.buttons.poll(self.now)
        pin.drive_high()

    # --- LEDs --------------------------------------------------------------------------------
    def show(self, frame: LedFrame) -> None:
        self.rig.show(frame, self.now)

    def led_bits(self) -> tuple[bool, ...]:
        """The LED outputs right now: latched 595 outputs, or the mock LED pins."""
        if self.chain is not None:
            return self.chain.outputs
        pins = self.config.leds.pins
        return tuple(bool(self.factory.pin(pin).state) for pin in pins)

    def decoded_leds(self) -> LedFrame:
        """What the LEDs show, read back from the output bits at the three blink phases."""
        if self.leds is None:
            return LedFrame()
        base = math.floor(self.now) + 1.0
        samples = []
        for phase in DECODE_PHASES:
            self.leds.poll(base + phase)
            samples.append(self.led_bits())
        self.leds.poll(self.now)
        return decode_bits(samples, self.config.leds.led_map)

    # --- life cycle --------------------------------------------------------------------------
    def close(self) -> None:
        self._stack.close()

    def __enter__(self) -> EmulatedTable:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
