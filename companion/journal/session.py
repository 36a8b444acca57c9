"""A game that is journaled: every accepted command is committed before anyone sees it accepted.

``JournaledGame`` is a ``Game`` of any game: pass it to the game's table (``plugin.table(game, tags)``)
and the controller's own ``push`` becomes "validate, apply, commit". A refused command never reaches
the journal; a command the journal cannot commit is taken back in memory (the state is exactly as before, no undo entry)
and raised as ``JournalRefused`` — an ``IllegalAction`` with rule ``"journal"`` — so the controller
shows a refusal instead of acknowledging it on the LEDs and the screen.

>>> store = JournalStore.open(path)                                  # doctest: +SKIP
>>> game = JournaledGame.start(store, GameSetup("on-the-way", ("red", "blue")))  # doctest: +SKIP
>>> game.push(TakeContract("red", "B01"))   # committed when this returns  # doctest: +SKIP
>>> JournaledGame.resume(store, store.unfinished()).state == game.state      # doctest: +SKIP
True
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from companion import games
from companion.engine.errors import GameError, IllegalAction
from companion.engine.game import Game
from companion.games.protocol import GamePlugin
from companion.games.setup import GameSetup
from companion.journal.store import (
    BROKEN,
    ENDED,
    FINISHED,
    PLAYING,
    GameRecord,
    JournalCorrupt,
    JournalError,
    JournalStore,
    JournalUnavailable,
)

log = logging.getLogger(__name__)


class JournalRefused(IllegalAction):
    """The command was valid but could not be recorded; the game is unchanged."""

    def __init__(self, message: str) -> None:
        super().__init__("journal", message)


class ResumeError(JournalError, ValueError):
    """A recorded game does not replay (data files changed or missing, a bad record)."""


class JournaledGame(Game[Any]):
    def __init__(
        self, plain: Game[Any], store: JournalStore, game_id: int, plugin: GamePlugin, setup: GameSetup
    ) -> None:
        # Take the reducer and undo wiring from the freshly set-up game.
        super().__init__(plain.initial, plain._reducer, plain._undo_types, plain._on_undo)
        self.store = store
        self.game_id = game_id
        self.plugin = plugin
        self.setup = setup
        self._journaling = True
        self._finished = False

    # -- making one ---------------------------------------------------------------------------
    @classmethod
    def start(cls, store: JournalStore, setup: GameSetup) -> JournaledGame:
        """A new game: checks the set-up (data files load, seats valid) before recording it."""
        plugin = games.get(setup.game)
        plain = plugin.new_game(setup)  # raises DataError / ValueError on a bad set-up: nothing recorded
        game_id = store.create_game(setup)
        return cls(plain, store, game_id, plugin, setup)

    @classmethod
    def resume(cls, store: JournalStore, record: GameRecord | int) -> JournaledGame:
        """Rebuild a recorded game: its set-up plus its command log, replayed without re-recording.

        Raises ``ResumeError`` (and marks the game ``broken``, keeping its record) if it no longer replays.
        """
        try:
            if isinstance(record, int):
                found = store.game(record)
                if found is None:
                    raise ResumeError(f"there is no game {record} in the journal")
                record = found
        except JournalUnavailable as exc:  # locked, unreadable for now: nothing is marked, try again later
            raise ResumeError(f"game {record} cannot be read now: {exc}") from exc
        except JournalCorrupt as exc:
            raise ResumeError(f"game {record} cannot be resumed: its record is damaged ({exc})") from exc
        if record.damage:
            log.error("game %s cannot be resumed: its record is damaged (%s)", record.id, record.damage)
            with contextlib.suppress(JournalError):
                store.set_status(record.id, BROKEN)
            raise ResumeError(f"game {record.id} cannot be resumed: its record is damaged ({record.damage})")
        try:
            plugin = games.get(record.setup.game)
            game = cls(plugin.new_game(record.setup), store, record.id, plugin, record.setup)
            game._journaling = False
            try:
                for data in store.commands(record.id):
                    Game.push(game, plugin.command_from_json(data))
            finally:
                game._journaling = True
        except JournalUnavailable as exc:  # temporary (locked, read-only for now): the game is not broken
            log.error("game %s cannot be read now: %s", record.id, exc)
            raise ResumeError(f"game {record.id} cannot be read now: {exc}") from exc
        except (GameError, ValueError, KeyError, TypeError, OSError) as exc:
            log.error("game %s cannot be resumed: %s", record.id, exc)
            with contextlib.suppress(JournalError):
                store.set_status(record.id, BROKEN)
            raise ResumeError(f"game {record.id} cannot be resumed: {exc}") from exc
        game._finished = plugin.result(game.state) is not None
        return game

    # -- the journaled push -------------------------------------------------------------------
    def push(self, command: object) -> list[Any]:
        if not self._journaling:
            return super().push(command)
        states, applied, logged = list(self._states), list(self._applied), len(self.log)
        self._journaling = False  # Game.push calls self.pop() for an undo: that one is not journaled again
        try:
            events = super().push(command)  # IllegalAction: refused, nothing changed, nothing recorded
        finally:
            self._journaling = True
        try:
            self._record(self.log[-1])
        except Exception as exc:  # nothing may be acknowledged that is not committed
            self._states, self._applied, self.log[logged:] = states, applied, []
            log.error("could not record %r: %s", command, exc)
            raise JournalRefused(f"the game record could not be written ({exc}); nothing was changed") from exc
        return events

    def pop(self) -> list[Any]:
        if not self._journaling:
            return super().pop()
        return self.push(self._undo_types[0]())

    def _record(self, command: object) -> None:
        state = self.state
        result = self.plugin.result(state)
        finished = result is not None
        status = None
        if finished != self._finished:
            status = FINISHED if finished else PLAYING
        self.store.append(
            self.game_id,
            len(self.log) - 1,
            self.plugin.command_to_json(command),
            progress=self.plugin.progress(state),
            result=result,
            status=status,
        )
        self._finished = finished

    # -- ending ---------------------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self._finished

    def end_early(self) -> None:
        """The admin ends the game: it is kept (status ``ended``) with the standings so far."""
        self.store.set_status(self.game_id, ENDED, standings(self))

    def export_lines(self) -> list[str]:
        return export_lines(self.store, self.game_id)


def standings(game: JournaledGame) -> list[dict[str, object]]:
    """The ranking now (the final one once the game is over), as the journal stores it."""
    return [s.to_json() for s in game.plugin.standings(game.state)]


def export_lines(store: JournalStore, game_id: int) -> list[str]:
    """The record as ``companion play --script`` lines: one JSON command per line, undos included."""
    import json

    return [json.dumps(c, ensure_ascii=False) for c in store.commands(game_id)]
