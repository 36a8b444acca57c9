"""A game as data: the initial state plus the log of accepted commands, with push / pop (undo).

Generic over a game's reducer (``apply(state, command) -> (state, events)``) so that On The Way and
Auf Achse share the same history, undo and ledger-reversal mechanism.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Generic, Protocol, TypeVar

from companion.engine.errors import IllegalAction
from companion.engine.ledger import Ledger


class HasLedger(Protocol):
    @property
    def ledger(self) -> Ledger: ...


S = TypeVar("S", bound=HasLedger)


@dataclass(frozen=True, slots=True)
class UndoCommand:
    """Take back the last command that is not itself an undo."""


@dataclass(frozen=True, slots=True)
class Undone:
    command: object  # the command taken back
    reversals: int  # ledger entries booked to cancel its payments


Reducer = Callable[[S, Any], tuple[S, list[Any]]]


class Game(Generic[S]):
    """``push`` validates and applies a command; ``pop`` undoes the last one.

    >>> game = Game(initial_state, apply)           # doctest: +SKIP
    >>> game.push(TakeContract("red", "B01"))        # doctest: +SKIP
    [ContractTaken(player='red', card='B01'), ...]
    >>> game.pop()                                   # doctest: +SKIP
    """

    def __init__(
        self,
        initial: S,
        reducer: Reducer[S],
        undo_types: tuple[type, ...] = (UndoCommand,),
        on_undo: Callable[[S, object], list[Any]] | None = None,
    ) -> None:
        self.initial = initial
        self._reducer = reducer
        self._undo_types = undo_types
        self._on_undo = on_undo
        self._states: list[S] = [initial]
        self._applied: list[object] = []  # the commands the undo stack can take back
        self.log: list[object] = []  # every accepted command, undos included: replaying it rebuilds the game

    @property
    def state(self) -> S:
        return self._states[-1]

    @property
    def depth(self) -> int:
        """How many applied commands the undo stack holds."""
        return len(self._applied)

    @property
    def last_command(self) -> object | None:
        return self._applied[-1] if self._applied else None

    def recent(self, n: int) -> tuple[S, ...]:
        """The last ``n`` states, oldest first, the current one last (what a resumed bot seat remembers)."""
        return tuple(self._states[-n:]) if n > 0 else ()

    def applied(self, n: int) -> tuple[object, ...]:
        """The last ``n`` applied commands (the ones ``pop`` would take back), oldest first."""
        return tuple(self._applied[-n:]) if n > 0 else ()

    def push(self, command: object) -> list[Any]:
        """Apply ``command``; raises ``IllegalAction`` (state unchanged) if it is refused."""
        if isinstance(command, self._undo_types):
            return self.pop()
        state, events = self._reducer(self.state, command)
        self._states.append(state)
        self._applied.append(command)
        self.log.append(command)
        return events

    def pop(self) -> list[Any]:
        """Undo the last applied command. The ledger keeps its entries and books reversals."""
        if not self._applied:
            raise IllegalAction("undo", "there is nothing to undo")
        current = self._states.pop()
        command = self._applied.pop()
        previous = self._states.pop()
        booked = current.ledger.since(previous.ledger.size)
        # Entries booked since ``previous`` that an earlier undo already cancelled stay as they are.
        cancelled = {e.reverses for e in booked if e.reverses is not None}
        undone = tuple(e for e in booked if e.reverses is None and e.seq not in cancelled)
        restored = replace(previous, ledger=current.ledger.reversal_of(undone))  # type: ignore[type-var]
        self._states.append(restored)
        self.log.append(self._undo_types[0]())
        events: list[Any] = [Undone(command, len(undone))]
        if self._on_undo is not None:
            events.extend(self._on_undo(restored, command))
        return events

    def replay(self, commands: Sequence[object]) -> None:
        for command in commands:
            self.push(command)


def check(reducer: Reducer[S], state: S, command: object) -> IllegalAction | None:
    """Would ``reducer`` accept ``command`` in ``state``? None, or the refusal it would raise (rule id
    and all). It runs the reducer itself and drops the outcome (``apply`` is pure), so a check can
    never disagree with ``Game.push``; every game's table asks it instead of pushing and popping."""
    try:
        reducer(state, command)
    except IllegalAction as refusal:
        return refusal
    return None
