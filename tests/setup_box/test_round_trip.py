"""Round trip per game: trace the reference board and cards through the wizard with emulated input
(intents, as the readers, the card reader, the buttons and the touch screen give them) and get data
equal to the reference files, order aside; the files pass the game's own ``board check``."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion import games
from companion.games.digitise.model import Step
from companion.intents import TagPlaced
from companion.setup_box.trace import count, owner_script
from companion.setup_box.writer import render
from tests.setup_box.conftest import GAMES, normalised, reference


def write(files: dict[str, str], folder: Path) -> None:
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")


@pytest.mark.parametrize("game", GAMES)
def test_tracing_the_reference_box_gives_the_reference_files(game: str, tmp_path: Path) -> None:
    ref = reference(game)
    script, state = owner_script(game, ref)
    assert state.step is Step.DONE and not state.problems
    write(render(state), tmp_path)
    ours = {role: tmp_path / path.name for role, path in ref.items()}
    assert normalised(ours) == normalised(ref)
    report = games.get(game).check_files(list(ours.values()))
    assert report.problems == (), report.problems
    # every reader and every card tag was enrolled as it was used
    assert len(state.readers) == len(state.cities)
    tags = (tmp_path / "tags.toml").read_text(encoding="utf-8")
    assert all(card.uid in tags for card in state.cards)
    assert sum(isinstance(i, TagPlaced) for i in script) == count(script).placements


@pytest.mark.parametrize("game", GAMES)
def test_without_dragging_the_map_is_the_automatic_layout_and_still_checks(game: str, tmp_path: Path) -> None:
    ref = reference(game)
    _, state = owner_script(game, ref, drag=False)
    write(render(state), tmp_path)
    ours = {role: tmp_path / path.name for role, path in ref.items()}
    assert games.get(game).check_files(list(ours.values())).problems == ()
    mine, theirs = normalised(ours), normalised(ref)
    assert mine["roads"] == theirs["roads"]
    assert {c[0] for c in mine["cities"]} == {c[0] for c in theirs["cities"]}
    assert all(0.0 <= x <= 1.0 and 0.0 <= y <= 1.0 for _, x, y in mine["cities"])


def test_the_reference_on_the_way_box_takes_few_actions_per_card() -> None:
    script, _ = owner_script("on-the-way", reference("on-the-way"), drag=False)
    actions = count(script)
    cards = 84 + 22
    # the aim: <= 20 s per card; at ~2 s a placement, press or scan that is <= 10 actions a card
    assert (actions.physical - 44 - 75 * 2) / cards < 6


@pytest.mark.parametrize("game", GAMES)
def test_files_read_back_into_the_wizard_write_the_same_files(game: str, tmp_path: Path) -> None:
    from companion.setup_box.writer import read_files

    ref = reference(game)
    state = read_files(game, ref, "edit")
    write(render(state), tmp_path)
    ours = {role: tmp_path / path.name for role, path in ref.items()}
    mine, theirs = normalised(ours), normalised(ref)
    mine["board"]["name"] = theirs["board"]["name"]
    assert mine == theirs
