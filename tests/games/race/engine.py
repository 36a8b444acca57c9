"""Race to ten, the rules (R-1..R-10) as pure functions over an immutable state."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from companion.engine.errors import IllegalAction
from companion.engine.game import Game
from companion.engine.jsonio import CommandFormatError, int_field, require_object, text_field
from companion.engine.ledger import Ledger, MoneyBooked

GOAL = 10
PRIZE = 100


@dataclass(frozen=True, slots=True)
class Add:
    player: str
    n: int


@dataclass(frozen=True, slots=True)
class Undo:
    pass


@dataclass(frozen=True, slots=True)
class Added:
    player: str
    n: int
    total: int


@dataclass(frozen=True, slots=True)
class Config:
    colours: tuple[str, ...]

    def seat_of(self, colour: str) -> int | None:
        return self.colours.index(colour) if colour in self.colours else None


@dataclass(frozen=True, slots=True)
class State:
    config: Config
    total: int = 0
    seat: int = 0
    winner: str | None = None
    ledger: Ledger = field(default_factory=Ledger)

    @property
    def finished(self) -> bool:
        return self.winner is not None

    @property
    def current(self) -> str:
        return self.config.colours[self.seat]


def apply(state: State, command: Add) -> tuple[State, list[object]]:
    if state.finished:
        raise IllegalAction("R-9", "the game is over")
    if command.player != state.current:
        raise IllegalAction("R-2", f"it is {state.current}'s turn, not {command.player}'s")
    if not 1 <= command.n <= 3 or state.total + command.n > GOAL:
        raise IllegalAction("R-3", f"add 1, 2 or 3 without passing {GOAL}, not {command.n}")
    total = state.total + command.n
    events: list[object] = [Added(command.player, command.n, total)]
    if total == GOAL:
        ledger = state.ledger.append(command.player, PRIZE, "reached ten", "R-10")
        events.append(MoneyBooked(ledger.last))  # type: ignore[arg-type]
        return replace(state, total=total, winner=command.player, ledger=ledger), events
    return replace(state, total=total, seat=(state.seat + 1) % len(state.config.colours)), events


def new_game(colours: tuple[str, ...]) -> Game[State]:
    if not 2 <= len(colours) <= 4 or len(set(colours)) != len(colours):
        raise ValueError(f"Race to ten is for 2 to 4 different colours, not {', '.join(colours)} (R-1)")
    return Game(State(Config(colours)), apply, undo_types=(Undo,))


def legal_commands(state: State) -> Iterator[Add]:
    if not state.finished:
        yield from (Add(state.current, n) for n in (1, 2, 3) if state.total + n <= GOAL)


def command_from_json(data: object) -> object:
    obj = require_object(data)
    match obj.get("action"):
        case "undo":
            return Undo()
        case "add":
            return Add(text_field(obj, "player"), int_field(obj, "n"))
    raise CommandFormatError("action", f"unknown action {obj.get('action')!r}; known: add, undo")


def command_to_json(command: object) -> dict[str, object]:
    match command:
        case Undo():
            return {"action": "undo"}
        case Add(player=player, n=n):
            return {"player": player, "action": "add", "n": n}
    raise TypeError(f"not a Race command: {command!r}")


def state_to_json(state: State) -> dict[str, object]:
    return {"total": state.total, "turn": state.current, "finished": state.finished, "winner": state.winner,
            "money": {c: state.ledger.balance(c) for c in state.config.colours}}  # fmt: skip
