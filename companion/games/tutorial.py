"""The rules in sixty seconds, as pictures: moments of a sample game put on the game's own table
controller by the intents a table would sense, so the screen draws them as it would at the table
(the lit cities of a lifted marker, a card just scanned, the bank paying). Each game lists its
moments (``plugin.tutorial``); this module plays them."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.games.protocol import GamePlugin
from companion.games.setup import GameSetup
from companion.intents import Intent, TagPlaced
from companion.ledframe import LedFrame
from companion.table.tags import MarkerTag
from companion.table.ui import UiModel

log = logging.getLogger(__name__)


@dataclass(frozen=True, eq=False)
class TutorialPage:
    caption: str  # one sentence: what the picture shows
    state: Any
    ui: UiModel
    leds: LedFrame


@dataclass(frozen=True)
class Moment:
    """Replay the sample game up to the first command ``at`` accepts, then (``push``) apply it through
    the table, or (``intents``) send the table what its readers would sense; ``caption`` is a key of
    the game's catalogue."""

    caption: str
    at: Callable[[Any, object], bool]  # (state before, command) -> this is the moment
    push: bool = False
    intents: Callable[[Any, Any, object], list[Intent]] | None = None  # (state, tags, command) -> intents


def pages(plugin: GamePlugin, moments: tuple[Moment, ...], setup: GameSetup, seed: int,
          language: str) -> list[TutorialPage]:  # fmt: skip
    """The pictures of ``moments`` (a moment the sample game never reaches is left out)."""
    from companion.table.messages import Catalogue

    texts = Catalogue(language, getattr(plugin, "package", None))
    commands = plugin.sample_game(setup, seed, 600)
    out: list[TutorialPage] = []
    for moment in moments:
        try:
            page = _page(plugin, moment, setup, commands, language)
        except Exception:  # a picture is decoration: one that cannot be drawn is left out
            log.exception("the tutorial picture %s of %s cannot be drawn", moment.caption, plugin.name)
            continue
        if page is not None:
            state, ui, leds = page
            out.append(TutorialPage(texts.text(moment.caption), state, ui, leds))
    return out


def _page(plugin: GamePlugin, moment: Moment, setup: GameSetup, commands: list[object],
          language: str) -> tuple[Any, UiModel, LedFrame] | None:  # fmt: skip
    game = plugin.new_game(setup)
    for command in commands:
        if moment.at(game.state, command):
            break
        game.push(command)
    else:
        return None
    tags = plugin.simulator(game, None).tags
    table = plugin.table(game, tags, language=language)
    now = 0.0
    for colour, number, city in _pieces(game.state):  # the table matches the engine, as at a real table
        uid = tags.uid_of(MarkerTag(colour, number))
        if uid is not None:
            table.handle(TagPlaced(city, uid), now)
    now += 1.0
    table.tick(now)
    if moment.push:
        table._push(command)  # as the table pushes it after a settled placement or a scan
        table._refresh()
    for intent in moment.intents(game.state, tags, command) if moment.intents else ():
        now += 0.1
        table.handle(intent, now)
    return table.state, table.ui, table.led_frame


def _pieces(state: Any) -> list[tuple[str, int, str]]:
    """Each tagged piece standing in a city: On The Way transports, Auf Achse trucks in a city."""
    out: list[tuple[str, int, str]] = []
    for p in state.players:
        for t in getattr(p, "transports", ()):
            out.append((p.colour, t.marker, t.city))
        space = getattr(p, "space", None)
        if space is not None and state.board.is_city(space):
            out.append((p.colour, 1, space))
    return out
