"""Build the devices of a box from its hardware config; the backend is chosen by the config or by
the ``COMPANION_HARDWARE`` environment variable (``emulated``, ``spi``, ``serial``), as gpiozero's
``GPIOZERO_PIN_FACTORY`` chooses a pin factory.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Mapping
from typing import Any

from companion.hardware.buttons import GpioButtons
from companion.hardware.chip_select import ChipSelect, DecoderChipSelect, GpioChipSelect
from companion.hardware.config import HardwareConfig
from companion.hardware.leds import GpioLeds
from companion.hardware.protocols import IntentSink, LedOutput
from companion.hardware.rig import HardwareRig
from companion.hardware.serial_bridge import SerialBridge
from companion.hardware.shift_register import ShiftRegisterLeds
from companion.hardware.spi_readers import SpiReaderArray


def build_rig(
    config: HardwareConfig,
    sink: IntentSink,
    *,
    pin_factory: Any | None = None,
    adjacency: Mapping[str, Iterable[str]] | None = None,
) -> HardwareRig:
    """Open every device the config describes. Close the returned rig (it is a context manager).

    ``adjacency``: city → neighbouring cities on the board, built by the caller from the game's board
    (this package knows no game). With ``[rf] close`` it decides which readers may transmit together;
    without it only the declared pairs are kept apart."""
    if config.backend == "emulated":
        from companion.hardware.emulated import EmulatedTable

        table = EmulatedTable(config=config, sink=sink, adjacency=adjacency)
        return HardwareRig(
            readers=table.readers,
            card_reader=table.readers,
            leds=table.leds,
            buttons=table.buttons,
            extra_close=table.close,
        )
    with contextlib.ExitStack() as stack:
        known = config.known_uid if (config.markers or config.cards) else None
        bridge: SerialBridge | None = None
        readers: Any
        if config.backend == "serial":
            bridge = SerialBridge(
                sink,
                config.serial.url,
                cities=config.readers,
                card_channel=config.card_channel,
                led_map=config.leds.led_map if config.leds.backend == "serial" else None,
                baudrate=config.serial.baudrate,
                retry_interval_s=config.serial.retry_interval_s,
                known_uids=known,
            )
            stack.callback(bridge.close)
            readers = bridge.open()
        else:
            chip_select: ChipSelect = (
                GpioChipSelect(config.spi.cs_pins, pin_factory=pin_factory)
                if config.spi.chip_select == "gpio"
                else DecoderChipSelect(config.spi.address_pins, pin_factory=pin_factory)
            )
            stack.callback(chip_select.close)
            readers = SpiReaderArray.from_config(config, sink, chip_select, adjacency=adjacency)
            stack.callback(readers.close)
            readers.open()
        leds = build_leds(config, pin_factory=pin_factory, bridge=bridge)
        if leds is not None:
            stack.callback(leds.close)
        buttons = None
        if config.buttons.pins:
            buttons = GpioButtons(
                sink,
                config.buttons.pins,
                long_press_s=config.buttons.long_press_s,
                bounce_s=config.buttons.bounce_s,
                pin_factory=pin_factory,
            )
            stack.callback(buttons.close)
        stack.pop_all()
        return HardwareRig(readers=readers, card_reader=readers, leds=leds, buttons=buttons)
    raise AssertionError("unreachable")  # pragma: no cover


def build_leds(
    config: HardwareConfig, *, pin_factory: Any | None = None, bridge: SerialBridge | None = None
) -> LedOutput | None:
    leds = config.leds
    if leds.backend == "shift_register":
        assert leds.data_pin is not None and leds.clock_pin is not None and leds.latch_pin is not None
        return ShiftRegisterLeds(
            leds.led_map,
            data_pin=leds.data_pin,
            clock_pin=leds.clock_pin,
            latch_pin=leds.latch_pin,
            enable_pin=leds.enable_pin,
            pin_factory=pin_factory,
        )
    if leds.backend == "gpio":
        return GpioLeds(leds.led_map, leds.pins, pin_factory=pin_factory)
    if leds.backend == "serial":
        if bridge is None:
            raise ValueError('[leds] backend = "serial" needs [hardware] backend = "serial"')
        return bridge
    return None
