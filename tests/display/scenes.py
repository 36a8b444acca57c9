"""Key moments of a game as (state, ui, leds), built from position notation on the reference board."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from companion.engine.game import Game
from companion.games.on_the_way.data import load_reference
from companion.games.on_the_way.engine import GameConfig, GameState
from companion.games.on_the_way.engine.commands import Fulfil, Undo
from companion.games.on_the_way.engine.notation import position
from companion.games.on_the_way.engine.rules import apply
from companion.ledframe import CityLight, LedFrame
from companion.table.ui import Mode, Refusal, UiModel


@dataclass(frozen=True)
class Scene:
    name: str
    state: GameState
    ui: UiModel
    leds: LedFrame


@cache
def reference_config(colours: tuple[str, ...] = ("red", "blue")) -> GameConfig:
    board, deck = load_reference()
    return GameConfig(board, deck, colours)


def leds_for(state: GameState, ui: UiModel) -> LedFrame:
    cities = {c: CityLight.HINT for c in ui.hints}
    if ui.selected:
        cities[ui.selected] = CityLight.SELECTED
    for c in ui.expected:
        cities[c] = CityLight.EXPECTED
    return LedFrame.build(cities, time=state.time, time_end=state.config.time_end, seat=state.turn.seat)


def setup(colours: tuple[str, ...] = ("red", "blue")) -> Scene:
    state = position(reference_config(colours), "")
    ui = UiModel(
        player=colours[0],
        steps_left=2,
        prompt=f"{colours[0].title()}: scan a contract, lift or place a marker, or MENU to build",
        detail="OK: end turn early · MENU: build",
    )
    return Scene("setup", state, ui, leds_for(state, ui))


def lifted() -> Scene:
    state = position(
        reference_config(),
        """
        red 4500R 2VP B01,E05x 1:Poznań:2:B01 2:Kaunas:1
        blue 2500R 1VP X03
        cities Warsaw=W2 Kaunas=L1
        turn red used=1 round=3
        time 2 event=E02 strip=B02
        """.replace("E05x", "X01"),
    )
    ui = UiModel(
        mode=Mode.LIFTED,
        player="red",
        steps_left=1,
        prompt="Red 1 in the hand: put it on a lit city",
        detail="PLUS: join idle trucks · BACK: put it back on Poznań",
        hints=frozenset({"Warsaw", "Łódź", "Wrocław", "Berlin", "Szczecin"}),
        lifted=("red", 1),
        expected=("Poznań",),
    )
    return Scene("lifted", state, ui, leds_for(state, ui))


def refusal() -> Scene:
    base = lifted()
    ui = UiModel(
        mode=Mode.IDLE,
        player="red",
        steps_left=1,
        prompt="Red: 1 step left",
        detail="OK: end turn · MENU: build",
        refusal=Refusal("OTW-18", "Warsaw has 1 idle truck; a 2-truck transport needs 2 to transship"),
        message="Red 1 moved Poznań → Warsaw",
    )
    return Scene("refusal", base.state, ui, leds_for(base.state, ui))


def jam() -> Scene:
    state = position(
        reference_config(),
        """
        red 3000R X02 1:Warsaw:2
        blue 6000R 3VP P01 1:Lviv:1 2:Prague:3
        cities Warsaw=W2 Lviv=L3
        turn blue used=0 round=5
        time 4 event=E18 strip=B02,B03 jams=Warsaw-Lviv,Poznań-Warsaw
        """,
    )
    ui = UiModel(
        mode=Mode.MENU,
        player="blue",
        steps_left=2,
        prompt="Build: choose with PLUS/MINUS, OK",
        detail="BACK: leave the menu",
        choices=("Warehouse 3 000 R", "Logistics centre 7 500 R", "Expand 4 500 R", "Cancel a transport", "End turn"),
        choice_index=1,
        selected="Kraków",
        hints=frozenset({"Kraków", "Łódź", "Gdańsk"}),
    )
    return Scene("jam", state, ui, leds_for(state, ui))


def game_over(colours: tuple[str, ...] = ("red", "blue", "green", "yellow")) -> Scene:
    lines = {"red": "7000R 9VP", "blue": "9500R 8VP", "green": "1000R 12VP", "yellow": "7500R 9VP"}
    text = "\n".join(f"{c} {lines[c]}" for c in colours) + "\ntime 10"
    state = position(reference_config(colours), text).evolve(finished=True)
    ui = UiModel(mode=Mode.GAME_OVER, prompt="Game over", detail="MENU (long): new game")
    return Scene("game_over", state, ui, leds_for(state, ui))


def with_undo() -> Scene:
    """Red took and fulfilled a contract, then undid the fulfilment: a reversal in the feed."""
    state = position(
        reference_config(),
        """
        red 1000R B01 1:Warsaw:2:B01
        cities Warsaw=W0
        turn red used=0 round=2
        """,
    )
    game = Game(state, apply, undo_types=(Undo,))
    game.push(Fulfil("red", "B01"))
    game.push(Undo())
    s = game.state
    ui = UiModel(player="red", steps_left=s.steps_left, prompt="Red: fulfilment undone", message="undo: contract B01")
    return Scene("undo", s, ui, leds_for(s, ui))
