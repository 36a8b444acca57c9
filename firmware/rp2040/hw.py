"""The bridge's hardware: the reader bus (SPI0, chip selects decoded per bank, NRSTPD per bank) and
the LED chain (SPI1 into 74HC595s). Only ``machine`` and ``time``: the tests swap in a shim.

Nothing here allocates after set-up (design/style.md point 21): one register buffer, shared by every
reader, with a memoryview of each length made once; the LED frame goes out of a buffer sized for
the chain.
"""

import time

import machine
import mfrc522_core as core

# RP2040 SIO registers (RP2040 datasheet §2.3.1.7): a store sets / clears / toggles every GPIO
# output whose bit is 1, all at once. One subscript store instead of a Pin.value call per line.
SIO_GPIO_OUT_SET = 0xD0000014
SIO_GPIO_OUT_CLR = 0xD0000018
SIO_GPIO_OUT_XOR = 0xD000001C


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
        self.buffers = core.Buffers()  # shared by every reader's Chip: ``xfer`` exchanges buffers.io
        whole = memoryview(self.buffers.io)
        self.views = [whole[:n] for n in range(len(self.buffers.io) + 1)]  # write_readinto wants exact lengths
        # chip select: the decoder's lines (A0..A2, B0..B2) change together with one store to
        # GPIO_OUT_XOR while the strobe is high (the decoders are disabled: no glitch selects anyone)
        lines = list(pins["addr"]) + list(pins["bank"])
        self.line_masks = [0] * (1 << len(lines))  # channel ^ selected -> the GPIO bits that change
        for diff in range(len(self.line_masks)):
            for i in range(len(lines)):
                if diff >> i & 1:
                    self.line_masks[diff] |= 1 << lines[i]
        self.strobe_mask = 1 << pins["strobe"]
        self.mem32 = machine.mem32
        self.selected = 0  # every line starts low (above)
        self.scratch = bytearray(2)  # where the answers to register writes go (scripts.GroupScript)
        self.transactions = 0
        self.bank_resets = 0

    def select(self, channel):  # type: ignore[no-untyped-def]
        """The decoder's lines to ``channel`` (strobe high: nobody is selected until a transaction)."""
        if channel != self.selected:
            self.mem32[SIO_GPIO_OUT_XOR] = self.line_masks[channel ^ self.selected]
            self.selected = channel

    def xfer(self, channel, n):  # type: ignore[no-untyped-def]
        """One register transaction with reader ``channel``: ``buffers.io[0:n]`` out, the answer in place
        (machine.SPI.write_readinto allows the same buffer for both). Inline: it runs ~8 times per
        reader per sweep."""
        mem32 = self.mem32
        if channel != self.selected:
            mem32[SIO_GPIO_OUT_XOR] = self.line_masks[channel ^ self.selected]
            self.selected = channel
        view = self.views[n]
        mem32[SIO_GPIO_OUT_CLR] = self.strobe_mask
        self.spi.write_readinto(view, view)
        mem32[SIO_GPIO_OUT_SET] = self.strobe_mask
        self.transactions += 1

    def reset_bank(self, bank):  # type: ignore[no-untyped-def]
        """Pulse NRSTPD of one bank (DS §8.8.1: low for at least 100 ns); its readers restart. The
        caller waits ``core.POWER_UP_US`` before talking to them (DS §8.8.2, MB PCD_Init)."""
        self.rst[bank].value(0)
        time.sleep_us(10)
        self.rst[bank].value(1)
        self.bank_resets += 1


class LedChain:
    """74HC595 chain on SPI1: bit 0 of the frame is QA of the first chip (as the host's LED map).

    Dark from power-up until the first frame: OE (active low) is held high while zeros are shifted in
    and latched, and only then enabled; the 595s' storage registers are undefined at power-up. A frame
    longer than the chain (``LED_BITS``) is refused and counted, never used: the bit count comes from
    the host's line."""

    def __init__(self, cfg):  # type: ignore[no-untyped-def]
        pins = cfg.PINS
        self.enable = machine.Pin(pins["led_oe"], machine.Pin.OUT, value=1)  # outputs off first
        self.latch = machine.Pin(pins["led_latch"], machine.Pin.OUT, value=0)
        self.spi = machine.SPI(
            1,
            baudrate=cfg.LED_BAUD,
            sck=machine.Pin(pins["led_sck"]),
            mosi=machine.Pin(pins["led_mosi"]),
            miso=machine.Pin(pins["led_miso"]),  # named, so the port does not pick a default (GP8 = A2)
        )
        self.bits = cfg.LED_BITS
        self.out = bytearray((cfg.LED_BITS + 7) // 8)
        self.frames = 0
        self.refused = 0
        self._shift_out()  # zeros
        self.enable.value(0)

    def show(self, nbits, data):  # type: ignore[no-untyped-def]
        """Show bits 0..nbits-1 of ``data`` (bit 0 = LSB of the first byte); the rest of the chain dark."""
        if nbits < 0 or nbits > self.bits:
            self.refused += 1
            return False
        out = self.out
        size = len(out)
        for i in range(size):
            # MSB first: bit 7 of a byte ends in QH, bit 0 in QA; the first byte sent ends in the last chip.
            byte = data[i] if i < len(data) else 0
            if nbits < (i + 1) * 8:
                byte &= (1 << max(0, nbits - i * 8)) - 1
            out[size - 1 - i] = byte
        self._shift_out()
        self.frames += 1
        return True

    def _shift_out(self):  # type: ignore[no-untyped-def]
        self.spi.write(self.out)
        self.latch.value(1)
        self.latch.value(0)
