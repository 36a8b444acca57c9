"""The shipped DejaVu Sans, loaded once per pixel size (pygame's default font lacks ń, ș, Ž ...).

Every glyph string rendered through these fonts can be traced (:func:`traced`): the layout check
compares what was rendered with what the frame record holds, so no text reaches the screen without
its rectangle being known.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from importlib.resources import as_file, files
from pathlib import Path
from typing import Any

import pygame

_FONT_DIR = files("companion.data") / "fonts"
REGULAR = "DejaVuSans.ttf"
BOLD = "DejaVuSans-Bold.ttf"

_cache: dict[tuple[str, int], pygame.font.Font] = {}
_traces: list[list[tuple[str, int]]] = []


class _TracedFont(pygame.font.Font):
    """A font that notes each string it renders while a :func:`traced` block is open."""

    pixel_size = 0

    def render(self, text: Any, *args: Any, **kwargs: Any) -> pygame.Surface:
        for trace in _traces:
            trace.append((str(text), self.pixel_size))
        return super().render(text, *args, **kwargs)


@contextmanager
def traced() -> Iterator[list[tuple[str, int]]]:
    """Collect (text, pixel size) of every render through these fonts inside the block."""
    trace: list[tuple[str, int]] = []
    _traces.append(trace)
    try:
        yield trace
    finally:
        _traces.remove(trace)


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
        traced_font = _TracedFont(font_path(name), size)
        traced_font.pixel_size = size
        cached = _cache[key] = traced_font
    return cached
