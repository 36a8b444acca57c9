"""The set-up of one game (which game, data files, seats, house rules, end, seed), for every game.

``companion play`` builds one from its flags, the kiosk and the simulator from their set-up screens;
the journal stores it as JSON in the ``games`` row, and with the command log it *is* the game
(style point 6). The game's plugin (``companion.games.get(setup.game)``) turns it into a ``Game``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


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
    bots: Mapping[str, str] = field(default_factory=dict)  # seats the box plays: colour -> level

    def to_json(self) -> dict[str, object]:
        extra: dict[str, object] = {"bots": dict(self.bots)} if self.bots else {}  # only when there are any
        return {
            "game": self.game,
            "players": list(self.players),
            "board": self.board,
            "contracts": self.contracts,
            "events": self.events,
            "end_at": self.end_at,
            "rules": dict(self.rules),
            "seed": self.seed,
            **extra,
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
            end_at=_whole_or_none(data, "end_at"),
            rules={str(k): str(v) for k, v in dict(rules).items()},
            seed=_whole_or_none(data, "seed"),
            bots={str(k): str(v) for k, v in dict(data.get("bots") or {}).items()},
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
        """The ``companion play`` flags that set up this game (the export's replay line). Bot seats are
        left out: their commands are in the record already, and a replay must not play them again."""
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


def _whole_or_none(data: Mapping[str, Any], key: str) -> int | None:
    """A whole number or nothing: ``8.0`` or ``true`` in a hand-edited record would reach the engine and
    the bots (which take ints) as something else."""
    value = data.get(key)
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    raise ValueError(f"{key} must be a whole number or null, not {value!r}")
