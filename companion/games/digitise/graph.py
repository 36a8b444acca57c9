"""Shortest paths on the traced roads: in roads (On The Way's card distance, OTW-12) and in steps
(Auf Achse: every plain space and the city at the end is one step)."""

from __future__ import annotations

import heapq
from collections.abc import Iterable

from companion.games.digitise.model import RoadEntry


def road_distance(roads: Iterable[RoadEntry], a: str, b: str) -> int | None:
    """Fewest roads from ``a`` to ``b`` (None: not connected)."""
    return _distances(roads, a, by_steps=False).get(b)


def step_distance(roads: Iterable[RoadEntry], a: str, b: str) -> int | None:
    """Fewest steps from ``a`` to ``b`` when a road of n spaces takes n + 1 steps."""
    return _distances(roads, a, by_steps=True).get(b)


# The wizard's review asks for thousands of distances on the same roads (every contract, every start
# city, at every step): one Dijkstra per origin, kept while the same (immutable) tuple of roads is asked
# about. Keyed by the tuple's identity, which is safe because the cache holds the tuple itself.
_CACHE_SIZE = 4
_cache: list[tuple[tuple[RoadEntry, ...], dict[tuple[str, bool], dict[str, int]]]] = []


def _distances(roads: Iterable[RoadEntry], a: str, by_steps: bool) -> dict[str, int]:
    if not isinstance(roads, tuple):
        return _dijkstra(roads, a, by_steps)
    at = next((i for i, (r, _) in enumerate(_cache) if r is roads), None)
    entry = (roads, {}) if at is None else _cache.pop(at)
    _cache.insert(0, entry)  # the most recently asked first: the least recently asked is dropped
    del _cache[_CACHE_SIZE:]
    table = entry[1]
    if (a, by_steps) not in table:
        table[(a, by_steps)] = _dijkstra(roads, a, by_steps)
    return table[(a, by_steps)]


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


def _dijkstra(roads: Iterable[RoadEntry], a: str, by_steps: bool) -> dict[str, int]:
    """The shortest distance from ``a`` to every city it reaches (``a`` itself at 0)."""
    adjacency = _adjacency(roads)
    best = {a: 0}
    done: set[str] = set()
    queue = [(0, a)]
    while queue:
        dist, city = heapq.heappop(queue)
        if city in done:
            continue
        done.add(city)
        for nxt, road in adjacency.get(city, ()):
            nd = dist + ((road.spaces or 0) + 1 if by_steps else 1)
            if nd < best.get(nxt, nd + 1):
                best[nxt] = nd
                heapq.heappush(queue, (nd, nxt))
    return best
