"""Which build of the playout kernel runs: mypyc-compiled (``setup.py``) while it matches the sources.

The install compiles ``kernel.py`` and ``policy.py`` where it finds a C compiler, and writes beside
them the hash of the sources it compiled (``native.sha256``). A compiled module is found before its
``.py`` by the import system, so a checkout edited or updated since would silently run the old rules:
``select`` (run by the package before anything imports the kernel) then loads the plain-Python sources
instead. Both builds play the same games from the same seed (``tests/bots/test_native.py``).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
COMPILED = ("kernel", "policy")  # in import order: the policy imports the kernel
STAMP = "native.sha256"
PURE_ENV = "COMPANION_PURE_PYTHON"  # set (to anything) to run the plain-Python kernel


def sources_digest(folder: Path = HERE) -> str:
    """The hash of the compiled modules' sources (``setup.py`` computes the same when it compiles)."""
    digest = hashlib.sha256()
    for name in COMPILED:
        digest.update(name.encode() + b"\0" + (folder / f"{name}.py").read_bytes() + b"\0")
    return digest.hexdigest()


def compiled_file(name: str, folder: Path = HERE) -> Path | None:
    """The compiled module ``name`` beside its source, if the install built one for this Python."""
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = folder / f"{name}{suffix}"
        if path.exists():
            return path
    return None


def why_not_compiled(folder: Path = HERE) -> str | None:
    """None when the compiled kernel may run; otherwise why the plain-Python one runs."""
    present = [name for name in COMPILED if compiled_file(name, folder) is not None]
    if not present:
        return "not compiled at install (no C compiler or Python headers, or COMPANION_PURE_PYTHON at install)"
    if os.environ.get(PURE_ENV):
        return f"{PURE_ENV} is set"
    if len(present) < len(COMPILED):
        return f"only {', '.join(present)} compiled: reinstall"
    stamp = folder / STAMP
    try:
        compiled_from = stamp.read_text(encoding="utf-8").strip()
    except OSError:
        return f"{stamp} is missing: reinstall"
    if compiled_from != sources_digest(folder):
        return "the sources changed since the install compiled them: reinstall to compile them again"
    return None


def select() -> str:
    """Load the plain-Python kernel and policy in place of stale compiled ones; say which build runs.

    Must run before anything imports the two modules (the package's ``__init__`` calls it first)."""
    global BUILD
    reason = why_not_compiled()
    BUILD = "compiled (mypyc)" if reason is None else f"plain Python ({reason})"
    if reason is None or not any(compiled_file(name) for name in COMPILED):
        return BUILD  # compiled and current, or nothing compiled: the import system finds the right files
    package = __name__.rpartition(".")[0]
    for name in COMPILED:
        fullname = f"{package}.{name}"
        if fullname in sys.modules:
            continue
        spec = importlib.util.spec_from_file_location(fullname, HERE / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[fullname] = module
        spec.loader.exec_module(module)
        setattr(sys.modules[package], name, module)
    return BUILD


BUILD = "not selected yet"  # which build runs, once ``select`` has run (the benchmarks print it)
