"""The wizard says what to do with the input at hand, counts what it has, prefills what its check
accepts, keeps an unfinished box as a draft, and numbers its steps as the docs do."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from companion.games.digitise.graph import road_distance
from companion.games.digitise.model import CardEntry, CardForm, Step
from companion.games.digitise.profile import profile
from companion.intents import CardScanned, CityTapped
from companion.setup_box.datasets import DataSets
from companion.setup_box.machine import refresh, start, steps
from companion.setup_box.runner import WizardSession
from companion.setup_box.view import prompt
from companion.setup_box.words import words
from tests.setup_box.test_machine import NEXT, OK, OTW_CITIES, PREVIOUS, otw_contracts, otw_with_roads, run
from tests.setup_box.test_screen import states

BOX_WORDS = re.compile(r"\b(marker|markers|scan|long OK|long BACK|PLUS|MINUS|MENU|reader named)\b", re.IGNORECASE)


def test_at_a_desk_step_one_says_what_the_keyboard_does_and_counts_the_readers_right() -> None:
    state = start("on-the-way", "desk", ("Antwerp", "Oss"))
    assert prompt(state).doing == "Put a marker on Antwerp."  # on the box
    assert prompt(state, desk=True).doing.startswith("Enter adds Antwerp")  # at a desk: nothing to put
    state = run(state, [OK])
    assert words("en", True).show(state.message) == "Antwerp added without a reader. To go: 1."
    assert prompt(state, desk=True).lines[0] == "1 city entered, 0 with a reader; 1 to go."


@pytest.mark.parametrize("game", ["on-the-way", "auf-achse"])
@pytest.mark.parametrize("language", ["en", "cs", "de", "pl"])
def test_no_step_at_a_desk_asks_for_a_marker_a_scan_or_a_button(game: str, language: str) -> None:
    for name, state in states(game).items():
        shown = prompt(state, language, desk=True)
        for text in (shown.doing, *shown.lines, shown.keys, shown.more):
            assert not BOX_WORDS.search(text), (name, text)
        if language != "en":  # and says it in the language asked
            assert shown.doing != prompt(state, "en", desk=True).doing, (name, shown.doing)


def test_steps_are_numbered_as_the_docs_list_them() -> None:
    otw = start("on-the-way", "n", OTW_CITIES)
    aa = start("auf-achse", "n", ("Kiel", "Lübeck"))
    assert prompt(otw).title == "Step 1 of 7: Readers → cities"
    assert prompt(aa).title == "Step 1 of 6: Readers → cities"
    assert len(steps(profile("on-the-way"))) == 8  # the end (saved, or a draft) is not a step
    assert prompt(replace(otw, step=Step.DONE)).title == "Saved"
    docs = (Path(__file__).resolve().parents[2] / "docs/setup-box.md").read_text(encoding="utf-8")
    assert "| 7 (6) Check |" in docs and "| 4 Start cities (On The Way) |" in docs


def test_a_prefilled_tier_is_one_the_check_accepts_whenever_one_can_be() -> None:
    state = otw_contracts()
    kind = profile("on-the-way").contracts
    for a in state.cities:
        for b in state.cities:
            if a == b:
                continue
            card = CardEntry("contracts", "04C9", (("from", a), ("to", b)))
            form = refresh(CardForm(card), state, kind)
            distance = road_distance(state.roads, a, b)
            flagged = kind.check(form.card.as_dict, state)
            assert (flagged is None) == (distance in (2, 3, 4, 5)), (a, b, distance, form.card.get("tier"))
            if flagged:  # no tier fits: the form says now what the check will say later
                shown = prompt(replace(state, form=form))
                assert any(line.startswith("The check will flag it:") for line in shown.problems), shown.lines


def test_a_box_with_problems_is_kept_as_a_draft_and_resumed(tmp_path: Path) -> None:
    session = WizardSession(tmp_path, "on-the-way", "small box", candidates=OTW_CITIES)
    session.state = replace(otw_with_roads(), name="small box")  # 5 cities, 5 roads traced
    for intent in (NEXT, NEXT, NEXT, CardScanned("04C1"), CityTapped("Poznań"), CityTapped("Lviv"), OK, NEXT, NEXT):
        session.handle(intent)
    assert session.state.step is Step.CHECK and session.state.problems  # 5 cities: the start-city counts
    session.handle(OK)
    assert session.state.step is Step.DONE and session.state.draft and session.saved is None
    assert session.draft is not None and (session.draft / "PROBLEMS.txt").read_text(encoding="utf-8").startswith(
        "- 2 players start on 6 cities (OTW-8)"
    )
    assert (session.draft / "on-the-way.board.toml").is_file() and "B01" in (
        session.draft / "on-the-way.contracts.toml"
    ).read_text(encoding="utf-8")
    assert DataSets(tmp_path).list("on-the-way") == []  # a draft is never played
    again = WizardSession(tmp_path, "on-the-way")
    assert again.resumed and again.state == session.state
    assert prompt(again.state).title == "Kept as a draft"
    assert again.handle(PREVIOUS).step is Step.CHECK  # and goes on from the check
