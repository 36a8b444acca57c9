"""The advisor: the top three actions for the player on turn, with win chances from playouts.

    advice = advise(state, "red", budget_s=1.0, seed=7)
    advice[0].command, advice[0].win_rate, advice[0].sentence

Read-only: it never changes the game. Deterministic given the seed: the budget is seconds of a
Raspberry Pi 4 core converted to kernel actions (``budget.py``), not a clock.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from companion.engine.errors import IllegalAction
from companion.engine.stats import wilson
from companion.games.on_the_way.bots.budget import work_for
from companion.games.on_the_way.bots.explain import sentence
from companion.games.on_the_way.bots.kernel import Kernel
from companion.games.on_the_way.bots.search import candidates, search
from companion.games.on_the_way.engine.commands import LayOut, PlayerCommand, RevealEvent, Undo
from companion.games.on_the_way.engine.serialize import command_to_json
from companion.games.on_the_way.engine.state import GameState

DEFAULT_BUDGET_S = 1.0  # one second of a Pi 4 core
TOP = 3


@dataclass(frozen=True, slots=True)
class Advice:
    command: PlayerCommand
    win_rate: float  # share of the playouts after this command that the player won (ties count as wins, OTW-33)
    low: float  # 95 % Wilson interval of win_rate
    high: float
    playouts: int
    sentence: str

    def to_json(self) -> dict[str, object]:
        return {
            "command": command_to_json(self.command),
            "win_rate": round(self.win_rate, 3),
            "low": round(self.low, 3),
            "high": round(self.high, 3),
            "playouts": self.playouts,
            "sentence": self.sentence,
        }


def check_to_move(state: GameState, player: str) -> None:
    """Refuse (as the engine would) unless ``player`` is the one to choose a player command now."""
    if state.finished:
        raise IllegalAction("OTW-31", "the game is over")
    if state.config.seat_of(player) is None:
        raise IllegalAction("OTW-10", f"there is no {player} player in this game")
    current = state.current.colour
    if state.awaiting_event:
        raise IllegalAction("OTW-28", f"the strip is full: {current} must first reveal the next event card")
    if current != player:
        raise IllegalAction("OTW-10", f"it is {current}'s turn, not {player}'s")


def advise(state: GameState, player: str, *, budget_s: float = DEFAULT_BUDGET_S, seed: int = 0) -> tuple[Advice, ...]:
    """Up to three commands for ``player`` (who must be on turn), best first.

    Each candidate is followed by complete playouts with the greedy policy; sequential halving
    spends the budget on the promising ones. Raises ``IllegalAction`` when ``player`` cannot act now.
    """
    check_to_move(state, player)
    kernel = Kernel.from_state(state)
    rng = random.Random(f"advise:{seed}")
    actions = candidates(kernel, rng)
    arms = search(kernel, actions, work_for(budget_s), rng)
    out = []
    for arm in arms[:TOP]:
        low, high = wilson(arm.wins, arm.playouts)
        command = kernel.to_command(arm.action)
        assert not isinstance(command, RevealEvent | LayOut | Undo)  # candidates are player commands
        out.append(Advice(command, arm.mean, low, high, arm.playouts, sentence(kernel, arm.action)))
    return tuple(out)
