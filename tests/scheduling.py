"""The longest tests start first, one at the head of each xdist worker's share (a pytest plug-in).

pytest-xdist's ``worksteal`` gives each worker a contiguous share of the collected tests and lets an
idle worker steal from a busy one. A long test that happens to sit at the end of a share (the
benchmarks' smoke runs are collected last) runs alone while the other workers wait: 15 s of a 3-minute
run. So the longest tests are put at the head of the shares, round the workers, and the rest keep
their order.

What is long comes from the last run (each test's duration, kept in pytest's cache: every later run
is scheduled from measurements) and, on a clean clone, from ``EXPECTED_S``: the tests that took
several seconds when this was written.
"""

from __future__ import annotations

import pytest

CACHE_KEY = "companion/durations"
LONG_S = 2.0  # a test this long or longer is scheduled first
EXPECTED_S = {  # node id prefix -> seconds on a 2-core machine (a clean clone has no measurements yet)
    "tests/journal/test_crash.py::": 18.0,
    "tests/test_benchmarks.py::test_benchmark_runs_in_quick_mode[readers.py]": 14.0,
    "tests/bots_aa/test_bots_aa.py::test_a_medium_bot_finishes": 8.0,
    "tests/bots_aa/test_bots_aa.py::test_no_bot_command_is_ever_refused": 8.0,
    "tests/leaderboard/test_acl.py::": 7.0,
    "tests/firmware/test_sweep_scripts.py::test_scripted_sweeps": 7.0,
    "tests/test_lint.py::test_mypy": 7.0,
    "tests/journal/test_bad_files.py::test_a_small_campaign": 6.0,
    "tests/leaderboard/test_screen.py::": 6.0,
    "tests/setup_box/test_kill.py::": 5.0,
    "tests/setup_box/test_properties.py::": 5.0,
    "tests/bots_aa/test_bots_aa.py::test_a_bot_game_replays": 5.0,
    "tests/test_benchmarks.py::": 3.0,
}


def expected_s(nodeid: str, measured: dict[str, float]) -> float:
    if nodeid in measured:
        return measured[nodeid]
    return max((s for prefix, s in EXPECTED_S.items() if nodeid.startswith(prefix)), default=0.0)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    workers = int(getattr(config, "workerinput", {}).get("workercount", 1))
    if workers < 2:
        return
    cache = getattr(config, "cache", None)  # absent with -p no:cacheprovider
    measured: dict[str, float] = cache.get(CACHE_KEY, {}) if cache is not None else {}
    times = {item.nodeid: expected_s(item.nodeid, measured) for item in items}
    long = sorted((i for i in items if times[i.nodeid] >= LONG_S), key=lambda i: (-times[i.nodeid], i.nodeid))
    rest = [i for i in items if times[i.nodeid] < LONG_S]
    # worksteal deals the list out in contiguous shares, len(pending) // nodes_remaining each (xdist's
    # WorkStealingScheduling.check_schedule): each share starts with its long tests (dealt round the
    # workers, longest first), then its part of the others, in their order.
    ordered: list[pytest.Item] = []
    left = len(items)
    for w in range(workers):
        size = left // (workers - w)
        left -= size
        head = long[w::workers]
        take = max(0, size - len(head)) if w < workers - 1 else len(rest)
        ordered += head + rest[:take]
        rest = rest[take:]
    items[:] = ordered


class DurationLog:
    """In the controller: each test's call duration, kept in the cache at the end of the run."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.durations: dict[str, float] = {}

    @pytest.hookimpl
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when == "call":
            self.durations[report.nodeid] = round(report.duration, 2)

    @pytest.hookimpl
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        cache = getattr(self.config, "cache", None)  # absent with -p no:cacheprovider
        if cache is None or not self.durations:
            return
        kept: dict[str, float] = cache.get(CACHE_KEY, {})
        kept.update(self.durations)
        known = {item.nodeid for item in session.items} if session.items else set(kept)
        cache.set(CACHE_KEY, {k: v for k, v in kept.items() if k in known or k in self.durations})


def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput"):  # the controller (or a run without xdist) sees every report
        config.pluginmanager.register(DurationLog(config), "companion-duration-log")
