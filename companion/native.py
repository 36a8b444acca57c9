"""Which build of the compiled parts runs: mypyc-compiled (``setup.py``) while they match their sources.

The install compiles the modules named in ``COMPILED`` where it finds a C compiler, and writes beside
them, per Python (the compiled files' suffix), the hash of the sources it compiled from: the modules
and the modules of ``companion`` they import, whose types the compiled code relies on
(``native.cpython-311-x86_64-linux-gnu.sha256``). A compiled module is found before its ``.py`` by
the import system, so a checkout edited or updated since would silently run old code: ``select`` (run
by the package before anything imports those modules) then loads the plain-Python sources instead. It
does the same when the compiled modules do not load. Both builds give the same results
(``tests/bots/test_native.py``).

Standard library only: ``setup.py`` loads this file by its path, without the package's dependencies.
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
from typing import NamedTuple


class Compiled(NamedTuple):
    modules: tuple[str, ...]  # in import order
    what: str  # as ``companion doctor`` names it


COMPILED: dict[str, Compiled] = {
    # Every bot and every advice spends its time here: compiled, the same games about twice as fast
    # (docs/bots.md, "The playout kernel"). The policy imports the kernel.
    "companion.games.on_the_way.bots": Compiled(("kernel", "policy"), "playout kernel"),
}
ROOT = Path(__file__).resolve().parent.parent  # the folder that holds ``companion``
PURE_ENV = "COMPANION_PURE_PYTHON"  # set (to anything but "" or "0") to run the plain-Python sources
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]  # this Python's, e.g. .cpython-311-x86_64-linux-gnu.so


def folder_of(package: str, root: Path = ROOT) -> Path:
    return root.joinpath(*package.split("."))


def stamp_name(suffix: str = SUFFIX) -> str:
    """The stamp of the build for the Python whose compiled modules end in ``suffix``."""
    return f"native{suffix.rsplit('.', 1)[0]}.sha256"


def wants_pure(environ: Mapping[str, str]) -> bool:
    return environ.get(PURE_ENV, "") not in ("", "0")


def sources(package: str, root: Path = ROOT) -> Iterator[Path]:
    """The compiled modules' sources, then the ``companion`` modules they import (sorted)."""
    folder = folder_of(package, root)
    own = [folder / f"{name}.py" for name in COMPILED[package].modules]
    imported: set[Path] = set()
    for path in own:
        yield path
        for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "companion":
                module = root.joinpath(*node.module.split("."))
                found = module.with_suffix(".py") if module.with_suffix(".py").exists() else module / "__init__.py"
                if found.exists():
                    imported.add(found)
    yield from sorted(imported - set(own))


def sources_digest(package: str, root: Path = ROOT) -> str:
    """The hash of ``sources`` (``setup.py`` stamps the same before it compiles)."""
    digest = hashlib.sha256()
    for path in sources(package, root):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def compiled_files(package: str, root: Path = ROOT) -> list[Path]:
    """The package's compiled modules this Python can load, as the install left them."""
    folder = folder_of(package, root)
    return [p for p in (folder / f"{name}{SUFFIX}" for name in COMPILED[package].modules) if p.exists()]


def why_not_compiled(package: str, root: Path = ROOT, environ: Mapping[str, str] | None = None) -> str | None:
    """None when the package's compiled modules may run; otherwise why the plain-Python ones run."""
    modules = COMPILED[package].modules
    present = [p.name.split(".")[0] for p in compiled_files(package, root)]
    if not present:
        return f"not compiled at install (no C compiler or Python headers, or {PURE_ENV} at install)"
    if wants_pure(os.environ if environ is None else environ):
        return f"{PURE_ENV} is set"
    if len(present) < len(modules):
        return f"only {', '.join(present)} compiled: reinstall"
    stamp = folder_of(package, root) / stamp_name()
    try:
        compiled_from = stamp.read_text(encoding="utf-8").strip()
    except OSError:
        return f"{stamp.name} is missing: reinstall"
    try:
        current = sources_digest(package, root)
    except (OSError, SyntaxError):
        return None  # the sources are not there to compare (a stripped install): the compiled build is all there is
    if compiled_from != current:
        return "the sources changed since the install compiled them: reinstall to compile them again"
    return None


def select(package: str) -> str:
    """Load ``package``'s plain-Python modules in place of stale compiled ones (or ones that do not
    load); say which build runs. The package's ``__init__`` calls it before anything imports them."""
    names = COMPILED[package].modules
    reason = why_not_compiled(package)
    if reason is None:
        try:
            for name in names:
                importlib.import_module(f"{package}.{name}")
        except ImportError as error:  # e.g. the compiled modules' shared library is gone
            for name in names:
                sys.modules.pop(f"{package}.{name}", None)
            reason = f"the compiled modules do not load ({error}): reinstall"
    build = "compiled (mypyc)" if reason is None else f"plain Python ({reason})"
    if reason is None or not compiled_files(package):
        return build  # compiled and current, or nothing compiled: the import system finds the right files
    folder = folder_of(package)
    for name in names:
        fullname = f"{package}.{name}"
        if fullname in sys.modules:
            continue
        spec = importlib.util.spec_from_file_location(fullname, folder / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[fullname] = module
        spec.loader.exec_module(module)
        setattr(sys.modules[package], name, module)
    return build
