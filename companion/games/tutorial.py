"""The rules in sixty seconds, as pictures: moments of a sample game put on the game's own table
controller by the intents a table would sense, so the screen draws them as it would at the table
(the lit cities of a lifted marker, a card just scanned, the bank paying). Each game lists its
moments (``plugin.tutorial``); this module plays them."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.engine.game import Game
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
    """The pictures of ``moments``, in the order the sample game reaches them (one playthrough; a
    moment the sample game never reaches is left out)."""
    from companion.table.messages import Catalogue

    texts = Catalogue(language, getattr(plugin, "package", None))
    commands = plugin.sample_game(setup, seed, 600)
    game = plugin.new_game(setup)
    props = plugin.simulator(game, None)  # the simulated pieces and cards: their tags, their readers
    waiting = list(moments)
    found: dict[int, TutorialPage] = {}  # moment's index -> its picture
    for command in commands:
        for moment in [m for m in waiting if m.at(game.state, command)]:
            waiting.remove(moment)
            try:
                state, ui, leds = _picture(plugin, props, moment, game, command, language)
            except Exception:  # a picture is decoration: one that cannot be drawn is left out
                log.exception("the tutorial picture %s of %s cannot be drawn", moment.caption, plugin.name)
                continue
            found[moments.index(moment)] = TutorialPage(texts.text(moment.caption), state, ui, leds)
        if not waiting:
            break
        game.push(command)
    return [found[i] for i in sorted(found)]


def _picture(plugin: GamePlugin, props: Any, moment: Moment, game: Game[Any], command: object,
             language: str) -> tuple[Any, UiModel, LedFrame]:  # fmt: skip
    """The game's position now on its own table (a copy: the sample game goes on): its pieces where
    the engine has them, as a matching table senses them, then the moment's command or intents."""
    state = game.state
    here = Game(state, game._reducer, game._undo_types, game._on_undo)
    table = plugin.table(here, props.tags, language=language)
    now = 0.0
    readers = set(props.reader_cities)
    for uid, tag in props.tags.tags.items():
        if isinstance(tag, MarkerTag):
            city = props.engine_place(state, tag)
            if city is not None and city in readers:
                table.handle(TagPlaced(city, uid), now)
    now += 1.0
    table.tick(now)
    if moment.push:
        table._push(command)  # as the table pushes it after a settled placement or a scan
        table._refresh()
    for intent in moment.intents(state, props.tags, command) if moment.intents else ():
        now += 0.1
        table.handle(intent, now)
    return table.state, table.ui, table.led_frame
