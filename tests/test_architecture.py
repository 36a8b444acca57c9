"""Imports flow one way (style point 1): the engine never touches I/O libraries, and no package
import touches Pi-only hardware libraries."""

from __future__ import annotations

import subprocess
import sys

BLOCKER = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in {blocked!r}:
            raise ImportError('blocked import: ' + name)
        return None
sys.meta_path.insert(0, Block())
"""


def run_with_blocked(modules: set[str], code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", BLOCKER.format(blocked=modules) + code], capture_output=True, text=True, check=False
    )


def test_engine_imports_with_io_libraries_blocked() -> None:
    blocked = {"pygame", "serial", "gpiozero", "mfrc522", "spidev", "RPi", "lgpio", "sqlite3", "socket"}
    proc = run_with_blocked(
        blocked,
        "import companion.engine, companion.games.on_the_way.engine, companion.games.on_the_way.engine.queries, "
        "companion.games.on_the_way.engine.playout, companion.games.on_the_way.engine.serialize, companion.games.on_the_way.engine.notation",
    )
    assert proc.returncode == 0, proc.stderr


def test_table_and_cli_import_without_pi_libraries() -> None:
    proc = run_with_blocked(
        {"mfrc522", "spidev", "RPi", "lgpio"},
        "import companion.games.on_the_way.table.controller, companion.cli; companion.cli.build_parser()",
    )
    assert proc.returncode == 0, proc.stderr
