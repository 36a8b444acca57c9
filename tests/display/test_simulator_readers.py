"""``companion --emulated-readers``: the window drives the MFRC522 emulators, mock buttons and the
emulated LED chain, and the same controller sees the debounced intents."""

from __future__ import annotations

import pytest

from companion import games
from companion.intents import ButtonName
from companion.ledframe import CityLight
from companion.simulator.app import new_game
from companion.simulator.window import Simulator
from companion.table.tags import MarkerTag
from companion.table.ui import Mode
from tests.display.driver import Driver, FakeClock


def run_for(driver: Driver, seconds: float) -> None:
    """The loop as it runs: a reader sweep every 50 ms."""
    for _ in range(round(seconds / 0.05)):
        driver.clock.advance(0.05)
        driver.sim.pump()


@pytest.fixture
def driver():  # type: ignore[no-untyped-def]
    clock = FakeClock()
    sim = Simulator(
        games.get("on-the-way"),
        new_game("on-the-way", ("red", "blue"), end_at=1),
        seed=7,
        clock=clock,
        size=(1280, 800),
        emulated_readers=True,
    )
    yield Driver(sim, clock)
    assert sim.readers is not None
    sim.readers.close()


def test_a_clicked_card_is_read_by_the_emulated_card_reader(driver: Driver) -> None:
    sim = driver.sim
    card = sim.table.offer[0]
    driver.click(sim.card_pos(card))
    assert sim.readers is not None and sim.readers.hw.chip("card").tags  # held over the reader
    run_for(driver, 1.0)
    assert sim.controller.state.players[0].contracts == (card,)
    assert not sim.readers.hw.chip("card").tags  # and taken away again: one scan, not many


def test_a_dropped_marker_is_sensed_debounced_settled_and_lit_on_the_led_chain(driver: Driver) -> None:
    sim = driver.sim
    driver.drag(sim.marker_pos(MarkerTag("red", 1)), sim.city_pos("Bremen"))
    run_for(driver, 1.0)
    ui = sim.controller.ui
    assert ui.mode is Mode.FORMING and ui.lifted == ("red", 1)
    assert sim.readers is not None
    leds = sim.readers.hw.decoded_leds()
    assert {c for c, light in leds.cities if light is CityLight.HINT} == set(ui.hints)
    driver.button(ButtonName.BACK)  # through a gpiozero mock pin
    run_for(driver, 0.2)
    assert sim.controller.ui.mode is Mode.MISMATCH  # no transport: take the marker off
