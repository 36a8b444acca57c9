"""Which build of the playout kernel runs: mypyc-compiled (``setup.py``) while it matches the sources.

The install compiles ``kernel.py`` and ``policy.py`` where it finds a C compiler, and writes beside
them, per Python (the compiled file's suffix), the hash of the sources it compiled from: the two
modules and the modules of ``companion`` they import, whose types the compiled code relies on
(``native.cpython-311-x86_64-linux-gnu.sha256``). A compiled module is found before its ``.py`` by
the import system, so a checkout edited or updated since would silently run the old rules: ``select``
(run by the package before anything imports the kernel) then loads the plain-Python sources instead.
It does the same when the compiled modules do not load. Both builds play the same games from the same
seed (``tests/bots/test_native.py``).

Not covered: a checkout of a commit from before this module, with compiled files left in the tree by
an editable install of a later one, runs those (``git clean -fX companion`` removes them).
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

HERE = Path(__file__).resolve().parent
COMPILED = ("kernel", "policy")  # in import order: the policy imports the kernel
PURE_ENV = "COMPANION_PURE_PYTHON"  # set (to anything but "" or "0") to run the plain-Python kernel
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]  # this Python's, e.g. .cpython-311-x86_64-linux-gnu.so


def stamp_name(suffix: str = SUFFIX) -> str:
    """The stamp of the build for the Python whose compiled modules end in ``suffix``."""
    return f"native{suffix.rsplit('.', 1)[0]}.sha256"


def wants_pure(environ: Mapping[str, str]) -> bool:
    return environ.get(PURE_ENV, "") not in ("", "0")


def sources(folder: Path = HERE) -> Iterator[Path]:
    """The compiled modules' sources, then the ``companion`` modules they import (sorted)."""
    root = folder.parents[3]  # the folder that holds ``companion``
    imported: set[Path] = set()
    for name in COMPILED:
        path = folder / f"{name}.py"
        yield path
        for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "companion":
                module = root.joinpath(*node.module.split("."))
                found = module.with_suffix(".py") if module.with_suffix(".py").exists() else module / "__init__.py"
                if found.exists():
                    imported.add(found)
    yield from sorted(imported - {folder / f"{name}.py" for name in COMPILED})


def sources_digest(folder: Path = HERE) -> str:
    """The hash of ``sources`` (``setup.py`` stamps the same before it compiles)."""
    digest = hashlib.sha256()
    for path in sources(folder):
        digest.update(path.relative_to(folder.parents[3]).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def compiled_file(name: str, folder: Path = HERE) -> Path | None:
    """The compiled module ``name`` beside its source, if the install built one for this Python."""
    path = folder / f"{name}{SUFFIX}"
    return path if path.exists() else None


def why_not_compiled(folder: Path = HERE, environ: Mapping[str, str] | None = None) -> str | None:
    """None when the compiled kernel may run; otherwise why the plain-Python one runs."""
    present = [name for name in COMPILED if compiled_file(name, folder) is not None]
    if not present:
        return "not compiled at install (no C compiler or Python headers, or COMPANION_PURE_PYTHON at install)"
    if wants_pure(os.environ if environ is None else environ):
        return f"{PURE_ENV} is set"
    if len(present) < len(COMPILED):
        return f"only {', '.join(present)} compiled: reinstall"
    stamp = folder / stamp_name()
    try:
        compiled_from = stamp.read_text(encoding="utf-8").strip()
    except OSError:
        return f"{stamp.name} is missing: reinstall"
    try:
        current = sources_digest(folder)
    except (OSError, SyntaxError):
        return None  # the sources are not there to compare (a stripped install): the compiled build is all there is
    if compiled_from != current:
        return "the sources changed since the install compiled them: reinstall to compile them again"
    return None


BUILD = "not selected yet"  # which build runs, once ``select`` has run (the benchmarks print it)


def select() -> str:
    """Load the plain-Python kernel and policy in place of stale compiled ones (or ones that do not
    load); say which build runs. Must run before anything imports the two modules (the package's
    ``__init__`` calls it first)."""
    global BUILD
    package = __name__.rpartition(".")[0]
    reason = why_not_compiled()
    if reason is None:
        try:
            for name in COMPILED:
                importlib.import_module(f"{package}.{name}")
        except ImportError as error:  # e.g. the compiled modules' shared library is gone
            for name in COMPILED:
                sys.modules.pop(f"{package}.{name}", None)
            reason = f"the compiled modules do not load ({error}): reinstall"
    BUILD = "compiled (mypyc)" if reason is None else f"plain Python ({reason})"
    if reason is None or not any(compiled_file(name) for name in COMPILED):
        return BUILD  # compiled and current, or nothing compiled: the import system finds the right files
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
