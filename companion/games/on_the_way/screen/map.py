"""The map: roads, jams, cities with their buildings and idle trucks, transports, LED rings, labels."""

from __future__ import annotations

import pygame

from companion.display import theme
from companion.display.layout import Layout
from companion.display.lights import board_to_pixels, city_lights, draw_light_ring, draw_map_ground, place_box
from companion.display.record import Canvas
from companion.display.tokens import pill
from companion.games.on_the_way.engine.state import Building, GameState
from companion.ledframe import CityLight, LedFrame
from companion.table.messages import Catalogue
from companion.table.ui import UiModel


def city_positions(state: GameState, rect: pygame.Rect, layout: Layout) -> dict[str, tuple[int, int]]:
    """Board x, y (0..1) to pixels inside ``rect``, keeping a margin for rings and labels."""
    return board_to_pixels(((c.name, c.x, c.y) for c in state.board.cities), rect, (layout.px(14), layout.px(12)))


def draw_map(
    canvas: Canvas,
    layout: Layout,
    state: GameState,
    ui: UiModel,
    leds: LedFrame,
    *,
    slow_on: bool,
    fast_on: bool,
    texts: Catalogue,
) -> None:
    surface = canvas.surface
    record = canvas.record
    rect = draw_map_ground(canvas, layout)
    pos = city_positions(state, rect, layout)
    r = layout.px(5)

    # Roads, then jams on top.
    jams = set(state.jams)
    jam_boxes: list[pygame.Rect] = []
    event = state.active_event()
    event_road = tuple(sorted(event.road)) if event is not None and event.road is not None else None
    for road in state.board.roads:
        pygame.draw.line(surface, theme.ROAD, pos[road.a], pos[road.b], layout.px(2))
    for road in state.board.roads:
        key = (road.a, road.b) if road.a < road.b else (road.b, road.a)
        if key in jams or key == event_road:
            jam_boxes.append(_jam(canvas, layout, pos[road.a], pos[road.b], active=key == event_road))

    # Cities: the building is the symbol (none: dot; warehouse: square; logistics centre: diamond).
    for name, (x, y) in pos.items():
        building = state.building_at(name)
        if building is Building.WAREHOUSE:
            box = pygame.Rect(0, 0, 2 * r, 2 * r)
            box.center = (x, y)
            pygame.draw.rect(surface, theme.WAREHOUSE, box)
            pygame.draw.rect(surface, theme.BACKGROUND, box, width=1)
        elif building is Building.LOGISTICS_CENTRE:
            d = round(r * 1.5)
            pts = [(x, y - d), (x + d, y), (x, y + d), (x - d, y)]
            pygame.draw.polygon(surface, theme.LOGISTICS_CENTRE, pts)
            pygame.draw.polygon(surface, theme.TEXT, pts, width=1)
        else:
            pygame.draw.circle(surface, theme.CITY, (x, y), max(2, round(r * 0.6)))
        record.cities[name] = (x, y, r + layout.px(4))

    # LED rings.
    lights = city_lights(ui, leds, pos)
    for name, light in lights.items():
        draw_light_ring(surface, layout, pos[name], r, light, slow_on=slow_on, fast_on=fast_on)
        record.rings[name] = light

    # Annotations are placed where they hide nothing: transports first, then idle counts, then names.
    occupied: list[pygame.Rect] = [pygame.Rect(x - r, y - r, 2 * r, 2 * r) for x, y in pos.values()] + jam_boxes
    gap = layout.px(2)
    size = layout.small
    stacks: dict[str, int] = {}
    for seat, player in enumerate(state.players):
        style = theme.player_style(player.colour, seat)
        for t in player.transports:
            label = f"{style.letter}{t.marker} ×{t.trucks}"
            w, h = canvas.measure(label, size, bold=True)
            box = pygame.Rect(0, 0, w + layout.px(8), h + layout.px(2))
            x, y = pos[t.city]
            k = stacks.get(t.city, 0)
            stacks[t.city] = k + 1
            step = k * (box.h + 1)
            candidates = [
                box.move_to(midtop=(x, y + r + gap + step)),
                box.move_to(midbottom=(x, y - r - gap - step)),
                box.move_to(midleft=(x + r + gap, y + step)),
                box.move_to(midright=(x - r - gap, y + step)),
                box.move_to(topleft=(x + r, y + r + step)),
                box.move_to(topright=(x - r, y + r + step)),
            ]
            box = place_box(candidates, occupied, rect)
            pill(canvas, box, style, label, size, role="transport")
            record.transports[(player.colour, t.marker)] = (box.x, box.y, box.w, box.h)
            occupied.append(box)
    for name, (x, y) in pos.items():
        n = state.idle_at(name)
        if not n:
            continue
        w, h = canvas.measure(str(n), size, bold=True)
        box = pygame.Rect(0, 0, max(w + layout.px(4), h), h)
        candidates = [
            box.move_to(bottomleft=(x + r - 1, y - r + gap)),
            box.move_to(bottomright=(x - r + 1, y - r + gap)),
            box.move_to(topleft=(x + r - 1, y + r - gap)),
            box.move_to(topright=(x - r + 1, y + r - gap)),
            box.move_to(midleft=(x + r + gap, y)),
            box.move_to(midright=(x - r - gap, y)),
        ]
        box = place_box(candidates, occupied, rect)
        pygame.draw.rect(surface, theme.BACKGROUND, box, border_radius=layout.px(3))
        pygame.draw.rect(surface, theme.TEXT_DIM, box, width=1, border_radius=layout.px(3))
        with canvas.box(box, "idle"):
            canvas.text(str(n), box.center, size, bold=True, anchor="center", role="idle")
        occupied.append(box)

    _labels(canvas, layout, state, ui, pos, lights, occupied, r)
    _legend(canvas, layout, rect, texts)


def _jam(canvas: Canvas, layout: Layout, a: tuple[int, int], b: tuple[int, int], *, active: bool) -> pygame.Rect:
    surface = canvas.surface
    pygame.draw.line(surface, theme.JAM, a, b, layout.px(4))
    mid = ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2)
    s = layout.px(6)
    box = pygame.Rect(0, 0, 2 * s, 2 * s)
    box.center = mid
    pygame.draw.rect(surface, theme.JAM, box, border_radius=layout.px(2))
    pygame.draw.rect(surface, theme.TEXT if active else theme.BACKGROUND, box, width=layout.px(2), border_radius=2)
    with canvas.box(box, "jam"):
        canvas.text("2", box.center, max(10, layout.small - layout.px(1)), colour=(0, 0, 0), bold=True,
                    anchor="center", role="jam")  # fmt: skip
    return box


def _labels(
    canvas: Canvas,
    layout: Layout,
    state: GameState,
    ui: UiModel,
    pos: dict[str, tuple[int, int]],
    lights: dict[str, CityLight],
    occupied: list[pygame.Rect],
    r: int,
) -> None:
    """City names, placed where they overlap nothing; the cities that matter now go first.

    The lit cities and those with a transport are always named; the ends of the contracts held too
    when they find a free place (they are named in the panels as well). A long name is abbreviated
    (display.names), narrower on a crowded map, never so short it could be read as another city."""
    essential = set(lights) | {t.city for p in state.players for t in p.transports}
    important = set(essential)
    for p in state.players:
        for cid in p.contracts:
            card = state.config.contract(cid)
            if card is not None:
                important.update((card.origin, card.destination))
    size = layout.map_label
    gap = layout.px(3) + r
    far = layout.px(10)
    bounds = layout.map

    def freedom(name: str, options: dict[str, list[pygame.Rect]]) -> int:
        return sum(1 for c in options[name] if bounds.contains(c) and c.collidelist(occupied) < 0)

    # Cities that must be named: search for places where none overlaps (a small backtracking search,
    # most crowded first), with narrower names until it succeeds; the other cities are named greedily
    # where there is room left.
    for wanted in (important, essential):
        for room in layout.map_label_rooms:
            labels = {name: canvas.label(name, size, room) for name in pos}
            options = {name: _candidates(canvas, pos[name], labels[name][0], size, gap, far) for name in pos}
            must = sorted((n for n in pos if n in wanted), key=lambda n: (freedom(n, options), n))
            chosen = _search(must, options, occupied, bounds)
            if len(chosen) == len(must):
                break
        if len(chosen) == len(must):
            break
    placed: list[pygame.Rect] = []
    for name in must:
        rect = chosen.get(name)
        if rect is None:
            rect = place_box(options[name], placed + occupied, bounds)
            pygame.draw.rect(canvas.surface, theme.LAND, rect)
        placed.append(rect)
        canvas.text(name, rect.topleft, size, colour=theme.TEXT, role="city", max_width=labels[name][1])
    rest = sorted(
        (n for n in pos if n not in must),
        key=lambda n: (n not in important, state.building_at(n) is None, freedom(n, options), n),
    )
    for name in rest:
        blockers = placed + occupied
        free = [c for c in options[name] if bounds.contains(c) and c.collidelist(blockers) < 0]
        if not free:
            continue  # an unimportant city stays unlabelled rather than overlap (its dot is still drawn)
        placed.append(free[0])
        colour = theme.TEXT if name in important else theme.TEXT_DIM
        canvas.text(name, free[0].topleft, size, colour=colour, role="city", max_width=labels[name][1])


def _search(
    names: list[str],
    options: dict[str, list[pygame.Rect]],
    occupied: list[pygame.Rect],
    bounds: pygame.Rect,
    budget: int = 4000,
) -> dict[str, pygame.Rect]:
    """Places for all ``names`` that overlap nothing, or {} if none is found within ``budget`` steps."""
    free = {n: [c for c in options[n] if bounds.contains(c) and c.collidelist(occupied) < 0] for n in names}
    placed: list[pygame.Rect] = []
    steps = 0

    def dfs(i: int) -> bool:
        nonlocal steps
        if i == len(names):
            return True
        for c in free[names[i]]:
            steps += 1
            if steps > budget:
                return False
            if c.collidelist(placed) < 0:
                placed.append(c)
                if dfs(i + 1):
                    return True
                placed.pop()
        return False

    return dict(zip(names, placed, strict=True)) if dfs(0) else {}


def _legend(canvas: Canvas, layout: Layout, rect: pygame.Rect, texts: Catalogue) -> None:
    surface = canvas.surface
    size = max(10, layout.small - layout.px(1))
    r = layout.px(4)
    x = rect.x + layout.px(6)
    y = rect.bottom - layout.px(6) - size
    box = pygame.Rect(x, y + 2, 2 * r, 2 * r)
    pygame.draw.rect(surface, theme.WAREHOUSE, box)
    x = canvas.text(
        texts.text("screen.warehouse"), (box.right + layout.px(3), y), size, colour=theme.TEXT_DIM, role="legend"
    ).right
    x += layout.px(8)
    cy = y + size // 2 + 1
    d = round(r * 1.3)
    pygame.draw.polygon(surface, theme.LOGISTICS_CENTRE, [(x + d, cy - d), (x + 2 * d, cy), (x + d, cy + d), (x, cy)])
    canvas.text(
        texts.text("screen.logistics_centre"), (x + 2 * d + layout.px(3), y), size, colour=theme.TEXT_DIM, role="legend"
    )


def _candidates(canvas: Canvas, at: tuple[int, int], label: str, size: int, gap: int, far: int) -> list[pygame.Rect]:
    """Places for a city's label around the city at ``at``, nearest first."""
    x, y = at
    w, h = canvas.measure(label, size)
    return [
        pygame.Rect(x + gap, y - h // 2, w, h),
        pygame.Rect(x - gap - w, y - h // 2, w, h),
        pygame.Rect(x - w // 2, y - gap - h, w, h),
        pygame.Rect(x - w // 2, y + gap, w, h),
        pygame.Rect(x + gap - 2, y - gap - h + 2, w, h),
        pygame.Rect(x - gap - w + 2, y + gap - 2, w, h),
        pygame.Rect(x + gap - 2, y + gap - 2, w, h),
        pygame.Rect(x - gap - w + 2, y - gap - h + 2, w, h),
        pygame.Rect(x + gap + far, y - h // 2, w, h),
        pygame.Rect(x - gap - w - far, y - h // 2, w, h),
        pygame.Rect(x - w // 2, y - gap - h - far, w, h),
        pygame.Rect(x - w // 2, y + gap + far, w, h),
        # Further out, for a crowded corner of the map (a name must never sit on a token).
        pygame.Rect(x + gap + far, y - gap - h - far // 2, w, h),
        pygame.Rect(x - gap - w - far, y + gap + far // 2, w, h),
        pygame.Rect(x + gap + far, y + gap + far // 2, w, h),
        pygame.Rect(x - gap - w - far, y - gap - h - far // 2, w, h),
        pygame.Rect(x - w // 2, y - gap - h - 2 * far, w, h),
        pygame.Rect(x - w // 2, y + gap + 2 * far, w, h),
    ]
