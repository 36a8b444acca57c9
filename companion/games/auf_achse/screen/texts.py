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


def ordinal(language: str, n: int) -> str:
    """1st, 2nd, 3rd, 11th (English); 1., 2. (Czech, German, Polish write the ordinal with a dot)."""
    if language != "en":
        return f"{n}."
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def space_name(
    t: Catalogue, space: str | None, places: frozenset[str] | set[str] = frozenset(), *, short: bool = False
) -> str:
    """A space as a person names it: a city by its name, a road space as "the 1st space from Hamburg
    towards Flensburg" (its id ``Hamburg-Flensburg#1`` counts from the first city, board.py).
    ``places``: the board's city and junction names, to split a road id whose names hold a hyphen;
    ``short``: "1st Hamburg→Flensburg", for a narrow panel."""
    if space is None:
        return "—"
    road, hash_, number = space.rpartition("#")
    if not hash_ or not number.isdigit():
        return space  # a city or a junction: its own name
    splits = [i for i, ch in enumerate(road) if ch == "-"]
    known = [i for i in splits if road[:i] in places and road[i + 1 :] in places]
    if not (known or splits):
        return space
    cut = (known or splits)[0]
    key = "screen.space_short" if short else "screen.space"
    return t.text(key, nth=ordinal(t.language, int(number)), start=road[:cut], towards=road[cut + 1 :])
