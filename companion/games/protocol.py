"""What a game is, to the platform: one object per game behind one small protocol (style point 17).

Like a boardgame.io game definition, a ``GamePlugin`` is one value that says everything the platform
(``companion play``, the journal, the kiosk, the simulator, ``board check``, the leaderboard) needs:
its name and title, its data files, how a set-up becomes a ``Game``, the JSON codec, progress and
result, the table controller, the screen, the simulator's props and the message catalogue. The
platform asks the registry (``companion.games.get(name)``) and never branches on a game's name.

Everything heavy (pygame, the table) is imported inside the methods, so asking a plugin for its
title or its codec costs nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from companion.engine.game import Game
from companion.games.setup import GameSetup

History = tuple[Any, Sequence[object]]  # a game's first state and the commands applied since (undone ones left out)


@dataclass(frozen=True, slots=True)
class DataRole:
    """One data file a game reads: ``board``, ``contracts`` or ``events`` (the ``GameSetup`` field and
    the ``companion play`` flag), what it holds in this game, and the reference file shipped."""

    field: str
    label: str
    reference: Path


@dataclass(frozen=True, slots=True)
class CheckReport:
    """``board check``: the problems (``file:line: field: message`` each) and a one-line summary."""

    problems: tuple[str, ...]
    summary: str


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of a ranking, for every game: the place (ties share it), the seat, the score that
    ranks (On The Way: victory points; Auf Achse: money less debts) and the money held."""

    place: int
    colour: str
    score: int
    money: int
    extra: tuple[tuple[str, int], ...] = ()  # game-specific figures: ("vp", 3), ("debt", 0), ...

    def to_json(self) -> dict[str, object]:
        return {"place": self.place, "colour": self.colour, "score": self.score, "money": self.money,
                **dict(self.extra)}  # fmt: skip


class GameScreen(Protocol):
    """The game's screen: a pure function of (engine state, UI model, LED frame) -> pixels + record."""

    def render(self, surface: Any, state: Any, ui: Any, leds: Any, *, now: float = 0.0) -> Any: ...

    def needs_animation(self, state: Any, ui: Any, leds: Any) -> bool: ...


class SimProps(Protocol):
    """The simulator's things around the board for one game: the physical table (pieces, piles),
    the tray under the screen, and where each piece stands for the engine."""

    title: str
    tags: Any  # the TagDirectory of the simulated pieces and cards
    reader_cities: tuple[str, ...]  # the places with a reader under them

    # The physical table: markers, piles. Its ``sync(state, ui) -> list[Intent]`` follows the game after
    # every change: what the people's hands do by themselves (refill a pile, scan the laid-out cards).
    def deal(self, seed: int | None) -> Any: ...

    def compute_tray(self, rect: Any) -> Any: ...

    def tray_target(self, pos: tuple[int, int], tray: Any, table: Any, state: Any) -> str | None: ...

    def draw_tray(self, canvas: Any, tray: Any, table: Any, state: Any, ui: Any, *, pressed: Any,
                  dragging: Any) -> None: ...  # fmt: skip

    def engine_place(self, state: Any, marker: Any) -> str | None: ...


@runtime_checkable
class GamePlugin(Protocol):
    name: str  # the stable id: ``--game NAME``, the journal's ``game`` column
    title: str  # how people call it
    currency: str  # "R", "DM"
    colours: tuple[str, ...]  # the seat colours in the box
    player_counts: tuple[int, ...]
    lengths: tuple[int | None, ...]  # full game (None) and short games (an end position), as offered at set-up
    score_label: str  # what the leaderboard's score is ("VP", "DM")
    data_roles: tuple[DataRole, ...]

    # -- data -------------------------------------------------------------------------------
    def check_files(self, paths: Sequence[Path]) -> CheckReport: ...

    def neighbours(self, setup: GameSetup | None = None) -> dict[str, frozenset[str]]:
        """Each city with a reader under it and the cities next to it on the board (None: the reference
        board): the readers that must never have their antennas on together (RF-safe scanning)."""
        ...

    def card_ids(self, setup: GameSetup | None = None) -> tuple[str, ...]:
        """Every card of the set-up's decks (None: the reference decks): what a card tag may stand for."""
        ...

    # -- a game from a set-up ---------------------------------------------------------------
    def new_game(self, setup: GameSetup) -> Game[Any]:
        """Raises ``DataError`` (file/line/field) or ``ValueError`` (seats, house rules)."""
        ...

    def sample_game(self, setup: GameSetup, seed: int, max_commands: int = 400) -> list[object]:
        """A seeded playout of legal commands from the set-up (until the game ends or ``max_commands``):
        for tests, benchmarks and the kiosk's attract-screen replay. Deterministic given the seed."""
        ...

    # -- the JSON codec (``companion play``, the journal, export) ---------------------------
    def command_from_json(self, data: object) -> object: ...

    def command_to_json(self, command: object) -> dict[str, object]: ...

    def event_to_json(self, event: object) -> dict[str, object]: ...

    def state_to_json(self, state: Any) -> dict[str, object]: ...

    def view_for(self, state: Any, player: str | None) -> dict[str, object]:
        """What ``player`` may see (None: the shared screen); secrets stay hidden (style point 7)."""
        ...

    def legal(self, state: Any, player: str | None) -> dict[str, object]:
        """A read-only query: what ``player`` (default: whoever must act) may do now."""
        ...

    # -- bots and advice ------------------------------------------------------------------------
    bot_levels: tuple[str, ...]  # the levels a bot seat can play at ("easy", "medium", "hard"); () : none

    def bot_command(self, state: Any, colour: str, level: str, seed: int, *, seen: Sequence[Any] = ()) -> object | None:
        """The command the bot in seat ``colour`` plays now (None: it is not the bot's to act).
        ``seen``: the states this seat was asked in before and answered, oldest first (the bot's memory
        of the game, as a person's: a searching bot uses it not to go round in circles within a turn).
        Deterministic given the seed and ``seen``; raises ``GameError`` if the game has no bots."""
        ...

    def advise(
        self,
        state: Any,
        player: str | None,
        *,
        budget_s: float,
        seed: int,
        history: History | None = None,
        opponents: Mapping[str, str] | None = None,
    ) -> list[dict[str, object]]:
        """Read-only: the best actions for ``player`` (None: the player to move) now, best first, each
        with its estimated win chance, an interval and a sentence; raises ``IllegalAction`` (with the
        rule) when he has none. ``history`` (the game's first state and the commands applied since)
        lets the advisor avoid sending the player round in circles within a turn. ``opponents`` (colour
        -> bot level of the seats the box plays; the others are people) sets the advice's ``chance``
        against them, where the game's advisor has one; it never changes the advice."""
        ...

    # -- progress and result ------------------------------------------------------------------
    def progress(self, state: Any) -> dict[str, object]: ...

    def finished(self, state: Any) -> bool: ...

    def result(self, state: Any) -> list[dict[str, object]] | None:
        """The final standings as JSON once the game is over (what the journal records), else None."""
        ...

    def standings(self, state: Any) -> tuple[Standing, ...]:
        """The ranking now (the final one once the game is over)."""
        ...

    def money(self, amount: int, *, signed: bool = False) -> str: ...

    # -- the table, the screen, the simulator, the texts --------------------------------------
    def table(self, game: Game[Any], tags: Any, **options: Any) -> Any:
        """The game's table controller (a ``companion.table.base.GameTable``) over ``game``."""
        ...

    def screen(self) -> GameScreen: ...

    def simulator(self, game: Game[Any], seed: int | None) -> SimProps: ...

    def tutorial(self, language: str) -> list[Any]:
        """The rules in sixty seconds as pictures (``companion.games.tutorial.TutorialPage``): moments
        of a sample game drawn by the game's own table and screen; [] if the game has none."""
        ...

    def setup_profile(self) -> Any:
        """What the set-up wizard needs to digitise a printed box (a ``companion.games.digitise``
        ``GameProfile``); a game without one cannot be digitised with the wizard."""
        ...

    def messages(self, language: str) -> dict[str, dict[str, str]]:
        """The game's own message tables in ``language`` (merged over the platform's catalogue)."""
        ...


Factory = Callable[[], GamePlugin]
