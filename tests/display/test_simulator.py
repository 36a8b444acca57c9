"""The simulator driven by injected pygame events: drags, clicks and keys, through the real controller."""

from __future__ import annotations

import random
import time

import pygame
import pytest

from companion import games
from companion.display import theme
from companion.games.on_the_way.engine import Build, Cancel, Expand, Fulfil, Move, Pass, TakeContract
from companion.games.on_the_way.engine.playout import choose_command
from companion.games.on_the_way.table.controller import expected_markers
from companion.games.on_the_way.table.prompts import MENU
from companion.intents import ButtonName
from companion.ledframe import CityLight
from companion.simulator.app import new_game
from companion.simulator.window import Simulator
from companion.table.tags import MarkerTag
from companion.table.ui import Mode
from tests.display.conftest import save
from tests.display.driver import Driver, FakeClock

RED1 = MarkerTag("red", 1)


@pytest.fixture
def driver() -> Driver:
    clock = FakeClock()
    sim = Simulator(
        games.get("on-the-way"),
        new_game("on-the-way", ("red", "blue"), end_at=1),
        seed=7,
        clock=clock,
        size=(1280, 800),
    )
    return Driver(sim, clock)


def test_clicking_an_offered_card_takes_it_and_the_offer_refills(driver: Driver) -> None:
    sim = driver.sim
    card = sim.table.offer[0]
    driver.click(sim.card_pos(card))
    assert sim.controller.state.players[0].contracts == (card,)
    assert card not in sim.table.offer and len(sim.table.offer) == 3
    assert sim.record.has(card, "contract")  # now in red's panel


def test_dragging_a_marker_from_the_tray_forms_a_transport_and_lifting_it_lights_hints(driver: Driver) -> None:
    sim = driver.sim
    driver.move_marker(RED1, "Poznań")
    assert sim.controller.ui.mode is Mode.FORMING
    driver.lift(RED1)
    hints = sim.controller.ui.hints
    assert hints and "Warsaw" in hints
    sim.draw()
    save(sim.window, "sim_forming_lifted")
    for city in hints:
        assert sim.record.rings[city] is CityLight.HINT
        x, y, r = sim.record.cities[city]
        ring = [sim.window.get_at((x - d, y))[:3] for d in range(r - 4, r + 3)]
        assert theme.LIGHT_COLOURS[CityLight.HINT] in ring
    driver.drop_on_city("Warsaw")
    red = sim.controller.state.players[0]
    assert red.transport(1) is not None and red.transport(1).city == "Warsaw"
    assert sim.record.has("R1 ×1", "transport")
    assert sim.controller.state.steps_left == 1


def test_sliding_a_marker_across_cities_only_counts_where_it_settles(driver: Driver) -> None:
    sim = driver.sim
    driver.move_marker(RED1, "Poznań")
    driver.lift(RED1)
    driver.move(sim.city_pos("Berlin"))  # passing over a city moves nothing
    driver.drop_on_city("Warsaw")
    assert sim.controller.state.players[0].transports[0].city == "Warsaw"


def test_keys_are_the_five_buttons(driver: Driver) -> None:
    sim = driver.sim
    driver.key(pygame.K_RETURN)
    assert sim.controller.ui.mode is Mode.CONFIRM  # OK on an idle turn: end it early?
    driver.key(pygame.K_BACKSPACE)
    assert sim.controller.ui.mode is Mode.IDLE
    driver.key(pygame.K_m)
    assert sim.controller.ui.mode is Mode.MENU
    driver.key(pygame.K_PLUS)
    assert sim.controller.ui.choice_index == 1
    driver.key(pygame.K_MINUS)
    assert sim.controller.ui.choice_index == 0
    driver.button(ButtonName.BACK)
    assert sim.controller.ui.mode is Mode.IDLE


def test_long_menu_is_admin(driver: Driver) -> None:
    driver.key(pygame.K_m, hold=1.0)
    assert "Admin" in driver.sim.notice
    assert driver.sim.controller.ui.mode is Mode.IDLE


def test_a_marker_dropped_on_the_card_reader_offers_to_cancel_its_transport(driver: Driver) -> None:
    sim = driver.sim
    driver.move_marker(RED1, "Poznań")
    driver.move_marker(RED1, "Warsaw")
    driver.drag(sim.marker_pos(RED1), sim.tray.reader.center)
    assert sim.controller.ui.mode is Mode.CONFIRM and "Cancel" in sim.controller.ui.prompt
    driver.key(pygame.K_RETURN)
    assert sim.controller.state.players[0].transports == ()
    assert sim.table.markers[RED1] is None


def test_an_idle_simulator_does_not_render_again(driver: Driver) -> None:
    sim = driver.sim
    before = sim.renders
    for _ in range(5):
        driver.clock.advance(1.0)
        sim.pump()
    assert sim.renders == before
    assert sim._timeout_ms() is None  # the loop sleeps until input: nothing blinks, nothing settles


# -- a whole short game, played only with mouse and keys ------------------------------------


def _tidy(d: Driver) -> bool:
    """Put the physical markers where the engine has them (after a fulfil or cancel). True if it acted."""
    sim = d.sim
    want = expected_markers(sim.controller.state)
    for marker, city in sim.table.markers.items():
        target = want.get(marker)
        if city != target:
            if target is None:
                d.drag(sim.marker_pos(marker), sim.tray.slots[marker].center)
            else:
                d.move_marker(marker, target)
            return True
    return False


def _menu_to(d: Driver, item: str) -> None:
    d.key(pygame.K_m)
    while d.sim.controller.ui.choice_index != MENU.index(item):
        d.key(pygame.K_PLUS)
    d.key(pygame.K_RETURN)


def _act(d: Driver, rng: random.Random) -> None:
    sim = d.sim
    c = sim.controller
    state, ui = c.state, c.ui
    if ui.mode is Mode.MISMATCH and _tidy(d):
        return
    if ui.mode is Mode.CONFIRM:
        d.key(pygame.K_RETURN)
        return
    if state.awaiting_event:
        d.click(sim.tray.events.center)
        return
    colour = state.current.colour
    command = choose_command(state, rng)
    match command:
        case TakeContract():
            card = command.card if command.card in sim.table.offer else sim.table.offer[0]
            d.click(sim.card_pos(card))
        case Fulfil():
            d.key(pygame.K_RETURN)  # OK offers the fulfilment ...
            d.key(pygame.K_RETURN)  # ... OK accepts it
        case Move(origin=None, marker=n, to=to, trucks=trucks):
            marker = MarkerTag(colour, n)
            d.lift(marker)
            while trucks is not None and (c.ui.trucks or 0) < trucks:
                d.key(pygame.K_PLUS)
            d.drop_on_city(to)
        case Move(origin=origin, marker=n, to=to, trucks=trucks):
            marker = MarkerTag(colour, n)
            assert origin is not None and trucks is not None
            d.move_marker(marker, origin)
            while (c.ui.trucks or 0) < trucks:
                d.key(pygame.K_PLUS)
            while (c.ui.trucks or 0) > trucks:
                d.key(pygame.K_MINUS)
            d.move_marker(marker, to)
        case Cancel(marker=n):
            d.drag(sim.marker_pos(MarkerTag(colour, n)), sim.tray.reader.center)
            d.key(pygame.K_RETURN)
        case Build(city=city, building=building):
            _menu_to(d, f"build_{building.value}")
            d.click(sim.city_pos(city))
            d.key(pygame.K_RETURN)
        case Expand(city=city):
            _menu_to(d, "expand")
            d.click(sim.city_pos(city))
            d.key(pygame.K_RETURN)
        case Pass():
            d.key(pygame.K_RETURN)
            if c.ui.mode is Mode.CONFIRM:
                d.key(pygame.K_RETURN)
        case _:
            raise AssertionError(f"unexpected {command!r}")


def test_a_short_game_is_played_to_the_end_with_mouse_and_keys(driver: Driver) -> None:
    sim = driver.sim
    rng = random.Random(3)
    save(sim.window, "sim_start")
    stuck = 0
    for _ in range(1500):
        if sim.controller.state.finished:
            break
        depth = sim.controller.game.depth
        _act(driver, rng)
        stuck = stuck + 1 if sim.controller.game.depth == depth else 0
        assert stuck < 12, f"no progress: {sim.controller.ui}"
    state = sim.controller.state
    assert state.finished, "the short game did not end"
    assert state.time >= 1 and state.revealed
    sim.draw()
    save(sim.window, "sim_game_over")
    assert sim.controller.ui.mode is Mode.GAME_OVER
    assert sim.record.has("win", "ranking_title")
    assert len(sim.record.roles("ranking")) == 12  # two rows of six cells
    # The physical table agrees with the engine at the end: no marker left where no transport is.
    assert all(sim.table.markers[m] == city for m, city in expected_markers(state).items())


def test_a_blinking_ring_swaps_cached_frames_instead_of_rendering_again(driver: Driver) -> None:
    sim = driver.sim
    blue1 = MarkerTag("blue", 1)
    driver.move_marker(blue1, "Warsaw")  # not blue's turn: "take blue marker 1 off Warsaw" blinks
    assert sim.controller.ui.expected == ("Warsaw",)
    assert sim._timeout_ms() is not None  # the loop wakes for the blink
    x, y, r = sim.record.cities["Warsaw"]
    renders = sim.renders
    seen = set()
    for _ in range(20):
        driver.clock.advance(0.1)
        sim.pump()
        seen.add(tuple(sim.window.get_at((x + d, y))[:3] for d in range(r - 4, r + 4)))
    assert len(seen) >= 2, "the EXPECTED ring does not blink"
    assert sim.renders - renders <= 4  # at most one render per (slow, fast) phase combination


def test_a_seat_played_by_the_box_acts_in_the_simulator() -> None:
    from companion.games.on_the_way.engine import Pass

    now = [0.0]
    sim = Simulator(games.get("on-the-way"), new_game("on-the-way", ("red", "blue"), end_at=3), seed=7,
                    clock=lambda: now[0], size=(1280, 800), bots={"blue": "easy"})  # fmt: skip
    sim.controller._push(Pass("red"))
    for _ in range(8):
        now[0] += 2.0
        sim.pump()
    assert any(getattr(c, "player", None) == "blue" for c in sim.controller.game.log)


def test_a_game_the_simulator_resumes_is_remembered_by_its_bot_seats(monkeypatch: pytest.MonkeyPatch) -> None:
    # A game with a history (as the simulator resumes one) comes with its recent states: the box's seat
    # remembers them from its first ask, as the kiosk's does (a hard bot: no step back in its turn).
    from companion.games.on_the_way.engine import LayOut

    plugin = games.get("on-the-way")
    remembered: list[tuple[object, ...]] = []
    original = type(plugin).bot_command

    def bot_command(self: object, state: object, colour: str, level: str, seed: int, *, seen: object = ()) -> object:
        remembered.append(tuple(seen))  # type: ignore[arg-type]
        return original(self, state, colour, level, seed, seen=seen)  # type: ignore[arg-type]

    monkeypatch.setattr(type(plugin), "bot_command", bot_command)
    game = new_game("on-the-way", ("red", "blue"), end_at=3)
    for card in ("B01", "B02", "B03"):
        game.push(LayOut(card))
    game.push(TakeContract("red", "B01"))
    history = game.recent(5)  # the first state and the four after it
    now = [0.0]
    sim = Simulator(plugin, game, seed=7, clock=lambda: now[0], size=(1280, 800), bots={"blue": "easy"})
    for _ in range(3):
        now[0] += 2.0
        sim.pump()
    assert remembered and len(remembered[0]) >= len(history)  # (and what the table laid out since)
    assert all(a is b for a, b in zip(remembered[0], history, strict=False))


def _replayed_takes(game: object) -> list[tuple[TakeContract, tuple[str, ...] | None]]:
    """Every take in the game's record with the offer as it lay just before it (OTW-9)."""
    from companion.games.on_the_way.engine import Undo, apply, initial_state

    log = list(game.log)  # type: ignore[attr-defined]
    state = initial_state(game.state.config)  # type: ignore[attr-defined]
    takes = []
    for command in log:
        assert not isinstance(command, Undo)
        if isinstance(command, TakeContract):
            takes.append((command, state.offer))
        state, _ = apply(state, command)
    assert state == game.state  # type: ignore[attr-defined]  # the record replays to the table's game
    return takes


def test_with_a_box_seat_the_simulated_hands_lay_out_the_offer_and_the_bot_takes_only_from_it() -> None:
    now = [0.0]
    sim = Simulator(games.get("on-the-way"), new_game("on-the-way", ("red", "blue"), end_at=3), seed=11,
                    clock=lambda: now[0], size=(1280, 800), bots={"blue": "easy"})  # fmt: skip
    sim.pump()
    state = sim.controller.state
    assert state.offer is not None and len(state.offer) == 3  # OTW-9: laid out and scanned at set-up
    assert list(state.offer) == sim.table.offer  # the engine knows what lies face up
    for _ in range(40):
        if sim.controller.state.current.colour == "red" and not sim.controller.state.awaiting_event:
            sim.controller._push(Pass("red"))  # the person at red's seat ends the turn
        if sim.controller.state.awaiting_event:
            driver = Driver(sim, FakeClock())
            driver.click(sim.tray.events.center)  # a person flips the event card: the bot never invents it
        now[0] += 2.0
        sim.pump()
        for p in sim.controller.state.players:  # a person moves the bot's markers as the screen says
            for t in p.transports:
                sim.table.markers[MarkerTag(p.colour, t.marker)] = t.city
    takes = [(c, offer) for c, offer in _replayed_takes(sim.controller.game) if c.player == "blue"]
    assert takes, "the bot took no contract"
    for command, offer in takes:
        assert offer is not None and command.card in offer  # only a card that lay face up
    assert list(sim.controller.state.offer or ()) == sim.table.offer


def test_back_after_a_take_from_the_tracked_offer_puts_both_cards_back(driver: Driver) -> None:
    sim = driver.sim
    from companion.games.on_the_way.table.prompts import MenuItem

    driver.button(ButtonName.MENU)  # MENU → Advice: the table collects the offer first (OTW-9)
    for _ in range(MENU.index(MenuItem.ADVICE)):
        driver.button(ButtonName.PLUS)
    driver.button(ButtonName.OK)
    sim.pump()
    give_up = time.monotonic() + 60
    while sim.controller.thinking:  # the search runs beside the window's loop, which draws meanwhile
        assert time.monotonic() < give_up, "the advice search never ended"
        driver.clock.advance(0.05)
        sim.pump()
        time.sleep(0.005)
    assert "win chance" in sim.controller.ui.message  # the simulated hands laid it out: the advice came
    before = tuple(sim.table.offer)
    assert sim.controller.state.offer == before and len(before) == 3
    top = sim.table.pile[0]
    driver.click(sim.card_pos(before[1]))  # red takes the middle card of the offer
    state = sim.controller.state
    assert state.players[0].contracts == (before[1],)
    assert state.offer == (before[0], before[2], top) and sim.table.offer == list(state.offer)  # refilled, scanned
    driver.button(ButtonName.BACK)  # undoes the refill's scan together with the take
    state = sim.controller.state
    assert state.players[0].contracts == () and set(state.offer or ()) == set(before)
    assert sorted(sim.table.offer) == sorted(before) and sim.table.pile[0] == top  # the refill lies on the pile again
