"""``companion play``: scripted play, one JSON command per line in, one JSON result per line out.

This interface is used by tools outside the repo; its flags, actions and field names are stable.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, TextIO

from companion.engine.errors import DataError, IllegalAction
from companion.engine.otw import GameConfig, HouseRules, new_game
from companion.engine.otw.events import event_to_json
from companion.engine.otw.serialize import CommandFormatError, command_from_json, state_to_json

GAMES = ("on-the-way",)


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("play", help="play a scripted game: JSON commands in, JSON results out")
    p.add_argument("--game", default="on-the-way", help="on-the-way (default)")
    p.add_argument("--players", required=True, help="seat order, comma separated: red,blue[,green,yellow]")
    p.add_argument("--board", type=Path, help="board TOML (default: the reference board)")
    p.add_argument("--contracts", type=Path, help="contracts TOML (default: the reference deck)")
    p.add_argument("--events", type=Path, help="events TOML (default: the reference deck)")
    p.add_argument("--end-at", type=int, help="time-track end (short game), overrides 14/11/10")
    p.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help=f"a house rule (docs/rules-notes.md): {', '.join(HouseRules.names())}",
    )
    p.add_argument("--script", required=True, help="file with one JSON command per line, or - for stdin")
    p.set_defaults(handler=run)


def build_config(args: argparse.Namespace) -> GameConfig:
    """The game config from the command line; raises DataError (with file/line/field) or ValueError."""
    from companion.data import REFERENCE_BOARD, REFERENCE_CONTRACTS, REFERENCE_EVENTS, load_board, load_deck

    if args.game not in GAMES:
        raise ValueError(f"unknown game {args.game!r}; available: {', '.join(GAMES)}")
    colours = tuple(c.strip() for c in args.players.split(",") if c.strip())
    board = load_board(args.board or REFERENCE_BOARD)
    deck = load_deck(args.contracts or REFERENCE_CONTRACTS, args.events or REFERENCE_EVENTS, board=board)
    rules: dict[str, object] = {}
    for item in args.rule:
        name, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"--rule wants NAME=VALUE, not {item!r}")
        rules[name.strip()] = value.strip()
    return GameConfig(board, deck, colours, HouseRules.from_mapping(rules), args.end_at)


def run_script(config: GameConfig, lines: Iterable[str], out: TextIO) -> dict[str, Any]:
    """Apply each non-blank line; write one result line per command and the final state line."""
    game = new_game(config)
    for line in _commands(lines):
        result: dict[str, Any]
        try:
            command = command_from_json(json.loads(line))
            events = game.push(command)
            result = {"ok": True, "events": [event_to_json(e) for e in events]}
        except json.JSONDecodeError as exc:
            result = {"ok": False, "error": {"rule": "input", "message": f"not JSON: {exc.msg} at column {exc.colno}"}}
        except (CommandFormatError, IllegalAction) as exc:
            result = {"ok": False, "error": exc.to_json()}
        out.write(json.dumps(result, ensure_ascii=False) + "\n")
    final = {"state": state_to_json(game.state)}
    out.write(json.dumps(final, ensure_ascii=False) + "\n")
    return final


def _commands(lines: Iterable[str]) -> Iterator[str]:
    for line in lines:
        if line.strip():
            yield line.strip()


def run(args: argparse.Namespace) -> int:
    try:
        config = build_config(args)
    except (DataError, ValueError) as exc:
        print(f"companion play: {exc}", file=sys.stderr)
        return 2
    try:
        if args.script == "-":
            run_script(config, sys.stdin, sys.stdout)
        else:
            with open(args.script, encoding="utf-8") as script:
                run_script(config, script, sys.stdout)
    except OSError as exc:
        print(f"companion play: cannot read the script: {exc}", file=sys.stderr)
        return 2
    return 0
