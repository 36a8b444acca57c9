"""The hardware TOML: the reference file loads; mistakes name the file, the line and the field."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games.on_the_way.data import load_reference
from companion.hardware.config import REFERENCE, load, parse, write_card, write_readers
from companion.hardware.errors import ConfigError, HardwareError
from companion.intents import ButtonName

MINIMAL = """\
[hardware]
backend = "spi"

[spi]
address_pins = [5, 6]

[readers]
0 = "Bremen"
1 = "Warsaw"

[card_reader]
channel = 3

[buttons]
ok = 4
menu = 21
"""


def test_reference_config_loads() -> None:
    config = load(REFERENCE, env={})
    assert config.backend == "serial" and config.leds.backend == "serial"  # the bridge build
    assert config.poll_interval_s == 0.02  # the port is read at 50 Hz: placement p99 within 150 ms
    board, _ = load_reference()
    assert set(config.cities) == set(board.names)  # one reader under every city of the reference board
    assert len(config.readers) == 44 and config.card_channel == 44
    assert config.leds.led_map.size == 44 * 2 + 15 + 5 + 4
    assert config.buttons.pins[ButtonName.MENU] == 21
    assert (config.debounce.place_votes, config.debounce.window, config.debounce.lift_misses) == (4, 5, 3)
    assert config.describe("04A1B2C3D4E501") == "marker red 1"
    assert config.describe("DEADBEEF") == "unknown tag"


def test_environment_chooses_the_backend() -> None:
    assert parse(MINIMAL, env={"COMPANION_HARDWARE": "emulated"}).backend == "emulated"
    with pytest.raises(ConfigError, match="COMPANION_HARDWARE"):
        parse(MINIMAL, env={"COMPANION_HARDWARE": "magic"})


def error(text: str) -> ConfigError:
    with pytest.raises(ConfigError) as exc:
        parse(text, "box.toml", env={})
    assert isinstance(exc.value, HardwareError) and isinstance(exc.value, ValueError)
    return exc.value


@pytest.mark.parametrize(
    ("old", "new", "line", "field", "words"),
    [
        ('backend = "spi"', 'backend = "usb"', 2, "[hardware] backend", "one of"),
        ("ok = 4", "ok = 40", 15, "[buttons] ok", "0 to 27"),
        ("menu = 21", "menu = 4", 16, "[buttons] menu", "already used by [buttons] ok"),
        ("menu = 21", "menu = 10", 16, "[buttons] menu", "SPI0 MOSI"),
        ('1 = "Warsaw"', '1 = "Bremen"', 9, "[readers] 1", "already has a reader"),
        ("channel = 3", "channel = 4", 5, "[spi] address_pins", "2 address lines select 4 readers"),
        ("channel = 3", "channel = 1", 12, "[card_reader] channel", "also the reader of Warsaw"),
        ("ok = 4", "okay = 4", 15, "[buttons] okay", "unknown button"),
        ("[buttons]", "[button]", 14, "[button]", "unknown table"),
        ("address_pins = [5, 6]", 'address_pins = [5, "6"]', 5, "[spi] address_pins", "BCM pin number"),
    ],
)
def test_errors_name_file_line_and_field(old: str, new: str, line: int, field: str, words: str) -> None:
    exc = error(MINIMAL.replace(old, new))
    assert (exc.path, exc.line, exc.field) == ("box.toml", line, field)
    assert words in exc.problem
    assert str(exc).startswith(f"box.toml:{line}: {field}: ")


def test_syntax_error_has_a_line() -> None:
    exc = error(MINIMAL + "\n[leds\n")
    assert exc.line == 18 and exc.field == "TOML syntax"


def test_marker_and_card_tables_are_checked() -> None:
    exc = error(MINIMAL + '\n[markers]\n04A1B2C3D4E5F6 = { colour = "red" }\n')
    assert (exc.line, exc.field) == (19, "[markers] 04A1B2C3D4E5F6")
    exc = error(MINIMAL + '\n[cards]\n"04:A1" = "c-1"\n')
    assert "4, 7 or 10 bytes" in exc.problem and exc.line == 19


def test_bank_cards_map_a_uid_to_a_player_and_feed_the_tag_directory() -> None:
    from companion.table.session import directory_from_hardware
    from companion.table.tags import BankCardTag

    config = parse(MINIMAL + '\n[bank_cards]\n04A1B2C3D4E5F6 = "red"\n', env={})
    assert config.bank_cards == {"04A1B2C3D4E5F6": "red"}
    assert config.describe("04A1B2C3D4E5F6") == "bank card red"
    tags = directory_from_hardware(config.markers, config.cards, config.admin_cards, config.bank_cards)
    assert tags.lookup("04A1B2C3D4E5F6") == BankCardTag("red")
    exc = error(MINIMAL + "\n[bank_cards]\n04A1B2C3D4E5F6 = 3\n")
    assert (exc.line, exc.field) == (19, "[bank_cards] 04A1B2C3D4E5F6") and "player colour" in exc.problem


def test_rewrite_readers_and_cards_keeps_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "box.toml"
    path.write_text(MINIMAL + "\n# my comment\n", encoding="utf-8")
    write_readers(path, {0: "Riga", 1: "Oss", 2: "Poznań"})
    write_card(path, "04AABBCCDDEEFF", "otw-contract-7", {})
    config = parse(path.read_text(encoding="utf-8"), env={})
    assert config.readers == {0: "Riga", 1: "Oss", 2: "Poznań"}
    assert config.cards == {"04AABBCCDDEEFF": "otw-contract-7"}
    assert "# my comment" in path.read_text(encoding="utf-8")
    assert config.buttons.pins[ButtonName.OK] == 4


def test_direct_spi_example_loads_and_keeps_the_ce_pin_free() -> None:
    config = load(REFERENCE.with_name("direct-spi.toml"), env={})
    assert config.backend == "spi" and config.spi.chip_select == "gpio" and config.spi.device == 1
    assert 7 not in config.spi.cs_pins and len(config.spi.cs_pins) == len(config.readers) + 1
    assert config.rf.close == (("card", "Lublin"),)
    assert config.leds.led_map.size == 6 * 2 + 15 + 5 + 4


def test_a_reset_pin_of_zero_is_refused_not_turned_into_25(tmp_path: Path) -> None:
    """The old ``r.pin(...) or 25`` silently turned 0 into 25; BCM 0 is the HAT ID EEPROM's line."""
    text = REFERENCE.with_name("direct-spi.toml").read_text(encoding="utf-8")
    path = tmp_path / "box.toml"
    path.write_text(text.replace("reset_pin = 25", "reset_pin = 0"), encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load(path, env={})
    assert (caught.value.line, caught.value.field) == (21, "[spi] reset_pin") and "ID EEPROM" in caught.value.problem
    path.write_text(text, encoding="utf-8")
    assert load(path, env={}).spi.reset_pin == 25
