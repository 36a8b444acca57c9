"""The suite's own scheduler (tests/scheduling.py): the long tests head the workers' shares."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tests.scheduling import CACHE_KEY, pytest_collection_modifyitems


@dataclass
class Item:
    nodeid: str


@dataclass
class Cache:
    kept: dict[str, Any] = field(default_factory=dict)

    def get(self, key: str, default: object) -> object:
        return self.kept.get(key, default)


@dataclass
class Config:
    workerinput: dict[str, Any]
    cache: Cache


def shares(items: list[Item], workers: int) -> list[list[str]]:
    """How xdist's worksteal deals the list out at the start: len(pending) // nodes_remaining each."""
    out, left, start = [], len(items), 0
    for w in range(workers):
        size = left // (workers - w)
        out.append([i.nodeid for i in items[start : start + size]])
        start, left = start + size, left - size
    return out


def test_each_worker_starts_with_a_long_test_and_every_test_is_kept() -> None:
    items = [Item(f"tests/t.py::test_{n:02d}") for n in range(20)]
    measured = {"tests/t.py::test_19": 30.0, "tests/t.py::test_18": 20.0, "tests/t.py::test_05": 10.0}
    config = Config({"workercount": 3}, Cache({CACHE_KEY: measured}))
    ordered = list(items)
    pytest_collection_modifyitems(config, ordered)  # type: ignore[arg-type]
    assert sorted(i.nodeid for i in ordered) == sorted(i.nodeid for i in items)
    heads = [share[0] for share in shares(ordered, 3)]
    assert heads == ["tests/t.py::test_19", "tests/t.py::test_18", "tests/t.py::test_05"]
    rest = [i.nodeid for i in ordered if i.nodeid not in heads]
    assert rest == sorted(rest)  # the others keep their order


def test_without_measurements_the_expected_times_are_used_and_one_worker_keeps_the_order() -> None:
    readers = "tests/test_benchmarks.py::test_benchmark_runs_in_quick_mode[readers.py]"
    items = [Item("tests/a.py::test_a"), Item(readers)]
    config = Config({"workercount": 2}, Cache())
    ordered = list(items)
    pytest_collection_modifyitems(config, ordered)  # type: ignore[arg-type]
    assert ordered[0].nodeid == readers
    alone = list(items)
    pytest_collection_modifyitems(Config({"workercount": 1}, Cache()), alone)  # type: ignore[arg-type]
    assert alone == items
