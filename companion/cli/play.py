"""``companion play``: scripted play, one JSON command per line in, one JSON result per line out.

This interface is used by tools outside the repo; its flags, actions and field names are stable.
Each game plugs in through a ``ScriptedGame`` adapter (``GAMES``); the loop here is shared.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Protocol, TextIO

from companion.engine.errors import DataError, GameError, IllegalAction
from companion.engine.game import Game

# game name -> module under companion.cli defining ``ADAPTER: ScriptedGame``
GAMES = {"on-the-way": "play_otw", "auf-achse": "play_aa"}


class ScriptedGame(Protocol):
    """What ``companion play`` needs from a game."""

    def new_game(self, args: argparse.Namespace) -> Game[Any]: ...
    def command_from_json(self, data: object) -> object: ...
    def event_to_json(self, event: object) -> dict[str, object]: ...
    def state_to_json(self, state: Any) -> dict[str, object]: ...


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("play", help="play a scripted game: JSON commands in, JSON results out")
    p.add_argument("--game", default="on-the-way", help=f"one of: {', '.join(GAMES)} (default on-the-way)")
    p.add_argument("--players", required=True, help="seat order, comma separated, e.g. red,blue[,green,yellow]")
    p.add_argument("--board", type=Path, help="board TOML (default: the reference board)")
    p.add_argument("--contracts", type=Path, help="contracts TOML (default: the reference deck)")
    p.add_argument("--events", type=Path, help="event / action cards TOML (default: the reference deck)")
    p.add_argument("--end-at", type=int, help="On The Way: time-track end (short game), overrides 14/11/10")
    p.add_argument("--seed", type=int, help="seed for the game's random state (games that roll dice)")
    p.add_argument(
        "--rule", action="append", default=[], metavar="NAME=VALUE", help="a house rule (see docs/rules-notes.md)"
    )
    p.add_argument("--script", required=True, help="file with one JSON command per line, or - for stdin")
    p.set_defaults(handler=run)


def adapter(name: str) -> ScriptedGame:
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r}; available: {', '.join(GAMES)}")
    module = importlib.import_module(f"companion.cli.{GAMES[name]}")
    return module.ADAPTER  # type: ignore[no-any-return]


def house_rules(args: argparse.Namespace) -> dict[str, object]:
    rules: dict[str, object] = {}
    for item in args.rule:
        name, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"--rule wants NAME=VALUE, not {item!r}")
        rules[name.strip()] = value.strip()
    return rules


def run_script(game_adapter: ScriptedGame, game: Game[Any], lines: Iterable[str], out: TextIO) -> dict[str, Any]:
    """Apply each non-blank line; write one result line per command and the final state line."""
    for raw in lines:
        line = raw.strip()
        if not line:
            continue
        result: dict[str, Any]
        try:
            command = game_adapter.command_from_json(json.loads(line))
            events = game.push(command)
            result = {"ok": True, "events": [game_adapter.event_to_json(e) for e in events]}
        except json.JSONDecodeError as exc:
            result = {"ok": False, "error": {"rule": "input", "message": f"not JSON: {exc.msg} at column {exc.colno}"}}
        except IllegalAction as exc:
            result = {"ok": False, "error": exc.to_json()}
        except GameError as exc:  # a malformed command: names the field
            to_json = getattr(exc, "to_json", None)
            error = to_json() if callable(to_json) else {"rule": "input", "message": str(exc)}
            result = {"ok": False, "error": error}
        out.write(json.dumps(result, ensure_ascii=False) + "\n")
    final = {"state": game_adapter.state_to_json(game.state)}
    out.write(json.dumps(final, ensure_ascii=False) + "\n")
    return final


def run(args: argparse.Namespace) -> int:
    try:
        game_adapter = adapter(args.game)
        game = game_adapter.new_game(args)
    except (DataError, ValueError) as exc:
        print(f"companion play: {exc}", file=sys.stderr)
        return 2
    try:
        if args.script == "-":
            run_script(game_adapter, game, sys.stdin, sys.stdout)
        else:
            with open(args.script, encoding="utf-8") as script:
                run_script(game_adapter, game, script, sys.stdout)
    except OSError as exc:
        print(f"companion play: cannot read the script: {exc}", file=sys.stderr)
        return 2
    return 0
