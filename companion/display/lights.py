"""What every game's map shares: the city LEDs mirrored as rings around map dots, and placing a
label box where it hides the least."""

from __future__ import annotations

import math
from collections.abc import Iterable

import pygame

from companion.display import theme
from companion.display.layout import Layout
from companion.display.record import Canvas
from companion.ledframe import CityLight, LedFrame
from companion.table.ui import UiModel


def city_lights(ui: UiModel, leds: LedFrame, names: Iterable[str]) -> dict[str, CityLight]:
    """The light of each city: the LED frame, completed from the UI model (they come from one source)."""
    out: dict[str, CityLight] = {}
    for name in names:
        light = leds.city(name)
        if light is CityLight.OFF:
            if name in ui.expected:
                light = CityLight.EXPECTED
            elif name == ui.selected:
                light = CityLight.SELECTED
            elif name in ui.hints:
                light = CityLight.HINT
        if light is not CityLight.OFF:
            out[name] = light
    return out


def draw_light_ring(
    surface: pygame.Surface,
    layout: Layout,
    centre: tuple[int, int],
    r: int,
    light: CityLight,
    *,
    slow_on: bool,
    fast_on: bool,
    gap: float = 4,
) -> None:
    """A city LED mirrored on the map around a dot of radius ``r``: HINT steady ring, SELECTED slow
    blink, EXPECTED fast-blinking dashes (so it differs from a hint by shape as well as colour), SEEN a
    steady thick ring (a marker just put down, settling)."""
    colour = theme.LIGHT_COLOURS[light]
    if light is CityLight.SEEN:
        pygame.draw.circle(surface, colour, centre, r + layout.px(gap), layout.px(gap))
    elif light is CityLight.HINT:
        pygame.draw.circle(surface, colour, centre, r + layout.px(gap), layout.px(gap / 2))
    elif light is CityLight.SELECTED:
        pygame.draw.circle(surface, colour, centre, r + layout.px(gap), layout.px(1))
        if slow_on:
            pygame.draw.circle(surface, colour, centre, r + layout.px(gap + 3), layout.px(3))
    elif light is CityLight.EXPECTED:
        radius = r + layout.px(6)
        width = layout.px(3) if fast_on else layout.px(1)
        rect = pygame.Rect(0, 0, 2 * radius, 2 * radius)
        rect.center = centre
        for i in range(8):
            a0 = i * math.pi / 4
            pygame.draw.arc(surface, colour, rect, a0, a0 + math.pi / 6, width)


def place_box(candidates: list[pygame.Rect], blockers: list[pygame.Rect], bounds: pygame.Rect) -> pygame.Rect:
    """The first candidate inside ``bounds`` that overlaps nothing, else the one that overlaps least."""
    inside = [c for c in candidates if bounds.contains(c)] or [c.clamp(bounds) for c in candidates]
    for c in inside:
        if c.collidelist(blockers) < 0:
            return c
    return min(inside, key=lambda c: overlap(c, blockers))


def overlap(rect: pygame.Rect, others: list[pygame.Rect]) -> int:
    total = 0
    for i in rect.collidelistall(others):
        clip = rect.clip(others[i])
        total += clip.w * clip.h
    return total


def blink_phases(now: float) -> tuple[bool, bool]:
    """(slow_on, fast_on) at time ``now`` seconds: the SELECTED and EXPECTED blink rates."""
    slow = (now * theme.SLOW_BLINK_HZ) % 1.0 < 0.5
    fast = (now * theme.FAST_BLINK_HZ) % 1.0 < 0.5
    return slow, fast


def draw_map_ground(canvas: Canvas, layout: Layout) -> pygame.Rect:
    """The map's land, recorded as the ``map`` region; returns its rectangle (every game's map)."""
    rect = layout.map
    canvas.record.regions["map"] = (rect.x, rect.y, rect.w, rect.h)
    pygame.draw.rect(canvas.surface, theme.LAND, rect, border_radius=layout.px(6))
    return rect


def board_to_pixels(
    points: Iterable[tuple[str, float, float]], rect: pygame.Rect, margin: tuple[int, int]
) -> dict[str, tuple[int, int]]:
    """Board x, y (0..1) of each named point to pixels inside ``rect``, keeping ``margin`` (x, y) free
    for rings and labels."""
    inner = rect.inflate(-2 * margin[0], -2 * margin[1])
    return {name: (round(inner.x + x * inner.w), round(inner.y + y * inner.h)) for name, x, y in points}
