"""The robustness campaign (``benchmarks/robustness.py``) at a size that keeps the suite fast.

Run the harness directly for the full size (10 000 bad inputs per interface) and the numbers.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

HARNESS = Path(__file__).parent.parent.parent / "benchmarks" / "robustness.py"


def load_harness() -> ModuleType:
    spec = importlib.util.spec_from_file_location("companion_robustness_harness", HARNESS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def harness() -> ModuleType:
    return load_harness()


@pytest.mark.parametrize("game", ["on-the-way", "auf-achse"])
def test_play_campaign_no_traceback_hang_or_accepted_bad_line(harness: ModuleType, game: str) -> None:
    tally = harness.play_campaign(game, size=250, seed=11, cli=False)
    assert tally.clean, "\n".join([tally.line(), *tally.examples])
    assert len(tally.classes) >= 15  # the mutations cover the fault classes, not one of them


@pytest.mark.parametrize("game", ["on-the-way", "auf-achse"])
def test_data_campaign_every_bad_file_reported_on_its_line(harness: ModuleType, game: str) -> None:
    tally = harness.data_campaign(game, size=60, seed=12)
    assert tally.clean, "\n".join([tally.line(), *tally.examples])
    assert len(tally.classes) >= 15
