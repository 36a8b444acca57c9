"""The Auf Achse simulator driven by injected pygame events: clicks on the piles and bank cards, keys,
touches on the map, a truck dragged onto a city — through the real AA table controller."""

from __future__ import annotations

import pygame
import pytest

from companion import games
from companion.games.auf_achse.engine.queries import auction_status
from companion.games.auf_achse.engine.state import Phase, Stage
from companion.simulator.app import new_game
from companion.simulator.window import Simulator
from companion.table.tags import MarkerTag
from companion.table.ui import Mode
from tests.display.driver import Driver, FakeClock
from tests.display_aa.conftest import save


@pytest.fixture
def driver() -> Driver:
    clock = FakeClock()
    sim = Simulator(
        games.get("auf-achse"), new_game("auf-achse", ("red", "blue"), seed=5), seed=5, clock=clock, size=(1280, 800)
    )
    return Driver(sim, clock)


def _set_up(d: Driver) -> None:
    sim = d.sim
    d.key(pygame.K_RETURN)  # red's truck: the first free plain space
    d.click(sim.city_pos("Bremen-Dortmund#1"))  # blue's: touched on the map
    d.key(pygame.K_RETURN)
    for _ in range(6 + 4):  # 3 private contracts each, then the 4 face-up public ones
        d.click(sim.tray.pile.center)
    d.key(pygame.K_RETURN)  # red starts


def test_set_up_and_a_turn_in_the_simulator(driver: Driver) -> None:
    sim, d = driver.sim, driver
    _set_up(d)
    state = sim.controller.state
    assert state.phase is Phase.PLAY and [len(p.hand) for p in state.players] == [3, 3] and len(state.public) == 4
    assert not any(sim.record.find(c) for p in state.players for c in p.hand)  # private cards stay secret
    assert sim.controller.ui.mode is Mode.ROLL
    for _ in range(2):
        d.key(pygame.K_PLUS)
    d.key(pygame.K_RETURN)  # the die says 2
    assert sim.controller.state.turn.roll == 2 and sim.controller.ui.mode is Mode.MOVE
    target = sim.controller.ui.selected
    d.key(pygame.K_RETURN)  # move to the candidate shown
    assert sim.controller.state.players[0].space == target
    assert sim.table.markers[MarkerTag("red", 1)] == target  # the truck followed (and sits on a reader if a city)
    assert sim.controller.ui.mode is not Mode.MISMATCH
    save(sim.window, "aa_simulator_turn")


def test_an_auction_in_the_simulator_with_bank_cards(driver: Driver) -> None:
    sim, d = driver.sim, driver
    _set_up(d)
    # Red moves into a city (the first candidate of a 6 is a city when one is in reach).
    d.key(pygame.K_MINUS)  # 6
    d.key(pygame.K_RETURN)
    target = sim.controller.ui.selected
    assert sim.controller.state.board.is_city(target)
    d.key(pygame.K_RETURN)
    state = sim.controller.state
    assert state.turn.stage is Stage.ACT and state.turn.exact_city
    if sim.controller.ui.mode is Mode.CHOOSE:
        d.key(pygame.K_BACKSPACE)  # not now: the cargo offer
    card = state.public[0]
    d.click(sim.tray.public[0].center)  # scan a face-up contract: offer to auction it
    d.key(pygame.K_RETURN)
    status = auction_status(sim.controller.state)
    assert status is not None and status.card == card
    d.click(sim.tray.banks["blue"].center)
    d.key(pygame.K_RETURN)  # blue bids level 1
    d.click(sim.tray.banks["red"].center)
    d.key(pygame.K_RETURN)  # red matches
    d.click(sim.tray.banks["blue"].center)
    d.key(pygame.K_BACKSPACE)  # blue passes
    state = sim.controller.state
    assert state.auction is None and card in state.players[0].hand
    assert sim.controller.ui.mode is Mode.CARD_DUE
    d.click(sim.tray.pile.center)  # the next public contract
    assert len(sim.controller.state.public) == 4
