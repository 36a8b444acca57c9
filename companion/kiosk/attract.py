"""The attract screen's live map: sample games replayed on the board, one action at a time.

Markers move, money ticks in the panels and the LEDs on the real board follow the seat on turn and
the time track, calmly (one change per step, nothing flashes). Each replay is a plain, unrecorded
game of the plug-in's own seeded playout (``plugin.sample_game``): it never touches the journal.

The games the kiosk offers take turns: each visit shows ``VISIT_ACTIONS`` actions of its game, with
the rules in pictures (the game's ``tutorial``) once in the middle, then the next game's replay goes
on where it stopped (a passer-by sees a game under way, not an empty board); a replay that reaches
its end starts again with the next seed.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from typing import Any

from companion import games
from companion.engine.game import Game
from companion.games.protocol import GamePlugin, GameScreen
from companion.games.setup import GameSetup
from companion.kiosk.texts import kiosk_texts
from companion.ledframe import LedFrame
from companion.table.ui import UiModel

log = logging.getLogger(__name__)

REPLAY_COMMANDS = 240  # a replay shows at most this many actions, then the game starts again
VISIT_ACTIONS = 45  # actions of one game before the next game's turn (about a minute at 1.2 s a step)
TUTORIAL_EVERY = 20  # after this many actions of a visit, the rules in pictures (the game's own)
PAGE_STEPS = 5  # each picture stays this many steps


@dataclass(frozen=True, eq=False)
class Scene:
    """One picture of the replay (compared by identity: a new scene means the screen must redraw)."""

    plugin: GamePlugin
    screen: GameScreen
    state: Any
    ui: UiModel
    leds: LedFrame
    tutorial: bool = False  # a rules-in-pictures moment: its caption is the game's prompt


@dataclass
class _Reel:
    """One game's replay: its commands, the game so far, and which seed made it."""

    plugin: GamePlugin
    screen: GameScreen
    seed: int
    commands: list[object] = field(default_factory=list)
    game: Game[Any] | None = None
    index: int = 0


class Replay:
    """``Replay(names)``: the games ``names`` take turns; ``step()`` shows the next action.

    ``caption``: the game's prompt line under the replay (the kiosk passes its call to play);
    ``language``: the kiosk's, the game's screen draws its words in it.
    """

    def __init__(self, names: tuple[str, ...], *, seed: int = 1, caption: str = "", language: str = "en") -> None:
        self.names = names
        self.seed = seed
        self.caption = caption
        self.language = language
        self._texts = kiosk_texts(language)
        self._reels: dict[str, _Reel] = {}
        self._turn = -1  # which of ``names`` is shown
        self._done = 0  # actions shown in this visit
        self._pages: dict[tuple[str, str], list[Scene]] = {}  # per game and language: its pictures, made once
        self._tutorial: list[Scene] = []  # the pictures still to show, each PAGE_STEPS times
        self._shown_tutorial = False
        self.scene: Scene | None = None
        self.next_game()

    @property
    def plugin(self) -> GamePlugin:
        """The game being shown."""
        return self._reel.plugin

    def set_language(self, language: str, caption: str) -> None:
        """The kiosk's language changed: the next picture speaks it (the replay goes on, no restart)."""
        self.language, self.caption = language, caption
        self._texts = kiosk_texts(language)
        self._tutorial = []
        self._show()

    def step(self) -> Scene | None:
        """The next action (or the next picture of the rules); after a visit, the next game."""
        if self._tutorial:
            self.scene = self._tutorial.pop(0)
            return self.scene
        if self._done >= TUTORIAL_EVERY and not self._shown_tutorial:
            self._shown_tutorial = True
            self._tutorial = [page for page in self._tutorial_pages() for _ in range(PAGE_STEPS)]
            if self._tutorial:
                return self.step()
        if self._done >= VISIT_ACTIONS:
            self.next_game()
            return self.scene
        self._done += 1
        reel = self._reel
        if reel.game is None or reel.index >= len(reel.commands):
            self._restart(reel, reel.seed + len(self.names))
            self._show()
            return self.scene
        try:
            reel.game.push(reel.commands[reel.index])
        except Exception:
            log.exception("the replay of %s stopped", reel.plugin.name)
            reel.index = len(reel.commands)
            return self.scene
        reel.index += 1
        self._show()
        return self.scene

    # -- the games' turns ------------------------------------------------------------------------
    def next_game(self) -> None:
        """The next game's turn (a new visit: the rules in pictures come again)."""
        self._turn = (self._turn + 1) % len(self.names)
        self._done = 0
        self._shown_tutorial = False
        self._tutorial = []
        name = self.names[self._turn]
        if name not in self._reels:
            plugin = games.get(name)
            reel = _Reel(plugin, plugin.screen(), self.seed + self._turn)
            self._restart(reel, reel.seed)
            self._reels[name] = reel
        self._reel = self._reels[name]
        self._show()

    def _restart(self, reel: _Reel, seed: int) -> None:
        plugin = reel.plugin
        reel.seed, reel.index, reel.commands, reel.game = seed, 0, [], None
        colours = plugin.colours[: max(2, min(3, max(plugin.player_counts)))]
        setup = GameSetup(plugin.name, colours, seed=seed)
        try:
            reel.commands = plugin.sample_game(setup, seed, REPLAY_COMMANDS)
            reel.game = plugin.new_game(setup)
        except Exception:  # a replay is decoration: a game whose data will not load shows no map
            log.exception("cannot replay %s", plugin.name)

    def _tutorial_pages(self) -> list[Scene]:
        reel = self._reel
        key = (reel.plugin.name, self.language)
        if key not in self._pages:
            try:
                made = reel.plugin.tutorial(self.language)
            except Exception:  # decoration: a game whose pictures cannot be made shows none
                log.exception("no tutorial pictures for %s", reel.plugin.name)
                made = []
            detail = self._texts.text("attract.rules", title=reel.plugin.title)
            scenes = []
            for page in made:
                ui = replace(page.ui, prompt=page.caption, detail=detail, language=self.language)
                scenes.append(Scene(reel.plugin, reel.screen, page.state, ui, page.leds, tutorial=True))
            self._pages[key] = scenes
        return self._pages[key]

    def _show(self) -> None:
        reel = self._reel
        if reel.game is None:
            self.scene = None
            return
        state = reel.game.state
        player = None if reel.plugin.finished(state) else _current(state)
        seat = None if player is None else state.config.seat_of(player)
        round_ = reel.plugin.progress(state).get("round")
        caption = self.caption or self._texts.text("attract.sample_game", title=reel.plugin.title)
        ui = UiModel(player=player, prompt=caption, detail="", language=self.language)
        leds = LedFrame(seat=seat, time=round_ % 15 if isinstance(round_, int) else None)
        self.scene = Scene(reel.plugin, reel.screen, state, ui, leds)


def _current(state: Any) -> str | None:
    current = getattr(state, "current", None)
    colour = getattr(current, "colour", current)
    return colour if isinstance(colour, str) else None
