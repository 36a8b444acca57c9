"""74HC595 chain through three gpiozero output pins, and an emulated chain that listens to mock pins.

Bit 0 is output QA of the first 595 (the one whose SER is wired to the Pi). Bits are shifted last
bit first, then RCLK latches them all at once, so the LEDs never show a half-shifted pattern.
An optional OE pin (active low) keeps the outputs dark until the first frame is latched.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPin

from companion.hardware.leds import BlinkingOutput, LedMap


class ShiftRegisterLeds(BlinkingOutput):
    def __init__(
        self,
        led_map: LedMap,
        *,
        data_pin: int,
        clock_pin: int,
        latch_pin: int,
        enable_pin: int | None = None,
        length: int | None = None,
        pin_factory: Any | None = None,
    ) -> None:
        from gpiozero import DigitalOutputDevice

        super().__init__(led_map)
        size = length if length is not None else led_map.size
        self.length = (size + 7) // 8 * 8  # whole 595s
        self._data = DigitalOutputDevice(data_pin, pin_factory=pin_factory)
        self._clock = DigitalOutputDevice(clock_pin, pin_factory=pin_factory)
        self._latch = DigitalOutputDevice(latch_pin, pin_factory=pin_factory)
        self._enable = (
            DigitalOutputDevice(enable_pin, active_high=False, initial_value=False, pin_factory=pin_factory)
            if enable_pin is not None
            else None
        )
        self.write_bits((False,) * self.length)
        if self._enable is not None:
            self._enable.on()

    def write_bits(self, bits: Sequence[bool]) -> None:
        padded = list(bits) + [False] * (self.length - len(bits))
        for bit in reversed(padded):
            self._data.value = bool(bit)
            self._clock.on()
            self._clock.off()
        self._latch.on()
        self._latch.off()

    def release(self) -> None:
        for device in (self._data, self._clock, self._latch, self._enable):
            if device is not None:
                device.close()


class _WatchedPin(MockPin):
    """A gpiozero mock pin that tells listeners about every change (the 595 reacts to edges)."""

    def __init__(self, factory: Any, info: Any) -> None:
        super().__init__(factory, info)
        self.listeners: list[Callable[[bool], None]] = []

    def _change_state(self, value: bool) -> bool:
        changed = bool(super()._change_state(value))
        if changed:
            for listener in list(self.listeners):
                listener(value)
        return changed


class Emulated595Chain:
    """Watches SER/SRCLK/RCLK mock pins and keeps the latched outputs, as a chain of 74HC595 would.

    Create it *before* the :class:`ShiftRegisterLeds` on the same ``MockFactory`` so the device gets
    the watched pins.
    """

    def __init__(self, factory: MockFactory, *, data_pin: int, clock_pin: int, latch_pin: int, length: int) -> None:
        self.length = (length + 7) // 8 * 8
        self._data = factory.pin(data_pin, pin_class=_WatchedPin)
        clock = factory.pin(clock_pin, pin_class=_WatchedPin)
        latch = factory.pin(latch_pin, pin_class=_WatchedPin)
        for pin in (self._data, clock, latch):
            if not isinstance(pin, _WatchedPin):
                raise RuntimeError(f"pin {pin} was claimed before the emulated 595 chain was created")
        self.shift = [False] * self.length
        self.outputs: tuple[bool, ...] = (False,) * self.length
        self.clocks = 0
        self.latches = 0
        clock.listeners.append(self._on_clock)
        latch.listeners.append(self._on_latch)

    def _on_clock(self, level: bool) -> None:
        if level:  # rising edge: QA takes SER, every stage passes its bit on (QH' feeds the next 595)
            self.shift = [bool(self._data.state), *self.shift[:-1]]
            self.clocks += 1

    def _on_latch(self, level: bool) -> None:
        if level:
            self.outputs = tuple(self.shift)
            self.latches += 1
