"""Where a transport can go in one move action: roads, transshipment (OTW-17, OTW-18) and jams (OTW-30).

This is both the validator of a ``Move`` and the LED-hint query of the table ("light every city this
transport can reach now"), so it is one function with one answer.
"""

from __future__ import annotations

import heapq
import itertools
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass

from companion.games.on_the_way.engine.state import GameState


@dataclass(frozen=True, slots=True)
class Route:
    cities: tuple[str, ...]  # start, transshipment cities..., destination
    steps: int  # move steps used: 1, or 2 across a jammed road (OTW-30)

    @property
    def destination(self) -> str:
        return self.cities[-1]

    @property
    def via(self) -> tuple[str, ...]:
        return self.cities[1:-1]


def can_transship(state: GameState, city: str, trucks: int, player: str) -> bool:
    """OTW-18: a building and at least as many idle trucks as the transport has."""
    i = state.board.index[city]
    if state.buildings[i] is None or state.idle[i] < trucks:
        return False
    if not state.config.rules.neutral_buildings:
        return state.builders[i] in (None, player)
    return True


def reachable(state: GameState, player: str, start: str, trucks: int, steps_left: int) -> Mapping[str, Route]:
    """Every city a transport of ``trucks`` trucks at ``start`` can reach in one action.

    Routes use the fewest steps, then the fewest roads; ties break by city name so the answer is
    deterministic. With the default house rules a jammed road is a move of its own, costing 2 steps.
    The answer is cached on the (immutable) state: treat it as read-only.
    """
    if steps_left < 1:
        return {}
    memo = state.memo()
    key = ("reachable", player, start, trucks, steps_left)
    cached = memo.get(key)
    if cached is None:
        cached = memo[key] = _reachable(state, player, start, trucks, steps_left)
    return cached  # type: ignore[return-value]


def _reachable(state: GameState, player: str, start: str, trucks: int, steps_left: int) -> dict[str, Route]:
    board = state.board
    neighbours = board.neighbours
    jams = state.jams
    rules = state.config.rules
    if not jams or rules.jam_blocks_transshipment:
        return _reachable_unit_cost(state, player, start, trucks, steps_left)
    # House rule variant: a jammed road may sit inside a chain and costs one extra step.
    best: dict[str, Route] = {}
    # Cost of a route = the action's one step + one extra step per jammed road on it.
    heap: list[tuple[int, int, tuple[str, ...]]] = [(1, 0, (start,))]
    settled: set[str] = set()
    while heap:
        steps, _roads, cities = heapq.heappop(heap)
        here = cities[-1]
        if here in settled:
            continue
        settled.add(here)
        if here != start:
            best[here] = Route(cities, steps)
            if not can_transship(state, here, trucks, player):
                continue
        for nxt in neighbours[here]:
            if nxt in settled or nxt == start:
                continue
            cost = steps + (1 if ((here, nxt) if here < nxt else (nxt, here)) in jams else 0)
            if cost <= steps_left:
                heapq.heappush(heap, (cost, len(cities), (*cities, nxt)))
    return best


def _reachable_unit_cost(state: GameState, player: str, start: str, trucks: int, steps_left: int) -> dict[str, Route]:
    neighbours = state.board.neighbours
    jams = state.jams
    index = state.board.index
    buildings, idle = state.buildings, state.idle
    neutral = state.config.rules.neutral_buildings
    paths: dict[str, tuple[str, ...]] = {start: (start,)}
    out: dict[str, Route] = {}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        path = paths[here]
        for nxt in neighbours[here]:
            if nxt in paths:
                continue
            if jams and ((here, nxt) if here < nxt else (nxt, here)) in jams:
                continue  # OTW-30: never inside a chain; handled below as a move of its own
            route = paths[nxt] = (*path, nxt)
            out[nxt] = Route(route, 1)
            i = index[nxt]
            # can_transship, inlined: this loop is the LED-hint and playout hot path.
            if (
                buildings[i] is not None
                and idle[i] >= trucks
                and (neutral or can_transship(state, nxt, trucks, player))
            ):
                queue.append(nxt)
    if jams and steps_left >= 2:
        for nxt in neighbours[start]:
            if nxt not in out and ((start, nxt) if start < nxt else (nxt, start)) in jams:
                out[nxt] = Route((start, nxt), 2)
    return out


def why_unreachable(
    state: GameState, player: str, start: str, to: str, trucks: int, steps_left: int
) -> tuple[str, str]:
    """(rule, sentence) explaining why ``to`` is not in ``reachable(...)``."""
    board = state.board
    if to == start:
        return "OTW-14", f"the transport already stands at {to}; a move goes to another city"
    if board.has_road(start, to) and state.is_jammed(start, to):
        return "OTW-30", (f"the road {start}–{to} is jammed and takes 2 steps; {_steps(steps_left)} left this turn")
    path = _shortest_path(state, start, to)
    if path is None:
        return "OTW-14", f"no road leads from {start} to {to}"
    for city in path[1:-1]:
        i = board.index[city]
        if state.buildings[i] is None:
            return "OTW-18", (
                f"{start} and {to} are not joined by a road, and {city} has no warehouse or "
                f"logistics centre to transship"
            )
        if state.idle[i] < trucks:
            return "OTW-18", (
                f"{city} has {_trucks(state.idle[i])} idle; a {trucks}-truck transport needs {trucks} to transship"
            )
        if not can_transship(state, city, trucks, player):
            return "OTW-18", f"{city}'s building is not {player}'s (house rule neutral_buildings off)"
    for a, b in itertools.pairwise(path):
        if state.is_jammed(a, b):
            return "OTW-30", f"the road {a}–{b} is jammed and cannot be crossed inside a transshipment"
    return "OTW-18", f"no transshipment route leads from {start} to {to} in one action"


def _shortest_path(state: GameState, start: str, to: str) -> tuple[str, ...] | None:
    neighbours = state.board.neighbours
    parent: dict[str, str | None] = {start: None}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if here == to:
            path = [here]
            while (p := parent[path[-1]]) is not None:
                path.append(p)
            return tuple(reversed(path))
        for nxt in neighbours[here]:
            if nxt not in parent:
                parent[nxt] = here
                queue.append(nxt)
    return None


def _trucks(n: int) -> str:
    return f"{n} truck" if n == 1 else f"{n} trucks"


def _steps(n: int) -> str:
    return f"{n} step" if n == 1 else f"{n} steps"
