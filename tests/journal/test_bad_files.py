"""Generated damaged and foreign files where a journal is expected: never a traceback, never a healthy
journal renamed or hidden, never a file that is not ours touched (``benchmarks/bad_journals.py``)."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.allow_error_logs  # every damaged file is (rightly) logged as an error

HARNESS = Path(__file__).parent.parent.parent / "benchmarks" / "bad_journals.py"


def load_harness() -> ModuleType:
    spec = importlib.util.spec_from_file_location("companion_bad_journals", HARNESS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


bad = load_harness()


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> object:
    return bad.make_template(tmp_path_factory.mktemp("template"))


def check(case: object) -> object:
    report = bad.CampaignReport()
    bad.check_case(case, report)
    assert report.problems == [], report.problems[0]
    assert report.ok
    return report


def test_a_small_campaign_over_every_kind(tmp_path: Path) -> None:
    report = bad.run(cases=len(bad.KINDS) * 12, seed=3, directory=tmp_path)
    print(report)
    assert report.problems == [], report.problems[:3]
    assert report.tracebacks == 0 and report.healthy_renamed == 0 and report.healthy_hidden == 0
    assert report.foreign_touched == 0 and report.damaged_destroyed == 0
    assert set(report.kinds) == set(bad.KINDS) and report.moved_aside > 0  # damage was met and moved aside


def test_the_checker_sees_a_renamed_healthy_journal(tmp_path: Path, template: object) -> None:
    """The invariants can fail: a healthy journal moved away by hand is reported."""
    case = bad.make_case(random.Random(0), "healthy", tmp_path / "case", template)
    case.path.parent.mkdir(parents=True, exist_ok=True)
    report = bad.CampaignReport()
    case.path.write_bytes(case.data)
    case.path.rename(case.path.with_name("journal.sqlite.corrupt-x"))
    bad._check_files(case, report)
    assert report.healthy_renamed == 1
    case.path.with_name("journal.sqlite.corrupt-x").unlink()
    notes = bad.Case("text_file", tmp_path / "case" / "notes.txt", b"mine", False, False)
    notes.path.write_bytes(b"changed")
    bad._check_files(notes, report)
    assert report.foreign_touched == 1


SLOW = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@SLOW
@given(data=st.binary(max_size=6000), ours=st.booleans())
def test_random_bytes(tmp_path: Path, template: object, data: bytes, ours: bool) -> None:
    name = "journal.sqlite" if ours else "notes.bin"
    check(bad.Case("random", tmp_path / "h" / name, data, False, ours))


@SLOW
@given(text=st.text(max_size=2000), name=st.sampled_from(["notes.txt", "games.db", "journal.sqlite.txt"]))
def test_ordinary_text_files_are_never_touched(tmp_path: Path, template: object, text: str, name: str) -> None:
    check(bad.Case("text", tmp_path / "h" / name, text.encode(), False, False))


@SLOW
@given(cut=st.floats(min_value=0.0, max_value=1.0, exclude_max=True))
def test_truncated_journals(tmp_path: Path, template: object, cut: float) -> None:
    data = template.data[: int(len(template.data) * cut)]  # type: ignore[attr-defined]
    check(bad.Case("truncated", tmp_path / "h" / "journal.sqlite", data, False, True))


@SLOW
@given(flips=st.lists(st.tuples(st.floats(0.0, 1.0, exclude_max=True), st.integers(1, 255)), min_size=1, max_size=6))
def test_flipped_bytes_in_a_real_journal(tmp_path: Path, template: object, flips: list[tuple[float, int]]) -> None:
    data = bytearray(template.data)  # type: ignore[attr-defined]
    for where, mask in flips:
        data[int(where * len(data))] ^= mask
    check(bad.Case("flipped", tmp_path / "h" / "journal.sqlite", bytes(data), False, True))


@SLOW
@given(kind=st.sampled_from(bad.KINDS_HEALTHY), seed=st.integers(0, 2**16))
def test_healthy_journals_are_never_renamed_or_hidden(tmp_path: Path, template: object, kind: str, seed: int) -> None:
    check(bad.make_case(random.Random(seed), kind, tmp_path / "h", template))
