"""``companion export GAME``, ``companion games [list|clear]`` and ``companion kiosk``.

``export`` writes the record as ``companion play --script`` lines (one JSON command per line, undos
included) and prints the matching ``companion play`` flags on stderr, so the export replays to the
same final state.
"""

from __future__ import annotations

import argparse
import logging
import os
import shlex
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from companion.journal import (
    PLAYING,
    JournalError,
    JournalStore,
    default_journal_path,
    export_lines,
)


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    e = sub.add_parser("export", help="write a recorded game as JSON lines that `companion play --script` replays")
    e.add_argument("game", type=int, metavar="GAME", help="the game number (see `companion games`)")
    e.add_argument("-o", "--output", default="-", help="file to write (default: stdout)")
    _journal_arg(e)
    e.set_defaults(handler=run_export)

    g = sub.add_parser("games", help="list the recorded games, or clear the finished ones (admin)")
    g.add_argument("action", nargs="?", choices=("list", "clear"), default="list")
    g.add_argument("--all", action="store_true", help="clear: also the unfinished game")
    _journal_arg(g)
    g.set_defaults(handler=run_games)

    k = sub.add_parser("kiosk", help="kiosk mode for conventions (run by systemd, see docs/pi-install.md)")
    k.add_argument("--headless", action="store_true", help="no screen: log the views (service tests)")
    k.add_argument(
        "--hardware",
        metavar="FILE",
        help="hardware TOML of the box (default: $COMPANION_HARDWARE_FILE; none: simulated tags, no LEDs)",
    )
    k.add_argument("--windowed", metavar="WxH", help="a window instead of the console's full screen (trying it out)")
    _journal_arg(k)
    k.set_defaults(handler=run_kiosk)


if TYPE_CHECKING:
    from companion.kiosk.screen import KioskScreen


def _journal_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--journal",
        type=Path,
        default=None,
        help="journal file (default: $STATE_DIRECTORY or ~/.local/state/companion, journal.sqlite)",
    )


def _open(args: argparse.Namespace) -> JournalStore:
    store = JournalStore.open(args.journal or default_journal_path())
    if store.report is not None:
        print(f"companion: {store.report}", file=sys.stderr)
    return store


def run_export(args: argparse.Namespace) -> int:
    with _open(args) as store:
        record = store.game(args.game)
        if record is None:
            print(f"companion export: there is no game {args.game} in {store.path}", file=sys.stderr)
            return 2
        try:
            lines = export_lines(store, record.id)
        except JournalError as exc:
            print(f"companion export: {exc}", file=sys.stderr)
            return 1
    text = "".join(line + "\n" for line in lines)
    if args.output == "-":
        sys.stdout.write(text)
        script = "FILE"
    else:
        Path(args.output).write_text(text, encoding="utf-8")
        script = args.output
    replay = shlex.join(["companion", "play", *record.setup.play_args(), "--script", script])
    print(f"game {record.id}: {len(lines)} commands ({record.status}); replay with:\n  {replay}", file=sys.stderr)
    return 0


def _when(timestamp: float | None) -> str:
    return "" if timestamp is None else datetime.fromtimestamp(timestamp).strftime("%Y-%m-%d %H:%M")


def run_games(args: argparse.Namespace) -> int:
    with _open(args) as store:
        if args.action == "clear":
            deleted = store.clear(keep_playing=not args.all)
            print(f"cleared {deleted} game(s) from {store.path}")
            return 0
        records = store.games()
    if not records:
        print("no recorded games")
        return 0
    print(f"{'game':>4}  {'started':16}  {'status':9}  {'commands':>8}  players / result")
    for r in records:
        if r.result:
            tail = ", ".join(f"{x['place']}. {x['colour']} {x['score']}" for x in r.result)
        else:
            round_ = r.progress.get("round")
            tail = ",".join(r.players) + (f"  (round {round_})" if r.status == PLAYING and round_ else "")
        print(f"{r.id:>4}  {_when(r.started_at):16}  {r.status:9}  {r.commands:>8}  {tail}  [{r.setup.game}]")
    return 0


def run_kiosk(args: argparse.Namespace) -> int:
    """The kiosk loop. The admin PIN comes from ``$COMPANION_ADMIN_PIN`` (the unit's EnvironmentFile)."""
    import queue

    from companion import games
    from companion.hardware.errors import HardwareError
    from companion.kiosk import Kiosk, KioskSettings
    from companion.kiosk.app import Frontend, HeadlessFrontend, KioskLeds, KioskLoop, LoggingLeds
    from companion.kiosk.machine import KioskIntent
    from companion.table.tags import TagDirectory

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")  # journald adds the time
    settings = KioskSettings()
    pin = os.environ.get("COMPANION_ADMIN_PIN")
    if pin:
        settings = KioskSettings(pin=pin)
    else:
        logging.getLogger(__name__).warning("COMPANION_ADMIN_PIN is not set: the default admin PIN is in use")
    intents: queue.Queue[KioskIntent] = queue.Queue()
    leds: KioskLeds
    hardware = args.hardware or os.environ.get("COMPANION_HARDWARE_FILE")
    if hardware:
        from companion.kiosk.hardware import open_box

        neighbours: dict[str, set[str]] = {}
        for name in settings.games or games.names():
            for city, near in games.get(name).neighbours().items():
                neighbours.setdefault(city, set()).update(near)
        try:
            tags, leds = open_box(Path(hardware), intents, neighbours)
        except (HardwareError, OSError) as exc:
            print(f"companion kiosk: {exc}", file=sys.stderr)
            return 2
    else:
        offered = [games.get(name) for name in (settings.games or games.names())]
        colours = dict.fromkeys(c for g in offered for c in g.colours)
        tags = TagDirectory.simulated(colours, [card for g in offered for card in g.card_ids()])
        leds = LoggingLeds()
    frontend: Frontend
    if args.headless:
        frontend = HeadlessFrontend()
    else:
        opened = _open_screen(args.windowed)
        if isinstance(opened, str):
            print(f"companion kiosk: {opened}", file=sys.stderr)
            leds.off()
            return 2
        frontend = opened
    store = JournalStore.open(args.journal or default_journal_path())
    kiosk = Kiosk(store, tags, now=time.monotonic(), settings=settings, leds=leds)
    loop = KioskLoop(kiosk, frontend, intents=intents, leds=leds)
    loop.install_signal_handlers()
    return loop.run()


def _open_screen(windowed: str | None) -> KioskScreen | str:
    """The pygame screen: fullscreen on the console (kmsdrm checked first), or a window for trying it out."""
    from companion.kiosk.display_env import (
        check_video_driver,
        disable_console_blanking,
        kiosk_environment,
        open_fullscreen,
    )

    if windowed is None:
        env = kiosk_environment(os.environ)
        os.environ.update(env)
        check = check_video_driver(env["SDL_VIDEODRIVER"])
        if not check.ok:
            return check.message
    import pygame

    from companion.kiosk.screen import KioskScreen

    pygame.display.init()
    pygame.font.init()
    if windowed is None:
        surface = open_fullscreen(pygame)
        disable_console_blanking()
    else:
        w, h = (int(v) for v in windowed.lower().split("x"))
        surface = pygame.display.set_mode((w, h))
        pygame.display.set_caption("companion kiosk")
    return KioskScreen(surface)
