"""The ``companion`` command. Each sub-command lives in its own module with a ``register`` function."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# Modules under companion.cli that define ``register(subparsers)``; each adds its own sub-commands.
COMMAND_MODULES = ("board", "play", "hardware", "journal", "leaderboard", "setup_box")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Board-game companion. With no command: the simulator (or the table on a Pi).",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(f"companion.cli.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments and arguments[0].startswith("--") and arguments[0] != "--help":
        # ``companion --players red,blue --end-at 3``: options of the default job (the simulator).
        default = importlib.import_module("companion.cli.default")
        return int(default.run_default(arguments))
    parser = build_parser()
    args = parser.parse_args(arguments)
    handler = getattr(args, "handler", None)
    if handler is None:
        default = importlib.import_module("companion.cli.default")
        return int(default.run_default())
    return int(handler(args))
