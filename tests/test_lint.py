"""The code, its tests and benchmarks stay ruff- and mypy-clean (style point 14): checked by the suite."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False)


def test_ruff_is_clean() -> None:
    proc = run("ruff", "check", "companion", "tests", "benchmarks")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_is_clean_and_the_engines_are_strict() -> None:
    proc = run("mypy", "companion", "tests", "benchmarks")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    engines = ["companion/engine", *map(str, sorted((ROOT / "companion" / "games").glob("*/engine")))]
    proc = run("mypy", "--strict", *engines)
    assert proc.returncode == 0, proc.stdout + proc.stderr
