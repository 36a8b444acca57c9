"""``companion setup-box``: digitise a printed box, and manage the data sets it makes.

    companion setup-box run --game on-the-way --name "my 2014 edition"    # on the box (readers, buttons)
    companion setup-box run --game auf-achse --input window               # at a desk: mouse and keyboard
    companion setup-box run --game auf-achse --input text                 # typed lines (ssh, scripts)
    companion setup-box list | show | export | import | delete | count

``run`` resumes where the last run stopped (the progress is saved after every intent); ``--new``
starts over. See docs/setup-box.md.
"""

from __future__ import annotations

import argparse
import queue
import shlex
import sys
import time
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import TextIO

from companion.cli.no_pi import explain_missing_gpio
from companion.games.digitise.model import CityMoved, FieldTapped, NameTyped, SpaceTapped, Step
from companion.games.digitise.profile import profile, profiles
from companion.intents import ButtonName, ButtonPressed, CardScanned, CityTapped, Intent, TagPlaced
from companion.setup_box.datasets import DataSetError, DataSets
from companion.setup_box.machine import WizardIntent
from companion.setup_box.runner import WizardSession, default_name
from companion.setup_box.view import Prompt
from companion.text import printable

# Per-action times for the estimate (seconds): a marker put on a city (find it, put it down), a card
# taken from the pile and scanned, a button press, a touch on the screen.
SECONDS = {"placement": 2.5, "scan": 2.0, "press": 0.8, "touch": 1.5}
TEXT_HELP = """\
  place READER      a marker on a reader (before step 1: 'channel N'; after: the city works too)
  tap CITY          a touch on a city        scan UID     a card on the card reader
  ok | back | plus | minus | menu            add ! for a long press (ok!: next step, back!: step before)
  type TEXT         a name or a card text    move CITY X Y   drag a city (0..1)
  space N           a road's space N (triangle)              field NAME   focus a field of the card
  quit"""


def _state_dir(args: argparse.Namespace) -> Path:
    if args.state_dir:
        return Path(args.state_dir)
    from companion.journal.paths import default_state_dir

    return default_state_dir()


def parse_text_intent(line: str) -> WizardIntent | None:
    """One line of the text input as an intent (None: not understood)."""
    words = shlex.split(line)
    if not words:
        return None
    verb, rest = words[0].lower(), words[1:]
    long = verb.endswith("!")
    verb = verb.rstrip("!")
    if verb in {b.value for b in ButtonName}:
        return ButtonPressed(ButtonName(verb), long)
    if verb == "place" and rest:
        return TagPlaced(" ".join(rest), "04AA0000000001")
    if verb == "tap" and rest:
        return CityTapped(" ".join(rest))
    if verb == "scan" and rest:
        return CardScanned(rest[0].upper())
    if verb == "type" and rest:
        return NameTyped(" ".join(rest))
    if verb == "move" and len(rest) >= 3:
        return CityMoved(" ".join(rest[:-2]), float(rest[-2]), float(rest[-1]))
    if verb == "space" and rest and rest[0].isdigit():
        return SpaceTapped(int(rest[0]))
    if verb == "field" and rest:
        return FieldTapped(rest[0])
    return None


def show(shown: Prompt, out: TextIO) -> None:
    print(f"\n== {shown.title} ==  {shown.doing}", file=out)
    for line in shown.lines:
        print(f"   {line}", file=out)
    for label, value, focused in shown.form:
        print(f"   {'>' if focused else ' '} {label:<22} {value}", file=out)
    if shown.message:
        print(f"   « {shown.message} »", file=out)


def run_text(session: WizardSession, lines: Iterable[str], out: TextIO) -> int:
    show(session.prompt(), out)
    for raw in lines:
        line = raw.strip()
        if line in {"quit", "exit"}:
            break
        if line in {"help", "?"}:
            print(TEXT_HELP, file=out)
            continue
        try:
            intent = parse_text_intent(line)
        except ValueError:
            intent = None
        if intent is None:
            if line:
                print("?  (help: the commands)", file=out)
            continue
        session.handle(intent)
        show(session.prompt(), out)
        if session.state.step is Step.DONE and session.saved is not None:
            print(f"saved: {session.saved.folder}", file=out)
    return 0


def run_hardware(session: WizardSession, args: argparse.Namespace, out: TextIO) -> int:  # pragma: no cover - a Pi
    from companion.hardware.config import REFERENCE, load
    from companion.hardware.factory import build_rig

    config = load(args.config or REFERENCE)
    channels = {ch: f"channel {ch}" for ch in range(args.channels) if ch != config.card_channel}
    config = replace(config, readers=channels, markers={}, cards={})
    intents: queue.Queue[Intent] = queue.Queue()
    by_led = set(config.leds.led_map.cities)
    with build_rig(config, intents.put) as rig:
        if args.screen:
            from companion.setup_box.window import run_window

            def sensed() -> list[Intent]:
                rig.poll(time.monotonic())
                found = []
                while not intents.empty():
                    found.append(intents.get_nowait())
                return found

            def lights(now: float) -> None:
                frame = session.leds() if by_led & set(session.state.cities) else session.reader_leds()
                rig.show(frame, now)

            run_window(session.handle, lambda: session.state, fullscreen=True, other_intents=sensed, tick=lights,
                       clock=time.monotonic)  # fmt: skip
            return 0
        show(session.prompt(), out)
        while session.state.step is not Step.DONE:
            now = time.monotonic()
            rig.poll(now)
            changed = False
            while True:
                try:
                    intent = intents.get_nowait()
                except queue.Empty:
                    break
                session.handle(intent)
                changed = True
            frame = session.leds() if by_led & set(session.state.cities) else session.reader_leds()
            rig.show(frame, now)
            if changed:
                show(session.prompt(), out)
            time.sleep(config.poll_interval_s)
    return 0


def _run(args: argparse.Namespace) -> int:
    seed = None
    if args.source:
        from companion.setup_box.writer import read_files

        try:
            source = DataSets(_state_dir(args)).get(args.game, args.source)
        except DataSetError as exc:
            print(exc, file=sys.stderr)
            return 1
        name = args.name or (source.name if not source.reference else default_name())
        seed = read_files(args.game, source.files, name, source.tags, source.readers)
    session = WizardSession(_state_dir(args), args.game, args.name, fresh=args.new, seed=seed)
    if session.resumed:
        print(f"resuming {session.state.name!r} at step {session.state.step.value} "
              f"({session.state.seq} entries so far)", file=sys.stderr)  # fmt: skip
    if args.input == "text":
        return run_text(session, sys.stdin, sys.stdout)
    if args.input == "window":
        from companion.setup_box.window import run_window

        run_window(session.handle, lambda: session.state, size=tuple(args.size))
        return 0
    with explain_missing_gpio(
        "companion setup-box run", "At a desk use --input window (mouse and keyboard) or --input text."
    ):
        return run_hardware(session, args, sys.stdout)


def _list(args: argparse.Namespace) -> int:
    sets = DataSets(_state_dir(args))
    found, broken = sets.scan(args.game)
    for data_set in found:
        print(f"{data_set.game:<12} {printable(data_set.name):<30} {data_set.created}  {data_set.folder}")
    for bad in broken:  # listed, so it can be deleted; never in the way of the others
        print(f"{bad.game:<12} {'(broken)':<30} {'':<27}  {bad.folder}: {printable(bad.reason, 300)}")
    if not found:
        print("no data sets: the kiosk and the simulator use the reference data", file=sys.stderr)
    return 0


def _show(args: argparse.Namespace) -> int:
    try:
        data_set = DataSets(_state_dir(args)).get(args.game, args.name)
    except DataSetError as exc:
        print(printable(str(exc), 2000), file=sys.stderr)
        return 1
    print(f"name:     {printable(data_set.name)}")
    print(f"game:     {data_set.game}")
    print(f"created:  {data_set.created or '(ships with companion)'}")
    print(f"folder:   {data_set.folder}")
    for role, path in data_set.files.items():
        print(f"{role + ':':<9} {path.name}")
    print(f"tags:     {len(data_set.tags)} cards, {len(data_set.readers)} readers")
    return 0


def _export(args: argparse.Namespace) -> int:
    try:
        path = DataSets(_state_dir(args)).export(args.game, args.name, Path(args.file))
    except DataSetError as exc:
        print(printable(str(exc), 2000), file=sys.stderr)
        return 1
    print(path)
    return 0


def _import(args: argparse.Namespace) -> int:
    try:
        data_set = DataSets(_state_dir(args)).import_file(args.file, name=args.name, replace=args.replace,
                                                          game=args.game)  # fmt: skip
    except DataSetError as exc:
        print(f"not imported: {printable(str(exc), 2000)}", file=sys.stderr)
        return 1
    print(f"imported {data_set.game} data set {printable(data_set.name)!r} into {data_set.folder}")
    return 0


def _delete(args: argparse.Namespace) -> int:
    try:
        DataSets(_state_dir(args)).delete(args.game, args.name)
    except DataSetError as exc:
        print(f"not deleted: {printable(str(exc), 2000)}", file=sys.stderr)
        return 1
    return 0


def _count(args: argparse.Namespace) -> int:
    from companion.setup_box.trace import count, count_by_step, owner_script

    for game in [args.game] if args.game else profiles():
        script, state = owner_script(game, profile(game).reference, drag=False)
        actions = count(script)
        cards = len(state.cards)
        minutes = actions.minutes(SECONDS)
        print(f"{game}: {actions.physical} actions at the box = {actions.placements} placements, {actions.scans} "
              f"scans, {actions.presses} presses, {actions.touches} touches (+ {actions.typed} typed texts); "
              f"{cards} cards; about {minutes:.0f} min at {SECONDS}")  # fmt: skip
        for part, counted in count_by_step(game, script).items():
            print(f"  {part:<10} {counted.physical:>4} actions ({counted.placements} placements, {counted.scans} "
                  f"scans, {counted.presses} presses, {counted.touches} touches), "
                  f"{counted.minutes(SECONDS):.1f} min")  # fmt: skip
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    box = sub.add_parser("setup-box", help="digitise a printed box (board, roads, cards) into a data set")
    box_sub = box.add_subparsers(dest="setup_box_command", metavar="COMMAND", required=True)

    def common(parser: argparse.ArgumentParser, *, game_required: bool) -> None:
        parser.add_argument("--game", required=game_required, choices=profiles(), help="which game")
        parser.add_argument("--state-dir", help="the box's state directory (default: as the journal's)")

    run = box_sub.add_parser("run", help="the wizard; resumes where it stopped")
    common(run, game_required=True)
    run.add_argument("--name", help="the data set's name (default: 'my box DATE')")
    run.add_argument("--new", action="store_true", help="start over (the saved progress is replaced)")
    run.add_argument("--from", dest="source", metavar="NAME",
                     help="start from a data set ('reference': the shipped data) to correct it")  # fmt: skip
    run.add_argument("--input", choices=("hardware", "window", "text"), default="hardware",
                     help="the box's readers and buttons; a window (mouse, keys: a desk); typed lines")  # fmt: skip
    run.add_argument("--screen", action="store_true", help="with --input hardware: the wizard's screen (touch)")
    run.add_argument("--size", type=int, nargs=2, default=(800, 480), metavar=("W", "H"), help="window size")
    run.add_argument("--config", default=None, help="hardware TOML (default: the reference board)")
    run.add_argument("--channels", type=int, default=64, help="reader channels to listen to")
    run.set_defaults(handler=_run)
    listing = box_sub.add_parser("list", help="the data sets on this box")
    common(listing, game_required=False)
    listing.set_defaults(handler=_list)
    export = box_sub.add_parser("export", help="write a data set to one file (zip)")
    common(export, game_required=True)
    export.add_argument("name", help="the data set ('reference': the shipped data)")
    export.add_argument("file", help="the file or folder to write")
    export.set_defaults(handler=_export)
    importing = box_sub.add_parser("import", help="read a data set file; a wrong or damaged file changes nothing")
    common(importing, game_required=False)
    importing.add_argument("file")
    importing.add_argument("--name", help="keep it under another name")
    importing.add_argument("--replace", action="store_true", help="replace a data set of the same name")
    importing.set_defaults(handler=_import)
    showing = box_sub.add_parser("show", help="one data set: its files and tags, or why it does not read")
    common(showing, game_required=True)
    showing.add_argument("name", help="the data set ('reference': the shipped data)")
    showing.set_defaults(handler=_show)
    delete = box_sub.add_parser("delete", help="delete a data set this box made (never the reference data)")
    common(delete, game_required=True)
    delete.add_argument("name")
    delete.set_defaults(handler=_delete)
    counting = box_sub.add_parser("count", help="the actions to digitise the reference box, and the minutes")
    common(counting, game_required=False)
    counting.set_defaults(handler=_count)
