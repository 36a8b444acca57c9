"""The shipped DejaVu Sans, loaded once per pixel size (pygame's default font lacks ń, ș, Ž ...)."""

from __future__ import annotations

from importlib.resources import as_file, files
from pathlib import Path

import pygame

_FONT_DIR = files("companion.data") / "fonts"
REGULAR = "DejaVuSans.ttf"
BOLD = "DejaVuSans-Bold.ttf"

_cache: dict[tuple[str, int], pygame.font.Font] = {}


def font_path(name: str = REGULAR) -> Path:
    with as_file(_FONT_DIR / name) as path:  # a real file inside an installed package
        return Path(path)


def font(size: int, *, bold: bool = False) -> pygame.font.Font:
    """A cached font of ``size`` pixels (at least 8)."""
    size = max(8, int(size))
    name = BOLD if bold else REGULAR
    key = (name, size)
    cached = _cache.get(key)
    if cached is None:
        if not pygame.font.get_init():
            pygame.font.init()
        cached = pygame.font.Font(font_path(name), size)
        _cache[key] = cached
    return cached
