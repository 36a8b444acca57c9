"""Chip-select for many MFRC522 on one SPI bus, through gpiozero output devices.

* :class:`DecoderChipSelect`: address lines into a 74HC138 cascade or 74HC4067 muxes; the bus's own
  CE0 gates the decoder, so the selected reader's NSS still goes high between transactions (the
  MFRC522 needs that: one transaction = one register). Channel number = binary value of the lines.
* :class:`GpioChipSelect`: one GPIO per reader (small builds); the line is pulled low around every
  transfer by :class:`_ChipSelectedSpi`. The spidev keeps its own chip select: ``SPI_NO_CS``
  (spidev's ``no_cs``) is refused by the Pi 5's SPI controller driver (RP1/DesignWare), so the
  spidev's CE line must simply be left unconnected: use ``dtoverlay=spi0-0cs`` (no CE pin at all) or
  ``device = 1`` with nothing on CE1 (BCM 7). The config check reserves that pin.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol


class ChipSelect(Protocol):
    def channels(self) -> range: ...

    def select(self, channel: int) -> None: ...

    def wrap(self, spi: Any) -> Any: ...

    def close(self) -> None: ...


def _output(pin: int, pin_factory: Any | None, *, active_high: bool = True, initial: bool = False) -> Any:
    from gpiozero import DigitalOutputDevice

    return DigitalOutputDevice(pin, active_high=active_high, initial_value=initial, pin_factory=pin_factory)


class DecoderChipSelect:
    """Address lines (A0 first, BCM numbers) of a 74HC138 / 74HC4067 decoder tree."""

    def __init__(self, address_pins: Sequence[int], pin_factory: Any | None = None) -> None:
        self.address_pins = tuple(address_pins)
        self._lines = [_output(pin, pin_factory) for pin in self.address_pins]
        self._selected: int | None = None
        self.line_writes = 0  # GPIO writes so far (each costs ~10 us through gpiozero on a Pi 4)

    def channels(self) -> range:
        return range(1 << len(self.address_pins))

    def select(self, channel: int) -> None:
        if channel == self._selected:
            return
        if channel not in self.channels():
            raise ValueError(f"channel {channel} needs more than {len(self.address_pins)} address lines")
        previous = self._selected
        for bit, line in enumerate(self._lines):
            level = (channel >> bit) & 1
            if previous is None or (previous >> bit) & 1 != level:  # only the lines that change
                line.value = level
                self.line_writes += 1
        self._selected = channel

    def wrap(self, spi: Any) -> Any:
        return spi  # CE0 toggles per transfer and gates the decoder

    def close(self) -> None:
        for line in self._lines:
            line.close()
        self._lines = []


class _ChipSelectedSpi:
    """Wraps ``spidev.SpiDev``: pulls the selected reader's CS line low around each transfer."""

    def __init__(self, spi: Any, owner: GpioChipSelect) -> None:
        self._spi = spi
        self._owner = owner  # no ``spi.no_cs = True``: the Pi 5 refuses it (EINVAL)

    def xfer2(self, data: list[int]) -> list[int]:
        line = self._owner.current_line()
        line.on()
        try:
            return list(self._spi.xfer2(data))
        finally:
            line.off()

    def close(self) -> None:
        self._spi.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._spi, name)


class GpioChipSelect:
    """One active-low chip-select GPIO per reader, channel = index in ``cs_pins``."""

    def __init__(self, cs_pins: Sequence[int], pin_factory: Any | None = None) -> None:
        self.cs_pins = tuple(cs_pins)
        self._lines = [_output(pin, pin_factory, active_high=False) for pin in self.cs_pins]
        self._selected = 0

    def channels(self) -> range:
        return range(len(self.cs_pins))

    def select(self, channel: int) -> None:
        if channel not in self.channels():
            raise ValueError(f"channel {channel} has no chip-select pin (only {len(self.cs_pins)})")
        self._selected = channel

    def current_line(self) -> Any:
        return self._lines[self._selected]

    def wrap(self, spi: Any) -> Any:
        return _ChipSelectedSpi(spi, self)

    def close(self) -> None:
        for line in self._lines:
            line.close()
        self._lines = []
