"""The attract screen's live map: a sample game replayed on the board, one action at a time.

Markers move, money ticks in the panels and the LEDs on the real board follow the seat on turn and
the time track, calmly (one change per step, nothing flashes). The replay is a plain, unrecorded game
of the plug-in's own seeded playout (``plugin.sample_game``): it never touches the journal. When it
ends, the next replay starts with the next game the kiosk offers and the next seed.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from typing import Any

from companion import games
from companion.engine.game import Game
from companion.games.protocol import GamePlugin, GameScreen
from companion.games.setup import GameSetup
from companion.kiosk.texts import kiosk_texts
from companion.ledframe import LedFrame
from companion.table.ui import UiModel

log = logging.getLogger(__name__)

REPLAY_COMMANDS = 240  # a replay shows at most this many actions, then the next one starts
TUTORIAL_EVERY = 20  # after this many replayed actions, the rules in sixty seconds (the game's pictures)
PAGE_STEPS = 5  # each picture stays this many steps


@dataclass(frozen=True, eq=False)
class Scene:
    """One picture of the replay (compared by identity: a new scene means the screen must redraw)."""

    plugin: GamePlugin
    screen: GameScreen
    state: Any
    ui: UiModel
    leds: LedFrame
    tutorial: bool = False  # a rules-in-sixty-seconds picture: its caption is the point, keep the map free


class Replay:
    """``Replay(names)``: cycles through the games ``names``; ``step()`` shows the next action.
    ``language``: the kiosk's; the game's screen draws its words in it, and the line under the caption."""

    def __init__(self, names: tuple[str, ...], *, seed: int = 1, caption: str = "", language: str = "en") -> None:
        self.names = names
        self.seed = seed
        self.caption = caption
        self.language = language
        self._texts = kiosk_texts(language)
        self._round = -1
        self.scene: Scene | None = None
        self._pages: dict[str, list[Scene]] = {}  # per game: its tutorial pictures, made once
        self._tutorial: list[Scene] = []  # the pictures still to show, each PAGE_STEPS times
        self._since = 0  # replayed actions since the last tutorial
        self._start()

    def _start(self) -> None:
        self._round += 1
        name = self.names[self._round % len(self.names)]
        plugin = games.get(name)
        seed = self.seed + self._round
        colours = plugin.colours[: max(2, min(3, max(plugin.player_counts)))]
        setup = GameSetup(name, colours, seed=seed)
        self._game: Game[Any] | None = None
        self._commands: list[object] = []
        try:
            self._commands = plugin.sample_game(setup, seed, REPLAY_COMMANDS)
            self._game = plugin.new_game(setup)
        except Exception:  # a replay is decoration: a game whose data will not load is skipped
            log.exception("cannot replay %s", name)
        self._plugin = plugin
        self._screen = plugin.screen()
        self._index = 0
        self._show()

    def step(self) -> Scene | None:
        """The next action (or the next tutorial picture); at the end, the next replay."""
        if self._tutorial:
            self.scene = self._tutorial.pop(0)
            return self.scene
        if self._since >= TUTORIAL_EVERY:
            self._since = 0
            self._tutorial = [page for page in self._tutorial_pages() for _ in range(PAGE_STEPS)]
            if self._tutorial:
                return self.step()
        self._since += 1
        if self._game is None or self._index >= len(self._commands):
            self._start()
            return self.scene
        try:
            self._game.push(self._commands[self._index])
        except Exception:
            log.exception("the replay of %s stopped", self._plugin.name)
            self._index = len(self._commands)
            return self.scene
        self._index += 1
        self._show()
        return self.scene

    def _tutorial_pages(self) -> list[Scene]:
        name = self._plugin.name
        if name not in self._pages:
            try:
                made = self._plugin.tutorial(self.language)
            except Exception:  # decoration: a game whose pictures cannot be made shows none
                log.exception("no tutorial pictures for %s", name)
                made = []
            scenes = []
            for page in made:
                ui = replace(page.ui, prompt=page.caption, detail=self.caption, language=self.language)
                scenes.append(Scene(self._plugin, self._screen, page.state, ui, page.leds, tutorial=True))
            self._pages[name] = scenes
        return self._pages[name]

    def _show(self) -> None:
        if self._game is None:
            self.scene = None
            return
        state = self._game.state
        player = None if self._plugin.finished(state) else _current(state)
        seat = None if player is None else state.config.seat_of(player)
        round_ = self._plugin.progress(state).get("round")
        detail = self._texts.text("attract.sample_game", title=self._plugin.title)
        ui = UiModel(player=player, prompt=self.caption, detail=detail, language=self.language)
        leds = LedFrame(seat=seat, time=round_ % 15 if isinstance(round_, int) else None)
        self.scene = Scene(self._plugin, self._screen, state, ui, leds)


def _current(state: Any) -> str | None:
    current = getattr(state, "current", None)
    colour = getattr(current, "colour", current)
    return colour if isinstance(colour, str) else None
