"""The words Auf Achse's screen draws, in the table's language (``UiModel.language``): this game's
catalogue over the platform's (``screen.*`` keys; players' names and colours from the platform)."""

from __future__ import annotations

from functools import cache

from companion.table.messages import Catalogue

GAME = "companion.games.auf_achse"


@cache
def texts(language: str) -> Catalogue:
    """One catalogue per language, built once."""
    return Catalogue(language, GAME)
