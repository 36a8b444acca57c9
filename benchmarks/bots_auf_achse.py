"""Auf Achse bot strength: 2-player games between two levels through the validated engine, seats alternating.

    python benchmarks/bots_auf_achse.py [--games 200] [--pair medium:easy] [--jobs 2] [--rule NAME=VALUE] [--quick]

``--quick``: two games of easy against easy (a smoke run in seconds, not a measurement).

Every command of every game (set-up, cards, turns, auctions) is a bot's, asked as ``companion play``
asks them (each seat in order until one has something to do, ``companion.games.seats``), and goes
through the validated ``engine.apply``; a refused one is counted (and the game abandoned). A game is
capped at ``MAX_COMMANDS``; one that does not finish counts as played, ranked where it stopped. Seeds
are the game numbers: game g plays the companion's die with seed g and the bots with seed g.

Prints ``name: number unit`` lines; the numbers go in docs/bots-auf-achse.md, never in test assertions.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from typing import NamedTuple, cast

from companion import games
from companion.engine.errors import IllegalAction
from companion.engine.stats import wilson
from companion.games.auf_achse.bots import LEVELS
from companion.games.auf_achse.data import load_aa_reference
from companion.games.auf_achse.engine import (
    Bid,
    Command,
    EndTurn,
    GameConfig,
    HouseRules,
    Move,
    OpenAuction,
    PassBid,
    PlaceSign,
    apply,
)
from companion.games.auf_achse.engine.scoring import winners, worth
from companion.games.auf_achse.engine.state import initial_state
from companion.games.seats import BotSeats

COLOURS = ("red", "blue")
# What the medium and hard levels may search (players.choose), and what the search may answer (PlaceSign).
SEARCHED = (Move, OpenAuction, EndTurn, Bid, PassBid, PlaceSign)
MAX_COMMANDS = 5000  # greedy 2-player games take ~450 commands


class Result(NamedTuple):
    game: int
    score: float  # for the first level: 1 win, 0.5 tie, 0 loss
    refused: int
    commands: int
    margin: int  # DM, the first level's less the other's
    finished: int
    cpu: float  # CPU seconds of the whole game
    # CPU seconds of each decision the search may take (a move, an auction or the end of the act stage,
    # a bid), of the first level's seat and of the second's
    decisions: tuple[list[float], list[float]]


def play(args: tuple[int, str, str, tuple[tuple[str, str], ...]]) -> Result:
    """One game; the first level sits first in even games."""
    game, first, second, rules = args
    board, deck = load_aa_reference()
    config = GameConfig(board, deck, COLOURS, HouseRules.from_mapping(dict(rules)), seed=game)
    levels = {COLOURS[0]: first, COLOURS[1]: second} if game % 2 == 0 else {COLOURS[0]: second, COLOURS[1]: first}
    mine = COLOURS[0] if game % 2 == 0 else COLOURS[1]
    state = initial_state(config)
    bots = BotSeats(games.get("auf-achse"), levels, game)
    refused = commands = 0
    decisions: tuple[list[float], list[float]] = ([], [])
    t0 = time.process_time()
    while not state.finished and commands < MAX_COMMANDS:
        asked = time.process_time()
        command = cast(Command | None, bots(state))  # each bot seat in turn, as every table and script asks them
        if isinstance(command, SEARCHED):
            decisions[command.player != mine].append(time.process_time() - asked)
        if command is None:  # nobody has anything to do: a bug in the bots (counted as a refusal)
            refused += 1
            break
        try:
            state, _ = apply(state, command)
        except IllegalAction:
            refused += 1
            break
        commands += 1
    cpu = time.process_time() - t0
    won = winners(state)
    result = 0.5 if len(won) > 1 and mine in won else float(mine in won)
    player = {p.colour: p for p in state.players}
    other = COLOURS[1] if mine == COLOURS[0] else COLOURS[0]
    margin = worth(state, player[mine]) - worth(state, player[other])
    return Result(game, result, refused, commands, margin, int(state.finished), cpu, decisions)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--pair", default="medium:easy", help=f"LEVEL:LEVEL of {', '.join(LEVELS)}")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--offset", type=int, default=0, help="first game number (seed)")
    parser.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE", help="a house rule")
    parser.add_argument("--quick", action="store_true", help="2 games of easy vs easy: a smoke run in seconds")
    args = parser.parse_args()
    if args.quick:
        args.games, args.pair = 2, "easy:easy"
    first, second = args.pair.split(":")
    for level in (first, second):
        if level not in LEVELS:
            parser.error(f"unknown level {level!r}; Auf Achse bot levels are {', '.join(LEVELS)}")
    rules = tuple(tuple(item.split("=", 1)) for item in args.rule)
    jobs = [(args.offset + g, first, second, rules) for g in range(args.games)]
    t0 = time.perf_counter()
    results = []
    with multiprocessing.Pool(max(1, args.jobs)) as pool:
        for r in pool.imap_unordered(play, jobs):
            results.append(r)  # each game on stderr as it ends: a run cut short still tells something
            print(f"{len(results)}/{len(jobs)} game {r.game}: {first} scores {r.score}", file=sys.stderr)
    results.sort()
    elapsed = time.perf_counter() - t0
    n = len(results)
    points = sum(r.score for r in results)
    low, high = wilson(points, n)
    commands = sum(r.commands for r in results)
    cpu = sum(r.cpu for r in results)
    print(f"pair: {first} vs {second} ({n} games, seats alternating, rules {dict(rules) or 'default'})")
    print(f"games: {n} games")
    print(f"score_{first}: {points / n:.1%} ({first}'s wins, ties half)")
    print(f"wilson95_low: {low:.1%}")
    print(f"wilson95_high: {high:.1%}")
    print(f"wins_{first}: {sum(1 for r in results if r.score == 1.0)} games")
    print(f"ties: {sum(1 for r in results if r.score == 0.5)} games")
    print(f"mean_margin_{first}: {sum(r.margin for r in results) / n:+.0f} DM")
    print(f"refused: {sum(r.refused for r in results)} commands")
    print(f"finished: {sum(r.finished for r in results)} games")
    print(f"commands_per_game: {commands / n:.0f} commands")
    print(f"commands_per_cpu_s: {commands / cpu:.0f} commands/s")
    print(f"cpu_per_game: {cpu / n:.2f} s")
    print(f"wall: {elapsed:.0f} s ({args.jobs} jobs)")
    # One line per level; a level in both seats (easy:easy) has one line of both.
    seats = {first: (0, 1)} if first == second else {first: (0,), second: (1,)}
    for level, roles in seats.items():
        times = sorted(t for r in results for k in roles for t in r.decisions[k])
        if times:
            mean, p90, top = sum(times) / len(times), times[int(0.9 * (len(times) - 1))], times[-1]
            print(f"cpu_per_decision_{level}: {mean:.3f} s (p90 {p90:.3f}, max {top:.3f}; {len(times)} decisions)")


if __name__ == "__main__":
    main()
