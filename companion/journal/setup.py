"""What a journal needs to rebuild a game: its set-up (data files, seats, house rules, end) and a codec.

A ``GameSetup`` is stored as JSON in the ``games`` row; with the command log it *is* the game
(style point 6). ``GameRules`` adapts one game (On The Way today, Auf Achse later) to the journal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from companion.engine.game import Game


@dataclass(frozen=True, slots=True)
class GameSetup:
    """The set-up of one game, as ``companion play`` flags spell it."""

    game: str
    players: tuple[str, ...]
    board: str | None = None  # data file paths (absolute); None = the reference files
    contracts: str | None = None
    events: str | None = None
    end_at: int | None = None  # the short game (``--end-at``)
    rules: Mapping[str, str] = field(default_factory=dict)  # house rules, NAME -> VALUE as ``--rule`` takes them
    seed: int | None = None

    def to_json(self) -> dict[str, object]:
        return {
            "game": self.game,
            "players": list(self.players),
            "board": self.board,
            "contracts": self.contracts,
            "events": self.events,
            "end_at": self.end_at,
            "rules": dict(self.rules),
            "seed": self.seed,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameSetup:
        rules = data.get("rules") or {}
        return cls(
            game=str(data["game"]),
            players=tuple(str(p) for p in data["players"]),
            board=data.get("board"),
            contracts=data.get("contracts"),
            events=data.get("events"),
            end_at=data.get("end_at"),
            rules={str(k): str(v) for k, v in dict(rules).items()},
            seed=data.get("seed"),
        )

    @classmethod
    def with_files(
        cls,
        game: str,
        players: tuple[str, ...],
        *,
        board: Path | None = None,
        contracts: Path | None = None,
        events: Path | None = None,
        **kwargs: Any,
    ) -> GameSetup:
        """Data file paths made absolute, so the record still replays from another working directory."""

        def absolute(p: Path | None) -> str | None:
            return None if p is None else str(Path(p).resolve())

        return cls(game, players, absolute(board), absolute(contracts), absolute(events), **kwargs)

    def play_args(self) -> list[str]:
        """The ``companion play`` flags that set up this game (the export's replay line)."""
        args = ["--game", self.game, "--players", ",".join(self.players)]
        for flag, value in (("--board", self.board), ("--contracts", self.contracts), ("--events", self.events)):
            if value is not None:
                args += [flag, value]
        if self.end_at is not None:
            args += ["--end-at", str(self.end_at)]
        if self.seed is not None:
            args += ["--seed", str(self.seed)]
        for name, value in self.rules.items():
            args += ["--rule", f"{name}={value}"]
        return args


class GameRules(Protocol):
    """What the journal needs from a game."""

    name: str

    def new_game(self, setup: GameSetup) -> Game[Any]: ...
    def command_to_json(self, command: object) -> dict[str, object]: ...
    def command_from_json(self, data: object) -> object: ...
    def state_to_json(self, state: Any) -> dict[str, object]: ...
    def progress(self, state: Any) -> dict[str, object]: ...
    def result(self, state: Any) -> list[dict[str, object]] | None:
        """The final ranking once the game is over, else None."""
        ...


class OnTheWayRules:
    name = "on-the-way"

    def config(self, setup: GameSetup) -> Any:
        from companion.games.on_the_way.data import (
            REFERENCE_BOARD,
            REFERENCE_CONTRACTS,
            REFERENCE_EVENTS,
            load_board,
            load_deck,
        )
        from companion.games.on_the_way.engine import GameConfig, HouseRules

        board = load_board(setup.board or REFERENCE_BOARD)
        deck = load_deck(setup.contracts or REFERENCE_CONTRACTS, setup.events or REFERENCE_EVENTS, board=board)
        rules = HouseRules.from_mapping(dict(setup.rules))
        return GameConfig(board, deck, setup.players, rules, setup.end_at)

    def new_game(self, setup: GameSetup) -> Game[Any]:
        from companion.games.on_the_way.engine import new_game

        return new_game(self.config(setup))

    def command_to_json(self, command: object) -> dict[str, object]:
        from companion.games.on_the_way.engine.serialize import command_to_json

        return command_to_json(command)  # type: ignore[arg-type]

    def command_from_json(self, data: object) -> object:
        from companion.games.on_the_way.engine.serialize import command_from_json

        return command_from_json(data)

    def state_to_json(self, state: Any) -> dict[str, object]:
        from companion.games.on_the_way.engine.serialize import state_to_json

        return state_to_json(state)

    def progress(self, state: Any) -> dict[str, object]:
        return {"round": state.turn.round, "time": state.time, "player": state.current.colour}

    def result(self, state: Any) -> list[dict[str, object]] | None:
        from companion.games.on_the_way.engine.scoring import ranking

        if not state.finished:
            return None
        return [
            {"place": s.place, "colour": s.colour, "score": s.score, "vp": s.vp_tokens, "money": s.money}
            for s in ranking(state)
        ]


GAMES: dict[str, GameRules] = {"on-the-way": OnTheWayRules()}


def rules_for(game: str) -> GameRules:
    try:
        return GAMES[game]
    except KeyError:
        raise ValueError(f"the journal does not know the game {game!r}; known: {', '.join(GAMES)}") from None
