"""Shortest paths on the traced roads: in roads (On The Way's card distance, OTW-12) and in steps
(Auf Achse: every plain space and the city at the end is one step)."""

from __future__ import annotations

import heapq
from collections.abc import Iterable

from companion.games.digitise.model import RoadEntry


def road_distance(roads: Iterable[RoadEntry], a: str, b: str) -> int | None:
    """Fewest roads from ``a`` to ``b`` (None: not connected)."""
    return _dijkstra(roads, a, b, lambda road: 1)


def step_distance(roads: Iterable[RoadEntry], a: str, b: str) -> int | None:
    """Fewest steps from ``a`` to ``b`` when a road of n spaces takes n + 1 steps."""
    return _dijkstra(roads, a, b, lambda road: (road.spaces or 0) + 1)


def connected(cities: Iterable[str], roads: Iterable[RoadEntry]) -> tuple[str, ...]:
    """The cities not reachable from the first one (empty: connected)."""
    names = list(cities)
    if not names:
        return ()
    adjacency = _adjacency(roads)
    seen = {names[0]}
    stack = [names[0]]
    while stack:
        for nxt, _ in adjacency.get(stack.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return tuple(c for c in names if c not in seen)


def _adjacency(roads: Iterable[RoadEntry]) -> dict[str, list[tuple[str, RoadEntry]]]:
    adjacency: dict[str, list[tuple[str, RoadEntry]]] = {}
    for road in roads:
        adjacency.setdefault(road.a, []).append((road.b, road))
        adjacency.setdefault(road.b, []).append((road.a, road))
    return adjacency


def _dijkstra(roads: Iterable[RoadEntry], a: str, b: str, weight: object) -> int | None:
    assert callable(weight)
    adjacency = _adjacency(roads)
    best = {a: 0}
    queue = [(0, a)]
    while queue:
        dist, city = heapq.heappop(queue)
        if city == b:
            return dist
        if dist > best.get(city, dist):
            continue
        for nxt, road in adjacency.get(city, ()):
            nd = dist + int(weight(road))
            if nd < best.get(nxt, nd + 1):
                best[nxt] = nd
                heapq.heappush(queue, (nd, nxt))
    return None
