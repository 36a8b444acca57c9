"""``companion play``: scripted play, one JSON command per line in, one JSON result per line out.

This interface is used by tools outside the repo; its flags, actions and field names are stable.
Every game plugs in through the registry (``companion.games``); the loop here is shared.

Besides the game's commands, two read-only queries change nothing and are not part of the game:
``{"action": "legal", "player": "red"}`` answers ``{"ok": true, "legal": {...}}`` (the legal
commands now, and where each piece may go), ``{"action": "view", "player": "red"}`` what that
player may see.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, TextIO

from companion import games
from companion.engine.errors import DataError, GameError, IllegalAction
from companion.engine.game import Game
from companion.games.protocol import GamePlugin
from companion.games.setup import GameSetup

QUERIES = ("legal", "view")


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("play", help="play a scripted game: JSON commands in, JSON results out")
    p.add_argument(
        "--game", default=games.DEFAULT_GAME, help=f"one of: {', '.join(games.names())} (default {games.DEFAULT_GAME})"
    )
    p.add_argument("--players", required=True, help="seat order, comma separated, e.g. red,blue[,green,yellow]")
    p.add_argument("--board", type=Path, help="board TOML (default: the reference board)")
    p.add_argument("--contracts", type=Path, help="contracts TOML (default: the reference deck)")
    p.add_argument("--events", type=Path, help="event / action cards TOML (default: the reference deck)")
    p.add_argument(
        "--end-at", type=int, help="short game: the time-track position that ends it (games with a time track)"
    )
    p.add_argument("--seed", type=int, help="seed for the game's random state (games that roll dice)")
    p.add_argument(
        "--rule", action="append", default=[], metavar="NAME=VALUE", help="a house rule (see docs/rules-notes.md)"
    )
    p.add_argument("--script", required=True, help="file with one JSON command per line, or - for stdin")
    p.set_defaults(handler=run)


def house_rules(args: argparse.Namespace) -> dict[str, str]:
    rules: dict[str, str] = {}
    for item in args.rule:
        name, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"--rule wants NAME=VALUE, not {item!r}")
        rules[name.strip()] = value.strip()
    return rules


def setup_from_args(args: argparse.Namespace) -> GameSetup:
    """The ``GameSetup`` the flags describe (data paths made absolute, as the journal keeps them)."""
    colours = tuple(c.strip() for c in args.players.split(",") if c.strip())
    return GameSetup.with_files(
        args.game,
        colours,
        board=args.board,
        contracts=args.contracts,
        events=args.events,
        end_at=args.end_at,
        rules=house_rules(args),
        seed=args.seed,
    )


def _query(plugin: GamePlugin, game: Game[Any], data: Mapping[str, Any]) -> dict[str, Any] | None:
    """A read-only query line's answer, or None if the line is a game command."""
    action = data.get("action")
    if action not in QUERIES:
        return None
    player = data.get("player")
    if player is not None and (not isinstance(player, str) or game.state.config.seat_of(player) is None):
        return {"ok": False, "error": {"rule": "input", "field": "player",
                                        "message": f"no player {player!r} at this table"}}  # fmt: skip
    unknown = sorted(set(data) - {"action", "player"})
    if unknown:
        return {"ok": False, "error": {"rule": "input", "field": unknown[0],
                                        "message": f"{action} takes only 'player', not {unknown[0]!r}"}}  # fmt: skip
    if action == "legal":
        return {"ok": True, "legal": plugin.legal(game.state, player)}
    return {"ok": True, "view": plugin.view_for(game.state, player)}


def run_script(plugin: GamePlugin, game: Game[Any], lines: Iterable[str], out: TextIO) -> dict[str, Any]:
    """Apply each non-blank line; write one result line per command and the final state line."""
    for raw in lines:
        line = raw.strip()
        if not line:
            continue
        result: dict[str, Any]
        try:
            data = json.loads(line)
            answer = _query(plugin, game, data) if isinstance(data, Mapping) else None
            if answer is not None:
                result = answer
            else:
                events = game.push(plugin.command_from_json(data))
                result = {"ok": True, "events": [plugin.event_to_json(e) for e in events]}
        except json.JSONDecodeError as exc:
            result = {"ok": False, "error": {"rule": "input", "message": f"not JSON: {exc.msg} at column {exc.colno}"}}
        except IllegalAction as exc:
            result = {"ok": False, "error": exc.to_json()}
        except GameError as exc:  # a malformed command: names the field
            to_json = getattr(exc, "to_json", None)
            error = to_json() if callable(to_json) else {"rule": "input", "message": str(exc)}
            result = {"ok": False, "error": error}
        out.write(json.dumps(result, ensure_ascii=False) + "\n")
    final = {"state": plugin.state_to_json(game.state)}
    out.write(json.dumps(final, ensure_ascii=False) + "\n")
    return final


def run(args: argparse.Namespace) -> int:
    try:
        plugin = games.get(args.game)
        game = plugin.new_game(setup_from_args(args))
    except (DataError, ValueError) as exc:
        print(f"companion play: {exc}", file=sys.stderr)
        return 2
    try:
        if args.script == "-":
            run_script(plugin, game, sys.stdin, sys.stdout)
        else:
            with open(args.script, encoding="utf-8") as script:
                run_script(plugin, game, script, sys.stdout)
    except OSError as exc:
        print(f"companion play: cannot read the script: {exc}", file=sys.stderr)
        return 2
    return 0
