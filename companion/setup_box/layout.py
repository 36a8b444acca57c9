"""An automatic map from the road graph: stress majorization (SMACOF) over graph distances.

Deterministic (no randomness: classical-MDS-like start from two BFS sweeps), pure Python, fast for
a board's 30-60 cities. Cities dragged by hand stay where they were put; the rest settle around them.
Positions are 0..1 (x from the left, y from the top), with a margin.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

MARGIN = 0.05


def _bfs(adjacency: Mapping[str, Sequence[str]], origin: str) -> dict[str, int]:
    dist = {origin: 0}
    queue = deque([origin])
    while queue:
        city = queue.popleft()
        for nxt in adjacency[city]:
            if nxt not in dist:
                dist[nxt] = dist[city] + 1
                queue.append(nxt)
    return dist


def stress_layout(
    cities: Sequence[str],
    roads: Iterable[tuple[str, str]],
    fixed: Mapping[str, tuple[float, float]] | None = None,
    iterations: int = 120,
) -> dict[str, tuple[float, float]]:
    """Positions for ``cities`` so that map distances follow road distances; ``fixed`` ones stay."""
    # Deterministic, and the wizard asks again for the same map at every step that does not change it
    # (about 0.15 s for 60 cities here, ~0.6 s on a Pi 4): remembered, a fresh dict for every caller.
    pinned = tuple(sorted((c, (float(x), float(y))) for c, (x, y) in (fixed or {}).items()))
    return dict(_layout(tuple(cities), tuple((a, b) for a, b in roads), pinned, iterations))


@lru_cache(maxsize=32)
def _layout(
    cities: tuple[str, ...],
    roads: tuple[tuple[str, str], ...],
    pinned: tuple[tuple[str, tuple[float, float]], ...],
    iterations: int,
) -> dict[str, tuple[float, float]]:
    fixed = dict(pinned)
    names = list(dict.fromkeys(cities))
    if not names:
        return {}
    if len(names) == 1:
        return {names[0]: fixed.get(names[0], (0.5, 0.5))}
    adjacency: dict[str, list[str]] = {c: [] for c in names}
    for a, b in roads:
        if a in adjacency and b in adjacency:
            adjacency[a].append(b)
            adjacency[b].append(a)
    for city in names:
        adjacency[city].sort()
    n = len(names)
    dist = [[0.0] * n for _ in range(n)]
    unreachable = 1.0
    tables = [_bfs(adjacency, c) for c in names]
    unreachable = max([max(t.values()) for t in tables] + [1]) + 1.0
    for i, table in enumerate(tables):
        for j, other in enumerate(names):
            dist[i][j] = float(table.get(other, unreachable))
    # Start: two far-apart "poles" give x and y (a cheap, deterministic stand-in for classical MDS).
    pole_a = max(range(n), key=lambda j: (dist[0][j], -j))
    pole_b = max(range(n), key=lambda j: (dist[pole_a][j], -j))
    pole_c = max(range(n), key=lambda j: (min(dist[pole_a][j], dist[pole_b][j]), -j))
    pos = [[dist[pole_a][i] - dist[pole_b][i] + 0.01 * i / n, dist[pole_c][i] + 0.013 * ((i * 7) % n) / n]
           for i in range(n)]  # fmt: skip
    scale = max(unreachable, 1.0)
    locked = [names[i] in fixed for i in range(n)]
    for i in range(n):
        if locked[i]:
            fx, fy = fixed[names[i]]
            pos[i] = [fx * scale, fy * scale]
    for _ in range(iterations):
        new = []
        for i in range(n):
            if locked[i]:
                new.append(pos[i])
                continue
            sx = sy = wsum = 0.0
            for j in range(n):
                if i == j:
                    continue
                d = dist[i][j]
                w = 1.0 / (d * d)
                dx, dy = pos[i][0] - pos[j][0], pos[i][1] - pos[j][1]
                norm = math.hypot(dx, dy) or 1e-9
                sx += w * (pos[j][0] + d * dx / norm)
                sy += w * (pos[j][1] + d * dy / norm)
                wsum += w
            new.append([sx / wsum, sy / wsum])
        pos = new
    if fixed:  # the hand-placed cities set the frame: the others follow in the same units
        return {c: fixed[c] if c in fixed else (_clamp(pos[i][0] / scale), _clamp(pos[i][1] / scale))
                for i, c in enumerate(names)}  # fmt: skip
    return _normalise(names, pos)


def _clamp(v: float) -> float:
    return round(min(1.0 - MARGIN, max(MARGIN, v)), 3)


def _normalise(names: list[str], pos: list[list[float]]) -> dict[str, tuple[float, float]]:
    xs = [p[0] for p in pos]
    ys = [p[1] for p in pos]
    span = max(max(xs) - min(xs), max(ys) - min(ys)) or 1.0
    inner = 1.0 - 2 * MARGIN
    x0 = min(xs) - (span - (max(xs) - min(xs))) / 2
    y0 = min(ys) - (span - (max(ys) - min(ys))) / 2
    return {c: (round(MARGIN + inner * (pos[i][0] - x0) / span, 3), round(MARGIN + inner * (pos[i][1] - y0) / span, 3))
            for i, c in enumerate(names)}  # fmt: skip
