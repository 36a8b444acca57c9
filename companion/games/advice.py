"""One piece of advice, the same for every game: a command, its estimated chance and one sentence.

Each game's advisor subclasses it to spell its command in JSON (``command_json``); the JSON fields are
the ``advise`` query's answer in scripted play (docs/scripted-play.md) and must not change.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Advice:
    command: Any  # the game's command, as a person would issue it
    win_rate: float  # the estimated chance (each game's docs say of what: winning, or leading)
    low: float  # 95 % Wilson interval of win_rate
    high: float
    playouts: int
    sentence: str  # what to do at the table, in one sentence

    def command_json(self) -> dict[str, object]:
        raise NotImplementedError

    def to_json(self) -> dict[str, object]:
        return {
            "command": self.command_json(),
            "win_rate": round(self.win_rate, 3),
            "low": round(self.low, 3),
            "high": round(self.high, 3),
            "playouts": self.playouts,
            "sentence": self.sentence,
        }
