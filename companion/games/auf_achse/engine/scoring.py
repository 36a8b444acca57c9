"""AA-23, AA-24: the end of the game and the ranking."""

from __future__ import annotations

from dataclasses import dataclass

from companion.engine.values import evolve
from companion.games.auf_achse.engine import events as ev
from companion.games.auf_achse.engine.options import TieBreak
from companion.games.auf_achse.engine.state import GameState, Phase, PlayerState


@dataclass(frozen=True, slots=True)
class Standing:
    place: int  # 1 = first; tied players share a place (AA-24)
    player: str
    money: int
    debt: int
    worth: int  # what ranks: money, less debts with debts_count
    delivered: int


def worth(state: GameState, p: PlayerState) -> int:
    return p.money - (p.debt if state.config.rules.debts_count else 0)


def ranking(state: GameState) -> tuple[Standing, ...]:
    """AA-24: by money held (debts subtracted); equal keys share the place."""
    by_deliveries = state.config.rules.tie_break is TieBreak.DELIVERIES

    def key(p: PlayerState) -> tuple[int, int]:
        return (worth(state, p), len(p.delivered) if by_deliveries else 0)

    ordered = sorted(state.players, key=key, reverse=True)
    out: list[Standing] = []
    for i, p in enumerate(ordered):
        place = out[-1].place if out and key(ordered[i - 1]) == key(p) else i + 1
        out.append(Standing(place, p.colour, p.money, p.debt, worth(state, p), len(p.delivered)))
    return tuple(out)


def winners(state: GameState) -> tuple[str, ...]:
    return tuple(s.player for s in ranking(state) if s.place == 1)


def end_reached(state: GameState) -> str | None:
    """AA-23: no public contracts left and some player holds none (in either order)."""
    if state.phase is not Phase.PLAY or state.public_left > 0:
        return None
    done = [p.colour for p in state.players if not p.contracts]
    if not done:
        return None
    return f"no public contracts remain and {', '.join(done)} fulfilled every contract held (AA-23)"


def maybe_finish(state: GameState, events: list[ev.Event]) -> GameState:
    reason = end_reached(state)
    if reason is None or state.finished:
        return state
    state = evolve(state, finished=True, end_reason=reason, auction=None, awaiting=None)
    events.append(ev.GameEnded(winners(state), reason))
    return state
