"""Race to ten at the table: PLUS/MINUS choose the amount, OK adds it (the shared half is TableBase)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from companion.engine.game import Game
from companion.intents import ButtonName
from companion.ledframe import LedFrame
from companion.table.base import TableBase
from companion.table.tags import Tag, TagDirectory
from companion.table.ui import Mode, UiModel
from tests.games.race.engine import Add, Added, State


class RaceTable(TableBase):
    messages = "tests.games.race"

    def __init__(self, game: Game[State], tags: TagDirectory, **options: Any) -> None:
        self._n = 1
        super().__init__(game, tags, **options)
        self._refresh()

    def _on_place(self, city: str, uid: str) -> None:
        pass  # no pieces on the board

    def _on_lift(self, city: str, uid: str) -> None:
        pass

    def _on_card(self, tag: Tag) -> None:
        pass

    def _on_city(self, city: str) -> None:
        pass

    def _on_button(self, button: ButtonName) -> None:
        match button:
            case ButtonName.PLUS:
                self._n = min(3, self._n + 1)
            case ButtonName.MINUS:
                self._n = max(1, self._n - 1)
            case ButtonName.OK:
                self._push(Add(self.state.current, self._n))
            case ButtonName.BACK:
                self._undo_in_turn(repr)
            case _:
                pass

    def _describe(self, events: list[Any]) -> None:
        for e in events:
            if isinstance(e, Added):
                self._message = self._text.text("race.added", player=e.player, n=e.n, total=e.total)

    def _compute_ui(self) -> UiModel:
        state: State = self.state
        if state.finished:
            return UiModel(Mode.GAME_OVER, prompt=self._text.text("race.won", player=state.winner),
                           message=self._message)  # fmt: skip
        return UiModel(Mode.IDLE, player=state.current, prompt=self._text.text("race.turn", player=state.current,
                       n=self._n), refusal=self._refusal, message=self._message)  # fmt: skip

    def _compute_leds(self) -> LedFrame:
        return LedFrame(seat=None if self.state.finished else self.state.seat)

    def _turn_key(self) -> Hashable:
        return self.state.seat
