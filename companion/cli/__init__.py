"""The ``companion`` command. Each sub-command lives in its own module with a ``register`` function."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Iterator, Sequence

# Modules under companion.cli that define ``register(subparsers)``; each adds its own sub-commands.
COMMAND_MODULES = ("board", "play", "hardware", "journal", "leaderboard", "setup_box", "doctor")
# The commands each module adds (tests/test_cli_help.py checks it against what they do add): a command
# builds only its own module's parser. Building all of them imported every command's code and read
# every game's set-up profile at each start (0.37 s of a 0.46 s ``companion play`` here).
COMMANDS = {"board": "board", "play": "play", "hardware": "hardware", "cards": "hardware", "export": "journal",
            "games": "journal", "kiosk": "journal", "leaderboard": "leaderboard", "setup-box": "setup_box",
            "doctor": "doctor"}  # fmt: skip


def build_parser(simulator_help: bool = True, only: str | None = None) -> argparse.ArgumentParser:
    """The ``companion`` parser. The simulator's options are listed below the commands (``companion
    --help`` is where people look); its own parser parses them (``main`` sends ``companion --players
    ...`` there). ``simulator_help=False`` leaves that list out: a sub-command then does not import the
    simulator and both games' engines only to throw the text away (70 ms of every command's start).
    ``only``: just that module's commands (``COMMANDS``), for running one of them."""
    epilog = None
    if simulator_help:
        from companion.simulator.app import build_parser as simulator_parser

        epilog = simulator_parser(for_help_only=True).format_help()
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Board-game companion. With no command: the simulator (or the table on a Pi).",
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,  # the epilog is already formatted
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES if only is None else (only,):
        importlib.import_module(f"companion.cli.{name}").register(sub)
    describe_commands(sub)
    return parser


def commands(sub: argparse._SubParsersAction) -> Iterator[tuple[str, argparse.ArgumentParser, str]]:  # type: ignore[type-arg]
    """Every (sub-)command below ``sub``: its full name, its parser and its line in the command list."""
    helps = {action.dest: action.help or "" for action in sub._choices_actions}
    for name, parser in sub.choices.items():
        yield name, parser, helps.get(name, "")
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub_name, sub_parser, sub_help in commands(action):
                    yield f"{name} {sub_name}", sub_parser, sub_help


def describe_commands(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """A command's own ``--help`` starts with its line from the command list when it has no description
    of its own (``companion games --help`` used to show only its usage)."""
    for _, parser, help_line in commands(sub):
        if parser.description is None and help_line:
            parser.description = help_line[0].upper() + help_line[1:] + "."


def main(argv: Sequence[str] | None = None) -> int:
    # pygame-ce prints its version banner on import: noise in every command's output that draws.
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments and arguments[0].startswith("--") and arguments[0] != "--help":
        # ``companion --players red,blue --end-at 3``: options of the default job (the simulator).
        default = importlib.import_module("companion.cli.default")
        return int(default.run_default(arguments))
    first = arguments[0] if arguments else None
    # A known command builds only its own parser; anything else (help, a typo) the whole list.
    parser = build_parser(simulator_help=first in (None, "-h", "--help"), only=COMMANDS.get(first or ""))
    args = parser.parse_args(arguments)
    handler = getattr(args, "handler", None)
    if handler is None:
        default = importlib.import_module("companion.cli.default")
        return int(default.run_default())
    return int(handler(args))
