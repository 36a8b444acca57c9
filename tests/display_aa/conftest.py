"""Headless display fixtures for Auf Achse: the same as tests/display (PNGs go to tests/output/)."""

from tests.display.conftest import OUTPUT, SIZES, _pygame, save

__all__ = ["OUTPUT", "SIZES", "_pygame", "save"]
