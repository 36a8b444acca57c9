"""What every game plug-in does the same way, so a plug-in only writes what is its own.

A game's ``plugin.py`` subclasses ``PluginBase`` and fills in its data, codec, standings, table,
screen and simulator; the event codec, money, the message tables, ``finished`` and the legal-move
query over the game's ``legal_commands`` are shared here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from companion.engine.jsonio import CommandFormatError, event_to_json
from companion.engine.money import format_money
from companion.games.protocol import DataRole, Standing
from companion.table.messages import read_tables


class PluginBase:
    name: str
    title: str
    currency: str
    colours: tuple[str, ...]
    player_counts: tuple[int, ...]
    lengths: tuple[int | None, ...] = (None,)
    score_label: str
    data_roles: tuple[DataRole, ...]
    package: str  # the game's package: its ``messages/`` live there

    def __repr__(self) -> str:
        return f"<game {self.name}: {self.title}>"

    def event_to_json(self, event: object) -> dict[str, object]:
        return event_to_json(event, self.command_to_json)

    def command_to_json(self, command: object) -> dict[str, object]:
        raise NotImplementedError

    def setup_profile(self) -> Any:
        """None: this game has no set-up wizard profile (a game with one overrides this)."""
        return None

    def finished(self, state: Any) -> bool:
        return bool(state.finished)

    def money(self, amount: int, *, signed: bool = False) -> str:
        return format_money(amount, self.currency, signed=signed)

    def messages(self, language: str) -> dict[str, dict[str, str]]:
        """The game's own ``messages/<language>.po`` as ``{section: {name: text}}`` (``{}``: no such language)."""
        return read_tables(self.package, language)

    def result(self, state: Any) -> list[dict[str, object]] | None:
        """The final ranking as JSON once the game is over (the journal's ``result``), else None."""
        if not self.finished(state):
            return None
        return [s.to_json() for s in self.standings(state)]

    def standings(self, state: Any) -> tuple[Standing, ...]:
        raise NotImplementedError

    def legal_commands(self, state: Any) -> Iterable[object]:
        raise NotImplementedError

    def new_game(self, setup: Any) -> Any:
        raise NotImplementedError

    def sample_game(self, setup: Any, seed: int, max_commands: int = 400) -> list[object]:
        """Uniformly random legal commands, seeded (a game with a playout policy of its own overrides this)."""
        import random

        rng = random.Random(seed)
        game = self.new_game(setup)
        commands: list[object] = []
        while len(commands) < max_commands and not self.finished(game.state):
            options = list(self.legal_commands(game.state))
            if not options:
                break
            command = rng.choice(options)
            game.push(command)
            commands.append(command)
        return commands

    def legal(self, state: Any, player: str | None) -> dict[str, object]:
        """Every legal command of ``player`` now (None: of whoever may act), as JSON; read-only."""
        commands = [self.command_to_json(c) for c in self.legal_commands(state)]
        if player is not None:
            commands = [c for c in commands if c.get("player") in (player, None)]
        return {"player": player, "finished": self.finished(state), "commands": commands}


_PROBE = object()  # not a JSON value: a parser that reads a field refuses it or keeps it


def unknown_field(
    data: Mapping[str, Any],
    command: object,
    command_from_json: Callable[[object], object],
    command_to_json: Callable[[Any], dict[str, object]],
) -> CommandFormatError | None:
    """The first key of ``data`` that the parsed ``command`` does not have, as the error to report.

    Generic over every game: a command's canonical JSON (``command_to_json(command)``) names the
    fields it has; any other key but ``action`` is a typo (``"trucs": 5``) and is refused, not
    ignored. A null value is allowed only for an optional field, i.e. one the parser reads: put a
    non-JSON probe in its place and the parser either refuses it or gives another command.
    """
    canonical = command_to_json(command)
    for key, value in data.items():
        if key == "action" or key in canonical:
            continue
        if value is None and _reads(data, key, command, command_from_json, command_to_json):
            continue
        action = canonical.get("action", data.get("action"))
        fields = ", ".join(k for k in canonical if k != "action") or "no other field"
        return CommandFormatError(key, f"unknown field {key!r} for {action}; it takes {fields}")
    return None


def _reads(
    data: Mapping[str, Any],
    key: str,
    command: object,
    command_from_json: Callable[[object], object],
    command_to_json: Callable[[Any], dict[str, object]],
) -> bool:
    probed = {**data, key: _PROBE}
    try:
        other = command_from_json(probed)
    except Exception:  # any refusal means the parser looked at the field
        return True
    return other != command or key in command_to_json(other)
