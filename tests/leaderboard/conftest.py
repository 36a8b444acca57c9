from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.leaderboard.broker import TestBroker


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[TestBroker]:
    b = TestBroker(tmp_path)
    b.start()
    yield b
    b.stop()
