"""A journal on a temporary path with a fake clock, and the golden 3-player short game."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.games.on_the_way.engine import Command
from companion.games.on_the_way.engine.serialize import command_from_json
from companion.journal import GameSetup, JournalStore

GOLDEN = Path(__file__).parent.parent / "otw" / "golden" / "three-players-end-at-4.jsonl"
GOLDEN_SETUP = GameSetup("on-the-way", ("red", "blue", "green"), end_at=4)


class FakeClock:
    def __init__(self, start: float = 1_790_000_000.0) -> None:  # a fixed moment; nothing reads the wall clock
        self.now = start

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def golden_commands() -> list[Command]:
    return [command_from_json(json.loads(line)) for line in GOLDEN.read_text(encoding="utf-8").splitlines()]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def journal_path(tmp_path: Path) -> Path:
    return tmp_path / "state" / "journal.sqlite"


@pytest.fixture
def store(journal_path: Path, clock: FakeClock) -> Iterator[JournalStore]:
    with JournalStore.open(journal_path, clock=clock) as s:
        yield s
