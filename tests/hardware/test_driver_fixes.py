"""The direct-SPI driver fixes of issue #10 §3, each against an emulator behaviour that makes the old
code fail: Pi 5 chip select, on-air timing, the error interrupt, soft reset and read-back."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from companion.hardware import mfrc522_core as core
from companion.hardware.config import SpiSettings, parse
from companion.hardware.emulated import EmulatedTable, config_for
from companion.hardware.emulated_mfrc522 import EmulatedMfrc522, EmulatedSpiBus, EmulatedTag, FakeSpiDev
from companion.hardware.errors import ConfigError
from companion.hardware.iso14443 import SEL_CL
from companion.intents import TagPlaced

NTAG = "04A1B2C3D4E5F6"


@pytest.fixture
def bus() -> EmulatedSpiBus:
    bus = EmulatedSpiBus(0)
    bus.add_chip(0)
    return bus


def chip_on(bus: EmulatedSpiBus, **kwargs: object) -> core.Chip:
    return core.Chip(
        lambda data: bus.xfer(0, list(data), 1_000_000),
        lambda: round(bus.now * 1e6),
        lambda us: bus.sleep(us / 1e6),
        **kwargs,  # type: ignore[arg-type]
    )


@pytest.fixture
def chip(bus: EmulatedSpiBus) -> Iterator[core.Chip]:
    chip = chip_on(bus, antenna_idle=True)
    assert chip.init()
    yield chip


# --- Pi 5: no SPI_NO_CS ---------------------------------------------------------------------------
def test_pi5_spidev_refuses_no_cs_and_the_gpio_chip_select_does_not_need_it() -> None:
    spi = FakeSpiDev()
    spi.bus = EmulatedSpiBus(0, pi_model=5)
    with pytest.raises(OSError):
        spi.no_cs = True
    spi.bus = EmulatedSpiBus(0, pi_model=4)
    spi.no_cs = True
    config = replace(config_for(["A", "B"], card_reader=False), spi=SpiSettings(chip_select="gpio", cs_pins=(5, 6)))
    with EmulatedTable(config=config) as table:  # the emulated bus is a Pi 5
        table.place_tag("B", NTAG)
        assert table.intents() == [TagPlaced("B", NTAG)]


def test_config_reserves_the_ce_pin_spidev_drives() -> None:
    text = (
        '[hardware]\nbackend = "spi"\n[spi]\nchip_select = "gpio"\ndevice = {d}\ncs_pins = [{p}, 5]\n'
        '[readers]\n0 = "A"\n'
    )
    with pytest.raises(ConfigError, match=r"SPI0 CE0 \(toggled by spidev, leave it unconnected"):
        parse(text.format(d=0, p=8), env={})
    with pytest.raises(ConfigError, match="SPI0 CE1"):
        parse(text.format(d=1, p=7), env={})
    # the spi0 overlay claims both CE pins (a Pi 5 cannot use the other one as GPIO): reserved too
    with pytest.raises(ConfigError, match=r"SPI0 CE0 \(claimed by the spi0 overlay"):
        parse(text.format(d=1, p=8), env={})
    assert parse(text.format(d=1, p=6), env={}).spi.cs_pins == (6, 5)
    with pytest.raises(ConfigError, match="CE0 and CE1"):
        parse(text.format(d=2, p=6), env={})


# --- on-air timing ----------------------------------------------------------------------------------
def test_frame_times_follow_iso_14443_3() -> None:
    assert core.frame_bits(1, 7) == 9  # REQA/WUPA short frame
    assert core.frame_bits(2) == 20  # ATQA: (9n + 2)
    assert core.frame_bits(9) == 83  # SELECT
    assert core.frame_us(9) == 784  # 83 x 9.44 us, not 72 x 9.44 = 680
    assert core.MARGIN_US >= 150


def test_first_look_comes_after_the_answer_is_complete(chip: core.Chip, bus: EmulatedSpiBus) -> None:
    emu = bus.chips[0]
    emu.place(EmulatedTag.from_hex("04A1B2C3D4E5F60718A9"))  # 10-byte UID: three cascade levels
    chip.start_wakeup()
    assert chip.finish()[0] == core.OK
    uid, collided, status = chip.read_uid()
    assert (uid, collided, status) == (bytes.fromhex("04A1B2C3D4E5F60718A9"), False, core.OK)
    assert emu.early_irq_reads == 0


def test_silence_after_a_long_frame_is_a_timeout_not_a_dead_reader(chip: core.Chip, bus: EmulatedSpiBus) -> None:
    """A SELECT nobody answers: the timer starts after 83 bit times, so the last look must wait for it
    (8-bit bytes and no margin would look 100 us too early and call a live reader dead)."""
    bus.chips[0].place(EmulatedTag.from_hex(NTAG))
    chip.start_wakeup()
    chip.finish()
    head = bytes((SEL_CL[0], 0x70)) + bytes.fromhex("8801020389")  # a UID that is not there
    from companion.hardware.iso14443 import crc_a

    status = chip.transceive(head + crc_a(head), 0, 0, False, 3)[0]
    assert status == core.TIMEOUT


def test_an_empty_reader_is_settled_at_the_first_look_and_a_dead_one_is_still_no_irq(
    chip: core.Chip, bus: EmulatedSpiBus
) -> None:
    """Answers start a fixed FDT after our frame (ISO §6.2.1.1): at answer_at TxIRq without RxIRq is
    silence, one look, no wait for the receive timer. A reader whose MISO is stuck reads no TxIRq."""
    chip.start_wakeup()
    before = bus.transfers
    assert chip.finish_into() == core.TIMEOUT
    assert bus.transfers - before == 1
    assert round(bus.now * 1e6) < chip.expect_by  # did not wait for the timer
    bus.chips[0].dead = True
    chip.start_wakeup()
    assert chip.finish_into() == core.NO_IRQ


def test_start_send_after_a_timeout_needs_the_command_written_again(chip: core.Chip, bus: EmulatedSpiBus) -> None:
    """The emulator's pessimistic reading of DS §10.3.1.8 / §9.3.1.14: Transceive takes StartSend
    when written and after a received frame, not while its receiver still waits (after a timeout).
    The driver's fresh frame writes the command again, so the next WUPA goes out."""
    emu = bus.chips[0]
    chip.start_wakeup()
    assert chip.finish_into() == core.TIMEOUT
    emu.place(EmulatedTag.from_hex(NTAG))
    bus.sleep(0.0051)
    seen = emu.frames_seen
    chip.send(2)  # StartSend alone, the receiver still waiting for the last WUPA's answer
    assert emu.frames_seen == seen
    chip.start_wakeup()  # Transceive written again: goes out
    assert emu.frames_seen == seen + 1
    assert chip.finish_into() == core.OK


def test_the_atqa_comes_with_the_first_look(chip: core.Chip, bus: EmulatedSpiBus) -> None:
    emu = bus.chips[0]
    tag = EmulatedTag.from_hex(NTAG)
    emu.place(tag)
    bus.sleep(0.0051)
    chip.start_wakeup()
    before = bus.transfers
    assert chip.finish_into() == core.OK
    assert bus.transfers - before == 1  # the look read the two FIFO bytes along
    assert chip.count == 2 and chip.bits == 16
    assert bytes(chip.buffers.data[:2]) == bytes(tag.atqa)


@pytest.mark.parametrize("look_after_us", range(0, 450, 15))
def test_a_look_while_the_atqa_arrives_is_never_silence_nor_a_wrong_atqa(
    bus: EmulatedSpiBus, look_after_us: int
) -> None:
    """A first look anywhere from the moment the answer is due (our frame's end + FDT, ISO
    §6.2.1.1) on, during the answer or after it: the tag is never taken for absent (ModemState says
    receiving) and FIFO bytes read from a frame not yet complete are never taken for the ATQA (the
    exchange ends as an error: one UNKNOWN sample). (A look before the answer is due would see
    silence: answer_at is never that early, it adds the whole ATQA and MARGIN_US.)"""
    chip = chip_on(bus, antenna_idle=True)
    assert chip.init()
    tag = EmulatedTag.from_hex(NTAG)
    bus.chips[0].place(tag)
    bus.sleep(0.0051)
    chip.start_wakeup()
    assert chip.answer_at >= round(bus.now * 1e6) + chip.tx_us + core.FDT_US + 2 * 9 * 9 + core.MARGIN_US
    chip.answer_at = round(bus.now * 1e6) + chip.tx_us + core.FDT_US + look_after_us
    status = chip.finish_into()
    assert status in (core.OK, core.ERROR_STATUS)
    if status == core.OK:
        assert bytes(chip.buffers.data[: chip.count]) == bytes(tag.atqa)


# --- the error interrupt ------------------------------------------------------------------------------
def test_error_irq_rises_mid_frame_and_the_wait_goes_on_until_rx(chip: core.Chip, bus: EmulatedSpiBus) -> None:
    emu = bus.chips[0]
    emu.place(EmulatedTag.from_hex("04A1B2C3D4E5F6"))
    emu.place(EmulatedTag.from_hex("0411B2C3D4E5F6"))  # differs in the 3rd byte of cascade level 1
    chip.start_wakeup()
    assert chip.finish()[0] == core.OK
    chip.start(bytes((SEL_CL[0], 0x20)), 0, 0, False, 1)  # first look planned after 1 byte: mid-frame
    bus.sleep((chip.answer_at - round(bus.now * 1e6)) / 1e6)
    irq = chip.read(core.COMM_IRQ)
    assert irq & core.IRQ_ERR and not irq & core.IRQ_RX  # what a driver stopping on ErrIRq would see ...
    assert chip.read(core.FIFO_LEVEL) < 5  # ... with half a frame in the FIFO
    status, data, bits, coll = chip.finish()
    assert status == core.COLLISION and bits == 40 and len(data) == 5 and coll is not None


# --- soft reset, configuration read-back --------------------------------------------------------------
def test_init_waits_for_a_slow_oscillator_and_every_register_sticks(bus: EmulatedSpiBus) -> None:
    emu = bus.chips[0]
    emu.soft_reset_s = 0.003  # a slow crystal: 3 ms
    chip = chip_on(bus)
    assert chip.init() and chip.configured()
    assert emu.lost_writes == 0 and chip.reset_polls >= 3


def test_writing_right_after_soft_reset_is_lost(bus: EmulatedSpiBus) -> None:
    """What mfrc522 0.0.7's MFRC522_Init does; the emulator drops those writes, configured() sees it."""
    bus.chips[0].soft_reset_s = 0.003
    chip = chip_on(bus)
    chip.write(core.COMMAND, core.CMD_SOFT_RESET)
    for reg, value in chip.config:
        chip.write(reg, value)
    assert bus.chips[0].lost_writes > 0 and not chip.configured()


def test_a_chip_that_never_wakes_fails_init_in_bounded_time(bus: EmulatedSpiBus) -> None:
    bus.chips[0].soft_reset_s = 10.0
    chip = chip_on(bus)
    start = bus.now
    assert not chip.init()
    assert bus.now - start < 0.06  # 50 polls of 1 ms, not forever


@pytest.mark.parametrize("index", range(len(core.configuration(1000))))
def test_configured_checks_every_register(chip: core.Chip, bus: EmulatedSpiBus, index: int) -> None:
    reg, value = chip.config[index]
    bus.chips[0].regs[reg] = value ^ 0x01  # one register lost (a power dip, a glitch)
    assert not chip.configured()


def test_power_up_reset_of_a_bank_is_waited_for_too(bus: EmulatedSpiBus) -> None:
    emu: EmulatedMfrc522 = bus.chips[0]
    chip = chip_on(bus)
    emu.hard_reset(True, bus.now)
    assert chip.version() == 0x00  # held in reset: nothing answers
    emu.hard_reset(False, bus.now)  # released: deaf while the oscillator starts (50 ms, MB PCD_Init)
    assert chip.version() == 0x00
    bus.sleep(core.POWER_UP_US / 1e6)  # what the firmware waits after NRSTPD, before VersionReg
    assert chip.version() == emu.version
    assert chip.init() and emu.lost_writes == 0
