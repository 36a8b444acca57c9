"""Shared test set-up: a headless screen, and an unexpected ERROR log fails the test (style point 15)."""

from __future__ import annotations

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

# Byte-code: the suite starts a few hundred Python processes (the CLI, the kiosk, the MicroPython
# bridge's host, crash children). Where the environment says not to write byte-code
# (PYTHONDONTWRITEBYTECODE, common in containers), each of them compiled every module again: 0.4 s
# of CPU per process on a clean clone. The suite caches it instead, outside the source tree, in
# pytest's own (git-ignored) cache directory; the workers and every child inherit this.
if sys.dont_write_bytecode or os.environ.get("PYTHONDONTWRITEBYTECODE"):
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ.setdefault("PYTHONPYCACHEPREFIX", str(Path(__file__).resolve().parents[1] / ".pytest_cache" / "pycache"))
    sys.pycache_prefix = os.environ["PYTHONPYCACHEPREFIX"]
    sys.dont_write_bytecode = False


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


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: three workers per two cores. Some tests wait rather than compute (a child process
    starting, the MicroPython VM's pipe, a real broker, a fork-and-kill campaign), and an extra worker
    runs meanwhile; more workers than that only fight over the cores (measured on 2 cores, 1 606 tests:
    2 workers 207 s, 3 workers 175 s, 4 workers 188 s)."""
    cores = os.cpu_count() or 1
    return max(1, cores + cores // 2)
