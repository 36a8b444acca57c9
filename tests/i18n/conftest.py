"""Headless rendering for the language tests: every screenshot goes to tests/output/i18n/ (gitignored)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from tests.screenshots import save_png

OUTPUT = Path(__file__).resolve().parents[1] / "output" / "i18n"


@pytest.fixture(scope="session", autouse=True)
def _pygame() -> Iterator[None]:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    pygame.display.init()
    pygame.font.init()
    yield
    pygame.display.quit()


def save(surface: pygame.Surface, name: str) -> Path:
    OUTPUT.mkdir(parents=True, exist_ok=True)
    path = OUTPUT / f"{name}.png"
    save_png(surface, str(path))
    return path
