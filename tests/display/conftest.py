"""Headless display fixtures: PNGs of every test go to tests/output/ (gitignored) for a human to look at."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from tests.screenshots import save_png

OUTPUT = Path(__file__).resolve().parents[1] / "output"
SIZES = [(800, 480), (1920, 1080)]


@pytest.fixture(scope="session", autouse=True)
def _pygame() -> object:
    pygame.display.init()
    pygame.font.init()
    yield
    pygame.display.quit()


def save(surface: pygame.Surface, name: str) -> Path:
    OUTPUT.mkdir(parents=True, exist_ok=True)
    path = OUTPUT / f"{name}.png"
    save_png(surface, str(path))
    return path
