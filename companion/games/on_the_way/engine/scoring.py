"""OTW-3, OTW-33: scores and ranking."""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.on_the_way.engine.state import GameState, PlayerState

R_PER_VP = 3000  # OTW-33: 1 VP per full 3 000 R


@dataclass(frozen=True, slots=True)
class Standing:
    place: int  # 1-based; tied players share a place
    colour: str
    score: int
    vp_tokens: int
    vp_from_money: int
    money: int


def score(player: PlayerState) -> int:
    return player.vp + player.money // R_PER_VP


def ranking(state: GameState) -> tuple[Standing, ...]:
    """Most VP first; ties broken by R; players still tied share the place (OTW-33)."""
    ordered = sorted(state.players, key=lambda p: (-score(p), -p.money, state.config.colours.index(p.colour)))
    out: list[Standing] = []
    for i, p in enumerate(ordered):
        place = out[-1].place if out and (score(p), p.money) == (out[-1].score, out[-1].money) else i + 1
        out.append(Standing(place, p.colour, score(p), p.vp, p.money // R_PER_VP, p.money))
    return tuple(out)


def winners(state: GameState) -> tuple[str, ...]:
    return tuple(s.colour for s in ranking(state) if s.place == 1)
