"""Kiosk benchmark: CPU use of the attract screen (the sample game replayed on the map) and of an idle
kiosk with the replay off, through the real loop and screen (headless, 800×480).

    python benchmarks/kiosk.py [--seconds 20]

Each figure on its own line: ``attract replay, 800x480: 4.1 % of a core``.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pygame

from companion import games
from companion.journal import JournalStore
from companion.kiosk import Kiosk, KioskSettings
from companion.kiosk.app import KioskLoop
from companion.kiosk.screen import KioskScreen
from companion.table.tags import TagDirectory


class NoNotify:
    enabled = False

    def ready(self, *_: object) -> None: ...
    def stopping(self) -> None: ...
    def close(self) -> None: ...
    def watchdog(self) -> None: ...


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def measure(seconds: float, replay_step_s: float) -> tuple[float, int]:
    pygame.display.init()
    pygame.font.init()
    screen = KioskScreen(pygame.Surface((800, 480)))
    with tempfile.TemporaryDirectory() as tmp:
        store = JournalStore.open(Path(tmp) / "j.sqlite")
        tags = TagDirectory.simulated(("red", "blue", "green"), [])
        names = games.names()
        settings = KioskSettings(pin="2468", games=names, replay_step_s=replay_step_s)
        kiosk = Kiosk(store, tags, now=time.monotonic(), settings=settings)
        loop = KioskLoop(kiosk, screen, notifier=NoNotify())  # type: ignore[arg-type]
        for _ in range(5):  # warm up: fonts, the first replay's playout
            loop.step()
        c0, t0, r0 = cpu(), time.monotonic(), screen.renders
        while time.monotonic() - t0 < seconds:
            loop.step()
        used = (cpu() - c0) / (time.monotonic() - t0) * 100
        renders = screen.renders - r0
        kiosk.close()
    return used, renders


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument(
        "--quick", action="store_true", help="small counts, for the test suite (tests/test_benchmarks.py)"
    )
    args = parser.parse_args()
    if args.quick:
        args.seconds = 1.0
    used, renders = measure(args.seconds, 1.2)
    print(f"attract replay, 800x480: {used:.1f} % of a core ({renders} renders in {args.seconds:.0f} s)")
    used, renders = measure(args.seconds, 0.0)
    print(f"attract idle (replay off), 800x480: {used:.1f} % of a core ({renders} renders in {args.seconds:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
