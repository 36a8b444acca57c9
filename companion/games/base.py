"""What every game plug-in does the same way, so a plug-in only writes what is its own.

A game's ``plugin.py`` subclasses ``PluginBase`` and writes its data loading (``read_config``), standings
and queries. Everything that is only "find the game's module and call it" is done here once, from the
game's package laid out as the platform expects (docs/architecture.md):

    <package>.engine            new_game(config)
    <package>.engine.serialize  command_from_json, command_to_json, state_to_json
    <package>.engine.queries    legal_commands(state)
    <package>.screen.render     render, needs_animation (the module is the screen)
    <package>.simulator         props(game, seed)
    <package>.messages/         <language>.po

plus the table controller class and the set-up wizard's profile, named by ``table_class`` and
``setup_profile_factory`` ("module:name"). Modules are imported when first asked for, so asking a
plug-in for its title costs nothing. The event codec, money, ``finished`` and the legal-move query
are shared too.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import stat
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from companion.engine.errors import GameError
from companion.engine.jsonio import CommandFormatError, event_to_json
from companion.engine.money import format_money
from companion.games.protocol import DataRole, Standing
from companion.table.messages import read_tables


class NoBots(GameError, ValueError):
    """The game has no bot players or advisor (yet)."""

    def to_json(self) -> dict[str, str]:
        return {"rule": "input", "message": str(self)}


_CONFIGS: OrderedDict[tuple[object, ...], Any] = OrderedDict()  # shared by every plug-in: keys start with its name
_CONFIGS_KEPT = 16  # a few data sets, seeds and rule variants; a config is a few hundred KB
_CONFIGS_LOCK = threading.Lock()


class PluginBase:
    name: str
    title: str
    currency: str
    colours: tuple[str, ...]
    player_counts: tuple[int, ...]
    lengths: tuple[int | None, ...] = (None,)
    score_label: str
    data_roles: tuple[DataRole, ...]
    package: str  # the game's package, laid out as above
    table_class: str = ""  # "module:Class" of the game's table controller
    setup_profile_factory: str = ""  # "module:function" giving the set-up wizard's profile ("": none)

    def __repr__(self) -> str:
        return f"<game {self.name}: {self.title}>"

    def _module(self, suffix: str) -> Any:
        return importlib.import_module(f"{self.package}.{suffix}" if suffix else self.package)

    @staticmethod
    def _named(spec: str) -> Any:
        module, _, name = spec.partition(":")
        return getattr(importlib.import_module(module), name)

    def config(self, setup: Any) -> Any:
        """The game's configuration (board, deck, seats, house rules) for ``setup``.

        Read once per set-up and data files: a config is frozen, so games share it, and reading the
        TOML files again cost 50 ms per game (a resume, a kill in the crash test, a bot's trial game).
        A data file whose content changed is read again, so an owner's edit or a
        data set the wizard imports is seen by the next game. Errors are never cached.
        """
        key = self._config_key(setup)
        if key is None:
            return self.read_config(setup)
        with _CONFIGS_LOCK:
            cached = _CONFIGS.get(key)
            if cached is not None:
                _CONFIGS.move_to_end(key)
                return cached
        config = self.read_config(setup)
        with _CONFIGS_LOCK:
            _CONFIGS[key] = config
            while len(_CONFIGS) > _CONFIGS_KEPT:
                _CONFIGS.popitem(last=False)
        return config

    def read_config(self, setup: Any) -> Any:
        """Reads and checks the data files of ``setup``; raises ``DataError`` (file, line, field)."""
        raise NotImplementedError

    def _config_key(self, setup: Any) -> tuple[object, ...] | None:
        """The set-up and the content of every data file it reads; None: a file is not plainly readable.

        The content, not the file's time: two same-sized writes within one clock tick look alike to
        ``stat``. Hashing 60 KB costs far less than parsing it. Anything but a regular file of at most
        ``MAX_FILE_BYTES`` is left to ``read_config``, which reports it with the file's name.
        """
        from companion.data.source import MAX_FILE_BYTES

        stamps: list[tuple[str, str]] = []
        for role in self.data_roles:
            path = getattr(setup, role.field, None) or role.reference
            try:
                if not stat.S_ISREG(os.stat(path).st_mode):
                    return None
                with open(path, "rb") as file:
                    content = file.read(MAX_FILE_BYTES + 1)
            except (OSError, ValueError):
                return None
            stamps.append((os.fspath(path), hashlib.blake2b(content, digest_size=16).hexdigest()))
        try:
            described = json.dumps(setup.to_json(), sort_keys=True, default=str)
        except (AttributeError, TypeError, ValueError):
            return None
        return (self.name, described, *stamps)

    def new_game(self, setup: Any) -> Any:
        """Raises ``DataError`` (file/line/field) or ``ValueError`` (seats, house rules)."""
        return self._module("engine").new_game(self.config(setup))

    # -- the JSON codec -----------------------------------------------------------------------
    def command_from_json(self, data: object) -> object:
        return self._module("engine.serialize").command_from_json(data)

    def command_to_json(self, command: object) -> dict[str, object]:
        return self._module("engine.serialize").command_to_json(command)  # type: ignore[no-any-return]

    def state_to_json(self, state: Any) -> dict[str, object]:
        return self._module("engine.serialize").state_to_json(state)  # type: ignore[no-any-return]

    def event_to_json(self, event: object) -> dict[str, object]:
        return event_to_json(event, self.command_to_json)

    def legal_commands(self, state: Any) -> Iterable[object]:
        return self._module("engine.queries").legal_commands(state)  # type: ignore[no-any-return]

    # -- the table, the screen, the simulator, the wizard ----------------------------------------
    def table(self, game: Any, tags: Any, **options: Any) -> Any:
        """The game's table controller over ``game``."""
        return self._named(self.table_class)(game.state.config, tags, game=game, **options)

    def screen(self) -> Any:
        return self._module("screen.render")  # the module: ``render`` and ``needs_animation``

    def simulator(self, game: Any, seed: int | None) -> Any:
        return self._module("simulator").props(game, seed)

    def tutorial(self, language: str) -> list[Any]:
        """The game's tutorial pictures (a game lists its moments in ``tutorial_moments``)."""
        moments = self.tutorial_moments()
        if not moments:
            return []
        from companion.games.setup import GameSetup
        from companion.games.tutorial import pages

        plugin: Any = self  # a GamePlugin: this class is the shared half of one
        return pages(plugin, moments, GameSetup(self.name, self.colours[:2], seed=5), 5, language)

    def tutorial_moments(self) -> tuple[Any, ...]:
        return ()

    # -- bots and advice: a game with bots overrides these ----------------------------------------
    bot_levels: tuple[str, ...] = ()

    def bot_command(self, state: Any, colour: str, level: str, seed: int, *, seen: Sequence[Any] = ()) -> object | None:
        raise NoBots(f"{self.title} has no bot players yet")

    def advise(
        self,
        state: Any,
        player: str | None,
        *,
        budget_s: float,
        seed: int,
        history: Any = None,
        opponents: Mapping[str, str] | None = None,
    ) -> list[dict[str, object]]:
        raise NoBots(f"{self.title} has no advisor yet")

    def setup_profile(self) -> Any:
        """The set-up wizard's profile of this game; None: the game cannot be digitised with the wizard."""
        return self._named(self.setup_profile_factory)() if self.setup_profile_factory else None

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
