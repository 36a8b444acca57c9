"""What the kiosk will do: publish each move's progress and the journal's result, for every game.

The publisher reads a plug-in as it is (name, title, score label, currency, money) and the journal's
``result`` rows as they are; the board shows them without knowing any game.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion import games
from companion.games.setup import GameSetup
from companion.journal import JournaledGame, JournalStore
from companion.leaderboard import BoardModel, Publisher
from companion.leaderboard.client import BoardClient
from tests.games.race.plugin import PLUGIN as RACE
from tests.leaderboard.broker import TestBroker

SETUPS = {
    "on-the-way": GameSetup("on-the-way", ("red", "blue", "green"), end_at=4),
    "auf-achse": GameSetup("auf-achse", ("red", "blue", "green"), seed=11, rules={"debts_count": "false"}),
    "race": GameSetup("race", ("red", "blue")),
}


@pytest.fixture(autouse=True)
def third_game() -> Iterator[None]:
    games.register(RACE)
    yield
    games.unregister(RACE.name)


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_a_journaled_game_reaches_the_board(name: str, broker: TestBroker, tmp_path: Path) -> None:
    plugin, setup = games.get(name), SETUPS[name]
    client, model = BoardClient(broker.url), BoardModel()
    with JournalStore.open(tmp_path / "journal.sqlite") as store, \
            Publisher(broker.url, "T1", tmp_path / "outbox.sqlite") as box:  # fmt: skip
        game = JournaledGame.start(store, setup)
        for command in plugin.sample_game(setup, seed=5, max_commands=300):
            game.push(command)
            box.publish_progress(game.game_id, plugin, plugin.progress(game.state), plugin.standings(game.state))
            if game.finished:
                break
        record = store.game(game.game_id)
        assert record is not None
        if record.result is not None:
            box.publish_result(record.id, plugin, record.result, record.finished_at)
            expected = [(r["colour"], r["score"], r["place"]) for r in record.result]
        else:  # the sample did not reach the end: publish the standings now, as Standing objects
            box.publish_result(record.id, plugin, plugin.standings(game.state))
            expected = [(s.colour, s.score, s.place) for s in plugin.standings(game.state)]
        assert box.wait_delivered(10) and box.status.refused == 0
        deadline = time.monotonic() + 10
        result_id = f"T1/{record.id}"

        def result_shown() -> bool:  # the result, and the table's finished game (sent after it)
            live = model.tables.get("T1")
            return result_id in model.results and live is not None and live.game is not None and live.game.finished

        while not result_shown() and time.monotonic() < deadline:
            client.drain(model, timeout=0.05)
    client.close()
    shown = model.results[result_id]
    assert [(p.colour, p.score, p.place) for p in shown.standings] == expected
    assert (shown.game.title, shown.game.score_label) == (plugin.title, plugin.score_label)
    assert shown.standings[0].money_text == plugin.money(shown.standings[0].money)
    live = model.tables["T1"].game
    assert live is not None and live.finished and live.id == result_id
    (ranking,) = model.rankings()
    assert ranking.game.name == name and ranking.games_played == 1
