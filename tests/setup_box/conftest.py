"""Helpers: the reference files of a game, and the data of a set of files with the order taken out."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from companion.games.digitise.profile import profile

GAMES = ("on-the-way", "auf-achse")
DEFAULTS: dict[str, dict[str, Any]] = {"contracts": {"vp": 0}, "events": {}, "actions": {"text": ""}}


def reference(game: str) -> dict[str, Path]:
    return dict(profile(game).reference)


def _road(road: dict[str, Any]) -> tuple[Any, ...]:
    a, b = road["between"]
    spaces = road.get("spaces")
    triangles = list(road.get("triangles", []))
    if a > b:  # the same road traced the other way: its spaces are counted from the other end
        a, b = b, a
        triangles = [spaces + 1 - t for t in triangles] if spaces is not None else triangles
    return (a, b, spaces, tuple(sorted(triangles)), road.get("signs", True))


def normalised(files: dict[str, Path]) -> dict[str, Any]:
    """Board, contracts and events as comparable values, whatever the order of blocks and lists."""
    board = tomllib.loads(files["board"].read_text(encoding="utf-8"))
    out: dict[str, Any] = {
        "board": dict(board["board"]),
        "cities": sorted((c["name"], round(c["x"], 3), round(c["y"], 3)) for c in board["cities"]),
        "roads": sorted(_road(r) for r in board["roads"]),
        "setup": {k: sorted(v) for k, v in board.get("setup", {}).items()},
    }
    for role in ("contracts", "events"):
        data = tomllib.loads(files[role].read_text(encoding="utf-8"))
        for section, items in data.items():
            rows = []
            for item in items:
                row = {**DEFAULTS.get(section, {}), **item}
                rows.append(tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in row.items())))
            out[section] = sorted(rows)
    return out
