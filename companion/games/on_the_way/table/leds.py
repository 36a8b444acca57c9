"""The LED frame as a pure function of the engine state and the UI model."""

from __future__ import annotations

from companion.games.on_the_way.engine.state import GameState
from companion.ledframe import CityLight, LedFrame
from companion.table.ui import UiModel


def led_frame(state: GameState, ui: UiModel) -> LedFrame:
    """City LEDs mirror the UI (expected > selected > hints); the rest mirror the game."""
    cities: dict[str, CityLight] = dict.fromkeys(ui.hints, CityLight.HINT)
    if ui.selected is not None:
        cities[ui.selected] = CityLight.SELECTED
    for city in ui.expected:
        cities[city] = CityLight.EXPECTED
    kind = state.event_kind()
    return LedFrame.build(
        cities,
        time=state.time,
        time_end=state.config.time_end,
        event_kind=None if kind is None else kind.value,
        seat=None if state.finished else state.turn.seat,
    )
