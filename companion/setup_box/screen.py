"""The wizard's screen: the map as it grows on the left, what to do and the card in hand on the right.

A pure function of the wizard state (and the clock, for blinking) to pixels plus a ``FrameRecord``
(style point 12): it renders headless (``SDL_VIDEODRIVER=dummy``), and ``hit`` turns a touch on the
recorded frame into the wizard's intents (a city, a field of the card, a space of the road), ``drag``
a city dragged on the map into ``CityMoved``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pygame

from companion.display import theme
from companion.display.labels import place_labels
from companion.display.record import Canvas, FrameRecord
from companion.games.digitise.model import CityMoved, FieldTapped, RoadEntry, SpaceTapped, Step, WizardState
from companion.intents import CityTapped
from companion.ledframe import CityLight
from companion.setup_box.layout import stress_layout
from companion.setup_box.view import Prompt, leds, prompt
from companion.setup_box.words import Words, words


@dataclass(frozen=True, slots=True)
class LeaveTapped:
    """The "Leave (kept)" button: the wizard's way out (its progress is saved after every intent)."""


Intent = CityTapped | FieldTapped | SpaceTapped | LeaveTapped


def map_positions(state: WizardState) -> dict[str, tuple[float, float]]:
    """The layout step's positions once there are any; before that, the map as traced so far."""
    known = {c: (x, y) for c, x, y in state.positions}
    if known and all(c in known for c in state.cities):
        return {c: known[c] for c in state.cities}
    return stress_layout(state.cities, [(r.a, r.b) for r in state.roads], iterations=60)  # remembered there


def render(
    surface: pygame.Surface,
    state: WizardState,
    *,
    now: float = 0.0,
    typing: str | None = None,
    language: str = "en",
    desk: bool = False,
) -> FrameRecord:
    """Draw ``state``; ``typing``: the text being typed (a name, a card's text), shown under the prompt;
    ``language``: the screen's; ``desk``: the words for a mouse and a keyboard (``view.prompt``)."""
    width, height = surface.get_size()
    record = FrameRecord((width, height))
    # The owner's names (cities, card ids): a line too narrow for one abbreviates it with meaning.
    names = dict.fromkeys((*state.candidates, *state.cities, *(c.id for c in state.cards if c.id)))
    canvas = Canvas(surface, record, names)
    surface.fill(theme.BACKGROUND)
    unit = max(1.0, height / 480)
    pad = round(8 * unit)
    shown = prompt(state, language, desk=desk)
    # The way out, always on the screen: a button at the top right (the progress is kept).
    small = round(12 * unit)
    label_w = canvas.measure(shown.leave, small, bold=True)[0]
    leave = pygame.Rect(0, pad, min(label_w + 2 * pad, width // 3), round(22 * unit))
    leave.right = width - pad
    pygame.draw.rect(surface, theme.PANEL_ACTIVE, leave, border_radius=round(5 * unit))
    pygame.draw.rect(surface, theme.TEXT_FAINT, leave, 1, border_radius=round(5 * unit))
    canvas.text(shown.leave, leave.center, small, bold=True, role="leave", anchor="center", max_width=leave.w - pad)
    record.regions["leave"] = (leave.x, leave.y, leave.w, leave.h)
    name_size = round(13 * unit)
    name = canvas.text(state.name, (leave.x - pad, leave.centery), name_size, colour=theme.TEXT_DIM, role="name",
                       anchor="midright", max_width=width // 4)  # fmt: skip
    room = name.x - 3 * pad
    size = round(20 * unit)  # a long title in smaller type before it is ever cut
    while size > round(14 * unit) and canvas.measure(shown.title, size, bold=True)[0] > room:
        size -= 1
    canvas.text(shown.title, (pad, pad + (round(20 * unit) - size) // 2), size, bold=True, role="title",
                max_width=room)  # fmt: skip
    top = pad * 2 + round(22 * unit)
    map_rect = pygame.Rect(pad, top, round(width * 0.58) - pad, height - top - pad)
    side = pygame.Rect(map_rect.right + pad, top, width - map_rect.right - 2 * pad, height - top - pad)
    _draw_map(canvas, map_rect, state, now, unit)
    _draw_side(canvas, side, shown, state, unit, typing, words(language, desk))
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
    ring = radius + round(4 * unit)  # a lit city's ring: its name is drawn beside it, not over it
    dots = []
    for city in state.cities:
        x, y = at(city)
        canvas.record.cities[city] = (x, y, radius)
        dots.append(pygame.Rect(x - ring, y - ring, 2 * ring, 2 * ring))
        light = frame.city(city)
        pygame.draw.circle(surface, theme.CITY, (x, y), radius)
        if light is not CityLight.OFF:
            canvas.record.rings[city] = light
            if _blink_on(light, now):
                pygame.draw.circle(surface, theme.LIGHT_COLOURS[light], (x, y), ring, max(2, round(2 * unit)))
    # The names that matter now are always drawn (the lit cities, the marker's, the road being
    # traced); the others where there is room: beside their city, never over another name or city.
    must = {c for c in state.cities if frame.city(c) is not CityLight.OFF} | set(state.flash)
    must |= {state.head} if state.head else set()
    must |= {last.a, last.b} if last is not None else set()
    pos = {city: at(city) for city in state.cities}
    size = round(11 * unit)
    rooms = tuple(round(w * unit) for w in (100, 88, 76, 66, 58))  # as the game screens' maps
    for city, place, width in place_labels(canvas, pos, size, rooms, must=must & set(pos), occupied=dots,
                                           bounds=rect, gap=ring + 1):  # fmt: skip
        canvas.text(city, place.topleft, size, colour=theme.TEXT if city in must else theme.TEXT_DIM, role="city",
                    max_width=width)  # fmt: skip
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


def _draw_side(canvas: Canvas, rect: pygame.Rect, shown: Prompt, state: WizardState, unit: float,
               typing: str | None, w: Words) -> None:  # fmt: skip
    """The panel beside the map: what to do, the details, the card form; at the bottom the wizard's
    last answer and the keys. The bottom is kept free first, so a long list never runs under it:
    what does not fit is counted ("… and 4 more")."""
    surface = canvas.surface
    canvas.record.regions["side"] = (rect.x, rect.y, rect.w, rect.h)
    pygame.draw.rect(surface, theme.PANEL, rect, border_radius=round(6 * unit))
    pad = round(8 * unit)
    x, y = rect.x + pad, rect.y + pad
    width = rect.w - 2 * pad
    body, small, tiny = round(15 * unit), round(12 * unit), round(10 * unit)
    # The bottom, from below: the keys, then the message (at most three lines).
    keys = _wrap(canvas, shown.keys, tiny, width)[:2]
    message = _wrap(canvas, shown.message, small, width)[:3] if shown.message else []
    line_small, line_tiny = round(small * 1.25), round(tiny * 1.25)
    floor = rect.bottom - pad - len(keys) * line_tiny - len(message) * line_small - (pad // 2 if message else 0)
    for line in _wrap(canvas, shown.doing, body, width, bold=True):
        if y + body > floor:
            break
        y = canvas.text(line, (x, y), body, bold=True, role="doing", max_width=width).bottom + 2
    y += pad // 2
    if typing is not None and y + body <= floor:
        y = canvas.text(w.text("typing", text=f"{typing}▏"), (x, y), body, colour=theme.ACCENT, role="typing",
                        max_width=width).bottom + pad // 2  # fmt: skip
    rows = round(22 * unit)
    form_h = (pad + len(shown.form) * (rows + 2)) if shown.form else 0
    more_lines = _wrap(canvas, shown.more, small, width) if shown.more else []
    # A line's step is its font's line box (what the canvas draws), measured, not guessed from the size:
    # a guess ran a long German list into the keys.
    step = max(small + 3, canvas.measure("Hgÿ", small)[1] + 1)
    more_h = len(more_lines) * step
    details = [
        (line, detail in shown.problems) for detail in shown.lines for line in _wrap(canvas, detail, small, width)
    ]
    room = max(0, (floor - form_h - more_h - y) // step)
    if len(details) > room:  # whole lines only: the rest is counted, never drawn over the bottom
        if not more_lines:
            room = max(0, room - 1)
            more_lines = [f"… +{len(details) - room}"]
        details = details[:room]
    for line, problem in details:  # each advances by the step ``room`` was counted with
        colour = theme.REFUSAL if problem else theme.TEXT_DIM
        y = max(y + step, canvas.text(line, (x, y), small, colour=colour, role="detail", max_width=width).bottom)
    for line in more_lines:
        y = max(y + step, canvas.text(line, (x, y), small, colour=theme.ACCENT, role="more", max_width=width).bottom)
    if shown.form:
        y += pad
        for label, value, focused in shown.form:
            box = pygame.Rect(x, y, width, rows)
            if box.bottom > floor:
                break
            if focused:
                pygame.draw.rect(surface, theme.PANEL_ACTIVE, box, border_radius=round(4 * unit))
                pygame.draw.rect(surface, theme.ACCENT, box, 2, border_radius=round(4 * unit))
            name = next((k for k, _ in (state.form.card.values if state.form else ())
                         if _label_of(state, k, w) == label), label)  # fmt: skip
            canvas.record.regions[f"field:{name}"] = (box.x, box.y, box.w, box.h)
            # The value (a road between two 200-character cities: abbreviated) takes what the label leaves.
            label_w = min(canvas.measure(label, small)[0], width // 2)
            value_room = max(width // 2, width - label_w - 2 * pad) - pad
            value_w = min(canvas.measure(canvas.fit(value, body, value_room, bold=focused), body, bold=focused)[0],
                          value_room)  # fmt: skip
            canvas.text(label, (box.x + pad // 2, box.centery), small, colour=theme.TEXT_DIM, role="label",
                        anchor="midleft", max_width=width - value_w - 2 * pad)  # fmt: skip
            canvas.text(value, (box.right - pad // 2, box.centery), body, role="value", anchor="midright",
                        bold=focused, max_width=value_room)  # fmt: skip
            y = box.bottom + 2
    bottom = rect.bottom - pad
    for line in reversed(keys):
        bottom = canvas.text(line, (x, bottom), tiny, colour=theme.TEXT_FAINT, role="keys", anchor="bottomleft",
                             max_width=width).top  # fmt: skip
    top = bottom - pad // 2 - len(message) * line_small
    for line in message:
        top = canvas.text(line, (x, top), small, colour=theme.ACCENT, role="message", max_width=width).bottom + 1


def _label_of(state: WizardState, name: str, w: Words) -> str | None:
    from companion.games.digitise.profile import profile
    from companion.setup_box.machine import visible_fields

    if state.form is None:
        return None
    prof = profile(state.game)
    kind = prof.contracts if state.step is Step.CONTRACTS else prof.events
    return next((w.field(s.name, s.label) for s in visible_fields(kind, state.form.card) if s.name == name), None)


def _wrap(canvas: Canvas, text: str, size: int, width: int, *, bold: bool = False) -> list[str]:
    """``text`` in lines of ``width``: broken at spaces, an amount kept whole, an owner's name too
    long for a line abbreviated with meaning (``Canvas.lines``)."""
    return canvas.lines(text, size, width, bold=bold)


def hit(record: FrameRecord, pos: tuple[int, int]) -> Intent | None:
    """The intent of a touch at ``pos`` on the frame ``record`` describes (None: nothing there)."""
    for name, (x, y, w, h) in record.regions.items():
        if x <= pos[0] < x + w and y <= pos[1] < y + h:
            if name.startswith("space:"):
                return SpaceTapped(int(name.split(":", 1)[1]))
            if name.startswith("field:"):
                return FieldTapped(name.split(":", 1)[1])
            if name == "leave":
                return LeaveTapped()
    city = record.city_at(pos)
    return CityTapped(city) if city is not None else None


def drag(record: FrameRecord, city: str, pos: tuple[int, int], unit: float | None = None) -> CityMoved:
    """A city dropped at ``pos``: its new place on the map (0..1), inverting ``_draw_map``'s frame."""
    x, y, w, h = record.regions["map"]
    scale = unit if unit is not None else max(1.0, record.size[1] / 480)
    inner = pygame.Rect(x, y, w, h).inflate(-round(40 * scale), -round(30 * scale))
    return CityMoved(city, (pos[0] - inner.x) / inner.w, (pos[1] - inner.y) / inner.h)
