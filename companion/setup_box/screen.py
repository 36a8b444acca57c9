"""The wizard's screen: the map as it grows on the left, what to do and the card in hand on the right.

A pure function of the wizard state (and the clock, for blinking) to pixels plus a ``FrameRecord``
(style point 12): it renders headless (``SDL_VIDEODRIVER=dummy``), and ``hit`` turns a touch on the
recorded frame into the wizard's intents (a city, a field of the card, a space of the road), ``drag``
a city dragged on the map into ``CityMoved``.
"""

from __future__ import annotations

import math
from functools import lru_cache

import pygame

from companion.display import theme
from companion.display.record import Canvas, FrameRecord
from companion.games.digitise.model import CityMoved, FieldTapped, RoadEntry, SpaceTapped, Step, WizardState
from companion.intents import CityTapped
from companion.ledframe import CityLight
from companion.setup_box.layout import stress_layout
from companion.setup_box.view import leds, prompt

Intent = CityTapped | FieldTapped | SpaceTapped


@lru_cache(maxsize=8)
def _auto(cities: tuple[str, ...], roads: tuple[tuple[str, str], ...]) -> dict[str, tuple[float, float]]:
    return stress_layout(cities, roads, iterations=60)


def map_positions(state: WizardState) -> dict[str, tuple[float, float]]:
    """The layout step's positions once there are any; before that, the map as traced so far."""
    known = {c: (x, y) for c, x, y in state.positions}
    if known and all(c in known for c in state.cities):
        return {c: known[c] for c in state.cities}
    return _auto(state.cities, tuple((r.a, r.b) for r in state.roads))


def render(surface: pygame.Surface, state: WizardState, *, now: float = 0.0, typing: str | None = None) -> FrameRecord:
    """Draw ``state``; ``typing``: the text being typed (a name, a card's text), shown under the prompt."""
    width, height = surface.get_size()
    record = FrameRecord((width, height))
    canvas = Canvas(surface, record)
    surface.fill(theme.BACKGROUND)
    unit = max(1.0, height / 480)
    pad = round(8 * unit)
    shown = prompt(state)
    canvas.text(shown.title, (pad, pad), round(20 * unit), bold=True, role="title")
    canvas.text(state.name, (width - pad, pad), round(14 * unit), colour=theme.TEXT_DIM, role="name", anchor="topright")
    top = pad * 2 + round(22 * unit)
    map_rect = pygame.Rect(pad, top, round(width * 0.58) - pad, height - top - pad)
    side = pygame.Rect(map_rect.right + pad, top, width - map_rect.right - 2 * pad, height - top - pad)
    _draw_map(canvas, map_rect, state, now, unit)
    _draw_side(canvas, side, state, unit, typing)
    return record


def _blink_on(light: CityLight, now: float) -> bool:
    if light is CityLight.SELECTED:
        return math.fmod(now * theme.SLOW_BLINK_HZ, 1.0) < 0.5
    if light is CityLight.EXPECTED:
        return math.fmod(now * theme.FAST_BLINK_HZ, 1.0) < 0.5
    return True


def _draw_map(canvas: Canvas, rect: pygame.Rect, state: WizardState, now: float, unit: float) -> None:
    surface = canvas.surface
    canvas.record.regions["map"] = (rect.x, rect.y, rect.w, rect.h)
    pygame.draw.rect(surface, theme.SEA, rect, border_radius=round(6 * unit))
    where = map_positions(state)
    inner = rect.inflate(-round(40 * unit), -round(30 * unit))

    def at(city: str) -> tuple[int, int]:
        x, y = where.get(city, (0.5, 0.5))
        return (inner.x + round(x * inner.w), inner.y + round(y * inner.h))

    last = state.roads[-1] if state.roads else None
    for road in state.roads:
        colour = theme.ACCENT if road is last and state.editing_road else theme.ROAD
        pygame.draw.line(surface, colour, at(road.a), at(road.b), max(2, round(3 * unit)))
        if road.spaces:
            _draw_spaces(canvas, road, at(road.a), at(road.b), unit, road is last and state.editing_road)
    frame = leds(state)
    radius = max(5, round(7 * unit))
    for city in state.cities:
        x, y = at(city)
        canvas.record.cities[city] = (x, y, radius)
        light = frame.city(city)
        pygame.draw.circle(surface, theme.CITY, (x, y), radius)
        if light is not CityLight.OFF:
            canvas.record.rings[city] = light
            if _blink_on(light, now):
                pygame.draw.circle(
                    surface, theme.LIGHT_COLOURS[light], (x, y), radius + round(4 * unit), max(2, round(2 * unit))
                )
        canvas.text(city, (x, y + radius + 1), round(11 * unit), colour=theme.TEXT_DIM, role="city", anchor="midtop")
    if state.head and state.head in where:
        canvas.text("●", at(state.head), round(16 * unit), colour=theme.ACCENT, role="head", anchor="center")


def _draw_spaces(canvas: Canvas, road: RoadEntry, a: tuple[int, int], b: tuple[int, int], unit: float,
                 editing: bool) -> None:  # fmt: skip
    n = road.spaces or 0
    for k in range(1, n + 1):
        f = k / (n + 1)
        x, y = round(a[0] + (b[0] - a[0]) * f), round(a[1] + (b[1] - a[1]) * f)
        size = max(3, round((6 if editing else 3) * unit))
        if k in road.triangles:
            points = [(x, y - size - 1), (x - size, y + size), (x + size, y + size)]
            pygame.draw.polygon(canvas.surface, theme.JAM, points)
        else:
            pygame.draw.circle(canvas.surface, theme.TEXT_DIM, (x, y), size // 2 + 1)
        if editing:
            canvas.record.regions[f"space:{k}"] = (x - size - 2, y - size - 2, 2 * size + 4, 2 * size + 4)


def _draw_side(canvas: Canvas, rect: pygame.Rect, state: WizardState, unit: float, typing: str | None) -> None:
    surface = canvas.surface
    canvas.record.regions["side"] = (rect.x, rect.y, rect.w, rect.h)
    pygame.draw.rect(surface, theme.PANEL, rect, border_radius=round(6 * unit))
    shown = prompt(state)
    pad = round(8 * unit)
    x, y = rect.x + pad, rect.y + pad
    width = rect.w - 2 * pad
    body, small = round(15 * unit), round(12 * unit)
    for line in _wrap(canvas, shown.doing, body, width, bold=True):
        y = canvas.text(line, (x, y), body, bold=True, role="doing").bottom + 2
    y += pad // 2
    if typing is not None:
        y = canvas.text(f"typing: {typing}▏", (x, y), body, colour=theme.ACCENT, role="typing", max_width=width).bottom
        y += pad // 2
    for detail in shown.lines[:12]:
        colour = theme.REFUSAL if detail.startswith("problem") else theme.TEXT_DIM
        for line in _wrap(canvas, detail, small, width):
            y = canvas.text(line, (x, y), small, colour=colour, role="detail").bottom + 1
    if shown.form:
        y += pad
        row = round(22 * unit)
        for label, value, focused in shown.form:
            box = pygame.Rect(x, y, width, row)
            if focused:
                pygame.draw.rect(surface, theme.PANEL_ACTIVE, box, border_radius=round(4 * unit))
                pygame.draw.rect(surface, theme.ACCENT, box, 2, border_radius=round(4 * unit))
            name = next((k for k, _ in (state.form.card.values if state.form else ()) if _label_of(state, k) == label),
                        label)  # fmt: skip
            canvas.record.regions[f"field:{name}"] = (box.x, box.y, box.w, box.h)
            canvas.text(label, (box.x + pad // 2, box.centery), small, colour=theme.TEXT_DIM, role="label",
                        anchor="midleft")  # fmt: skip
            canvas.text(value, (box.right - pad // 2, box.centery), body, role="value", anchor="midright",
                        bold=focused, max_width=width // 2)  # fmt: skip
            y = box.bottom + 2
    bottom = rect.bottom - pad
    canvas.text(shown.keys, (x, bottom), round(10 * unit), colour=theme.TEXT_FAINT, role="keys", anchor="bottomleft",
                max_width=width)  # fmt: skip
    if shown.message:
        lines = _wrap(canvas, shown.message, small, width)[:3]
        top = bottom - round(14 * unit) - len(lines) * round(small * 1.25)
        for line in lines:
            top = canvas.text(line, (x, top), small, colour=theme.ACCENT, role="message").bottom + 1


def _label_of(state: WizardState, name: str) -> str | None:
    from companion.games.digitise.profile import profile
    from companion.setup_box.machine import visible_fields

    if state.form is None:
        return None
    prof = profile(state.game)
    kind = prof.contracts if state.step is Step.CONTRACTS else prof.events
    return next((s.label for s in visible_fields(kind, state.form.card) if s.name == name), None)


def _wrap(canvas: Canvas, text: str, size: int, width: int, *, bold: bool = False) -> list[str]:
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}".strip()
        if current and canvas.measure(trial, size, bold=bold)[0] > width:
            lines.append(current)
            current = word
        else:
            current = trial
    return [*lines, current] if current else lines


def hit(record: FrameRecord, pos: tuple[int, int]) -> Intent | None:
    """The intent of a touch at ``pos`` on the frame ``record`` describes (None: nothing there)."""
    for name, (x, y, w, h) in record.regions.items():
        if x <= pos[0] < x + w and y <= pos[1] < y + h:
            if name.startswith("space:"):
                return SpaceTapped(int(name.split(":", 1)[1]))
            if name.startswith("field:"):
                return FieldTapped(name.split(":", 1)[1])
    city = record.city_at(pos)
    return CityTapped(city) if city is not None else None


def drag(record: FrameRecord, city: str, pos: tuple[int, int], unit: float | None = None) -> CityMoved:
    """A city dropped at ``pos``: its new place on the map (0..1), inverting ``_draw_map``'s frame."""
    x, y, w, h = record.regions["map"]
    scale = unit if unit is not None else max(1.0, record.size[1] / 480)
    inner = pygame.Rect(x, y, w, h).inflate(-round(40 * scale), -round(30 * scale))
    return CityMoved(city, (pos[0] - inner.x) / inner.w, (pos[1] - inner.y) / inner.h)
