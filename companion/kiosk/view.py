"""What the kiosk screen shows: a small, frozen view model the display renders (it never draws here).

While a game is played (``Screen.PLAYING``) the display renders the table as usual from
``Kiosk.controller`` (its ``ui`` and ``state``); ``table`` carries the same ``UiModel`` for
convenience. Every other screen is a title, a few lines, and optionally a list of options with one
selected (PLUS/MINUS move, OK picks, a touch on an option sends ``OptionTapped``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from companion.engine.stats import GameStats
from companion.table.ui import UiModel


class Screen(StrEnum):
    ATTRACT = "attract"  # idle: title, how to start, the leaderboard of the day
    RESUME_OFFER = "resume_offer"  # an unfinished game was found at start
    SETUP_GAME = "setup_game"  # new game: which game (skipped when the kiosk offers one)
    SETUP_PLAYERS = "setup_players"  # new game: how many players
    SETUP_COLOURS = "setup_colours"  # new game: the colour of each seat, in seat order
    SETUP_LENGTH = "setup_length"  # new game: full or short game (--end-at)
    SETUP_CONFIRM = "setup_confirm"  # new game: summary, OK starts
    PLAYING = "playing"  # the table controller has the intents
    RANKING = "ranking"  # the game is over: the ranking stays for a while
    PIN_ENTRY = "pin_entry"  # MENU long press: the admin PIN with PLUS/MINUS/OK
    ADMIN = "admin"  # the admin menu (admin card or PIN)
    ADMIN_CONFIRM = "admin_confirm"  # an admin action that cannot be taken back: OK / BACK
    HARDWARE_TEST = "hardware_test"  # every intent is echoed; LEDs run a test pattern
    SETUP_BOX = "setup_box"  # the set-up wizard digitises the owner's printed box (admin menu)


@dataclass(frozen=True, slots=True)
class ScreenTapped:
    """A touch or click on a screen where it means "go on" (the attract screen: a new game)."""


@dataclass(frozen=True, slots=True)
class AttractCard:
    """The attract screen's band under the replay: one call to play, the game shown and today's best
    of that game, the language key. Its place and size never change, only its words."""

    call: str  # "Tap the screen or press OK to play"
    game: str  # the title of the game the replay shows
    best: tuple[str, ...]  # today's best of that game, longest first: the screen shows the first that fits
    language: str  # "PLUS/MINUS: language — English"
    how_to: str = ""  # the how-to page, under the replay's caption (none while the rules are pictured)


@dataclass(frozen=True, slots=True)
class OptionTapped:
    """A touch on option ``index`` of the options shown (the display emits it): select and OK."""

    index: int


@dataclass(frozen=True, slots=True)
class KioskView:
    screen: Screen
    title: str
    lines: tuple[str, ...] = ()
    options: tuple[str, ...] = ()
    selected: int | None = None  # index into ``options``
    hint: str = ""  # what the buttons do now
    notice: str = ""  # a passing message: a refusal, a report (e.g. a journal that was moved aside)
    table: UiModel | None = None  # PLAYING: the table's UI model
    led_test: bool = False  # HARDWARE_TEST: the loop should run an LED test pattern
    stats: GameStats | None = None  # RANKING: the game in figures (balance chart, payouts)
    scene: Any = None  # ATTRACT: a ``companion.kiosk.attract.Scene`` of the sample game replayed behind
    attract: AttractCard | None = None  # ATTRACT: the band under the replay
    language: str = "en"  # the language the view's texts are in (pictures drawn here follow it)
    wizard: Any = None  # SETUP_BOX: the set-up wizard's state (``companion.games.digitise.model.WizardState``)
