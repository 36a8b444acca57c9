"""``companion setup-box``: typed input resumes where it stopped; list, export, import, count."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from companion.cli import main
from companion.cli.setup_box import parse_text_intent, run_text
from companion.games.digitise.model import CityMoved, FieldTapped, NameTyped, SpaceTapped, Step
from companion.intents import ButtonName, ButtonPressed, CardScanned, CityTapped, TagPlaced
from companion.setup_box.runner import WizardSession


def test_text_commands_are_intents() -> None:
    assert parse_text_intent("ok!") == ButtonPressed(ButtonName.OK, True)
    assert parse_text_intent("minus") == ButtonPressed(ButtonName.MINUS)
    assert parse_text_intent("place channel 7") == TagPlaced("channel 7", "04AA0000000001")
    assert parse_text_intent("tap Mönchengladbach") == CityTapped("Mönchengladbach")
    assert parse_text_intent("scan 04a1b2") == CardScanned("04A1B2")
    assert parse_text_intent("type Speeding ticket") == NameTyped("Speeding ticket")
    assert parse_text_intent('move "Nowy Sącz" 0.5 0.25') == CityMoved("Nowy Sącz", 0.5, 0.25)
    assert parse_text_intent("space 3") == SpaceTapped(3)
    assert parse_text_intent("field pay") == FieldTapped("pay")
    assert parse_text_intent("dance") is None


def test_typed_input_saves_as_it_goes_and_resumes(tmp_path: Path) -> None:
    out = io.StringIO()
    session = WizardSession(tmp_path, "on-the-way", "desk", candidates=("Poznań", "Warsaw", "Lviv"))
    run_text(session, ["place channel 0", "place channel 1", "nonsense", "help", "quit", "place channel 2"], out)
    assert "Put a marker on Lviv." in out.getvalue() and "?  (help" in out.getvalue()
    again = WizardSession(tmp_path, "on-the-way")
    assert again.resumed and again.state.cities == ("Poznań", "Warsaw") and again.state.name == "desk"
    run_text(again, ["place channel 2", "ok!", "place Poznań", "tap Warsaw"], out)
    assert WizardSession(tmp_path, "on-the-way").state.roads[0].joins("Poznań", "Warsaw")
    fresh = WizardSession(tmp_path, "on-the-way", "other", fresh=True)
    assert not fresh.resumed and fresh.state.step is Step.READERS


def test_list_export_import_count(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = ["--state-dir", str(tmp_path)]
    assert main(["setup-box", "list", *state]) == 0
    assert "reference data" in capsys.readouterr().err
    assert main(["setup-box", "export", "--game", "auf-achse", "reference", str(tmp_path), *state]) == 0
    path = Path(capsys.readouterr().out.strip())
    assert main(["setup-box", "import", str(path), "--name", "mine", *state]) == 0
    assert "imported auf-achse data set 'mine'" in capsys.readouterr().out
    assert main(["setup-box", "import", str(path), "--name", "mine", *state]) == 1
    assert "already" in capsys.readouterr().err
    assert main(["setup-box", "list", "--game", "auf-achse", *state]) == 0
    assert "mine" in capsys.readouterr().out
    assert main(["setup-box", "delete", "--game", "auf-achse", "mine", *state]) == 0
    bad = tmp_path / "bad.zip"
    bad.write_bytes(b"PK\x03\x04 not really")
    assert main(["setup-box", "import", str(bad), *state]) == 1
    assert "not a data set file" in capsys.readouterr().err
    assert main(["setup-box", "count", "--game", "on-the-way"]) == 0
    counted = capsys.readouterr().out
    assert "on-the-way:" in counted and "contracts" in counted and "min" in counted


def test_the_window_runs_headless(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.setup_box.window import run_window

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    session = WizardSession(tmp_path, "auf-achse", "window", candidates=("Hamburg", "Bremen"))
    fed = iter([[TagPlaced("channel 0", "04AA0000000001")], [], []])
    ticks: list[float] = []
    run_window(session.handle, lambda: session.state, other_intents=lambda: next(fed, []), tick=ticks.append,
               clock=lambda: 1.0, frames=3)  # fmt: skip
    assert session.state.cities == ("Hamburg",) and ticks == [1.0, 1.0, 1.0]


def test_starting_from_the_reference_data_to_correct_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("ok\n"))
    args = ["setup-box", "run", "--game", "on-the-way", "--from", "reference", "--name", "fixed", "--input", "text"]
    assert main([*args, "--state-dir", str(tmp_path)]) == 0
    from companion.setup_box.datasets import DataSets

    saved = DataSets(tmp_path).get("on-the-way", "fixed")
    assert len(saved.tags) == 0 and saved.board.exists()
    assert main(["setup-box", "run", "--game", "on-the-way", "--from", "nothing", "--state-dir", str(tmp_path)]) == 1
