"""A seat played by the box at the physical table: the bot acts by the engine's commands, the screen
and the LEDs show what to move, and it waits until a person has moved its pieces (issue 14)."""

from __future__ import annotations

from companion import games
from companion.games.on_the_way.engine import Move, Pass
from companion.games.seats import bot_player
from companion.ledframe import CityLight

from .conftest import Table


def test_the_bot_acts_on_its_turn_and_waits_for_its_pieces_to_be_moved() -> None:
    bot = bot_player(games.get("on-the-way"), {"blue": "easy"}, seed=3)
    t = Table("", bot=bot)
    t.later(2.0)
    assert t.state.current.colour == "red" and t.ctl.game.depth == 0  # red's turn: the bot waits
    placed, waited = 0, 0
    for _ in range(200):
        if t.state.finished or waited >= 3:
            break
        if t.state.current.colour == "red":
            t.ctl._push(Pass("red"))  # the person at red's seat ends the turn (the shortest way in a test)
            continue
        t.later(2.0)  # blue's turn: the bot acts
        moved = [c for c in t.ctl.game.log if isinstance(c, Move) and c.player == "blue"]
        if moved[placed:]:  # the engine moved a transport: until a person moves the marker, the bot waits
            depth = t.ctl.game.depth
            assert t.ui.expected and all(t.ctl.led_frame.city(c) is CityLight.EXPECTED for c in t.ui.expected)
            t.later(5.0)
            assert t.ctl.game.depth == depth, "the bot acted before its marker was moved"
            waited += 1
            for command in moved[placed:]:
                t.place("blue", command.marker, command.to)  # a person puts the bot's marker on its city
            placed = len(moved)
            newer = [c for c in t.ctl.game.log if isinstance(c, Move) and c.player == "blue"][placed:]
            assert t.ui.expected == () or newer  # the table matches the engine, or the bot already moved on
    assert waited >= 3  # the bot moved transports and each time waited for its marker
    assert any(isinstance(c, Move) and c.player == "blue" for c in t.ctl.game.log)


def test_menu_advice_says_the_best_action_and_its_city_blinks() -> None:
    from companion.games.on_the_way.table.prompts import MENU, MenuItem

    t = Table("")
    t.press("menu")
    for _ in range(MENU.index(MenuItem.ADVICE)):
        t.press("plus")
    t.press("ok")
    assert "win chance" in t.ui.message and "%" in t.ui.message  # one sentence and its estimated chance
    city = t.ui.selected
    assert city is not None and t.ctl.led_frame.city(city) is CityLight.SELECTED  # the advised city blinks
    depth = t.ctl.game.depth
    t.scan(next(c.id for c in t.state.config.deck.contracts if c.tier.value == "basic"))  # red acts
    assert t.ctl.game.depth == depth + 1  # the contract was taken
    assert t.ui.selected is None  # the advice was for the position before: it no longer blinks


def test_on_a_persons_turn_the_bot_is_asked_once_per_position_and_the_loop_sleeps() -> None:
    asked: list[int] = []
    play = bot_player(games.get("on-the-way"), {"blue": "easy"}, seed=3)
    assert play is not None

    def counting(state: object) -> object | None:
        asked.append(1)
        return play(state)

    t = Table("", bot=counting)
    for _ in range(10):  # red's turn, nothing changes: asked once, then no wake-ups for the bot
        t.later(1.0)
    assert len(asked) == 1 and t.ctl.next_deadline() is None
    t.scan(next(c.id for c in t.state.config.deck.contracts if c.tier.value == "basic"))  # red acts
    t.later(1.0)
    assert len(asked) == 2  # a new position: asked again
