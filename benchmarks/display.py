"""Display benchmark: full-frame render time at 800×480 and 1920×1080, and the idle simulator's CPU use.

    .venv/bin/python benchmarks/display.py            # SDL_VIDEODRIVER=dummy unless a display is set

Idle CPU is measured on the real simulator loop (``Simulator.run``) for 10 s: process CPU time
(``resource.getrusage``, all threads) divided by wall time. Target: under 2 % of one core.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import threading
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pygame

from companion import games
from companion.games.on_the_way.screen.render import render
from companion.simulator.app import new_game
from companion.simulator.window import Simulator
from tests.display import scenes


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def bench_render(size: tuple[int, int], repeat: int) -> dict[str, float]:
    out: dict[str, float] = {}
    surface = pygame.Surface(size)
    for make in (scenes.setup, scenes.lifted, scenes.jam, scenes.game_over):
        scene = make()
        render(surface, scene.state, scene.ui, scene.leds)  # warm the font cache
        times = []
        for i in range(repeat):
            t0 = time.perf_counter()
            render(surface, scene.state, scene.ui, scene.leds, now=i * 0.1)
            times.append(time.perf_counter() - t0)
        out[scene.name] = statistics.median(times) * 1000
    return out


def bench_idle(seconds: float, *, blinking: bool = False) -> tuple[float, int]:
    """CPU % of one core while the simulator waits for input; and how many full renders it did."""
    sim = Simulator(
        games.get("on-the-way"), new_game("on-the-way", ("red", "blue"), end_at=None), seed=1, size=(1280, 800)
    )
    if blinking:  # a blue marker on the board on red's turn: "take it off" blinks (EXPECTED)
        from companion.intents import TagPlaced
        from companion.table.tags import MarkerTag

        sim.send(TagPlaced("Warsaw", sim.table.uid(MarkerTag("blue", 1))))
        sim.table.markers[MarkerTag("blue", 1)] = "Warsaw"
        time.sleep(0.4)
        sim.controller.tick(time.monotonic())
        sim._sync()
        assert sim.controller.ui.expected, sim.controller.ui
    sim.draw()
    renders = sim.renders
    timer = threading.Timer(seconds, lambda: pygame.event.post(pygame.event.Event(pygame.QUIT)))
    c0, w0 = cpu_seconds(), time.perf_counter()
    timer.start()
    sim.run()
    c1, w1 = cpu_seconds(), time.perf_counter()
    return 100 * (c1 - c0) / (w1 - w0), sim.renders - renders


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--repeat", type=int, default=30)
    p.add_argument("--idle-seconds", type=float, default=10.0)
    p.add_argument("--quick", action="store_true", help="small counts, for the test suite (tests/test_benchmarks.py)")
    args = p.parse_args()
    if args.quick:
        args.repeat, args.idle_seconds = 2, 0.5
    pygame.display.init()
    pygame.font.init()
    print(f"SDL video driver: {os.environ['SDL_VIDEODRIVER']}, pygame-ce {pygame.version.ver}")
    for size in ((800, 480), (1920, 1080)):
        times = bench_render(size, args.repeat)
        cells = ", ".join(f"{k} {v:.1f} ms" for k, v in times.items())
        print(f"full-frame render {size[0]}x{size[1]} (median of {args.repeat}): {cells}")
    cpu, renders = bench_idle(args.idle_seconds)
    print(f"idle simulator, {args.idle_seconds:.0f} s: {cpu:.2f} % of one core, {renders} full renders")
    cpu, renders = bench_idle(args.idle_seconds, blinking=True)
    print(f"blinking selection, {args.idle_seconds:.0f} s: {cpu:.2f} % of one core, {renders} full renders")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
