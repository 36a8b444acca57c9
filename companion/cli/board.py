"""``companion board check [FILE...]``: validate board, contracts and events files together."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion import games

EXIT_OK = 0
EXIT_PROBLEMS = 1
EXIT_USAGE = 2


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add ``board`` and its sub-commands to the ``companion`` command."""
    board = subparsers.add_parser("board", help="check board and card data files")
    board.set_defaults(handler=lambda _args: _usage(board))
    actions = board.add_subparsers(dest="board_command", metavar="ACTION")
    check = actions.add_parser(
        "check",
        help="validate board, contracts and events files",
        description=(
            "Validate board, contracts and events TOML files together, in any order; each file's kind "
            "is found from its content. Contracts and events are checked against the board given, or "
            "the reference board. With no FILE, check the reference data."
        ),
    )
    check.add_argument("files", nargs="*", type=Path, metavar="FILE", help="a .toml data file")
    check.add_argument(
        "--game",
        default=games.DEFAULT_GAME,
        choices=games.names(),
        help=f"which game's files (default {games.DEFAULT_GAME})",
    )
    check.set_defaults(handler=run_check)
    near = actions.add_parser(
        "neighbours",
        help="the neighbouring cities of a board, as TOML (for `companion hardware flash --adjacency`)",
        description=(
            "Print each city and the cities next to it on the board, one TOML line each "
            '(City = ["Neighbour", ...]): the readers that must never scan together (RF-safe scanning).'
        ),
    )
    near.add_argument("--game", default=games.DEFAULT_GAME, choices=games.names())
    near.add_argument("--board", type=Path, help="board TOML (default: the game's reference board)")
    near.add_argument("-o", "--output", type=Path, help="file to write (default: stdout)")
    near.set_defaults(handler=run_neighbours)


def run_check(args: argparse.Namespace) -> int:
    """Print each problem as ``file:line: field: message``; exit 1 if there are any."""
    report = games.get(getattr(args, "game", games.DEFAULT_GAME)).check_files(list(args.files))
    problems, summary = report.problems, report.summary
    for problem in problems:
        print(problem)
    if problems:
        count = len(problems)
        print(f"{count} problem{'s' if count != 1 else ''} found", file=sys.stderr)
        return EXIT_PROBLEMS
    print(summary)
    return EXIT_OK


def run_neighbours(args: argparse.Namespace) -> int:
    from companion.engine.errors import DataError
    from companion.games.setup import GameSetup

    plugin = games.get(args.game)
    board = None if args.board is None else str(args.board.resolve())
    try:
        near = plugin.neighbours(GameSetup(plugin.name, plugin.colours[:2], board=board))
    except DataError as exc:
        print(f"companion board neighbours: {exc}", file=sys.stderr)
        return EXIT_PROBLEMS
    text = "".join(f"{json.dumps(city, ensure_ascii=False)} = {json.dumps(sorted(n), ensure_ascii=False)}\n"
                   for city, n in sorted(near.items()))  # fmt: skip
    if args.output is None:
        sys.stdout.write(text)
        return EXIT_OK
    try:
        args.output.write_text(text, encoding="utf-8")
    except OSError as exc:
        print(f"companion board neighbours: cannot write {args.output}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE
    print(f"{len(near)} cities written to {args.output}", file=sys.stderr)
    return EXIT_OK


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_usage(sys.stderr)
    return EXIT_USAGE
