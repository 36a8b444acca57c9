"""The Auf Achse map as a graph of spaces (AA-2, AA-7..12).

City spaces carry the city's name as their id; plain spaces between two cities are numbered from
the first city of their road: ``Hamburg-Flensburg#1``. A junction (a plain space where roads meet)
has an id of its own. Every space is one step; trucks move along the edges.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from companion.engine.errors import DataError


@dataclass(frozen=True, slots=True)
class Space:
    id: str
    city: bool  # a city space: its id is the city name (readers sit under these)
    triangle: bool = False  # a warning triangle: ending a move here draws an action card (AA-12)
    signs_allowed: bool = True  # False: no roadworks / Stau sign here (the Hamburg–Flensburg space, AA-10)
    x: float = 0.0  # position on the printed map, 0..1 from the left
    y: float = 0.0  # 0..1 from the top


@dataclass(frozen=True)
class AABoard:
    """An immutable graph of spaces. ``edges`` are unordered pairs of space ids."""

    name: str
    spaces: tuple[Space, ...]
    edges: tuple[tuple[str, str], ...]
    index: Mapping[str, Space] = field(init=False, repr=False, compare=False)
    neighbours: Mapping[str, tuple[str, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        index = {s.id: s for s in self.spaces}
        if len(index) != len(self.spaces):
            raise DataError(f"board {self.name!r} has duplicate space ids")
        adjacency: dict[str, set[str]] = {s.id: set() for s in self.spaces}
        for a, b in self.edges:
            for end in (a, b):
                if end not in index:
                    raise DataError(f"edge {a}–{b} names unknown space {end!r}")
            if a == b:
                raise DataError(f"edge {a}–{b} joins a space to itself")
            adjacency[a].add(b)
            adjacency[b].add(a)
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "neighbours", {s: tuple(sorted(n)) for s, n in adjacency.items()})

    @property
    def cities(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.spaces if s.city)

    def space(self, space_id: str) -> Space:
        try:
            return self.index[space_id]
        except KeyError:
            raise DataError(f"unknown space {space_id!r} on board {self.name!r}") from None

    def is_city(self, space_id: str) -> bool:
        space = self.index.get(space_id)
        return space is not None and space.city

    def is_connected(self) -> bool:
        if not self.spaces:
            return True
        seen = {self.spaces[0].id}
        stack = [self.spaces[0].id]
        while stack:
            for nxt in self.neighbours[stack.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        return len(seen) == len(self.spaces)

    def distances_from(self, origin: str) -> dict[str, int]:
        """Fewest steps from ``origin`` to every space (BFS), ignoring trucks and signs."""
        dist = {origin: 0}
        frontier = [origin]
        while frontier:
            nxt_frontier = []
            for here in frontier:
                for nxt in self.neighbours[here]:
                    if nxt not in dist:
                        dist[nxt] = dist[here] + 1
                        nxt_frontier.append(nxt)
            frontier = nxt_frontier
        return dist


def road_space_id(a: str, b: str, n: int) -> str:
    """The n-th plain space (1-based) on the road from ``a`` to ``b``."""
    return f"{a}-{b}#{n}"


@dataclass(frozen=True, slots=True)
class RoadSpec:
    """A road of ``spaces`` plain spaces from ``a`` to ``b`` (cities or junctions), as the data file says."""

    a: str
    b: str
    spaces: int
    triangles: tuple[int, ...] = ()  # 1-based positions counted from ``a``
    signs_allowed: bool = True
    points: tuple[tuple[float, float], ...] = ()  # optional screen positions of the spaces


def build_board(
    name: str,
    nodes: tuple[Space, ...],
    roads: tuple[RoadSpec, ...],
) -> AABoard:
    """Cities and junctions (``nodes``) joined by roads of numbered plain spaces.

    A road with 0 spaces joins its two ends directly (a junction next to a city)."""
    where = {s.id: s for s in nodes}
    spaces = list(nodes)
    edges: list[tuple[str, str]] = []
    for road in roads:
        a, b = where.get(road.a), where.get(road.b)
        if a is None or b is None:
            missing = road.a if a is None else road.b
            raise DataError(f"road {road.a}–{road.b} names unknown city or junction {missing!r}")
        previous = a.id
        for n in range(1, road.spaces + 1):
            if road.points:
                x, y = road.points[n - 1]
            else:  # evenly spaced on the straight line between the ends
                f = n / (road.spaces + 1)
                x, y = a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f
            sid = road_space_id(road.a, road.b, n)
            spaces.append(Space(sid, False, n in road.triangles, road.signs_allowed, round(x, 4), round(y, 4)))
            edges.append((previous, sid))
            previous = sid
        edges.append((previous, b.id))
    return AABoard(name, tuple(spaces), tuple(edges))
