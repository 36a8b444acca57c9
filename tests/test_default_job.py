"""``companion`` with no command: the kiosk on a Pi with a hardware file, the simulator elsewhere."""

from __future__ import annotations

from pathlib import Path

from companion.cli.default import table_hardware_file


def test_a_laptop_runs_the_simulator(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.write_text("Some Laptop\0")
    box = tmp_path / "hardware.toml"
    box.write_text("")
    assert table_hardware_file({"COMPANION_HARDWARE_FILE": str(box)}, model) is None
    assert table_hardware_file({}, tmp_path / "no-model-file") is None


def test_a_pi_with_a_hardware_file_runs_the_table(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.write_text("Raspberry Pi 4 Model B Rev 1.5\0")
    box = tmp_path / "hardware.toml"
    assert table_hardware_file({"COMPANION_HARDWARE_FILE": str(box)}, model) is None  # not there yet
    box.write_text("")
    assert table_hardware_file({"COMPANION_HARDWARE_FILE": str(box)}, model) == box
