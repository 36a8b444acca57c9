"""Entry point of the simulator: options or the start dialog, then the window's loop."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from companion.engine.errors import DataError

GAMES = ("on-the-way", "auf-achse")


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="companion", description="Board-game simulator (emulated table)")
    p.add_argument("--game", choices=GAMES, help="the game (default: the start dialog, or on-the-way with --players)")
    p.add_argument("--players", help="seat order, comma separated (default: the start dialog; e.g. red,blue)")
    p.add_argument("--end-at", type=int, help="On The Way short game: the time-track position that ends the game")
    p.add_argument("--seed", type=int, help="shuffle of the card piles (and Auf Achse's companion die)")
    p.add_argument("--size", default="1280x800", help="window size WxH (default 1280x800)")
    p.add_argument("--language", default="en", help="en or cs")
    p.add_argument(
        "--emulated-readers",
        action="store_true",
        help="drive the emulated MFRC522 readers, buttons and LED chain (slower: ~half a core)",
    )
    return p.parse_args(list(argv))


def build_config(colours: tuple[str, ...], end_at: int | None) -> Any:
    """An On The Way game on the reference data."""
    from companion.games.on_the_way.data import load_reference
    from companion.games.on_the_way.engine import GameConfig

    board, deck = load_reference()
    return GameConfig(board, deck, colours, end_at=end_at)


def build_aa_config(colours: tuple[str, ...], seed: int | None) -> Any:
    """An Auf Achse game on the reference data."""
    from companion.games.auf_achse.data import load_aa_reference
    from companion.games.auf_achse.engine import GameConfig

    board, deck = load_aa_reference()
    return GameConfig(board, deck, colours, seed=seed or 0)


def main(argv: Sequence[str] = ()) -> int:
    args = parse_args(argv)
    try:
        w, h = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        print(f"companion: --size wants WxH, not {args.size!r}")
        return 2
    import pygame

    from companion.simulator.start_dialog import run_dialog

    pygame.display.init()
    pygame.font.init()
    game = args.game
    if args.players:
        colours = tuple(c.strip() for c in args.players.split(",") if c.strip())
        end_at = args.end_at
        game = game or "on-the-way"
    else:
        window = pygame.display.set_mode((w, h), pygame.RESIZABLE)
        pygame.display.set_caption("companion — simulator")
        choice = run_dialog(window, game=game)
        if choice is None:
            return 0
        colours, game = choice.colours, choice.game
        end_at = args.end_at if args.end_at is not None else choice.end_at
    try:
        if game == "auf-achse":
            from companion.games.auf_achse.simulator import AASimulator

            config = build_aa_config(colours, args.seed)
            return AASimulator(
                config, size=(w, h), seed=args.seed, language=args.language, emulated_readers=args.emulated_readers
            ).run()
        config = build_config(colours, end_at)
    except DataError as exc:
        print(f"companion: {exc}")
        return 2
    from companion.simulator.window import Simulator

    return Simulator(
        config, size=(w, h), seed=args.seed, language=args.language, emulated_readers=args.emulated_readers
    ).run()
