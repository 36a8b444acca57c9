"""Our driver over the real mfrc522 register API, against the emulator."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion.hardware.emulated_mfrc522 import EmulatedSpiBus, EmulatedTag, installed
from companion.hardware.mfrc522_driver import Mfrc522Driver, Status


@pytest.fixture
def bus() -> Iterator[EmulatedSpiBus]:
    bus = EmulatedSpiBus(0)
    bus.add_chip(0)
    with installed(bus):
        yield bus


@pytest.fixture
def driver(bus: EmulatedSpiBus) -> Mfrc522Driver:
    from mfrc522 import MFRC522

    driver = Mfrc522Driver(MFRC522(bus=0, device=0), clock=bus.clock, sleep=bus.sleep)
    driver.init()
    return driver


def test_empty_reader_times_out_within_a_few_transfers(bus: EmulatedSpiBus, driver: Mfrc522Driver) -> None:
    bus.reset_counters()
    driver.start_wakeup()
    assert driver.finish().status is Status.TIMEOUT
    assert bus.transfers <= 10
    assert bus.chips[0].timer_period() == pytest.approx(0.001, rel=0.05)


@pytest.mark.parametrize("uid", ["DEADBEEF", "04A1B2C3D4E5F6", "04A1B2C3D4E5F60718A9"])
def test_reads_4_7_and_10_byte_uids(driver: Mfrc522Driver, bus: EmulatedSpiBus, uid: str) -> None:
    bus.chips[0].place(EmulatedTag.from_hex(uid))
    driver.start_wakeup()
    answer = driver.finish()
    assert answer.status is Status.OK and answer.bits == 16
    result = driver.read_uid()
    assert result.uid == bytes.fromhex(uid)
    assert not result.collided


def test_present_tag_answers_every_wupa(driver: Mfrc522Driver, bus: EmulatedSpiBus) -> None:
    bus.chips[0].place(EmulatedTag.from_hex("04A1B2C3D4E5F6"))
    for _ in range(3):
        driver.start_wakeup()
        assert driver.finish().status is Status.OK
        driver.halt()
    assert bus.chips[0].tags[0].state.value in ("idle", "halt")  # not READY: the next WUPA is answered


def test_collision_resolves_to_the_one_branch(driver: Mfrc522Driver, bus: EmulatedSpiBus) -> None:
    bus.chips[0].place(EmulatedTag.from_hex("04A1B2C3D4E5F6"))
    bus.chips[0].place(EmulatedTag.from_hex("04A1B2C3D4E5F7"))
    bus.chips[0].place(EmulatedTag.from_hex("0411B2C3D4E5F6"))
    driver.start_wakeup()
    assert driver.finish().status is Status.OK  # same ATQA from both: no collision yet
    result = driver.read_uid()
    assert result.collided
    assert result.uid == bytes.fromhex("0411B2C3D4E5F6")  # first difference: bit 4 of byte 1, 0x11 has it set
    bus.chips[0].tags.pop()
    driver.start_wakeup()
    driver.finish()
    assert driver.read_uid().uid == bytes.fromhex("04A1B2C3D4E5F7")  # then in the last bit of CL2


def test_read_error_is_reported_not_raised(driver: Mfrc522Driver, bus: EmulatedSpiBus) -> None:
    bus.chips[0].place(EmulatedTag.from_hex("DEADBEEF"))
    bus.chips[0].read_errors = 1
    driver.start_wakeup()
    assert driver.finish().status is Status.ERROR


def test_dead_reader_gives_no_irq(driver: Mfrc522Driver, bus: EmulatedSpiBus) -> None:
    bus.chips[0].dead = True
    driver.start_wakeup()
    assert driver.finish().status is Status.NO_IRQ
    assert driver.version() == 0x00
