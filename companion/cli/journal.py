"""``companion export GAME``, ``companion games [list|clear]`` and ``companion kiosk``.

``export`` writes the record as ``companion play --script`` lines (one JSON command per line, undos
included) and prints the matching ``companion play`` flags on stderr, so the export replays to the
same final state.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import shlex
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.journal import (
    ENDED,
    FINISHED,
    PLAYING,
    JournalCorrupt,
    JournalError,
    JournalMissing,
    JournalStore,
    default_journal_path,
)


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    e = sub.add_parser("export", help="write a recorded game as JSON lines that `companion play --script` replays")
    e.add_argument("game", type=int, metavar="GAME", help="the game number (see `companion games`)")
    e.add_argument("-o", "--output", default="-", help="file to write (default: stdout)")
    e.add_argument(
        "--stats",
        action="store_true",
        help="write the game in figures instead: a PNG (balance over the rounds, payouts) and the same as JSON, "
        "to OUTPUT.png and OUTPUT.json (default OUTPUT: game-GAME-stats)",
    )
    e.add_argument("--language", default="en", help="--stats: the picture's language (en, cs, de, pl)")
    _journal_arg(e)
    e.set_defaults(handler=run_export)

    g = sub.add_parser("games", help="list the recorded games, or clear the finished ones (admin)")
    g.add_argument("action", nargs="?", choices=("list", "clear"), default="list", help="list (the default) or clear")
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
    k.add_argument(
        "--show-pin",
        action="store_true",
        help="print the box's admin PIN and exit (run as the kiosk user or root: it is readable by them only)",
    )
    _journal_arg(k)
    k.set_defaults(handler=run_kiosk)


if TYPE_CHECKING:
    from companion.kiosk.app import StartGuard
    from companion.kiosk.screen import KioskScreen


def _journal_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--journal",
        type=Path,
        default=None,
        help="journal file (default: $STATE_DIRECTORY or ~/.local/state/companion, journal.sqlite)",
    )


def _journal_path(args: argparse.Namespace) -> Path:
    return Path(args.journal) if args.journal else default_journal_path()


def _open(args: argparse.Namespace, command: str, *, read_only: bool, missing: str = "") -> JournalStore | int:
    """The journal, or the exit status after a clear message (never a traceback, never a renamed file).

    ``read_only`` (``games``, ``export``): SQLite ``mode=ro``, nothing is written, created or moved.
    """
    path = _journal_path(args)
    try:
        store = JournalStore.open(path, read_only=read_only)
    except JournalMissing:
        print(
            f"companion {command}: {missing}there is no game journal at {path} (nothing was created)", file=sys.stderr
        )
        return 3
    except JournalCorrupt as exc:
        print(
            f"companion {command}: the game journal {path} is damaged ({exc}); it was not changed. "
            "The kiosk moves a damaged journal aside at its next start and starts a new one.",
            file=sys.stderr,
        )
        return 1
    except JournalError as exc:
        print(f"companion {command}: {exc}", file=sys.stderr)
        return 1
    if store.report is not None:
        print(f"companion: {store.report}", file=sys.stderr)
    return store


def run_export(args: argparse.Namespace) -> int:
    output = None if args.output == "-" else Path(args.output)
    if output is not None and not output.parent.is_dir():
        print(f"companion export: the folder {output.parent} does not exist; create it first", file=sys.stderr)
        return 2
    opened = _open(args, "export", read_only=True, missing=f"there is no game {args.game}: ")
    if isinstance(opened, int):
        return 2 if opened == 3 else opened
    with opened as store:
        try:
            record = store.game(args.game)
            if record is None:
                print(f"companion export: there is no game {args.game} in {store.path}", file=sys.stderr)
                return 2
            commands, problem = store.readable_commands(record.id)  # a broken game: the commands that read
            lines = [json.dumps(c, ensure_ascii=False) for c in commands]
        except JournalError as exc:
            print(f"companion export: {exc}", file=sys.stderr)
            return 1
    if problem is not None and args.stats:
        print(f"companion export: game {record.id} is damaged ({problem}): no figures", file=sys.stderr)
        return 1
    if args.stats:
        base = Path(f"game-{record.id}-stats") if output is None else output
        return _export_stats(record, commands, base, getattr(args, "language", "en"))
    text = "".join(line + "\n" for line in lines)
    if output is None:
        sys.stdout.write(text)
        script = "FILE"
    else:
        try:
            output.write_text(text, encoding="utf-8")
        except OSError as exc:
            print(f"companion export: cannot write {output}: {exc.strerror or exc}", file=sys.stderr)
            return 1
        script = str(output)
    if record.damage:
        print(f"companion export: game {record.id}'s set-up is damaged ({record.damage})", file=sys.stderr)
    replay = shlex.join(["companion", "play", *record.setup.play_args(), "--script", script])
    print(f"game {record.id}: {len(lines)} commands ({record.status}); replay with:\n  {replay}", file=sys.stderr)
    if problem is not None:  # written what reads, and said what does not: never a silent short export
        print(f"companion export: game {record.id} is damaged: exported the {len(lines)} commands before it "
              f"({problem})", file=sys.stderr)  # fmt: skip
        return 1
    return 0


def _export_stats(record: Any, commands: list[Any], base: Path, language: str = "en") -> int:
    """The game in figures (``companion.engine.stats``) as BASE.json and a picture BASE.png."""
    from companion import games
    from companion.engine.errors import GameError
    from companion.games.stats import stats_of_record

    try:
        stats = stats_of_record(games.get(record.setup.game), record.setup, commands)
    except (GameError, ValueError, OSError) as exc:
        print(f"companion export: game {record.id} does not replay: {exc}", file=sys.stderr)
        return 1
    png = base.with_name(base.name.removesuffix(".png").removesuffix(".json") + ".png")
    data = png.with_suffix(".json")
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # a picture, not a window
    import pygame

    from companion.display.stats import draw_stats

    pygame.font.init()
    surface = pygame.Surface((1280, 800))
    try:
        draw_stats(surface, stats, language=language, game_id=record.id,
                   played=(record.started_at, record.finished_at or record.last_at))  # fmt: skip
    except ValueError as exc:  # a language without a catalogue
        print(f"companion export: {exc}", file=sys.stderr)
        return 2
    try:
        data.write_text(json.dumps({"game_id": record.id, **stats.to_json()}, ensure_ascii=False, indent=1) + "\n",
                        encoding="utf-8")  # fmt: skip
        pygame.image.save(surface, str(png))
    except (OSError, pygame.error) as exc:
        print(f"companion export: cannot write {png} / {data}: {exc}", file=sys.stderr)
        return 1
    print(f"game {record.id} in figures: {png} and {data}", file=sys.stderr)
    return 0


def _when(timestamp: float | None) -> str:
    return "" if timestamp is None else datetime.fromtimestamp(timestamp).strftime("%Y-%m-%d %H:%M")


def run_games(args: argparse.Namespace) -> int:
    clearing = args.action == "clear"
    if clearing and not _journal_path(args).is_file():  # clearing never creates a journal or its folder
        print(f"companion games: there is no game journal at {_journal_path(args)}: nothing to clear "
              "(nothing was created)", file=sys.stderr)  # fmt: skip
        return 1
    opened = _open(args, "games", read_only=not clearing)
    if isinstance(opened, int):
        if opened == 3:
            print("no recorded games")
            return 0
        return opened
    with opened as store:
        try:
            if clearing:
                deleted = store.clear(keep_playing=not args.all)
                print(f"cleared {deleted} game(s) from {store.path}")
                return 0
            records = store.games()
        except JournalError as exc:
            print(f"companion games: {exc}", file=sys.stderr)
            return 1
    if not records:
        print("no recorded games")
        return 0
    print(f"{'game':>4}  {'started':16}  {'status':9}  {'commands':>8}  players / result")
    for r in records:
        if r.damage:
            tail = f"DAMAGED RECORD ({r.damage})"
        elif r.result:
            tail = ", ".join(f"{x.get('place')}. {x.get('colour')} {x.get('score')}" for x in r.result)
        else:
            round_ = r.progress.get("round")
            tail = ",".join(r.players) + (f"  (round {round_})" if r.status == PLAYING and round_ else "")
        print(f"{r.id:>4}  {_when(r.started_at):16}  {r.status:9}  {r.commands:>8}  {tail}  [{r.setup.game}]")
    return 0


def run_kiosk(args: argparse.Namespace) -> int:
    """The kiosk loop. The admin PIN comes from ``$COMPANION_ADMIN_PIN`` (the unit's EnvironmentFile).

    A crash loop ends in safe mode (``StartGuard``): after 3 failed starts in a row the kiosk offers no
    resume, shows the last error and lets players start a new game; a hardware file that fails to load
    then falls back to the screen only.
    """
    from companion.kiosk.app import StartGuard

    journal = _journal_path(args)
    if args.show_pin:
        return _show_pin(journal.parent)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")  # journald adds the time
    guard = StartGuard(journal.parent)
    try:
        guard.begin()
        status = _kiosk(args, journal, guard)
    except BaseException as exc:
        guard.failed(f"{type(exc).__name__}: {exc}")
        raise
    return status


def _kiosk(args: argparse.Namespace, journal: Path, guard: StartGuard) -> int:
    import queue

    from companion import games
    from companion.hardware.errors import HardwareError
    from companion.kiosk import Kiosk, KioskSettings
    from companion.kiosk.admin import LOCK_FILE, admin_pin
    from companion.kiosk.app import Frontend, HeadlessFrontend, KioskLeds, KioskLoop, LoggingLeds, safe_mode_notice
    from companion.kiosk.machine import KioskIntent
    from companion.kiosk.settings import read_environment
    from companion.table.tags import TagDirectory

    environment = read_environment(os.environ, journal.parent)  # never raises: bad values -> defaults + warnings
    pin, source = admin_pin({"COMPANION_ADMIN_PIN": environment.admin_pin or ""}, journal.parent)
    logging.getLogger(__name__).info("admin PIN: %s", source if pin else "none (only the admin card opens the menu)")
    offered = environment.games
    settings = KioskSettings(
        pin=pin,
        admin_state_file=str(journal.parent / LOCK_FILE),
        admin_requires_card=environment.admin_requires_card,
        state_dir=str(journal.parent),
        games=offered,
        game=offered[0] if offered else games.DEFAULT_GAME,
        language=environment.language,
        data_set=environment.data_set,
        warnings=environment.screen_lines(),
    )
    safe = guard.safe_mode
    notes: list[str] = []
    if safe:
        notes.append(safe_mode_notice(guard.previous))
        logging.getLogger(__name__).error("%s", notes[0])
        notes += [f"Setting: {w}" for w in environment.warnings]  # in safe mode, on the screen itself
    intents: queue.Queue[KioskIntent] = queue.Queue()
    leds: KioskLeds | None = None
    tags: TagDirectory | None = None
    hardware = args.hardware or environment.hardware_file
    if hardware:
        from companion.kiosk.hardware import open_box

        neighbours: dict[str, set[str]] = {}
        for name in settings.games or games.names():
            for city, near in games.get(name).neighbours().items():
                neighbours.setdefault(city, set()).update(near)
        try:
            tags, leds = open_box(Path(hardware), intents, neighbours)
        except Exception as exc:  # in safe mode whatever the hardware raises: the screen must come up
            if not (safe or isinstance(exc, HardwareError | OSError)):
                raise
            print(f"companion kiosk: {exc}", file=sys.stderr)
            if not safe:
                guard.failed(f"the hardware did not start: {exc}")
                return 2
            notes.append(f"The hardware did not start ({exc}): screen only.")
    if tags is None or leds is None:
        plugins = [games.get(name) for name in (settings.games or games.names())]
        colours = dict.fromkeys(c for g in plugins for c in g.colours)
        tags = TagDirectory.simulated(colours, [card for g in plugins for card in g.card_ids()])
        leds = LoggingLeds()
    frontend: Frontend
    if args.headless:
        frontend = HeadlessFrontend()
    else:
        opened = _open_screen(args.windowed)
        if isinstance(opened, str) and safe and os.environ.get("SDL_VIDEODRIVER"):
            # Safe mode must reach a screen: a wrong SDL_VIDEODRIVER gives way to the default driver.
            notes.append(f"Setting: SDL_VIDEODRIVER={os.environ['SDL_VIDEODRIVER']!r} did not open the screen.")
            del os.environ["SDL_VIDEODRIVER"]
            opened = _open_screen(args.windowed)
        if isinstance(opened, str):
            print(f"companion kiosk: {opened}", file=sys.stderr)
            guard.failed(opened)
            leds.off()
            return 2
        frontend = opened
    store = JournalStore.open_or_temporary(journal)
    if safe:
        store.hold_resume(" ".join(notes))
    publisher = _publisher(store, journal.parent, environment.mqtt_broker, environment.table_id)
    kiosk = Kiosk(store, tags, now=time.monotonic(), settings=settings, leds=leds, publisher=publisher)
    loop = KioskLoop(kiosk, frontend, intents=intents, leds=leds, on_stable=guard.succeeded)
    loop.install_signal_handlers()
    return loop.run()


def _publisher(store: JournalStore, state_dir: Path, url: str | None, table: str | None) -> Any:
    """The event leaderboard, when ``$COMPANION_MQTT_BROKER`` names a broker (docs/leaderboard.md): this
    box's table id is ``$COMPANION_TABLE_ID`` (default: the host name). Every finished game of the
    journal is published again at start (a result the broker already has is a no-op)."""
    from companion import games
    from companion.leaderboard import LeaderboardError, Publisher

    if not url or not table:  # read_environment checked both (a bad one is a warning, and no leaderboard)
        return None
    try:
        publisher = Publisher(url, table, state_dir / "leaderboard-outbox.sqlite", journal_id=store.journal_id)
    except (LeaderboardError, OSError) as exc:  # the box plays on without the leaderboard
        logging.getLogger(__name__).error("no leaderboard: %s", exc)
        return None
    try:
        for record in store.games():
            if record.result and record.status in (FINISHED, ENDED):
                publisher.publish_result(record.id, games.get(record.setup.game), record.result, record.finished_at)
    except (JournalError, LookupError) as exc:
        logging.getLogger(__name__).error("the journal's results were not all published: %s", exc)
    return publisher


def _show_pin(state_dir: Path) -> int:
    """``companion kiosk --show-pin``: the local admin path to the PIN (file permissions decide who)."""
    from companion.kiosk.admin import PIN_FILE, PUBLISHED_PINS, valid_pin

    env_pin = os.environ.get("COMPANION_ADMIN_PIN", "").strip()
    if env_pin and valid_pin(env_pin) and env_pin not in PUBLISHED_PINS:
        print(f"{env_pin}  (from COMPANION_ADMIN_PIN)")
        return 0
    path = state_dir / PIN_FILE
    try:
        print(f"{path.read_text(encoding='ascii').strip()}  (from {path})")
    except FileNotFoundError:
        print(f"companion kiosk: no admin PIN yet in {path}: the kiosk makes one at its first start", file=sys.stderr)
        return 1
    except (OSError, UnicodeDecodeError) as exc:
        print(
            f"companion kiosk: cannot read {path} ({exc}); run this as the kiosk user or root, e.g. "
            "sudo -u companion env STATE_DIRECTORY=/var/lib/companion companion kiosk --show-pin",
            file=sys.stderr,
        )
        return 1
    return 0


def _open_screen(windowed: str | None) -> KioskScreen | str:
    """The pygame screen: fullscreen on the console (kmsdrm checked first), or a window for trying it out."""
    from companion.display.visible import visible_display_problem
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
    if windowed is not None and (problem := visible_display_problem("")) is not None:
        return problem
    import pygame

    from companion.kiosk.screen import KioskScreen

    pygame.display.init()
    pygame.font.init()
    if windowed is None:
        surface = open_fullscreen(pygame)
        disable_console_blanking()
    else:
        try:
            w, h = (int(v) for v in windowed.lower().split("x"))
            if not (160 <= w <= 7680 and 120 <= h <= 4320):  # a window a screen can show
                raise ValueError(f"{w}x{h}")
        except ValueError:
            return f"--windowed {windowed!r}: expected WxH from 160x120 to 7680x4320, e.g. 800x480"
        surface = pygame.display.set_mode((w, h))
        pygame.display.set_caption("companion kiosk")
    return KioskScreen(surface)
