"""Where each part of the screen goes, for any window from 800×480 up to 1920×1080 and beyond.

Everything scales with ``scale`` = min(width / 800, height / 480): the 7" touchscreen is the unit.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

BASE_W, BASE_H = 800, 480


@dataclass(frozen=True)
class Layout:
    size: tuple[int, int]
    scale: float
    top: pygame.Rect  # time track, event, strip
    map: pygame.Rect
    players: tuple[pygame.Rect, ...]  # one per seat
    feed: pygame.Rect  # the bank ledger
    prompt: pygame.Rect  # whose turn, prompt, detail, choices, refusal

    # font sizes in pixels
    @property
    def small(self) -> int:
        return max(10, round(11 * self.scale))

    @property
    def map_label(self) -> int:
        return max(10, round(10.5 * self.scale))

    @property
    def map_label_rooms(self) -> tuple[int, ...]:
        """The widest a city's name may be on the map, tried in turn until the names that must be
        shown all find a free place (longer names are abbreviated, display.names): at 800×480
        first 100 px, where "Mönchengladbach" takes 95, then less on a map crowded with long names."""
        return tuple(self.px(w) for w in (100, 88, 76, 66, 58))

    @property
    def body(self) -> int:
        return max(11, round(13 * self.scale))

    @property
    def large(self) -> int:
        return max(14, round(17 * self.scale))

    @property
    def pad(self) -> int:
        return max(3, round(5 * self.scale))

    def px(self, value: float) -> int:
        """A length given for 800×480, scaled to this window (at least 1 pixel)."""
        return max(1, round(value * self.scale))


def compute(size: tuple[int, int], players: int, *, top_bar: float = 40, map_share: float = 0.58) -> Layout:
    """``top_bar``: the top bar's height at 800×480 (Auf Achse puts the face-up contracts there);
    ``map_share``: the most of the width the map may take."""
    w, h = size
    scale = min(w / BASE_W, h / BASE_H)
    pad = max(3, round(5 * scale))
    top_h = round(top_bar * scale)
    prompt_h = round(86 * scale)
    mid_y = top_h
    mid_h = h - top_h - prompt_h
    if players > 4:  # three panels a row (Auf Achse, AA-1): the map gives up width, the feed height
        map_share = min(map_share, 0.46)
    map_w = min(round(mid_h * 1.3), round(w * map_share))
    top = pygame.Rect(0, 0, w, top_h)
    map_rect = pygame.Rect(0, mid_y, map_w, mid_h).inflate(-pad, -pad)
    side = pygame.Rect(map_w, mid_y, w - map_w, mid_h)
    players_h = round(mid_h * (0.58 if players <= 2 else 0.66 if players <= 4 else 0.85))
    panels: list[pygame.Rect] = []
    if players <= 2:
        each = players_h // max(1, players)
        for i in range(players):
            panels.append(pygame.Rect(side.x, side.y + i * each, side.w, each).inflate(-pad, -pad))
    else:  # 3-4 players: two by two; 5-6 (Auf Achse, AA-1): three by two
        cols = 2 if players <= 4 else 3
        rows = -(-players // cols)
        cw, rh = side.w // cols, players_h // rows
        for i in range(players):
            r, c = divmod(i, cols)
            panels.append(pygame.Rect(side.x + c * cw, side.y + r * rh, cw, rh).inflate(-pad, -pad))
    feed = pygame.Rect(side.x, side.y + players_h, side.w, mid_h - players_h).inflate(-pad, -pad)
    prompt = pygame.Rect(0, h - prompt_h, w, prompt_h).inflate(-pad, -pad)
    return Layout((w, h), scale, top, map_rect, tuple(panels), feed, prompt)
