"""``machine`` as the firmware uses it on the RP2040 (Pin, SPI, WDT, reset, unique_id), for the
firmware on the MicroPython VM: every call reaches the host's emulated hardware (see vmlink.py)."""

import vmlink


class Pin:
    OUT = 1
    IN = 0
    PULL_UP = 1
    PULL_DOWN = 2
    OPEN_DRAIN = 2

    def __init__(self, number, mode=-1, pull=-1, value=None):  # type: ignore[no-untyped-def]
        self.number = number
        self.level = 0
        if value is not None:
            self.value(value)

    def value(self, v=None):  # type: ignore[no-untyped-def]
        if v is None:
            return self.level
        vmlink.enter(0)  # vmlink.PIN (a literal: no lookup before the clock is read)
        self.level = 1 if v else 0
        vmlink.pin(self.number, self.level)
        vmlink.leave()
        return None

    def on(self):  # type: ignore[no-untyped-def]
        self.value(1)

    def off(self):  # type: ignore[no-untyped-def]
        self.value(0)


class SPI:
    def __init__(self, spi_id, baudrate=1000000, polarity=0, phase=0, sck=None, mosi=None, miso=None):  # type: ignore[no-untyped-def]
        self.spi_id = spi_id
        self.baudrate = baudrate

    def write_readinto(self, tx, rx):  # type: ignore[no-untyped-def]
        vmlink.enter(1)  # vmlink.SPI
        if tx is not rx:
            for i in range(len(tx)):
                rx[i] = tx[i]
        vmlink.spi_transaction(rx, self.baudrate)
        vmlink.leave()

    def write(self, data):  # type: ignore[no-untyped-def]
        vmlink.enter(1)
        vmlink.spi_write(self.spi_id, data, self.baudrate)
        vmlink.leave()


class _Mem32:
    """``machine.mem32``: only the RP2040's SIO GPIO_OUT_SET/CLR/XOR stores (what the firmware uses);
    anything else fails loudly."""

    def __setitem__(self, addr, value):  # type: ignore[no-untyped-def]
        vmlink.enter(5)  # vmlink.MEM
        vmlink.gpio_store(addr, value)
        vmlink.leave()


mem32 = _Mem32()


class WDT:
    """RP2040 watchdog: must be fed within ``timeout`` ms (at most 8388) or the chip resets."""

    def __init__(self, id=0, timeout=5000):  # type: ignore[no-untyped-def]  # noqa: A002
        if not 1 <= timeout <= 8388:
            raise ValueError("WDT timeout too long")  # the RP2040 port refuses it too
        vmlink.wdt_timeout_us = timeout * 1000
        vmlink.feed()

    def feed(self):  # type: ignore[no-untyped-def]
        vmlink.enter(4)  # vmlink.OTHER
        vmlink.feed()
        vmlink.leave()


def reset():  # type: ignore[no-untyped-def]
    vmlink.reset()


def unique_id():  # type: ignore[no-untyped-def]
    return b"\xe6\x61\x41\x04\x03\x2b\x2a\x2b"
