"""The kiosk with the box's state: the data set it plays (the owner's digitised box), the set-up wizard
from the admin menu, and the event leaderboard over a real MQTT broker."""

from __future__ import annotations

import time
from pathlib import Path

from companion.games.on_the_way.data import REFERENCE_BOARD, REFERENCE_CONTRACTS, REFERENCE_EVENTS
from companion.intents import TagPlaced
from companion.kiosk import KioskSettings, Screen
from companion.leaderboard import BoardModel, Publisher
from companion.leaderboard.client import BoardClient
from companion.setup_box.datasets import DataSets
from tests.leaderboard.broker import TestBroker
from tests.leaderboard.conftest import broker  # noqa: F401  (the real broker fixture)

from .conftest import Box


def settings(state_dir: Path, **more: object) -> KioskSettings:
    return KioskSettings(pin="2468", games=("on-the-way",), state_dir=str(state_dir), replay_step_s=0.0,
                         **more)  # type: ignore[arg-type]  # fmt: skip


def my_box(state_dir: Path) -> Path:
    """A digitised box: the reference files, with one contract paying more than the reference card."""
    contracts = REFERENCE_CONTRACTS.read_text(encoding="utf-8")
    first_pay = contracts.index("\npay = ") + 1
    end = contracts.index("\n", first_pay)
    texts = {
        REFERENCE_BOARD.name: REFERENCE_BOARD.read_text(encoding="utf-8"),
        REFERENCE_CONTRACTS.name: contracts[:first_pay] + "pay = 9500" + contracts[end:],
        REFERENCE_EVENTS.name: REFERENCE_EVENTS.read_text(encoding="utf-8"),
    }
    return DataSets(state_dir).save("on-the-way", "my 2014 edition", texts).files["contracts"]


def test_a_new_game_plays_the_box_digitised_last(tmp_path: Path) -> None:
    contracts = my_box(tmp_path / "state")
    box = Box(tmp_path / "j.sqlite", settings(tmp_path / "state"))
    box.new_game(2, [0, 0])
    game = box.kiosk.game
    assert game is not None and game.setup.contracts == str(contracts)  # recorded: it resumes on the same data
    assert 9500 in {c.pay for c in game.state.config.deck.contracts}
    box.close()


def test_without_a_data_set_the_reference_data_is_played(tmp_path: Path) -> None:
    box = Box(tmp_path / "j.sqlite", settings(tmp_path / "state"))
    box.new_game(2, [0, 0])
    assert box.kiosk.game is not None and box.kiosk.game.setup.contracts is None
    box.close()


def test_the_admin_menu_opens_the_set_up_wizard_which_keeps_its_progress(tmp_path: Path) -> None:
    box = Box(tmp_path / "j.sqlite", settings(tmp_path / "state"))
    box.enter_pin("2468")
    options = box.view.options
    box.press(*["plus"] * options.index("Digitise a box"), "ok")
    assert box.screen is Screen.SETUP_BOX and box.view.wizard is not None
    first = box.view.wizard
    box.kiosk.handle(TagPlaced("reader 1", "04A1B2C3D4E5F6"), box.now)  # a marker on the first city's reader
    placed = box.view.wizard
    assert placed != first and placed.seq == first.seq + 1
    box.enter_pin("2468")  # MENU long press: the admin menu, now with a way out of the wizard
    box.press(*["plus"] * box.view.options.index("Leave the set-up wizard"), "ok")
    assert box.screen is Screen.ATTRACT and "keeps its progress" in box.view.notice
    box.enter_pin("2468")
    box.press(*["plus"] * box.view.options.index("Digitise a box"), "ok")
    assert box.view.wizard == placed  # resumed exactly where it was left
    box.close()


def test_each_move_and_the_result_reach_the_event_leaderboard(tmp_path: Path, broker: TestBroker) -> None:  # noqa: F811
    client, model = BoardClient(broker.url), BoardModel()
    with Publisher(broker.url, "T7", tmp_path / "outbox.sqlite") as publisher:
        box = Box(tmp_path / "j.sqlite", settings(tmp_path / "state"))
        box.kiosk.publisher = publisher
        box.new_game(2, [0, 0])
        box.scan("B20")  # red takes a contract: progress is published
        box.enter_pin("2468")
        box.press(*["plus"] * box.view.options.index("End the game early"), "ok", "ok")
        assert box.screen is Screen.RANKING
        assert publisher.wait_delivered(10) and publisher.status.refused == 0
        deadline = time.monotonic() + 10
        while not (model.results and "T7" in model.tables) and time.monotonic() < deadline:
            client.drain(model, timeout=0.05)
        box.close()
    client.close()
    (result,) = model.results.values()
    assert result.game.title == "On The Way" and {p.colour for p in result.standings} == {"red", "blue"}
    assert model.tables["T7"].game is not None
