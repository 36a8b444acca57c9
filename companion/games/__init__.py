"""The game registry: every game the platform knows, by name (style point 17).

>>> from companion import games
>>> games.names()
('on-the-way', 'auf-achse')
>>> games.get("auf-achse").title
'Auf Achse'

Built-in games are listed here by module; another package adds a game with an entry point in the
``companion.games`` group (``name = "package.module:PLUGIN"``), and a test or a script with
``register(plugin)``. Nothing else in the platform names a game.
"""

from __future__ import annotations

import importlib
import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.games.protocol import GamePlugin

log = logging.getLogger(__name__)

DEFAULT_GAME = "on-the-way"  # the flagship: what ``companion`` plays when no game is named
BUILT_IN = {
    "on-the-way": "companion.games.on_the_way.plugin",
    "auf-achse": "companion.games.auf_achse.plugin",
}
_registered: dict[str, GamePlugin] = {}
_loaded_entry_points = False


class UnknownGame(LookupError, ValueError):
    def __init__(self, name: str) -> None:
        super().__init__(f"unknown game {name!r}; known: {', '.join(names())}")
        self.name = name


def register(plugin: GamePlugin) -> GamePlugin:
    """Add (or replace) a game; returns it. Its ``name`` must be a non-empty lower-case id."""
    if not plugin.name or plugin.name != plugin.name.strip().lower():
        raise ValueError(f"a game's name must be a lower-case id, not {plugin.name!r}")
    _registered[plugin.name] = plugin
    return plugin


def unregister(name: str) -> None:
    _registered.pop(name, None)


def _load_entry_points() -> None:
    global _loaded_entry_points
    if _loaded_entry_points:
        return
    _loaded_entry_points = True
    from importlib.metadata import entry_points  # not at import time: it pulls in the email package

    for ep in entry_points(group="companion.games"):
        try:
            register(ep.load())
        except Exception:  # a broken add-on must not take the built-in games down
            log.exception("cannot load the game plug-in %s", ep.value)


def names() -> tuple[str, ...]:
    _load_entry_points()
    return (*BUILT_IN, *(n for n in _registered if n not in BUILT_IN))


def get(name: str) -> GamePlugin:
    """The game called ``name``; ``UnknownGame`` (a ValueError naming the known games) otherwise."""
    if name in _registered:
        return _registered[name]
    if name in BUILT_IN:
        plugin: GamePlugin = importlib.import_module(BUILT_IN[name]).PLUGIN
        return register(plugin)
    _load_entry_points()
    if name in _registered:
        return _registered[name]
    raise UnknownGame(name)


def all_games() -> tuple[GamePlugin, ...]:
    return tuple(get(n) for n in names())
