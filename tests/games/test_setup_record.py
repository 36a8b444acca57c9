"""A game's set-up as the journal stores it: a hand-edited or damaged record says which field is wrong
instead of handing the engine and the bots a number of the wrong kind."""

from __future__ import annotations

import pytest

from companion.games.setup import GameSetup

RECORD = {"game": "on-the-way", "players": ["red", "blue"], "end_at": 8, "seed": 3}


@pytest.mark.parametrize("field", ["end_at", "seed"])
@pytest.mark.parametrize("value", [8.0, True, "8", [8]])
def test_a_number_of_the_wrong_kind_names_its_field(field: str, value: object) -> None:
    with pytest.raises(ValueError, match=f"{field} must be a whole number"):
        GameSetup.from_json({**RECORD, field: value})


def test_whole_numbers_and_null_read_back() -> None:
    setup = GameSetup.from_json(RECORD)
    assert (setup.end_at, setup.seed) == (8, 3)
    assert GameSetup.from_json(setup.to_json()) == setup
    empty = GameSetup.from_json({**RECORD, "end_at": None, "seed": None})
    assert (empty.end_at, empty.seed) == (None, None)
