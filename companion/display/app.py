"""Entry point of the simulator: options or the start dialog, then the window's loop."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from companion.engine.errors import DataError
from companion.engine.otw import GameConfig


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="companion", description="On The Way simulator (emulated table)")
    p.add_argument("--players", help="seat order, comma separated (default: the start dialog; e.g. red,blue)")
    p.add_argument("--end-at", type=int, help="short game: the time-track position that ends the game")
    p.add_argument("--seed", type=int, help="shuffle of the contract pile and event deck")
    p.add_argument("--size", default="1280x800", help="window size WxH (default 1280x800)")
    p.add_argument("--language", default="en", help="en or cs")
    return p.parse_args(list(argv))


def build_config(colours: tuple[str, ...], end_at: int | None) -> GameConfig:
    from companion.data import load_reference

    board, deck = load_reference()
    return GameConfig(board, deck, colours, end_at=end_at)


def main(argv: Sequence[str] = ()) -> int:
    args = parse_args(argv)
    try:
        w, h = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        print(f"companion: --size wants WxH, not {args.size!r}")
        return 2
    import pygame

    from companion.display.simulator import Simulator
    from companion.display.start_dialog import run_dialog

    pygame.display.init()
    pygame.font.init()
    if args.players:
        colours = tuple(c.strip() for c in args.players.split(",") if c.strip())
        end_at = args.end_at
    else:
        window = pygame.display.set_mode((w, h), pygame.RESIZABLE)
        pygame.display.set_caption("companion — On The Way simulator")
        choice = run_dialog(window)
        if choice is None:
            return 0
        colours, end_at = choice.colours, args.end_at if args.end_at is not None else choice.end_at
    try:
        config = build_config(colours, end_at)
    except DataError as exc:
        print(f"companion: {exc}")
        return 2
    return Simulator(config, size=(w, h), seed=args.seed, language=args.language).run()
