"""Engine benchmarks: the reachable-set query (LED hints) and complete random games per second.

    python benchmarks/engine.py [--games 50] [--players 2]

Numbers go in the issue notes, never in test assertions.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from companion.games.on_the_way.data import load_reference
from companion.games.on_the_way.engine import GameConfig, apply
from companion.games.on_the_way.engine.movement import _reachable
from companion.games.on_the_way.engine.notation import position
from companion.games.on_the_way.engine.playout import play_out
from companion.games.on_the_way.engine.state import initial_state


def bench_reachable(config: GameConfig, repeat: int = 2000) -> dict[str, float]:
    """Cold reachable-set queries (no per-state cache) on a mid-game position with a hub network."""
    state = position(
        config,
        "cities Warsaw=W3 Poznań=L3 Lviv=W2 Berlin=L2 Prague=W2 Bratislava=W2 Vienna=W2\nred 1:Bremen:2",
    )
    starts = [c for c in config.board.names]
    timings = []
    sizes = []
    for i in range(repeat):
        start = starts[i % len(starts)]
        t0 = time.perf_counter_ns()
        found = _reachable(state, "red", start, 2, 2)
        timings.append((time.perf_counter_ns() - t0) / 1000)
        sizes.append(len(found))
    timings.sort()
    return {
        "median_us": statistics.median(timings),
        "p99_us": timings[int(len(timings) * 0.99)],
        "mean_cities": statistics.mean(sizes),
    }


def bench_games(config: GameConfig, games: int) -> dict[str, float]:
    t0 = time.perf_counter()
    commands = 0
    finished = 0
    for seed in range(games):
        result = play_out(initial_state(config), random.Random(seed))
        commands += len(result.commands)
        finished += result.finished
    elapsed = time.perf_counter() - t0
    # Validated apply alone, replaying one game's log.
    log = play_out(initial_state(config), random.Random(0)).commands
    t1 = time.perf_counter()
    state = initial_state(config)
    for command in log:
        state, _ = apply(state, command)
    apply_us = (time.perf_counter() - t1) / len(log) * 1e6
    return {
        "games_per_s": games / elapsed,
        "finished": finished,
        "commands_per_game": commands / games,
        "apply_us_per_command": apply_us,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    args = parser.parse_args()
    board, deck = load_reference()
    config = GameConfig(board, deck, ("red", "blue", "green", "yellow")[: args.players])
    r = bench_reachable(config)
    print(
        f"reachable set (cold, reference board, 2 trucks): median {r['median_us']:.1f} µs, "
        f"p99 {r['p99_us']:.1f} µs, {r['mean_cities']:.1f} cities on average"
    )
    g = bench_games(config, args.games)
    print(
        f"random complete games ({args.players} players, heuristic playout): {g['games_per_s']:.1f} games/s "
        f"on one core, {g['finished']:.0f}/{args.games} finished, {g['commands_per_game']:.0f} commands/game, "
        f"validated apply {g['apply_us_per_command']:.1f} µs/command"
    )


if __name__ == "__main__":
    main()
