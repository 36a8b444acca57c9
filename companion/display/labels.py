"""City names on a map where they overlap nothing: each beside its city (right, left, above, below,
then the corners), abbreviated with meaning (``Canvas.label``: both ends kept, never like another
known name) to a room that narrows on a crowded map until every name that must be read finds a free
place; the other names are drawn where room is left, or not at all (the city's dot still is).
"""

from __future__ import annotations

from collections.abc import Iterable

import pygame

from companion.display.lights import place_box
from companion.display.record import Canvas

# Where a label may go around its city: (x, y) of the label's centre in units of its half size plus
# the gap, nearest first: right, left, above, below, then the four corners.
_AROUND = ((1, 0), (-1, 0), (0, -1), (0, 1), (1, -1), (-1, 1), (1, 1), (-1, -1))


def around(at: tuple[int, int], w: int, h: int, gap: int) -> list[pygame.Rect]:
    """Places for a ``w``×``h`` label beside the point ``at``, ``gap`` pixels from it, nearest first."""
    x, y = at
    out = []
    for dx, dy in _AROUND:
        rect = pygame.Rect(0, 0, w, h)
        rect.center = (x + dx * (gap + w // 2), y + dy * (gap + h // 2))
        out.append(rect)
    return out


def place_labels(
    canvas: Canvas,
    pos: dict[str, tuple[int, int]],
    size: int,
    rooms: Iterable[int],
    *,
    must: Iterable[str] = (),
    occupied: Iterable[pygame.Rect] = (),
    bounds: pygame.Rect,
    gap: int,
) -> list[tuple[str, pygame.Rect, int]]:
    """(name, place, width to draw it in) for the cities of ``pos`` that get a label: all of
    ``must`` (the widest of ``rooms`` where none of them overlaps anything; at the narrowest, the
    place that overlaps least), the others only where they overlap nothing."""
    wanted = set(must)
    order = sorted(pos, key=lambda n: (n not in wanted, n))
    blocked = list(occupied)
    placed: list[tuple[str, pygame.Rect, int]] = []
    for room in rooms:
        placed, forced = [], False
        for name in order:
            label, width = canvas.label(name, size, room)
            w, h = canvas.measure(label, size)
            options = around(pos[name], w, h, gap)
            blockers = [*(r for _, r, _ in placed), *blocked]
            free = next((c for c in options if bounds.contains(c) and c.collidelist(blockers) < 0), None)
            if free is not None:
                placed.append((name, free, width))
            elif name in wanted:
                forced = True
                placed.append((name, place_box(options, blockers, bounds), width))
        if not forced:
            break
    return placed
