"""A game's config is read once per set-up and data files, and an edited file is read again.

``PluginBase.config`` keeps what it read (a config is frozen); these tests hold it to what an owner
expects: an edit of a data file is seen by the next game, even one of the same size written within
the same clock tick, and a file that fails its check fails every time until it is fixed.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import cast

import pytest

from companion import games
from companion.engine.errors import DataError
from companion.games.base import PluginBase
from companion.games.setup import GameSetup

NAME = 'name = "On The Way — reference map of Europe"'


@pytest.fixture
def board_file(tmp_path: Path) -> Path:
    plugin = games.get("on-the-way")
    reference = next(role.reference for role in plugin.data_roles if role.field == "board")
    return Path(shutil.copy(reference, tmp_path / "board.toml"))


def setup_with(board: Path, **fields: object) -> GameSetup:
    return GameSetup("on-the-way", ("red", "blue"), board=str(board), **fields)  # type: ignore[arg-type]


def test_the_same_set_up_and_files_give_the_same_config(board_file: Path) -> None:
    plugin = cast(PluginBase, games.get("on-the-way"))  # config() is PluginBase's, not in GamePlugin
    first = plugin.config(setup_with(board_file))
    assert plugin.config(setup_with(board_file)) is first
    assert plugin.config(setup_with(board_file, end_at=5)) is not first  # another set-up
    assert plugin.config(setup_with(board_file, end_at=5)).end_at == 5


def test_an_edit_of_the_same_size_is_seen_at_once(board_file: Path) -> None:
    plugin = cast(PluginBase, games.get("on-the-way"))  # config() is PluginBase's, not in GamePlugin
    assert plugin.config(setup_with(board_file)).board.name == "On The Way — reference map of Europe"
    text = board_file.read_text(encoding="utf-8")
    board_file.write_text(text.replace(NAME, NAME.replace("Europe", "EUROPE")), encoding="utf-8")
    assert plugin.config(setup_with(board_file)).board.name == "On The Way — reference map of EUROPE"


def test_a_broken_file_fails_every_time_until_it_is_fixed(board_file: Path) -> None:
    plugin = games.get("on-the-way")
    good = board_file.read_text(encoding="utf-8")
    board_file.write_text(good.replace("[board]", "[board", 1), encoding="utf-8")
    for _ in range(2):
        with pytest.raises(DataError, match=r"board\.toml"):
            plugin.new_game(setup_with(board_file))
    board_file.write_text(good, encoding="utf-8")
    assert plugin.new_game(setup_with(board_file)).state.config.board.name.startswith("On The Way")


def test_a_missing_file_is_reported_and_found_once_it_is_there(tmp_path: Path, board_file: Path) -> None:
    plugin = cast(PluginBase, games.get("on-the-way"))  # config() is PluginBase's, not in GamePlugin
    later = tmp_path / "later.toml"
    with pytest.raises(DataError, match=r"later\.toml"):
        plugin.config(setup_with(later))
    later.write_bytes(board_file.read_bytes())  # the owner copies the file in: the next game reads it
    assert plugin.config(setup_with(later)).board.name.startswith("On The Way")
