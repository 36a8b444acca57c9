"""Issue 20, part 2: a mistake in the kiosk's environment never stops the box. Each bad setting is
named in one warning and replaced by its default; the warnings reach the admin screen (and, in safe
mode, the screen itself); the admin PIN file is never left empty."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from companion.kiosk import Screen
from companion.kiosk.admin import PIN_FILE, load_or_create_pin, valid_pin
from companion.kiosk.settings import SETTINGS as ENVIRONMENT
from companion.kiosk.settings import read_environment
from tests.kiosk.conftest import SETTINGS, Box
from tests.kiosk.test_safe_mode import notify_socket, running, start_kiosk, stop  # noqa: F401 - a fixture

BAD = {
    "COMPANION_MQTT_BROKER": ["mqtt://[::1", "mqtt://host\n.evil:1883", "mqtt://h:99999", "ftp://x", "mqtt://"],
    "COMPANION_LANGUAGE": ["xx", "e\u202en", "EN-us", "\x00"],
    "COMPANION_GAMES": ["chess", "on-the-way,,chess", " , "],
    "COMPANION_ADMIN_PIN": ["٣٣٣٣٣٣", "12", "1234567890123", "12a4", "²³⁴⁵", "2468"],
    "COMPANION_ADMIN_REQUIRES_CARD": ["ture", "2", "\x00"],
    "COMPANION_TABLE_ID": ["a/b", "x" * 100, "t\n", "+"],
    "COMPANION_DATA_SET": ["no such set", "reference\x00", "a" * 5000],
}


@pytest.mark.parametrize(("name", "value"), [(n, v) for n, values in BAD.items() for v in values])
def test_a_bad_setting_is_named_and_replaced_by_its_default(tmp_path: Path, name: str, value: str) -> None:
    env = {name: value}
    if name == "COMPANION_TABLE_ID":
        env["COMPANION_MQTT_BROKER"] = "mqtt://localhost:1883"
    settings = read_environment(env, tmp_path)
    assert any(w.startswith(name) for w in settings.warnings), settings.warnings
    default = read_environment({}, tmp_path)
    field = {"COMPANION_MQTT_BROKER": "mqtt_broker", "COMPANION_LANGUAGE": "language",
             "COMPANION_ADMIN_PIN": "admin_pin", "COMPANION_ADMIN_REQUIRES_CARD": "admin_requires_card",
             "COMPANION_DATA_SET": "data_set"}.get(name)  # fmt: skip
    if field is not None:
        assert getattr(settings, field) == getattr(default, field)
    if name == "COMPANION_TABLE_ID":
        assert settings.table_id is not None and "/" not in settings.table_id and "\n" not in settings.table_id
    if name == "COMPANION_ADMIN_PIN":
        assert repr(value) not in " ".join(settings.warnings)  # a PIN is never logged, even a wrong one


def test_good_settings_pass_without_a_warning(tmp_path: Path) -> None:
    env = {"COMPANION_MQTT_BROKER": "mqtt://[::1]:1883", "COMPANION_LANGUAGE": "de", "COMPANION_GAMES": "auf-achse",
           "COMPANION_ADMIN_PIN": "135790", "COMPANION_ADMIN_REQUIRES_CARD": "yes",
           "COMPANION_TABLE_ID": "table-7"}  # fmt: skip
    settings = read_environment(env, tmp_path)
    assert settings.warnings == ()
    assert (settings.language, settings.games, settings.admin_pin) == ("de", ("auf-achse",), "135790")
    assert settings.admin_requires_card and settings.table_id == "table-7"
    assert read_environment({"COMPANION_LANGAUGE": "de"}, tmp_path).warnings[0].startswith("COMPANION_LANGAUGE")
    assert set(ENVIRONMENT) >= {"COMPANION_HARDWARE_FILE", "COMPANION_DATA_SET"}


def test_the_admin_screen_lists_the_replaced_settings(tmp_path: Path) -> None:
    warnings = read_environment({"COMPANION_LANGUAGE": "xx"}, tmp_path).warnings
    box = Box(tmp_path / "journal.sqlite", replace(SETTINGS, pin="135790", warnings=warnings))
    box.enter_pin("135790")
    assert box.screen is Screen.ADMIN
    assert any("COMPANION_LANGUAGE='xx'" in line and "using en" in line for line in box.view.lines)
    box.close()


def test_non_ascii_digits_are_never_a_pin() -> None:
    assert valid_pin("135790") and not valid_pin("٣٣٣٣") and not valid_pin("²³⁴⁵") and not valid_pin("1" * 13)


FULL_DISK = """
import resource, signal, sys
from pathlib import Path
from companion.kiosk.admin import load_or_create_pin
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))  # every write of a byte fails (EFBIG), as on a full disk
print(load_or_create_pin(Path(sys.argv[1])))
"""


@pytest.mark.allow_error_logs
def test_a_first_start_on_a_full_disk_leaves_no_empty_pin_file(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    done = subprocess.run([sys.executable, "-c", FULL_DISK, str(state)], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "None", done.stderr
    assert list(state.iterdir()) == []  # neither an empty PIN file nor a temporary file
    pin = load_or_create_pin(state)  # the next start (space freed) makes the PIN
    assert pin is not None and valid_pin(pin) and (state / PIN_FILE).read_text().strip() == pin
    assert (state / PIN_FILE).stat().st_mode & 0o777 == 0o600


@pytest.mark.allow_error_logs
def test_an_empty_pin_file_left_by_an_older_version_is_replaced(tmp_path: Path) -> None:
    (tmp_path / PIN_FILE).write_text("")
    pin = load_or_create_pin(tmp_path)
    assert pin is not None and (tmp_path / PIN_FILE).read_text().strip() == pin


def test_the_kiosk_starts_with_a_broken_environment_file(tmp_path: Path, notify_socket: tuple[object, str]) -> None:  # noqa: F811
    """The issue's examples crashed every start, safe mode included; now the kiosk runs and logs why."""
    sock, socket_path = notify_socket
    journal = tmp_path / "state" / "journal.sqlite"
    proc = start_kiosk(journal, socket_path, COMPANION_MQTT_BROKER="mqtt://[::1", COMPANION_LANGUAGE="xx",
                       COMPANION_ADMIN_PIN="٣٣٣٣٣٣", COMPANION_DATA_SET="nope")  # fmt: skip
    running(sock)  # type: ignore[arg-type]
    status, err = stop(proc)
    assert status == 0, err
    assert "Traceback" not in err
    for name in ("COMPANION_MQTT_BROKER", "COMPANION_LANGUAGE", "COMPANION_ADMIN_PIN", "COMPANION_DATA_SET"):
        assert name in err
