"""The SPI reader array on 40 emulated readers behind a 74HC138 decoder (gpiozero MockFactory pins)."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from companion.hardware.config import SpiSettings
from companion.hardware.emulated import EmulatedTable, config_for
from companion.intents import CardScanned, DeviceFault, TagLifted, TagPlaced

CITIES = [f"City{i:02d}" for i in range(40)]
NTAG = "04A1B2C3D4E5F6"
CLASSIC = "DEADBEEF"


@pytest.fixture
def table() -> Iterator[EmulatedTable]:
    with EmulatedTable(CITIES) as table:
        yield table


def test_tags_placed_and_lifted_on_several_of_40_readers(table: EmulatedTable) -> None:
    table.place_tag("City00", NTAG, settle=False)
    table.place_tag("City17", CLASSIC, settle=False)
    table.place_tag("City39", "04112233445566", settle=False)
    table.step(table.settle_polls)
    assert sorted(table.intents(), key=repr) == sorted(
        [TagPlaced("City00", NTAG), TagPlaced("City17", CLASSIC), TagPlaced("City39", "04112233445566")],
        key=repr,
    )
    assert table.readers.present() == {"City00": NTAG, "City17": CLASSIC, "City39": "04112233445566"}
    table.lift_tag("City17")
    assert table.intents() == [TagLifted("City17", CLASSIC)]
    table.step(20)
    assert table.intents() == []  # tags that stay produce nothing more


def test_decoder_lines_pick_the_reader(table: EmulatedTable) -> None:
    table.place_tag("City21", NTAG)  # 21 = 0b010101: only the decoder's address lines make it City21
    assert table.intents() == [TagPlaced("City21", NTAG)]


def test_seven_byte_uid_is_read_whole(table: EmulatedTable) -> None:
    table.place_tag("City05", "04A1B2C3D4E5F6")
    (placed,) = table.intents()
    assert isinstance(placed, TagPlaced) and len(placed.uid) == 14


def test_uid_read_only_on_change(table: EmulatedTable) -> None:
    table.place_tag("City03", NTAG)
    reads = table.readers.stats.uid_reads
    table.step(30)
    # presence only (WUPA + HLTA) while it stays, plus a re-read every 11th poll (reverify_every = 10)
    assert table.readers.stats.uid_reads == reads + 3


def test_flapping_tag_produces_no_events(table: EmulatedTable) -> None:
    table.flap("City08", NTAG, "10100101001010")
    assert table.intents() == []
    table.place_tag("City08", NTAG)
    assert table.intents() == [TagPlaced("City08", NTAG)]
    table.flap("City08", NTAG, "01101101101")
    assert table.intents() == []


def test_swap_gives_lift_then_place(table: EmulatedTable) -> None:
    table.place_tag("City09", NTAG)
    table.lift_tag("City09", settle=False)
    table.place_tag("City09", CLASSIC)
    table.step(table.settle_polls)
    assert table.intents() == [
        TagPlaced("City09", NTAG),
        TagLifted("City09", NTAG),
        TagPlaced("City09", CLASSIC),
    ]


def test_two_tags_on_one_reader_settle_on_one(table: EmulatedTable, caplog: pytest.LogCaptureFixture) -> None:
    table.place_tag("City11", "04A1B2C3D4E5F6", settle=False)
    table.place_tag("City11", "04A1B2C3D4E5F7")
    assert table.intents() == [TagPlaced("City11", "04A1B2C3D4E5F7")]
    assert table.readers.stats.collisions >= 1
    assert "two tags answered" in caplog.text


def test_read_errors_are_outvoted(table: EmulatedTable) -> None:
    table.place_tag("City12", NTAG)
    table.intents()
    table.inject_read_errors("City12", 2)
    table.step(10)
    assert table.intents() == []
    assert table.readers.present()["City12"] == NTAG


def test_dead_reader_reported_once_retried_and_recovered(table: EmulatedTable) -> None:
    table.place_tag("City20", NTAG)
    table.intents()
    table.kill_reader("City20")
    table.step(40)  # 2 s of polls: not yet the 5 s retry
    faults = table.intents()
    assert faults == [DeviceFault("reader 20 (City20)", "not answering (version register 0x00); retrying every 5 s")]
    table.place_tag("City30", CLASSIC)  # the other readers go on
    assert table.intents() == [TagPlaced("City30", CLASSIC)]
    table.revive_reader("City20")
    table.step(100)
    assert table.intents() == [DeviceFault("reader 20 (City20)", "answering again (MFRC522 v2.0)", recovered=True)]
    assert table.readers.present()["City20"] == NTAG  # re-initialised and still sees the tag


def test_reader_that_lost_its_settings_is_set_up_again(table: EmulatedTable) -> None:
    table.place_tag("City14", NTAG)
    table.place_tag("City15", CLASSIC)
    table.intents()
    table.brownout_reader("City14")  # a settled tag goes missing: checked at once
    table.brownout_reader("City16")  # an empty reader: found by the periodic check
    table.step(100)
    assert table.intents() == []  # no false lift
    assert table.readers.stats.reinits == 2
    table.place_tag("City16", NTAG)
    assert table.intents() == [TagPlaced("City16", NTAG)]


def test_reader_with_miso_stuck_high_is_reported(table: EmulatedTable) -> None:
    table.kill_reader("City02", stuck_at=0xFF)
    table.step(2)
    (fault,) = table.intents()
    assert isinstance(fault, DeviceFault) and "0xFF" in fault.message


def test_reader_dead_at_start_is_reported_at_open() -> None:
    with EmulatedTable(["A", "B"], dead=["B"]) as table:
        assert table.intents() == [
            DeviceFault("reader 1 (B)", "not answering (version register 0x00); retrying every 5 s")
        ]
        table.place_tag("A", NTAG)
        assert table.intents() == [TagPlaced("A", NTAG)]


def test_card_scanned_once_per_presentation(table: EmulatedTable) -> None:
    table.place_tag("card", "04C0FFEE123456")
    table.step(20)
    table.lift_tag("card")
    table.scan_card("04C0FFEE123456")
    assert table.intents() == [CardScanned("04C0FFEE123456"), CardScanned("04C0FFEE123456")]


def test_unknown_uid_is_reported_not_a_crash(caplog: pytest.LogCaptureFixture) -> None:
    from dataclasses import replace

    from companion.hardware.config import Marker

    config = replace(config_for(["A", "B"]), markers={NTAG: Marker("red", 1)})
    with EmulatedTable(config=config) as table, caplog.at_level(logging.WARNING):
        table.place_tag("A", NTAG)
        table.place_tag("B", CLASSIC)
        assert table.intents() == [TagPlaced("A", NTAG), TagPlaced("B", CLASSIC)]
        assert table.readers.stats.unknown_uids == 1
        assert f"unknown tag {CLASSIC}" in caplog.text


def test_gpio_chip_select_lines() -> None:
    from dataclasses import replace

    config = replace(
        config_for(["A", "B", "C"], card_reader=False), spi=SpiSettings(chip_select="gpio", cs_pins=(7, 5, 6))
    )
    with EmulatedTable(config=config) as table:
        table.place_tag("C", NTAG)
        table.place_tag("A", CLASSIC)
        assert table.intents() == [TagPlaced("C", NTAG), TagPlaced("A", CLASSIC)]
        assert all(table.factory.pin(p).state for p in (7, 5, 6))  # all deselected between transfers


def test_importing_the_package_touches_no_hardware() -> None:
    import subprocess
    import sys

    code = (
        "import sys, companion.hardware, companion.hardware.factory, companion.hardware.emulated;"
        "bad = [m for m in ('spidev', 'RPi', 'mfrc522', 'serial') if m in sys.modules]; print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
