"""Player tokens and swatches: colour + letter + pattern, so they read without colour vision."""

from __future__ import annotations

import pygame

from companion.display.record import Canvas
from companion.display.theme import BACKGROUND, PlayerStyle


def swatch(canvas: Canvas, rect: pygame.Rect, style: PlayerStyle) -> None:
    """A filled square in the player's colour, with the player's pattern and letter (a box of its own)."""
    surface = canvas.surface
    pygame.draw.rect(surface, style.colour, rect, border_radius=max(2, rect.w // 6))
    _pattern(surface, rect, style)
    with canvas.box(rect, "swatch"):
        size = max(10, round(rect.h * 0.62))
        canvas.text(style.letter, rect.center, size, colour=style.ink, bold=True, anchor="center", role="letter")
    pygame.draw.rect(surface, BACKGROUND, rect, width=1, border_radius=max(2, rect.w // 6))


def pill(canvas: Canvas, rect: pygame.Rect, style: PlayerStyle, label: str, size: int, *, role: str = "token") -> None:
    """A rounded token in the player's colour with a short label ("R1 ×2"): a transport on the map."""
    surface = canvas.surface
    pygame.draw.rect(surface, style.colour, rect, border_radius=rect.h // 2)
    pygame.draw.rect(surface, BACKGROUND, rect, width=max(1, rect.h // 10), border_radius=rect.h // 2)
    with canvas.box(rect, "pill"):
        canvas.text(label, rect.center, size, colour=style.ink, bold=True, anchor="center", role=role)


def _pattern(surface: pygame.Surface, rect: pygame.Rect, style: PlayerStyle) -> None:
    ink = tuple(max(0, c - 70) for c in style.colour)
    step = max(4, rect.w // 4)
    if style.pattern == "stripes":
        for off in range(-rect.h, rect.w, step):
            a = (rect.x + off, rect.bottom - 1)
            b = (rect.x + off + rect.h, rect.y)
            clipped = rect.clipline(a, b)
            if clipped:
                pygame.draw.line(surface, ink, *clipped, width=max(1, step // 4))
    elif style.pattern == "dots":
        for y in range(rect.y + step // 2, rect.bottom, step):
            for x in range(rect.x + step // 2, rect.right, step):
                pygame.draw.circle(surface, ink, (x, y), max(1, step // 6))
    elif style.pattern == "checks":
        for y in range(rect.y, rect.bottom, step):
            for x in range(rect.x, rect.right, step):
                if ((x - rect.x) // step + (y - rect.y) // step) % 2:
                    pygame.draw.rect(surface, ink, pygame.Rect(x, y, step, step).clip(rect))


def marker(canvas: Canvas, centre: tuple[int, int], radius: int, style: PlayerStyle, number: int) -> None:
    """A physical marker as the simulator draws it: a disc with the player's letter and number."""
    surface = canvas.surface
    label, size = f"{style.letter}{number}", max(10, round(radius * 0.9))
    radius = max(radius, canvas.measure(label, size, bold=True)[0] // 2 + 2)  # the label stays on the disc
    pygame.draw.circle(surface, (0, 0, 0), (centre[0] + 2, centre[1] + 2), radius)  # shadow
    pygame.draw.circle(surface, style.colour, centre, radius)
    pygame.draw.circle(surface, (250, 250, 250), centre, radius, max(1, radius // 8))
    disc = pygame.Rect(0, 0, 2 * radius, 2 * radius)
    disc.center = centre
    with canvas.box(disc, "marker"):
        canvas.text(label, centre, size, colour=style.ink, bold=True, anchor="center", role="marker")
