"""Board spaces as a person names them, in the table's language: a city by its name, a plain space
on a road as "the 1st space from Hamburg towards Flensburg" (never its id, ``Hamburg-Flensburg#1``:
a road space's id is its road's two ends and its number counted from the first, as a board's roads
are written in its data file). The template is the game catalogue's ``screen.space``."""

from __future__ import annotations

from typing import Any

from companion.table.messages import Catalogue


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
    ``short``: "Hamburg→Flensburg (1st)", for a narrow panel."""
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
    n = int(number)
    return t.text(key, nth=ordinal(t.language, n), n=n, start=road[:cut], towards=road[cut + 1 :])


def places(board: Any) -> frozenset[str]:
    """The board's cities and junctions: the names a road space's id is made of."""
    return frozenset(s.id for s in board.spaces if "#" not in s.id)


def named(t: Catalogue, state: Any, space: str | None) -> str:
    """``space`` of the game in ``state`` as a person names it (:func:`space_name`)."""
    return space_name(t, space, places(state.board))
