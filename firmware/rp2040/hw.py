"""The bridge's hardware: the reader bus (SPI0, chip selects decoded per bank, NRSTPD per bank) and
the LED chain (SPI1 into 74HC595s). Only ``machine`` and ``time``: the tests swap in a shim.
"""

import time

import machine


class ReaderBus:
    """All readers on SPI0. Channel = 8 * bank + address; one transaction per strobe-low window
    (the MFRC522 treats everything between NSS low and high as one register access, DS §8.1.2)."""

    def __init__(self, cfg):  # type: ignore[no-untyped-def]
        pins = cfg.PINS
        self.spi = machine.SPI(
            0,
            baudrate=cfg.SPI_BAUD,
            polarity=0,
            phase=0,
            sck=machine.Pin(pins["sck"]),
            mosi=machine.Pin(pins["mosi"]),
            miso=machine.Pin(pins["miso"]),
        )
        self.strobe = machine.Pin(pins["strobe"], machine.Pin.OUT, value=1)
        self.addr = [machine.Pin(n, machine.Pin.OUT, value=0) for n in pins["addr"]]
        self.bank = [machine.Pin(n, machine.Pin.OUT, value=0) for n in pins["bank"]]
        self.rst = [machine.Pin(n, machine.Pin.OUT, value=1) for n in pins["rst"]]
        self.selected = -1
        self.transactions = 0
        self.bank_resets = 0

    def select(self, channel):  # type: ignore[no-untyped-def]
        if channel == self.selected:
            return
        previous = self.selected if self.selected >= 0 else ~channel
        for i in range(len(self.addr)):  # only the lines that change
            bit = (channel >> i) & 1
            if (previous >> i) & 1 != bit:
                self.addr[i].value(bit)
        for i in range(len(self.bank)):
            bit = (channel >> (3 + i)) & 1
            if (previous >> (3 + i)) & 1 != bit:
                self.bank[i].value(bit)
        self.selected = channel

    def xfer(self, channel, data):  # type: ignore[no-untyped-def]
        self.select(channel)
        tx = bytes(data)
        rx = bytearray(len(tx))
        self.strobe.value(0)
        self.spi.write_readinto(tx, rx)
        self.strobe.value(1)
        self.transactions += 1
        return rx

    def reset_bank(self, bank):  # type: ignore[no-untyped-def]
        """Pulse NRSTPD of one bank (DS §8.8.1: low for at least 100 ns); its readers restart."""
        self.rst[bank].value(0)
        time.sleep_us(10)
        self.rst[bank].value(1)
        self.bank_resets += 1


class LedChain:
    """74HC595 chain on SPI1: bit 0 of the frame is QA of the first chip (as the host's LED map)."""

    def __init__(self, cfg):  # type: ignore[no-untyped-def]
        pins = cfg.PINS
        self.spi = machine.SPI(
            1,
            baudrate=cfg.LED_BAUD,
            sck=machine.Pin(pins["led_sck"]),
            mosi=machine.Pin(pins["led_mosi"]),
            miso=machine.Pin(pins["led_miso"]),  # named, so the port does not pick a default (GP8 = A2)
        )
        self.latch = machine.Pin(pins["led_latch"], machine.Pin.OUT, value=0)
        self.enable = machine.Pin(pins["led_oe"], machine.Pin.OUT, value=0)
        self.frames = 0

    def show(self, nbits, data):  # type: ignore[no-untyped-def]
        # MSB first: bit 7 of a byte ends in QH, bit 0 in QA; the first byte sent ends in the last chip.
        out = bytearray(len(data))
        for i in range(len(data)):
            out[len(data) - 1 - i] = data[i]
        self.spi.write(out)
        self.latch.value(1)
        self.latch.value(0)
        self.frames += 1
