"""Drawing, for every game: the theme, fonts, tokens, layout, LED rings, the prompt and ranking
areas, and the frame record tests read. A game's own screen (``companion/games/<game>/screen``) is
built from these; this package renders and nothing else (no controller, kiosk or journal here).

    screen = companion.games.get("on-the-way").screen()
    surface, record = render_to_surface(screen, state, ui, leds, (800, 480))
"""

from __future__ import annotations

from typing import Any, Protocol

import pygame

from companion.display.record import DrawnText, FrameRecord


class Screen(Protocol):
    def render(self, surface: pygame.Surface, state: Any, ui: Any, leds: Any, *, now: float = 0.0) -> FrameRecord: ...


def render_to_surface(
    screen: Screen, state: Any, ui: Any, leds: Any, size: tuple[int, int], *, now: float = 0.0
) -> tuple[pygame.Surface, FrameRecord]:
    """A new surface of ``size`` with ``screen`` drawn on it (headless-safe: no display needed)."""
    surface = pygame.Surface(size)
    return surface, screen.render(surface, state, ui, leds, now=now)


__all__ = ["DrawnText", "FrameRecord", "Screen", "render_to_surface"]
