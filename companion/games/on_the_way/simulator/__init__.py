"""On The Way's things around the board in the simulator: the markers, the contract offer and pile,
the event deck, and the tray that draws them (``SimProps``, composed into ``companion.simulator``)."""

from __future__ import annotations

from typing import Any

import pygame

from companion.display.record import Canvas
from companion.engine.game import Game
from companion.games.on_the_way.engine.state import OFFER_SIZE, GameConfig, GameState
from companion.games.on_the_way.simulator.table import SimTable
from companion.games.on_the_way.simulator.tray import TrayLayout, compute_tray, draw_tray
from companion.intents import ButtonName
from companion.table.tags import MarkerTag, TagDirectory
from companion.table.ui import UiModel


class OnTheWaySimProps:
    title = "On The Way"

    def __init__(self, game: Game[GameState]) -> None:
        self.config: GameConfig = game.state.config
        card_ids = [c.id for c in self.config.deck.contracts] + [e.id for e in self.config.deck.events]
        self.tags = TagDirectory.simulated(self.config.colours, card_ids)
        self.reader_cities = tuple(self.config.board.names)

    def deal(self, seed: int | None) -> SimTable:
        return SimTable.deal(self.config, self.tags, seed)

    def compute_tray(self, rect: pygame.Rect) -> TrayLayout:
        return compute_tray(rect, self.config.colours, OFFER_SIZE[self.config.player_count])

    def tray_target(self, pos: tuple[int, int], tray: TrayLayout, table: SimTable, state: GameState) -> str | None:
        for i, rect in enumerate(tray.offer):
            if rect.collidepoint(pos) and i < len(table.offer):
                return f"card:{table.offer[i]}"
        if tray.pile.collidepoint(pos) and table.pile:
            return f"card:{table.pile[0]}"
        if tray.events.collidepoint(pos) and table.next_event:
            return f"card:{table.next_event}"
        return None

    def draw_tray(
        self,
        canvas: Canvas,
        tray: TrayLayout,
        table: SimTable,
        state: GameState,
        ui: UiModel,
        *,
        pressed: ButtonName | None,
        dragging: MarkerTag | None,
    ) -> None:
        draw_tray(canvas, tray, table, state, ui, pressed=pressed, dragging=dragging)

    def engine_place(self, state: GameState, marker: MarkerTag) -> str | None:
        player = state.player(marker.colour)
        transport = None if player is None else player.transport(marker.number)
        return None if transport is None else transport.city


def props(game: Game[Any], seed: int | None = None) -> OnTheWaySimProps:
    return OnTheWaySimProps(game)
