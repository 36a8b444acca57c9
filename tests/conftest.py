"""Shared test set-up: a headless screen, and an unexpected ERROR log fails the test (style point 15)."""

from __future__ import annotations

import functools
import logging
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest_plugins = ["tests.scheduling"]  # the longest tests first, one at the head of each worker's share

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
# The box's state (journal, digitised data sets, PIN) of the machine running the tests is never read:
# every test that needs one makes its own.
os.environ["COMPANION_STATE_DIR"] = tempfile.mkdtemp(prefix="companion-tests-state-")

# Byte-code: the suite starts a few hundred Python processes (three workers, the CLI, the kiosk, the
# MicroPython bridge's host, crash children). Where the environment says not to write byte-code
# (PYTHONDONTWRITEBYTECODE, common in containers) each of them compiled every module it imports again,
# and on a clean clone the three workers compile the same modules at the same moment. So the suite
# keeps its own byte-code, outside the source tree, in pytest's (git-ignored) cache directory: the
# workers and every child inherit the prefix, and the controller fills it once, in parallel, before
# the workers start (see _precompile).
REPO = Path(__file__).resolve().parents[1]
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
# A prefix the user set is kept (absolute: every child runs in its own directory); an empty one is unset.
os.environ["PYTHONPYCACHEPREFIX"] = os.path.abspath(
    os.environ.get("PYTHONPYCACHEPREFIX") or REPO / ".pytest_cache" / "pycache"
)
sys.pycache_prefix = os.environ["PYTHONPYCACHEPREFIX"]
sys.dont_write_bytecode = False


# Never imported by the suite's processes (the installer's own packages; mypy runs its compiled
# modules, not these sources; the pure-Python broker and its dependencies serve only where Mosquitto is
# missing; pygments' hundreds of lexers, of which pytest imports a few), or not Python 3 at all (the
# standard library's tests hold files with syntax errors on purpose): what is imported after all is
# compiled by the import, as before.
NOT_COMPILED = {"pip", "setuptools", "pkg_resources", "_distutils_hack", "mypyc", "mypy", "site-packages"}
NOT_COMPILED |= {"amqtt", "pydantic", "rich", "typer", "markdown_it", "websockets", "pygments", "dist-packages"}
NOT_COMPILED |= {"test", "idlelib", "tkinter", "turtledemo", "lib2to3", "ensurepip", "__pycache__"}


def _python_files(root: Path) -> Iterator[str]:
    for directory, subdirectories, files in os.walk(root):
        subdirectories[:] = [d for d in subdirectories if d not in NOT_COMPILED and not d.startswith("config-")]
        yield from (os.path.join(directory, f) for f in files if f.endswith(".py"))


def _rewrite_ahead(path: str) -> None:
    """Caches pytest's assertion-rewritten code of one test module, as a worker would on importing it
    (each of the three did so on a clean clone: 4.4 s of CPU each). Uses pytest's own functions; where
    they differ in another pytest, nothing is written and the workers rewrite as before."""
    try:
        from _pytest.assertion import rewrite

        fn = Path(path)
        pyc = rewrite.get_cache_dir(fn) / (fn.name[:-3] + rewrite.PYC_TAIL)
        if pyc.exists():
            return
        source_hash, code = rewrite._rewrite_test(fn, None)  # type: ignore[arg-type]  # no ini: the defaults
        pyc.parent.mkdir(parents=True, exist_ok=True)
        partial = pyc.with_name(f"{pyc.name}.{os.getpid()}")
        with open(partial, "wb") as out:
            rewrite._write_pyc_fp(out, source_hash, code)
        os.replace(partial, pyc)  # whole or not at all, as pytest writes it
    except Exception:  # (another pytest, a read-only tree: the import rewrites it)
        return


def _plugin_sources() -> list[str]:
    """The Python files of installed pytest plugins (``pytest11`` entry points: hypothesis, xdist...):
    pytest rewrites their asserts too, in every process."""
    from importlib import metadata

    found = []
    for dist in metadata.distributions():
        if any(entry.group == "pytest11" for entry in dist.entry_points):
            found += [str(dist.locate_file(f)) for f in dist.files or () if str(f).endswith(".py")]
    return found


def _rewritten(name: str) -> bool:
    """pytest rewrites the asserts of conftest files and of files named like tests (``python_files``)."""
    return name == "conftest.py" or (name.startswith("test_") and name.endswith(".py"))


def _precompile(prefix: Path) -> None:
    """Compiles the standard library, the installed packages and the repo's Python into ``prefix``
    with every core before the workers start, and the test modules and pytest plugins as pytest
    rewrites them. On a clean clone here that is about 12 s of CPU (7 s on 2 cores) against 45 s of
    CPU that the three workers and their first children spent compiling and rewriting the same
    modules at the same moment. The installed part is done again only when the environment changes
    (its directories' times, kept in a stamp); the repo's files are checked one by one, as imports do."""
    import compileall
    import sysconfig
    from concurrent.futures import ProcessPoolExecutor

    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    paths = sysconfig.get_paths()
    installed = sorted({paths["stdlib"], paths["purelib"], paths["platlib"]})
    stamp = prefix / "installed.stamp"
    key = repr([(d, os.stat(d).st_mtime_ns) for d in installed if os.path.isdir(d)] + [sys.version])
    roots = [REPO / "companion", REPO / "tests", REPO / "benchmarks"]
    fresh = not stamp.is_file() or stamp.read_text() != key
    if fresh:
        roots += [Path(d) for d in installed]
    files = [f for root in roots for f in _python_files(root)]
    tests = [f for f in files if f.startswith(str(REPO / "tests")) and _rewritten(os.path.basename(f))]
    tests += [str(REPO / "tests" / "scheduling.py"), *(_plugin_sources() if fresh else [])]
    try:
        with ProcessPoolExecutor(max_workers=cores) as pool:
            list(pool.map(functools.partial(compileall.compile_file, quiet=2), files, chunksize=64))
            list(pool.map(_rewrite_ahead, tests, chunksize=8))
        if fresh:
            prefix.mkdir(parents=True, exist_ok=True)
            stamp.write_text(key)
    except OSError as exc:  # a read-only checkout, no room for a process pool: compile as imports go
        print(f"tests/conftest.py: byte-code not compiled ahead ({exc})", file=sys.stderr)


@pytest.fixture(autouse=True)
def _fail_on_error_logs(caplog: pytest.LogCaptureFixture, request: pytest.FixtureRequest) -> object:
    caplog.set_level(logging.WARNING)
    yield
    if request.node.get_closest_marker("allow_error_logs"):
        return
    errors = [r for r in caplog.get_records("call") if r.levelno >= logging.ERROR]
    assert not errors, f"unexpected ERROR log: {errors[0].getMessage()}"


@pytest.fixture(autouse=True)
def _logging_left_as_found() -> Iterator[None]:
    """A test (or a benchmark it runs in-process) that quiets ``companion``'s loggers or disables
    logging must put them back: the next test in the same worker would lose the warnings it checks."""
    companion = logging.getLogger("companion")
    before = (companion.level, companion.propagate, companion.disabled, logging.root.manager.disable)
    yield
    after = (companion.level, companion.propagate, companion.disabled, logging.root.manager.disable)
    assert after == before, f"the test left logging changed (level, propagate, disabled, disable): {before} -> {after}"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "allow_error_logs: the test expects ERROR log records")
    # The controller, once, and only where xdist starts workers (one process compiles only what it imports).
    workers = getattr(config.option, "numprocesses", None)
    if not hasattr(config, "workerinput") and workers not in (None, 0) and sys.pycache_prefix is not None:
        _precompile(Path(sys.pycache_prefix))


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: three workers per two cores. Some tests wait rather than compute (a child process
    starting, the MicroPython VM's pipe, a real broker, a fork-and-kill campaign), and an extra worker
    runs meanwhile; more workers than that only fight over the cores (measured on 2 cores, 1 606 tests:
    2 workers 207 s, 3 workers 175 s, 4 workers 188 s)."""
    cores = os.cpu_count() or 1
    return max(1, cores + cores // 2)
