"""The ``companion`` command. Each sub-command lives in its own module with a ``register`` function."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# Modules under companion.cli that define ``register(subparsers)``; each adds its own sub-commands.
COMMAND_MODULES = ("board", "play", "journal")


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
    parser = build_parser()
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    handler = getattr(args, "handler", None)
    if handler is None:
        default = importlib.import_module("companion.cli.default")
        return int(default.run_default())
    return int(handler(args))
