"""Entry point of the simulator: options or the start dialog, then the window's loop."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from companion import games
from companion.engine.errors import DataError
from companion.engine.game import Game
from companion.games.seats import check_bots, parse_seats
from companion.games.setup import GameSetup
from companion.table.messages import Catalogue, chosen_language


def build_parser(*, for_help_only: bool = False) -> argparse.ArgumentParser:
    """The simulator's options. ``for_help_only``: no usage line and no ``--help``, for the list that
    ``companion --help`` shows below the commands (one definition, so the two never differ)."""
    p = argparse.ArgumentParser(
        prog="companion",
        description=None if for_help_only else "Board-game simulator (emulated table)",
        usage=argparse.SUPPRESS if for_help_only else None,
        add_help=not for_help_only,
    )
    options = p.add_argument_group("simulator options (companion [OPTIONS], without a COMMAND)")
    options.add_argument(
        "--game",
        choices=games.names(),
        help=f"the game (default: the start dialog, or {games.DEFAULT_GAME} with --players)",
    )
    options.add_argument(
        "--players",
        help="seat order, comma separated (default: the start dialog; e.g. red,blue); a seat the box plays: "
        "blue:bot, blue:bot-easy|medium|hard (you move its pieces as the screen shows)",
    )
    options.add_argument(
        "--end-at", type=int, help="short game: the time-track position that ends it (games with a time track)"
    )
    options.add_argument("--seed", type=int, help="shuffle of the card piles and the companion's die")
    options.add_argument("--size", default="1280x800", help="window size WxH (default 1280x800)")
    options.add_argument(
        "--language",
        help="the table's and the simulator's language: en, cs, de or pl (default $COMPANION_LANGUAGE, else en)",
    )
    options.add_argument(
        "--data-set",
        help="a box digitised with `companion setup-box` (default: the one digitised last, else the reference data;"
        " `reference` for the reference data)",
    )
    options.add_argument(
        "--emulated-readers",
        action="store_true",
        help="drive the emulated MFRC522 readers, buttons and LED chain (slower: ~half a core)",
    )
    return p


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    return build_parser().parse_args(list(argv))


def new_game(
    game: str,
    colours: tuple[str, ...],
    *,
    end_at: int | None = None,
    seed: int | None = None,
    files: dict[str, str | None] | None = None,
) -> Game[Any]:
    """A game on ``files`` (board, contracts, events; None: the reference data). Raises DataError /
    ValueError on a bad set-up."""
    given = files or {}
    setup = GameSetup(game, colours, given.get("board"), given.get("contracts"), given.get("events"), end_at, seed=seed)
    return games.get(game).new_game(setup)


def data_files(game: str, name: str | None) -> dict[str, str | None]:
    """The data set to play: ``name``, else the box digitised last, else the reference data."""
    from companion.journal import default_state_dir
    from companion.setup_box.datasets import DataSets

    return DataSets(default_state_dir()).choose(game, name).setup_files()


def main(argv: Sequence[str] = ()) -> int:
    args = parse_args(argv)
    try:
        language = chosen_language(args.language)
    except ValueError as exc:
        print(f"companion: {exc}")
        return 2
    try:
        w, h = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        print(f"companion: --size wants WxH, not {args.size!r}")
        return 2
    from companion.display.visible import refuse_invisible

    if (code := refuse_invisible("companion")) is not None:  # no display: say so, never run invisibly
        return code
    import pygame

    from companion.simulator.start_dialog import game_options, run_dialog
    from companion.simulator.window import Simulator

    pygame.display.init()
    pygame.font.init()
    name = args.game
    bots: dict[str, str] = {}
    if args.players:
        try:
            colours, bots = parse_seats(args.players)
        except ValueError as exc:
            print(f"companion: {exc}")
            return 2
        end_at = args.end_at
        name = name or games.DEFAULT_GAME
    else:
        window = pygame.display.set_mode((w, h), pygame.RESIZABLE)
        pygame.display.set_caption(Catalogue(language).text("simulator.title"))
        choice = run_dialog(window, game_options(), game=name, language=language)
        if choice is None:
            return 0
        colours, name, bots = choice.colours, choice.game, choice.bots
        end_at = args.end_at if args.end_at is not None else choice.end_at
    plugin = games.get(name)
    try:
        check_bots(plugin, bots)
        game = new_game(name, colours, end_at=end_at, seed=args.seed, files=data_files(name, args.data_set))
    except (DataError, ValueError, OSError) as exc:
        print(f"companion: {exc}")
        return 2
    sim = Simulator(plugin, game, size=(w, h), seed=args.seed, language=language,
                    emulated_readers=args.emulated_readers, bots=bots)  # fmt: skip
    return sim.run()
