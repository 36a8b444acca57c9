"""The emulator is good enough for the real mfrc522 0.0.7 code paths (its own Request/Anticoll/Select)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion.hardware.emulated_mfrc522 import EmulatedSpiBus, EmulatedTag, installed


@pytest.fixture
def bus() -> Iterator[EmulatedSpiBus]:
    bus = EmulatedSpiBus(0, xfer_overhead_s=25e-6)  # a Pi's Python + ioctl per transfer
    bus.add_chip(0)
    with installed(bus):
        yield bus


def make_reader(bus: EmulatedSpiBus):  # type: ignore[no-untyped-def]
    from mfrc522 import MFRC522

    return MFRC522(bus=0, device=0)


def test_library_reads_version_register(bus: EmulatedSpiBus) -> None:
    reader = make_reader(bus)
    assert reader.Read_MFRC522(reader.VersionReg) == 0x92
    assert reader.Read_MFRC522(reader.TxControlReg) & 0x03 == 0x03  # AntennaOn ran


def test_library_request_anticoll_select_on_a_4_byte_tag(bus: EmulatedSpiBus) -> None:
    bus.chips[0].place(EmulatedTag.from_hex("DEADBEEF"))
    reader = make_reader(bus)
    status, bits = reader.MFRC522_Request(reader.PICC_REQIDL)
    assert (status, bits) == (reader.MI_OK, 0x10)
    status, uid = reader.MFRC522_Anticoll()
    assert status == reader.MI_OK
    assert uid == [0xDE, 0xAD, 0xBE, 0xEF, 0xDE ^ 0xAD ^ 0xBE ^ 0xEF]
    assert reader.MFRC522_SelectTag(uid) == 0x08  # SAK of a MIFARE Classic 1K, CRC through the coprocessor


def test_library_sees_only_the_cascade_tag_of_a_7_byte_uid(bus: EmulatedSpiBus) -> None:
    bus.chips[0].place(EmulatedTag.from_hex("04A1B2C3D4E5F6"))
    reader = make_reader(bus)
    assert reader.MFRC522_Request(reader.PICC_REQIDL)[0] == reader.MI_OK
    status, uid = reader.MFRC522_Anticoll()
    assert status == reader.MI_OK
    assert uid[:4] == [0x88, 0x04, 0xA1, 0xB2]  # CT + first three bytes: the library stops there


def test_library_wait_loop_ignores_the_timer_on_an_empty_reader(bus: EmulatedSpiBus) -> None:
    reader = make_reader(bus)
    bus.reset_counters()
    status, _ = reader.MFRC522_Request(reader.PICC_REQIDL)
    assert status == reader.MI_ERR
    assert bus.transfers > 2000  # the `~` bug: 2 000 CommIrqReg reads although TimerIRq was set early


def test_a_tag_left_in_ready_misses_every_other_reqa(bus: EmulatedSpiBus) -> None:
    bus.chips[0].place(EmulatedTag.from_hex("DEADBEEF"))
    reader = make_reader(bus)
    answers = [reader.MFRC522_Request(reader.PICC_REQIDL)[0] == reader.MI_OK for _ in range(4)]
    assert answers == [True, False, True, False]  # as real tags do: REQA in READY sends it back to IDLE


def test_antenna_off_means_no_answer(bus: EmulatedSpiBus) -> None:
    bus.chips[0].place(EmulatedTag.from_hex("DEADBEEF"))
    reader = make_reader(bus)
    reader.AntennaOff()
    assert reader.MFRC522_Request(reader.PICC_REQIDL)[0] == reader.MI_ERR


def test_fake_modules_are_removed_afterwards() -> None:
    import sys

    bus = EmulatedSpiBus(3)
    with installed(bus):
        assert sys.modules["spidev"].EMULATED  # type: ignore[attr-defined]
    assert "spidev" not in sys.modules or not getattr(sys.modules["spidev"], "EMULATED", False)
