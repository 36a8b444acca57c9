"""Race to ten as a plug-in: everything the platform asks of a game, and nothing else."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import pygame

from companion.display.record import Canvas
from companion.display.tray import BUTTONS, draw_buttons
from companion.engine.game import Game
from companion.games.base import PluginBase
from companion.games.protocol import CheckReport, DataRole, Standing
from companion.games.setup import GameSetup
from companion.intents import ButtonName, Intent
from companion.table.tags import MarkerTag, TagDirectory
from tests.games.race import engine


class Race(PluginBase):
    name = "race"
    title = "Race to ten"
    currency = "pts"
    colours: tuple[str, ...] = ("red", "blue", "green", "yellow")
    player_counts: tuple[int, ...] = (2, 3, 4)
    score_label = "pts"
    data_roles: tuple[DataRole, ...] = ()
    package = "tests.games.race"

    def check_files(self, paths: Sequence[Path]) -> CheckReport:
        return CheckReport(tuple(f"{p}: Race to ten reads no data files" for p in paths), "ok: no data files")

    def card_ids(self, setup: GameSetup | None = None) -> tuple[str, ...]:
        return ()

    def neighbours(self, setup: GameSetup | None = None) -> dict[str, frozenset[str]]:
        return {}  # no board, no readers

    def new_game(self, setup: GameSetup) -> Game[Any]:
        return engine.new_game(setup.players)

    def command_from_json(self, data: object) -> object:
        return engine.command_from_json(data)

    def command_to_json(self, command: object) -> dict[str, object]:
        return engine.command_to_json(command)

    def state_to_json(self, state: Any) -> dict[str, object]:
        return engine.state_to_json(state)

    def view_for(self, state: Any, player: str | None) -> dict[str, object]:
        return engine.state_to_json(state)

    def legal_commands(self, state: Any) -> Iterable[object]:
        return engine.legal_commands(state)

    def progress(self, state: Any) -> dict[str, object]:
        return {"round": state.total, "player": state.current}

    def standings(self, state: Any) -> tuple[Standing, ...]:
        def score(colour: str) -> int:
            return state.ledger.balance(colour)

        ordered = sorted(state.config.colours, key=score, reverse=True)
        return tuple(Standing(1 if score(c) == score(ordered[0]) else 2, c, score(c), score(c)) for c in ordered)

    def table(self, game: Game[Any], tags: Any, **options: Any) -> Any:
        from tests.games.race.table import RaceTable

        return RaceTable(game, tags, **options)

    def screen(self) -> ModuleType:
        from tests.games.race import screen

        return screen

    def simulator(self, game: Game[Any], seed: int | None) -> Any:
        return RaceSimProps(game)


@dataclass
class _NoPieces:
    markers: dict[MarkerTag, str | None] = field(default_factory=dict)

    def sync(self, state: Any, ui: Any = None) -> list[Intent]:
        return []


@dataclass
class _Tray:
    rect: pygame.Rect
    buttons: dict[ButtonName, pygame.Rect]
    help: pygame.Rect
    reader: None = None
    slots: dict[MarkerTag, pygame.Rect] = field(default_factory=dict)
    marker_radius: int = 12

    def px(self, value: float) -> int:
        return max(1, round(value))


class RaceSimProps:
    title = "Race to ten"
    reader_cities: tuple[str, ...] = ()

    def __init__(self, game: Game[Any]) -> None:
        self.tags = TagDirectory.simulated(game.state.config.colours, ())

    def deal(self, seed: int | None) -> _NoPieces:
        return _NoPieces()

    def compute_tray(self, rect: pygame.Rect) -> _Tray:
        buttons = {
            name: pygame.Rect(rect.x + 10 + i * 90, rect.y + 10, 80, 50) for i, (name, _, _) in enumerate(BUTTONS)
        }
        return _Tray(rect, buttons, pygame.Rect(rect.x, rect.bottom - 20, rect.w, 20))

    def tray_target(self, pos: tuple[int, int], tray: _Tray, table: _NoPieces, state: Any) -> str | None:
        return None

    def draw_tray(self, canvas: Canvas, tray: _Tray, table: _NoPieces, state: Any, ui: Any, *, pressed: Any,
                  dragging: Any) -> None:  # fmt: skip
        draw_buttons(canvas, tray, pressed)

    def engine_place(self, state: Any, marker: MarkerTag) -> str | None:
        return None


PLUGIN = Race()
