"""Engine benchmarks: the reachable-set query (LED hints) and complete random games per second, through
the validated engine and through the bots' playout kernel, and a CPU calibration for the Pi 4 factor.

    python benchmarks/engine.py [--games 50] [--kernel-games 500] [--players 2]

Games per second are per CPU-second of one core (``time.process_time``), so a busy machine does not
skew them; wall-clock figures are printed beside. Numbers go in the notes and docs/bots.md, never in
test assertions.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from companion.games.on_the_way.bots import KERNEL_BUILD
from companion.games.on_the_way.bots.budget import DEV_ACTIONS_PER_S, PI4_SLOWDOWN
from companion.games.on_the_way.bots.kernel import Kernel
from companion.games.on_the_way.bots.policy import play_out as kernel_play_out
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
    t0 = time.process_time()
    w0 = time.perf_counter()
    commands = 0
    finished = 0
    for seed in range(games):
        result = play_out(initial_state(config), random.Random(seed))
        commands += len(result.commands)
        finished += result.finished
    elapsed = time.process_time() - t0
    wall = time.perf_counter() - w0
    # Validated apply alone, replaying one game's log.
    log = play_out(initial_state(config), random.Random(0)).commands
    t1 = time.perf_counter()
    state = initial_state(config)
    for command in log:
        state, _ = apply(state, command)
    apply_us = (time.perf_counter() - t1) / len(log) * 1e6
    return {
        "games_per_s": games / elapsed,
        "wall_games_per_s": games / wall,
        "finished": finished,
        "commands_per_game": commands / games,
        "apply_us_per_command": apply_us,
    }


def bench_kernel(config: GameConfig, games: int) -> dict[str, float]:
    """Complete games with the bots' kernel and greedy policy (what every Monte-Carlo playout runs)."""
    start = initial_state(config)
    t0 = time.process_time()
    w0 = time.perf_counter()
    actions = finished = 0
    for seed in range(games):
        kernel = Kernel.from_state(start)
        actions += kernel_play_out(kernel, random.Random(seed))
        finished += kernel.finished
    elapsed = time.process_time() - t0
    wall = time.perf_counter() - w0
    return {
        "games_per_s": games / elapsed,
        "wall_games_per_s": games / wall,
        "finished": finished,
        "actions_per_game": actions / games,
        "actions_per_s": actions / elapsed,
    }


def nbody_us_per_step(steps: int = 200_000) -> float:
    """The Computer Language Benchmarks Game's n-body (Python #1), µs per step on one core.

    Published for a Pi 4 (1.5 GHz Cortex-A72): 158 s for 5 000 000 steps = 31.6 µs/step with
    Raspberry Pi OS's CPython 3.7; docs/bots.md turns this into the Pi 4 factor.
    """
    bodies = [
        ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0], 39.47841760435743),
        ([4.84, -1.16, -0.10], [0.606, 2.812, -0.025], 0.03769367487038949),
        ([8.34, 4.12, -0.40], [-1.011, 1.826, 0.008], 0.011286326131968767),
        ([12.89, -15.11, -0.22], [1.083, 0.869, -0.011], 0.0017237240570597112),
        ([15.38, -25.92, 0.18], [0.979, 0.595, -0.035], 0.0020336868699246304),
    ]
    pairs = [(bodies[i], bodies[j]) for i in range(len(bodies) - 1) for j in range(i + 1, len(bodies))]
    dt = 0.01
    t0 = time.process_time()
    for _ in range(steps):
        for ([x1, y1, z1], v1, m1), ([x2, y2, z2], v2, m2) in pairs:
            dx = x1 - x2
            dy = y1 - y2
            dz = z1 - z2
            mag = dt * ((dx * dx + dy * dy + dz * dz) ** (-1.5))
            b1m = m1 * mag
            b2m = m2 * mag
            v1[0] -= dx * b2m
            v1[1] -= dy * b2m
            v1[2] -= dz * b2m
            v2[0] += dx * b1m
            v2[1] += dy * b1m
            v2[2] += dz * b1m
        for r, [vx, vy, vz], _m in bodies:
            r[0] += dt * vx
            r[1] += dt * vy
            r[2] += dt * vz
    return (time.process_time() - t0) / steps * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--kernel-games", type=int, default=500)
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument(
        "--quick", action="store_true", help="small counts, for the test suite (tests/test_benchmarks.py)"
    )
    args = parser.parse_args()
    if args.quick:
        args.games, args.kernel_games = 2, 10
    board, deck = load_reference()
    config = GameConfig(board, deck, ("red", "blue", "green", "yellow")[: args.players])
    r = bench_reachable(config)
    print(
        f"reachable set (cold, reference board, 2 trucks): median {r['median_us']:.1f} µs, "
        f"p99 {r['p99_us']:.1f} µs, {r['mean_cities']:.1f} cities on average"
    )
    g = bench_games(config, args.games)
    print(
        f"validated engine, complete games ({args.players} players, engine heuristic playout): "
        f"{g['games_per_s']:.1f} games/s per CPU-second ({g['wall_games_per_s']:.1f} wall), "
        f"{g['finished']:.0f}/{args.games} finished, {g['commands_per_game']:.0f} commands/game, "
        f"validated apply {g['apply_us_per_command']:.1f} µs/command"
    )
    k = bench_kernel(config, args.kernel_games)
    print(
        f"playout kernel, complete games ({args.players} players, bots' greedy policy): "
        f"{k['games_per_s']:.0f} games/s per CPU-second ({k['wall_games_per_s']:.0f} wall), "
        f"{k['finished']:.0f}/{args.kernel_games} finished, {k['actions_per_game']:.0f} actions/game, "
        f"{k['actions_per_s'] / 1000:.0f} k kernel actions/s — {k['games_per_s'] / g['games_per_s']:.1f}x "
        f"the validated engine's games/s"
    )
    print(f"playout kernel build: {KERNEL_BUILD}")
    nbody = nbody_us_per_step(2_000 if args.quick else 200_000)
    print(
        f"CPU calibration: n-body {nbody:.2f} µs/step here (Pi 4 published: 31.6 µs/step on CPython 3.7); "
        f"bots budget assumes this machine = {PI4_SLOWDOWN:g}x a Pi 4 core and {DEV_ACTIONS_PER_S / 1000:.0f} k "
        f"actions/s in search (docs/bots.md)"
    )


if __name__ == "__main__":
    main()
