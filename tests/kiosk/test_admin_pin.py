"""The admin lock: no public default PIN, a lock-out that survives a power cycle, PIN + card."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from companion.cli import main
from companion.kiosk import AdminLock, KioskSettings, Screen
from companion.kiosk.admin import LOCK_FILE, PIN_FILE, admin_pin, load_or_create_pin
from tests.kiosk.conftest import SETTINGS, Box

UNITS = Path(__file__).parent.parent.parent / "systemd"


def test_without_a_configured_pin_a_random_one_is_generated_and_kept_private(tmp_path: Path) -> None:
    pin, source = admin_pin({}, tmp_path)
    assert pin is not None and pin.isdigit() and len(pin) == 6 and pin != "2468"
    assert source.endswith(PIN_FILE)
    assert (tmp_path / PIN_FILE).stat().st_mode & 0o777 == 0o600
    assert admin_pin({}, tmp_path)[0] == pin  # the same PIN at every start
    other = tmp_path / "other-box"
    assert admin_pin({}, other)[0] != pin or admin_pin({}, other)[0] == load_or_create_pin(other)


def test_the_published_example_pin_is_refused(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        pin, _ = admin_pin({"COMPANION_ADMIN_PIN": "2468"}, tmp_path)
    assert pin != "2468" and "published" in caplog.text
    assert admin_pin({"COMPANION_ADMIN_PIN": "12"}, tmp_path)[0] == pin  # too short: ignored too
    assert admin_pin({"COMPANION_ADMIN_PIN": "975310"}, tmp_path)[0] == "975310"


def test_the_example_environment_sets_no_pin() -> None:
    lines = (UNITS / "kiosk.env.example").read_text(encoding="utf-8").splitlines()
    assert not any(line.startswith("COMPANION_ADMIN_PIN=") for line in lines)
    assert "2468" not in "\n".join(line for line in lines if not line.startswith("#"))


def test_a_kiosk_built_without_a_pin_does_not_open_with_the_old_default(tmp_path: Path) -> None:
    box = Box(tmp_path / "journal.sqlite", settings=KioskSettings(pin_lockout_s=100.0))
    box.enter_pin("2468")
    assert box.view.lines == ("* * * * 0 _",)  # a 6-digit PIN nobody was told: 4 digits are not enough
    box.press("ok", "ok")  # "246800"
    assert box.screen is Screen.ATTRACT and box.view.notice == "Wrong PIN."
    box.close()


@pytest.mark.allow_error_logs
def test_show_pin_prints_the_generated_pin_to_whoever_can_read_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("COMPANION_ADMIN_PIN", raising=False)
    journal = tmp_path / "journal.sqlite"
    assert main(["kiosk", "--show-pin", "--journal", str(journal)]) == 1
    assert "no admin PIN yet" in capsys.readouterr().err
    pin = load_or_create_pin(tmp_path)
    assert main(["kiosk", "--show-pin", "--journal", str(journal)]) == 0
    assert capsys.readouterr().out.split()[0] == pin
    (tmp_path / PIN_FILE).unlink()
    (tmp_path / PIN_FILE).mkdir()  # unreadable: a clear message, no traceback
    assert main(["kiosk", "--show-pin", "--journal", str(journal)]) == 1
    assert "kiosk user or root" in capsys.readouterr().err


def test_the_lockout_survives_a_power_cycle(tmp_path: Path) -> None:
    state = tmp_path / LOCK_FILE
    lock = AdminLock("135790", attempts=3, lockout_s=300.0, state_file=state)
    for _ in range(3):
        assert not lock.check("000000", now=10.0)
    assert lock.locked_out(11.0)
    assert json.loads(state.read_text()) == {"failures": 3, "locked": True}
    after = AdminLock("135790", attempts=3, lockout_s=300.0, state_file=state)  # power cycle: new clock
    assert after.locked_out(0.5)
    assert not after.check("135790", now=1.0)  # the right PIN does not help during the lock-out
    assert after.locked_out(299.0) and not after.locked_out(301.0)
    assert after.check("135790", now=302.0)
    assert json.loads(state.read_text()) == {"failures": 0, "locked": False}


def test_failures_below_the_limit_survive_too(tmp_path: Path) -> None:
    state = tmp_path / LOCK_FILE
    lock = AdminLock("135790", attempts=3, state_file=state)
    assert not lock.check("1", 0.0) and not lock.check("2", 0.0)
    again = AdminLock("135790", attempts=3, state_file=state)
    assert not again.check("3", 0.0)  # the third failure, across the restart
    assert again.locked_out(1.0)


def test_a_damaged_lock_file_means_locked_not_open(tmp_path: Path) -> None:
    state = tmp_path / LOCK_FILE
    state.write_bytes(b"\xff{")
    lock = AdminLock("135790", attempts=3, lockout_s=60.0, state_file=state)
    assert lock.locked_out(0.0) and not lock.locked_out(61.0)


def test_the_kiosk_lockout_survives_a_restart(tmp_path: Path) -> None:
    settings = KioskSettings(pin="135790", pin_lockout_s=100.0, admin_state_file=str(tmp_path / LOCK_FILE))
    box = Box(tmp_path / "journal.sqlite", settings=settings)
    for wrong in ("000000", "111111", "222222"):
        box.enter_pin(wrong)
    box.close()
    again = Box(tmp_path / "journal.sqlite", settings=settings)
    again.press("menu", long=True)
    assert again.screen is Screen.ATTRACT and "Too many wrong PINs" in again.view.notice
    again.later(101)
    again.enter_pin("135790")
    assert again.screen is Screen.ADMIN
    again.close()


def test_pin_and_card_when_the_owner_requires_both(tmp_path: Path) -> None:
    both = KioskSettings(pin="2468", admin_requires_card=True, pin_lockout_s=100.0)
    box = Box(tmp_path / "journal.sqlite", settings=both)
    box.admin_card()  # a cloned card alone: only the PIN entry opens
    assert box.screen is Screen.PIN_ENTRY
    box.press("back")
    assert box.screen is Screen.ATTRACT
    box.later(61)
    box.enter_pin("2468")  # the PIN alone (no card in the last minute): refused
    assert box.screen is Screen.ATTRACT and box.view.notice == "Wrong PIN."
    box.admin_card()
    assert box.screen is Screen.PIN_ENTRY
    box.press("back")
    box.enter_pin("2468")  # card, then PIN within the window
    assert box.screen is Screen.ADMIN
    box.close()
    plain = Box(tmp_path / "j2.sqlite", settings=SETTINGS)  # default: the card alone opens
    plain.admin_card()
    assert plain.screen is Screen.ADMIN
    plain.close()
