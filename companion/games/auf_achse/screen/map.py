"""The Auf Achse map: roads drawn through their spaces, cities, warning triangles, the roadworks and
Stau signs, trucks with their cargo, and the rings the LEDs mirror (on plain spaces too).

Positions come from the board file (``x``, ``y`` in 0..1 for cities and junctions; plain spaces are
evenly spaced along their road, or placed where the file says). Every space is recorded in
``FrameRecord.cities`` so a touch on a plain space can be hit-tested like a city.
"""

from __future__ import annotations

import pygame

from companion.display import theme
from companion.display.labels import around
from companion.display.layout import Layout
from companion.display.lights import board_to_pixels, city_lights, draw_light_ring, draw_map_ground, place_box
from companion.display.record import Canvas
from companion.display.tokens import pill
from companion.games.auf_achse.engine.state import GameState
from companion.ledframe import CityLight, LedFrame
from companion.table.messages import Catalogue
from companion.table.ui import UiModel

ROADWORKS: theme.RGB = (255, 140, 0)  # orange, striped: the roadworks sign
STAU: theme.RGB = (230, 40, 60)  # red, with "STAU": the jam sign
TRIANGLE: theme.RGB = (240, 228, 66)


def space_positions(state: GameState, rect: pygame.Rect, layout: Layout) -> dict[str, tuple[int, int]]:
    return board_to_pixels(((s.id, s.x, s.y) for s in state.board.spaces), rect, (layout.px(12), layout.px(10)))


def space_lights(state: GameState, ui: UiModel, leds: LedFrame) -> dict[str, CityLight]:
    """Cities: what the LEDs show (completed from the UI model); plain spaces: the UI model only."""
    return city_lights(ui, leds, (s.id for s in state.board.spaces))


def draw_aa_map(
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
    pos = space_positions(state, rect, layout)
    board = state.board
    r_city = layout.px(5)
    r_space = max(2, layout.px(2.2))

    for a, b in board.edges:
        pygame.draw.line(surface, theme.ROAD, pos[a], pos[b], layout.px(2))
    for space in board.spaces:
        x, y = pos[space.id]
        if space.city:
            pygame.draw.circle(surface, theme.CITY, (x, y), r_city)
            pygame.draw.circle(surface, theme.BACKGROUND, (x, y), r_city, 1)
            record.cities[space.id] = (x, y, r_city + layout.px(4))
        elif space.triangle:
            d = r_space + layout.px(1.5)
            pts = [(x, y - d), (x + d, y + d * 0.8), (x - d, y + d * 0.8)]
            pygame.draw.polygon(surface, TRIANGLE, pts)
            pygame.draw.polygon(surface, theme.BACKGROUND, pts, 1)
            record.cities[space.id] = (x, y, d + layout.px(2))
        else:
            pygame.draw.circle(surface, theme.ROAD, (x, y), r_space)
            pygame.draw.circle(surface, theme.TEXT_FAINT, (x, y), r_space, 1)
            record.cities[space.id] = (x, y, r_space + layout.px(3))

    lights = space_lights(state, ui, leds)
    occupied: list[pygame.Rect] = [pygame.Rect(x - r_city, y - r_city, 2 * r_city, 2 * r_city)
                                   for s, (x, y) in pos.items() if board.is_city(s)]  # fmt: skip
    ring_r = r_city + layout.px(6)
    occupied += [
        pygame.Rect(pos[s][0] - ring_r, pos[s][1] - ring_r, 2 * ring_r, 2 * ring_r) for s in lights if s in pos
    ]
    for sign, colour, label in (("roadworks", ROADWORKS, "⚒"), ("stau", STAU, "STAU")):
        where = state.roadworks if sign == "roadworks" else state.stau
        if where is None or where not in pos:
            continue
        occupied.append(_sign(canvas, layout, pos[where], colour, label, sign))

    size = layout.small
    gap = layout.px(2)
    for seat, p in enumerate(state.players):
        if p.space is None or p.space not in pos:
            continue
        style = theme.player_style(p.colour, seat)
        label = f"{style.letter} {p.goods}/{p.capacity}"
        w, h = canvas.measure(label, size, bold=True)
        box = pygame.Rect(0, 0, w + layout.px(8), h + layout.px(2))
        x, y = pos[p.space]
        r = r_city if board.is_city(p.space) else r_space
        candidates = [
            box.move_to(midbottom=(x, y - r - gap)),
            box.move_to(midtop=(x, y + r + gap)),
            box.move_to(midleft=(x + r + gap, y)),
            box.move_to(midright=(x - r - gap, y)),
        ]
        box = place_box(candidates, occupied, rect)
        pygame.draw.line(surface, style.colour, (x, y), box.center, layout.px(2))
        pygame.draw.circle(surface, style.colour, (x, y), r + layout.px(1))
        pill(canvas, box, style, label, size, role="truck")
        record.transports[(p.colour, 1)] = (box.x, box.y, box.w, box.h)
        occupied.append(box)

    # The rings go on top of the trucks: a lit space is never hidden.
    for lit, light in lights.items():
        if lit not in pos:
            continue
        radius = r_city if board.is_city(lit) else r_space + layout.px(1)
        draw_light_ring(surface, layout, pos[lit], radius, light, slow_on=slow_on, fast_on=fast_on, gap=3)
        record.rings[lit] = light

    _labels(canvas, layout, state, ui, pos, lights, occupied, r_city)
    _legend(canvas, layout, rect, texts)


def _sign(
    canvas: Canvas, layout: Layout, centre: tuple[int, int], colour: theme.RGB, label: str, role: str
) -> pygame.Rect:
    surface = canvas.surface
    size = max(10, layout.small - layout.px(2))
    w, h = canvas.measure(label, size, bold=True)
    box = pygame.Rect(0, 0, max(w + layout.px(6), h + layout.px(4)), h + layout.px(4))
    box.center = centre
    pygame.draw.rect(surface, colour, box, border_radius=layout.px(2))
    if role == "roadworks":  # diagonal stripes: the sign reads without its colour
        for off in range(-box.h, box.w, layout.px(5)):
            seg = box.clipline((box.x + off, box.bottom), (box.x + off + box.h, box.y))
            if seg:
                pygame.draw.line(surface, (250, 250, 250), *seg, max(1, layout.px(1)))
    pygame.draw.rect(surface, theme.TEXT, box, width=1, border_radius=layout.px(2))
    with canvas.box(box, "sign"):
        canvas.text(label, box.center, size, colour=(0, 0, 0), bold=True, anchor="center", role=role,
                    background=colour if role == "roadworks" else None)  # fmt: skip
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
    """City names where they overlap nothing; the cities that matter now go first and are always named."""
    board = state.board
    important = {c for c in lights if board.is_city(c)}
    for p in state.players:
        if p.space is not None and board.is_city(p.space):
            important.add(p.space)
        for cid in p.loaded:
            card = state.config.contract(cid)
            if card is not None:
                important.add(card.end)
    for cid in state.public:
        card = state.config.contract(cid)
        if card is not None:
            important.update((card.start, card.end))
    size = layout.map_label
    gap = layout.px(2) + r
    bounds = layout.map
    dot = layout.px(3)
    dots = [pygame.Rect(x - dot, y - dot, 2 * dot, 2 * dot) for s, (x, y) in pos.items() if not board.is_city(s)]
    order = sorted(board.cities, key=lambda c: (c not in important, c))

    def plan(room: int, must: set[str]) -> tuple[list[tuple[str, pygame.Rect, bool, int]], bool]:
        """(name, place, drawn over what it overlaps, width) for each label about ``room`` wide;
        and whether one of ``must`` had to be drawn over something."""
        placed: list[tuple[str, pygame.Rect, bool, int]] = []
        for name in order:
            x, y = pos[name]
            label, width = canvas.label(name, size, room)  # a long name abbreviated, never like another
            w, h = canvas.measure(label, size)
            options = around((x, y), w, h, gap)  # beside the city, nearest first (display.labels)
            blockers = [b for _, b, _, _ in placed] + occupied
            # Best: overlap nothing; else a road's dots may show through the name, nothing else may.
            free = [c for c in options if bounds.contains(c) and c.collidelist(blockers + dots) < 0]
            free = free or [c for c in options if bounds.contains(c) and c.collidelist(blockers) < 0]
            if free:
                placed.append((name, free[0], False, width))
            elif name in must:
                placed.append((name, place_box(options, blockers, bounds), True, width))
            # else: a city that need not be named stays unlabelled rather than overlap (its dot is still drawn)
        return placed, any(forced for _, _, forced, _ in placed)

    # The lit cities and those with a truck are always named; the ends of the contracts in play too
    # when there is room (the cards name them as well); narrower names on a crowded map.
    essential = {c for c in lights if board.is_city(c)} | {
        p.space for p in state.players if p.space is not None and board.is_city(p.space)
    }
    for must in (important, essential):
        for room in layout.map_label_rooms:
            labels, forced = plan(room, must)
            if not forced:
                break
        if not forced:
            break
    for name, box, forced, width in labels:
        if forced:
            pygame.draw.rect(canvas.surface, theme.LAND, box)
        colour = theme.TEXT if name in important else theme.TEXT_DIM
        canvas.text(name, box.topleft, size, colour=colour, role="city", max_width=width)


def _legend(canvas: Canvas, layout: Layout, rect: pygame.Rect, texts: Catalogue) -> None:
    surface = canvas.surface
    size = max(10, layout.small - layout.px(1))
    x = rect.x + layout.px(6)
    y = rect.bottom - layout.px(6) - size
    d = layout.px(4)
    cy = y + size // 2 + 1
    pygame.draw.polygon(surface, TRIANGLE, [(x + d, cy - d), (x + 2 * d, cy + d), (x, cy + d)])
    canvas.text(
        texts.text("screen.action_card"), (x + 2 * d + layout.px(3), y), size, colour=theme.TEXT_DIM, role="legend"
    )
