"""Issue 20's campaigns (``benchmarks/hostile.py``, run by ``benchmarks/robustness.py``) at a size
that keeps the suite fast: every interface clean — no traceback, hang, silently accepted input, lost
command or byte changed outside the state directory — over many fault classes."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

HARNESS = Path(__file__).parent.parent.parent / "benchmarks" / "hostile.py"


@pytest.fixture(scope="module")
def hostile() -> ModuleType:
    spec = importlib.util.spec_from_file_location("companion_hostile_harness", HARNESS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_data_set_zips(hostile: ModuleType) -> None:
    tally = hostile.datasets_campaign(size=60, seed=21)
    assert tally.clean, "\n".join([tally.line(), *tally.examples])
    assert len(tally.classes) >= 30


def test_kiosk_environment(hostile: ModuleType) -> None:
    tally = hostile.environment_campaign(size=150, seed=22)
    assert tally.clean, "\n".join([tally.line(), *tally.examples])
    assert len(tally.classes) >= 40


def test_hardware_toml_bounds_and_names(hostile: ModuleType) -> None:
    tally = hostile.hardware_campaign(size=120, seed=23)
    assert tally.clean, "\n".join([tally.line(), *tally.examples])
    assert len(tally.classes) >= 20


def test_broker_messages_to_the_model_and_the_screen(hostile: ModuleType) -> None:
    tally = hostile.broker_campaign(size=400, seed=24)
    assert tally.clean, "\n".join([tally.line(), *tally.examples])
    assert len(tally.classes) >= 40


def test_journal_media_faults(hostile: ModuleType) -> None:
    tally = hostile.journal_campaign(size=60, seed=25)
    assert tally.clean, "\n".join([tally.line(), *tally.examples])
    assert len(tally.classes) >= 10
