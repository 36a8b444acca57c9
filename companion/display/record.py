"""What a frame drew, for tests and for the simulator's hit-testing: texts, city rings, tokens.

Every text goes through :class:`Canvas`, which blits it and records its string, rectangle and role,
so a test can ask "is the refusal with OTW-18 on screen, and where?" without OCR.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pygame

from companion.display import fonts
from companion.display.theme import RGB, TEXT
from companion.ledframe import CityLight

Rect = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class DrawnText:
    text: str
    rect: Rect  # x, y, w, h on the surface
    role: str  # "city", "prompt", "refusal", "money", "ledger", "ranking", ...


@dataclass
class FrameRecord:
    size: tuple[int, int]
    texts: list[DrawnText] = field(default_factory=list)
    cities: dict[str, tuple[int, int, int]] = field(default_factory=dict)  # name -> (x, y, radius)
    rings: dict[str, CityLight] = field(default_factory=dict)  # the lights drawn (mirrors the LEDs)
    transports: dict[tuple[str, int], Rect] = field(default_factory=dict)  # (colour, marker) -> token rect
    regions: dict[str, Rect] = field(default_factory=dict)  # "map", "players", "feed", "prompt", ...
    clipped: list[str] = field(default_factory=list)  # texts that had to be shortened to fit

    def find(self, needle: str, role: str | None = None) -> list[DrawnText]:
        return [t for t in self.texts if needle in t.text and (role is None or t.role == role)]

    def has(self, needle: str, role: str | None = None) -> bool:
        return bool(self.find(needle, role))

    def roles(self, role: str) -> list[str]:
        return [t.text for t in self.texts if t.role == role]

    def city_at(self, pos: tuple[int, int], slack: int = 6) -> str | None:
        best: tuple[float, str] | None = None
        for name, (x, y, r) in self.cities.items():
            d2 = (pos[0] - x) ** 2 + (pos[1] - y) ** 2
            if d2 <= (r + slack) ** 2 and (best is None or d2 < best[0]):
                best = (d2, name)
        return None if best is None else best[1]


class Canvas:
    """A surface plus the record of what was drawn on it."""

    def __init__(self, surface: pygame.Surface, record: FrameRecord) -> None:
        self.surface = surface
        self.record = record

    def text(
        self,
        text: str,
        pos: tuple[int, int],
        size: int,
        *,
        colour: RGB = TEXT,
        role: str = "text",
        bold: bool = False,
        anchor: str = "topleft",
        max_width: int | None = None,
        background: RGB | None = None,
    ) -> pygame.Rect:
        """Draw one line; shortened with an ellipsis if wider than ``max_width``."""
        font = fonts.font(size, bold=bold)
        if max_width is not None and font.size(text)[0] > max_width:
            self.record.clipped.append(text)
            text = ellipsize(font, text, max_width)
        image = font.render(text, True, colour, background)
        rect = image.get_rect(**{anchor: pos})
        self.surface.blit(image, rect)
        self.record.texts.append(DrawnText(text, (rect.x, rect.y, rect.w, rect.h), role))
        return rect

    def measure(self, text: str, size: int, *, bold: bool = False) -> tuple[int, int]:
        return fonts.font(size, bold=bold).size(text)


def ellipsize(font: pygame.font.Font, text: str, width: int) -> str:
    if font.size(text)[0] <= width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if font.size(text[:mid] + "…")[0] <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "…"
