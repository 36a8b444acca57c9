"""``companion hardware plan``: where the antennas go, which may be on together, what it costs in time and power.

    companion hardware plan --board-size 600x450                       # the reference board, stock modules
    companion hardware plan --board-size 600x450 --antenna coil:15 --positions measured.toml \\
        --config ~/box.toml --svg template.svg --write-config --json

See :mod:`companion.hardware.plan` for the model and docs/hardware.md ("Planning the antennas").
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Mapping
from pathlib import Path

from companion.hardware.config import HardwareConfig, load, locate, replace_section
from companion.hardware.errors import ConfigError
from companion.hardware.plan import Plan, make_plan
from companion.hardware.plan_inputs import (
    CARD,
    MINI,
    STOCK,
    antenna_kind,
    board_cities,
    board_size,
    measured_positions,
    positions,
)
from companion.hardware.plan_output import hardware_toml, report, template_svg, to_json


def _board_path(args: argparse.Namespace) -> tuple[Path, str]:
    """The board file and its game: ``--board``, a digitised ``--dataset``, or the game's reference board."""
    from companion import games

    game = args.game or games.DEFAULT_GAME
    if args.board:
        return Path(args.board), game
    if args.dataset:
        from companion.cli.setup_box import _state_dir
        from companion.setup_box.datasets import DataSets

        return DataSets(_state_dir(args)).get(game, args.dataset).board, game
    plugin = games.get(game)
    board = next(role.reference for role in plugin.data_roles if role.field == "board")
    return board, game


def _neighbours(game: str, board: Path) -> Mapping[str, frozenset[str]] | None:
    """The board's neighbouring cities (to say which close pairs no road joins), if the game reads it."""
    from companion import games
    from companion.engine.errors import DataError
    from companion.games.setup import GameSetup

    try:
        plugin = games.get(game)
        return plugin.neighbours(GameSetup(plugin.name, plugin.colours[:2], board=str(board.resolve())))
    except (DataError, KeyError, ValueError):
        return None


def build_plan(args: argparse.Namespace) -> tuple[Plan, HardwareConfig | None]:
    size = board_size(args.board_size)
    antenna = antenna_kind(args.antenna)
    board, game = _board_path(args)
    cities = board_cities(board)
    measured = measured_positions(args.positions, set(cities), size) if args.positions else None
    where = positions(cities, size, measured)
    config = load(args.config) if args.config else None
    channels = card = None
    extra: tuple[tuple[str, str], ...] = ()
    leds = 0
    if config is not None:
        channels = {city: channel for channel, city in config.readers.items()}
        missing = sorted(set(cities) - set(channels))
        unknown = sorted(set(channels) - set(cities))
        if missing or unknown:
            raise ConfigError(
                config.path, None, "[readers]",
                (f"no reader for {', '.join(missing)}" if missing else "")
                + ("; " if missing and unknown else "")
                + (f"{', '.join(unknown)} not on the board {board}" if unknown else ""),
            )  # fmt: skip
        card, extra, leds = config.card_channel, config.rf.close, config.leds.led_map.size
        if card is None:
            where.pop(CARD, None)  # the file has no card reader: a measured card position places nothing
    return (
        make_plan(
            where,
            antenna,
            size,
            channels=channels,
            card_channel=card,
            extra_close=extra,
            per_bank=args.per_bank,
            max_on=args.max_on or 0,
            leds=leds or args.leds,
            adjacency=_neighbours(game, board),
            compare=[kind for kind in (STOCK, MINI, *(antenna_kind(k) for k in args.compare)) if kind != antenna],
        ),
        config,
    )


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"|\'[^\']*\'')


def _section_body(text: str, section: str) -> list[str]:
    """The lines of ``[section]`` (without its header), as they are."""
    start = locate(text, section)
    if start is None:
        return []
    lines = text.split("\n")
    end = start
    while end < len(lines) and not re.match(r"^\s*\[", lines[end]):
        end += 1
    return [line for line in lines[start:end]]


def _without_keys(lines: list[str], keys: set[str]) -> list[str]:
    """``lines`` without the ``key = ...`` entries of ``keys`` (a multi-line array to its closing bracket)."""
    out: list[str] = []
    depth = 0
    for line in lines:
        code = _STRING.sub('""', line).split("#")[0]
        if depth > 0:
            depth += code.count("[") - code.count("]")
            continue
        match = re.match(r"^\s*([A-Za-z0-9_\-]+)\s*=", line)
        if match and match.group(1) in keys:
            depth = code.count("[") - code.count("]")
            continue
        out.append(line)
    while out and not out[-1].strip():
        out.pop()
    return out


def _write_config(path: Path, plan: Plan, config: HardwareConfig | None) -> None:
    """Put the plan's ``[rf]`` (and, for a new file, ``[readers]``/``[card_reader]``) into ``path``."""
    text = hardware_toml(plan)
    if not path.exists():
        path.write_text(text, encoding="utf-8")
        return
    original = path.read_text(encoding="utf-8")
    planned = text[text.index("[rf]\n") + len("[rf]\n") :].rstrip("\n").split("\n")
    kept = _without_keys(_section_body(original, "rf"), {"close", "groups", "rf_safe"})
    updated = replace_section(original, "rf", [*kept, *planned])
    if config is None:
        readers = text[text.index("[readers]\n") + len("[readers]\n") :].split("\n\n")[0].split("\n")
        updated = replace_section(updated, "readers", readers)
        if plan.card_channel is not None:
            updated = replace_section(updated, "card_reader", [f"channel = {plan.card_channel}"])
    from companion.hardware.config import parse

    parse(updated, str(path))  # never leave a file behind that does not load
    tmp = path.with_name(path.name + ".plan-tmp")
    tmp.write_text(updated, encoding="utf-8")
    tmp.replace(path)


def run_plan(args: argparse.Namespace) -> int:
    target = None
    if args.write_config:
        target = Path(args.write_config) if isinstance(args.write_config, str) else args.config and Path(args.config)
        if target is None:
            print("companion hardware plan: --write-config needs a file, or --config", file=sys.stderr)
            return 2
        if target.exists() and not args.config:
            args.config = str(target)  # an existing hardware file: plan with its channels, rewrite only [rf]
    try:
        plan, config = build_plan(args)
    except (ConfigError, ValueError) as exc:
        print(f"companion hardware plan: {exc}", file=sys.stderr)
        return 2
    if args.svg:
        try:
            Path(args.svg).write_text(template_svg(plan), encoding="utf-8")
        except OSError as exc:
            print(f"companion hardware plan: cannot write {args.svg}: {exc.strerror or exc}", file=sys.stderr)
            return 2
    if target is not None:
        try:
            _write_config(target, plan, config)
        except (ConfigError, OSError) as exc:
            print(f"companion hardware plan: not written: {exc}", file=sys.stderr)
            return 2
    if args.json:
        print(json.dumps(to_json(plan), ensure_ascii=False, indent=2))
    else:
        print(report(plan))
        if args.svg:
            print(f"Placement template (print at 100 %): {args.svg}")
        if target is not None:
            print(f"[rf] written to {target}")
    return 0


def _at_least_one(text: str) -> int:
    value = int(text) if text.strip().lstrip("-").isdigit() else 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: give a whole number of antennas, at least 1")
    return value


def register_plan(hw_sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from companion import games

    plan = hw_sub.add_parser(
        "plan",
        help="antenna room, fit, RF groups by distance, sweep time, power and a 1:1 template from the board",
        description=(
            "Plan the readers from the printed board's geometry: each city's room for an antenna, which "
            "cities cannot hold the chosen antenna, RF groups of antennas far enough apart, the sweep time, "
            "the power budget, the [rf] tables for the hardware file and a 1:1 placement template."
        ),
    )
    plan.add_argument("--board-size", required=True, help="printed map, WIDTHxHEIGHT in mm (e.g. 600x450)")
    plan.add_argument("--board", help="board TOML (default: the game's reference board)")
    plan.add_argument("--dataset", help="a digitised data set on this box (its board), instead of --board")
    plan.add_argument("--state-dir", help="the box's state directory, for --dataset (default: as the journal's)")
    plan.add_argument("--game", choices=games.names(), help=f"the game (default: {games.DEFAULT_GAME})")
    plan.add_argument(
        "--positions", help="TOML of measured positions, [positions] City = [x_mm, y_mm] (overrides the board x,y)"
    )
    plan.add_argument("--antenna", default="stock", help="stock (RC522 module), mini, or coil:<mm> (default: stock)")
    plan.add_argument(
        "--compare",
        nargs="*",
        default=["coil:25", "coil:20", "coil:15"],
        help="more antenna kinds for the fit table (default: coil:25 coil:20 coil:15)",
    )
    plan.add_argument("--config", help="hardware TOML: its reader channels, card reader, [rf] close and LEDs")
    plan.add_argument(
        "--per-bank", type=_at_least_one, default=4, help="at most this many antennas of one bank on at once (4)"
    )
    plan.add_argument(
        "--max-on",
        type=_at_least_one,
        help="at most this many antennas on at once in all (a smaller supply, more groups; default: no cap)",
    )
    plan.add_argument("--leds", type=int, default=112, help="LED bits, without --config (default: 112)")
    plan.add_argument("--svg", help="write the 1:1 placement template (SVG in mm) here")
    plan.add_argument(
        "--write-config",
        nargs="?",
        const=True,
        help="write [rf] close/groups into the hardware TOML (--config, or this file; a new file gets [readers] too)",
    )
    plan.add_argument("--json", action="store_true", help="the plan as JSON")
    plan.set_defaults(handler=run_plan)
