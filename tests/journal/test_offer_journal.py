"""OTW-9: the face-up offer the table scanned is part of the record: a resumed game knows it, and an
export replays through ``companion play`` to the same offer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main as cli_main
from companion.engine.errors import IllegalAction
from companion.games.on_the_way.engine import LayOut, TakeContract, Undo
from companion.games.setup import GameSetup
from companion.journal import JournaledGame, JournalStore


def test_the_offer_survives_a_power_cut_and_replays_from_the_export(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    setup = GameSetup("on-the-way", ("red", "blue"), bots={"blue": "easy"})
    path = tmp_path / "journal.sqlite"
    with JournalStore.open(path) as store:
        game = JournaledGame.start(store, setup)
        for command in (LayOut("B01"), LayOut("B02"), LayOut("B03"), TakeContract("red", "B02"), LayOut("B04"),
                        Undo(), LayOut("B06"), TakeContract("red", "B09")):  # fmt: skip
            game.push(command)
        with pytest.raises(IllegalAction) as refused:
            game.push(LayOut("B05"))  # the offer is full: nothing is recorded
        assert refused.value.rule == "OTW-9"
        game_id, offer = game.game_id, game.state.offer
    assert offer == ("B01", "B03", "B06")
    with JournalStore.open(path) as store:
        record = store.unfinished()
        assert record is not None
        assert JournaledGame.resume(store, record).state.offer == offer
    export = tmp_path / "game.jsonl"
    assert cli_main(["export", str(game_id), "--journal", str(path), "-o", str(export)]) == 0
    assert '"action": "lay_out"' in export.read_text(encoding="utf-8")
    replay = capsys.readouterr().err.splitlines()[-1].split()
    args = replay[replay.index("play") + 1 : -1]
    assert cli_main(["play", *args, str(export)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[-1]["state"]["offer"] == list(offer)
