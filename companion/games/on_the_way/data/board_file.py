"""Reading and checking a board file: ``[board]``, ``[[cities]]``, ``[[roads]]``, ``[setup]``."""

from __future__ import annotations

from typing import Any

from companion.data.fields import array_readers, table_reader
from companion.data.problems import Problem
from companion.data.source import SourceFile
from companion.games.on_the_way.engine.board import Board, City, Road

# OTW-8: how many start cities each player count has; each list extends the previous one.
SETUP_SIZES: dict[int, int] = {2: 6, 3: 8, 4: 10}
SETUP_KEYS: dict[int, str] = {players: f"players_{players}" for players in SETUP_SIZES}
BOARD_SECTIONS = ("board", "cities", "roads", "setup")
GAME = "on-the-way"  # the [board] game key of an On The Way board


def parse_board(source: SourceFile) -> tuple[Board, list[Problem]]:
    """The board in ``source`` and the problems found in it.

    The board is built from the valid parts even when there are problems (cities that are fine,
    roads between known cities), so that decks can still be checked against it.
    """
    problems: list[Problem] = []
    data = source.data or {}
    header = table_reader(source, problems, data, "board")
    name = game = "?"
    if isinstance(data.get("board"), dict):
        name = header.string("name") or name
        game = header.string("game") or game
        if game not in ("?", GAME):
            header.problem("game", f"this is a board of {game!r}, not {GAME}")
        header.unknown_keys(("name", "game"))

    cities = _cities(source, problems, data)
    known = {c.name for c in cities}
    roads = _roads(source, problems, data, known)
    setup = _setup(source, problems, data, known)
    board = Board(name=name, game=game, cities=tuple(cities), roads=tuple(roads), setup=setup)
    if cities and not board.is_connected():
        reached = board.distances_from(cities[0].name)
        cut_off = [c.name for c in cities if c.name not in reached]
        shown = ", ".join(cut_off[:8]) + (", ..." if len(cut_off) > 8 else "")
        line = source.locate("roads") if "roads" in data else source.locate("board")
        problems.append(
            Problem(
                source.label,
                line,
                "roads",
                f"the map is not connected: {len(cut_off)} cities cannot be reached from {cities[0].name} ({shown})",
            )
        )
    return board, problems


def _cities(source: SourceFile, problems: list[Problem], data: dict[str, Any]) -> list[City]:
    cities: list[City] = []
    seen: set[str] = set()
    for reader in array_readers(source, problems, data, "cities"):
        name = reader.city("name")
        x = reader.fraction("x")
        y = reader.fraction("y")
        reader.unknown_keys(("name", "x", "y"))
        if name is None:
            continue
        if name in seen:
            reader.problem("name", f"duplicate city {name!r}")
            continue
        seen.add(name)
        cities.append(City(name, x if x is not None else 0.0, y if y is not None else 0.0))
    return cities


def _roads(source: SourceFile, problems: list[Problem], data: dict[str, Any], known: set[str]) -> list[Road]:
    roads: list[Road] = []
    seen: set[frozenset[str]] = set()
    for reader in array_readers(source, problems, data, "roads"):
        ends = reader.city_list("between", length=2)
        reader.unknown_keys(("between",))
        if ends is None:
            continue
        a, b = ends
        unknown = [end for end in ends if end not in known]
        for end in unknown:
            reader.problem("between", f"unknown city {end!r}", needle=end)
        if unknown:
            continue
        if a == b:
            reader.problem("between", f"a road must join two different cities, not {a!r} to itself")
            continue
        if frozenset(ends) in seen:
            reader.problem("between", f"duplicate road {a}–{b}")
            continue
        seen.add(frozenset(ends))
        roads.append(Road(a, b))
    return roads


def _setup(
    source: SourceFile, problems: list[Problem], data: dict[str, Any], known: set[str]
) -> dict[int, tuple[str, ...]]:
    """OTW-8: the start cities per player count; 6, 8 and 10 cities, each list a superset of the last."""
    reader = table_reader(source, problems, data, "setup")
    reader.unknown_keys(tuple(SETUP_KEYS.values()))
    setup: dict[int, tuple[str, ...]] = {}
    previous: tuple[int, list[str]] | None = None
    for players, key in SETUP_KEYS.items():
        if not reader.values and "setup" not in data:
            break  # already reported as a missing table
        cities = reader.city_list(key)
        if cities is None:
            previous = None
            continue
        size = SETUP_SIZES[players]
        ok = True
        if len(cities) != size:
            reader.problem(key, f"{players} players start on {size} cities (OTW-8), not {len(cities)}")
            ok = False
        for city in sorted({c for c in cities if cities.count(c) > 1}):
            reader.problem(key, f"{city!r} is listed twice", needle=city)
            ok = False
        for city in cities:
            if city not in known:
                reader.problem(key, f"unknown city {city!r}", needle=city)
                ok = False
        if previous is not None:
            missing = [c for c in previous[1] if c not in cities]
            if missing:
                earlier = f"players_{previous[0]}"
                listed = ", ".join(missing)
                reader.problem(key, f"must include every city of {earlier} (OTW-8); missing: {listed}")
                ok = False
        previous = (players, cities)
        if ok:
            setup[players] = tuple(cities)
    return setup
