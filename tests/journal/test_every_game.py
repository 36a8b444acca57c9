"""Every registered game goes through the same journal: recorded command by command, resumed after a
power cut to the exact state, exported, and the export replays through ``companion play`` to the
same state (issue: one platform, two games)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion import games
from companion.cli import main as cli_main
from companion.games.setup import GameSetup
from companion.journal import FINISHED, JournaledGame, JournalStore

SETUPS = {
    "on-the-way": GameSetup("on-the-way", ("red", "blue", "green"), end_at=4),
    "auf-achse": GameSetup("auf-achse", ("red", "blue", "green"), seed=11, rules={"debts_count": "false"}),
}


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_a_game_resumes_exactly_and_its_export_replays_to_the_same_state(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plugin, setup = games.get(name), SETUPS[name]
    script = plugin.sample_game(setup, seed=5, max_commands=150)
    undo = plugin.command_from_json({"action": "undo"})
    path = tmp_path / "journal.sqlite"
    with JournalStore.open(path) as store:
        game = JournaledGame.start(store, setup)
        for i, command in enumerate(script[:100]):
            game.push(command)
            if i % 17 == 3:  # an undo and a redo, as players do
                game.push(undo)
                game.push(command)
        before = game.state
        game_id = game.game_id
    # The power came back: the unfinished game is offered and resumes to the very same state.
    with JournalStore.open(path) as store:
        record = store.unfinished()
        assert record is not None and record.id == game_id and record.setup == setup
        resumed = JournaledGame.resume(store, record)
        assert resumed.state == before
        for command in script[100:]:
            resumed.push(command)
        final = resumed.state
        assert store.game(game_id).status == (FINISHED if plugin.finished(final) else "playing")  # type: ignore[union-attr]
    export = tmp_path / "game.jsonl"
    assert cli_main(["export", str(game_id), "--journal", str(path), "-o", str(export)]) == 0
    replay_line = capsys.readouterr().err.splitlines()[-1].split()
    args = replay_line[replay_line.index("play") + 1 :]
    assert args[:2] == ["--game", name]
    assert cli_main(["play", *args[:-1], str(export)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert all(line.get("ok", True) for line in lines), [line for line in lines if not line.get("ok", True)][:1]
    assert lines[-1]["state"] == json.loads(json.dumps(plugin.state_to_json(final)))


def test_games_lists_every_game_with_its_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "journal.sqlite"
    with JournalStore.open(path) as store:
        for setup in SETUPS.values():
            JournaledGame.start(store, setup)
    assert cli_main(["games", "--journal", str(path)]) == 0
    out = capsys.readouterr().out
    assert "[on-the-way]" in out and "[auf-achse]" in out


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_export_stats_writes_the_game_in_figures(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import pygame

    plugin, setup = games.get(name), SETUPS[name]
    path = tmp_path / "journal.sqlite"
    with JournalStore.open(path) as store:
        game = JournaledGame.start(store, setup)
        for command in plugin.sample_game(setup, seed=3, max_commands=120):
            game.push(command)
        final = game.state
    base = tmp_path / "figures"
    assert cli_main(["export", "--stats", str(game.game_id), "--journal", str(path), "-o", str(base)]) == 0
    data = json.loads(base.with_suffix(".json").read_text(encoding="utf-8"))
    assert data["game"] == name and data["game_id"] == game.game_id
    assert [p["colour"] for p in data["players"]] == list(setup.players)
    for p in data["players"]:  # the last balance is what the bank holds for the player now
        assert p["balances"][-1] == final.ledger.balance(p["colour"])
        assert p["earned"] >= p["biggest_payout"] >= 0 and p["spent"] >= 0
    assert pygame.image.load(str(base.with_suffix(".png"))).get_size() == (1280, 800)
    assert cli_main(["export", "--stats", "99", "--journal", str(path)]) == 2  # no such game: a clear error
    assert "there is no game 99" in capsys.readouterr().err


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_the_figures_follow_the_bank_through_undos(name: str) -> None:
    from companion.games.stats import stats_of_game

    plugin, setup = games.get(name), SETUPS[name]
    game = plugin.new_game(setup)
    undo = plugin.command_from_json({"action": "undo"})
    for i, command in enumerate(plugin.sample_game(setup, seed=9, max_commands=150)):
        game.push(command)
        if i % 7 == 3:  # taken back and done again: reversal entries in the ledger
            game.push(undo)
            game.push(command)
    stats = stats_of_game(plugin, game)
    for player in stats.players:
        assert player.balances[-1] == game.state.ledger.balance(player.colour)
