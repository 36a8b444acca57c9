"""The map: cities and roads, with the distance queries the rules and the decks need."""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field

from companion.engine.errors import DataError


@dataclass(frozen=True, slots=True)
class City:
    name: str
    x: float  # position on the printed map, 0..1 from the left
    y: float  # 0..1 from the top


@dataclass(frozen=True, slots=True)
class Road:
    a: str
    b: str

    def joins(self, city: str, other: str) -> bool:
        return {self.a, self.b} == {city, other}


@dataclass(frozen=True)
class Board:
    """An immutable map. Cities are addressed by name; ``index`` gives their position in ``cities``."""

    name: str
    game: str
    cities: tuple[City, ...]
    roads: tuple[Road, ...]
    setup: Mapping[int, tuple[str, ...]] = field(default_factory=dict)  # player count -> start cities
    index: Mapping[str, int] = field(init=False, repr=False, compare=False)
    neighbours: Mapping[str, tuple[str, ...]] = field(init=False, repr=False, compare=False)
    _distances: dict[str, dict[str, int]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        index = {c.name: i for i, c in enumerate(self.cities)}
        adjacency: dict[str, list[str]] = {c.name: [] for c in self.cities}
        for road in self.roads:
            for end in (road.a, road.b):
                if end not in index:
                    raise DataError(f"road {road.a}–{road.b} names unknown city {end!r}")
            adjacency[road.a].append(road.b)
            adjacency[road.b].append(road.a)
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "neighbours", {c: tuple(sorted(n)) for c, n in adjacency.items()})
        object.__setattr__(self, "_distances", {})

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.cities)

    def city(self, name: str) -> City:
        try:
            return self.cities[self.index[name]]
        except KeyError:
            raise DataError(f"unknown city {name!r} on board {self.name!r}") from None

    def has_road(self, a: str, b: str) -> bool:
        return b in self.neighbours.get(a, ())

    def distances_from(self, origin: str) -> dict[str, int]:
        """Shortest path length in roads from ``origin`` to every reachable city (BFS, cached)."""
        cached = self._distances.get(origin)
        if cached is not None:
            return cached
        if origin not in self.index:
            raise DataError(f"unknown city {origin!r} on board {self.name!r}")
        dist = {origin: 0}
        queue = deque([origin])
        while queue:
            here = queue.popleft()
            for nxt in self.neighbours[here]:
                if nxt not in dist:
                    dist[nxt] = dist[here] + 1
                    queue.append(nxt)
        self._distances[origin] = dist
        return dist

    def distance(self, a: str, b: str) -> int | None:
        """Roads on the shortest path between two cities, or None if they are not connected."""
        return self.distances_from(a).get(b)

    def is_connected(self) -> bool:
        return not self.cities or len(self.distances_from(self.cities[0].name)) == len(self.cities)
