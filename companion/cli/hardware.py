"""``companion hardware test|calibrate`` and ``companion cards enroll``: setting up a box.

Each command is a plain function over a rig, an intent queue and injectable ``clock``/``sleep``/``ask``
so the tests run it against an emulated table; ``register`` wires them to argparse.
"""

from __future__ import annotations

import argparse
import queue
import re
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import TextIO

from companion.cli.no_pi import EMULATED, explain_missing_gpio
from companion.hardware.config import REFERENCE, HardwareConfig, load, write_card, write_readers
from companion.hardware.errors import ConfigError
from companion.hardware.flash_plan import NoRfGroups, flash_groups  # the CLI flashes them
from companion.hardware.rig import HardwareRig
from companion.hardware.serial_bridge import SerialBridge
from companion.intents import ButtonPressed, CardScanned, DeviceFault, Intent, TagLifted, TagPlaced
from companion.ledframe import EVENT_KINDS, TIME_TRACK_LENGTH, CityLight, LedFrame

Clock = Callable[[], float]
Sleep = Callable[[float], None]
CHANNEL_NAME = re.compile(r"^channel (\d+)$")


def _drain(
    rig: HardwareRig, intents: queue.Queue[Intent], clock: Clock, sleep: Sleep, interval: float
) -> Iterator[Intent]:
    rig.poll(clock())
    while True:
        try:
            yield intents.get_nowait()
        except queue.Empty:
            break
    sleep(interval)


def _describe(intent: Intent, config: HardwareConfig) -> str:
    match intent:
        case TagPlaced(city, uid):
            return f"placed  {city}: {uid} ({config.describe(uid)})"
        case TagLifted(city, uid):
            return f"lifted  {city}: {uid}"
        case CardScanned(uid):
            return f"card    {uid} ({config.describe(uid)})"
        case ButtonPressed(button, long):
            return f"button  {button.value.upper()}{' (long)' if long else ''}"
        case DeviceFault(device, message, recovered):
            return f"{'back' if recovered else 'FAULT'}   {device}: {message}"
    return repr(intent)


def frames_to_walk(config: HardwareConfig) -> list[tuple[str, LedFrame]]:
    """One frame per LED (or colour) of the map, in a hobbyist's order: cities, time, events, seats."""
    led_map = config.leds.led_map
    frames: list[tuple[str, LedFrame]] = []
    for city, (_, b) in led_map.cities.items():
        frames.append((f"{city}: hint (colour A)", LedFrame.build({city: CityLight.HINT})))
        if b is not None:
            frames.append((f"{city}: expected (colour B, fast blink)", LedFrame.build({city: CityLight.EXPECTED})))
    frames += [(f"time track {i}", LedFrame.build(time=i)) for i in range(min(TIME_TRACK_LENGTH, len(led_map.time)))]
    frames += [(f"event {kind}", LedFrame.build(event_kind=kind)) for kind in EVENT_KINDS if kind in led_map.events]
    frames += [(f"seat {i}", LedFrame.build(seat=i)) for i in range(len(led_map.seats))]
    return frames


def link_check(
    rig: HardwareRig,
    intents: queue.Queue[Intent],
    config: HardwareConfig,
    *,
    out: TextIO,
    clock: Clock = time.monotonic,
    sleep: Sleep = time.sleep,
    timeout_s: float = 5.0,
) -> bool | None:
    """With a serial bridge: wait until it answers our HELLO and say what it is (None: no bridge)."""
    bridge = rig.readers
    if not isinstance(bridge, SerialBridge):
        return None
    until = clock() + timeout_s
    early: list[Intent] = []
    while not bridge.linked and clock() < until:
        early += list(_drain(rig, intents, clock, sleep, config.poll_interval_s))
    for intent in early:
        print(_describe(intent, config), file=out)
    stats = bridge.stats
    if not bridge.linked:
        print(f"bridge on {bridge.url}: NO LINK (no answer to HELLO in {timeout_s:g} s)", file=out)
        return False
    print(
        f"bridge on {bridge.url}: linked, firmware {stats.firmware}, {stats.readers} readers; "
        f"{stats.lines} lines, {stats.bad_checksum} bad CRC, {stats.garbage} garbage",
        file=out,
    )
    return True


def hardware_test(
    rig: HardwareRig,
    intents: queue.Queue[Intent],
    config: HardwareConfig,
    *,
    out: TextIO,
    clock: Clock = time.monotonic,
    sleep: Sleep = time.sleep,
    led_step_s: float = 0.5,
    seconds: float = 30.0,
    crosstalk_check: bool = False,
    prompt: Callable[[str, str], None] | None = None,
) -> int:
    """The bridge link (serial backend), readers that answer (SPI), every LED in turn, the crosstalk
    check (``crosstalk_check``: a tag on each city in turn), then live tag/card/button events for
    ``seconds``. Returns 2 without a link to the bridge, 1 if there was crosstalk, else 0."""
    if link_check(rig, intents, config, out=out, clock=clock, sleep=sleep) is False:
        return 2
    answering = getattr(rig.readers, "answering", None)
    if answering is not None:
        found = answering()
        for channel, city in sorted(
            {
                **config.readers,
                **({config.card_channel: "card reader"} if config.card_channel is not None else {}),
            }.items()
        ):
            version = found.get(channel)
            state = f"answers (version 0x{version:02X})" if version is not None else "NOT ANSWERING"
            print(f"reader {channel:2d} {city}: {state}", file=out)
        print(
            f"{len(found)} of {len(config.readers) + (config.card_channel is not None)} readers answer",
            file=out,
        )
    for label, frame in frames_to_walk(config):
        print(f"LED {label}", file=out)
        until = clock() + led_step_s
        rig.show(frame, clock())
        while clock() < until:
            for intent in _drain(rig, intents, clock, sleep, config.poll_interval_s):
                print(_describe(intent, config), file=out)
    rig.show(LedFrame(), clock())
    status = 0
    if crosstalk_check:
        found = crosstalk(
            rig,
            intents,
            config.cities,
            out=out,
            clock=clock,
            sleep=sleep,
            poll_interval_s=config.poll_interval_s,
            prompt=prompt,
        )
        status = 1 if any(found.values()) else 0
    print(f"Live events for {seconds:g} s: place tags, scan cards, press buttons.", file=out)
    until = clock() + seconds
    while clock() < until:
        for intent in _drain(rig, intents, clock, sleep, config.poll_interval_s):
            print(_describe(intent, config), file=out)
    return status


def crosstalk(
    rig: HardwareRig,
    intents: queue.Queue[Intent],
    cities: list[str],
    *,
    out: TextIO,
    clock: Clock = time.monotonic,
    sleep: Sleep = time.sleep,
    poll_interval_s: float = 0.05,
    timeout_s: float = 30.0,
    listen_s: float = 1.0,
    prompt: Callable[[str, str], None] | None = None,
) -> dict[str, set[str]]:
    """One tag on each city in turn (and no other tag on the board): every *other* reader that reports
    a tag meanwhile is crosstalk (antennas too close, or transmitting together); so is a city whose
    own reader never sees it while another does (the neighbour's frames knock the tag back to IDLE).
    Returns city → the other readers that saw its tag."""
    found: dict[str, set[str]] = {}
    for city in cities:
        print(f"Crosstalk: put one tag on {city} ...", file=out)
        if prompt is not None:
            prompt("place", city)
        uid: str | None = None
        others: set[str] = set()
        until = clock() + timeout_s
        while clock() < until:
            for intent in _drain(rig, intents, clock, sleep, poll_interval_s):
                if isinstance(intent, TagPlaced) and intent.city == city and uid is None:
                    uid = intent.uid
                    until = clock() + listen_s  # keep listening: do its neighbours see it too?
                elif isinstance(intent, TagPlaced):
                    others.add(intent.city)  # only one tag is on the board: any other reader is crosstalk
                    until = min(until, clock() + listen_s) if uid is None and len(others) == 1 else until
        if uid is None and not others:
            print(f"  no tag seen on {city}; skipped", file=out)
        else:
            found[city] = others
            if uid is None:
                print(f"  CROSSTALK: {city} never sees its tag, {', '.join(sorted(others))} does", file=out)
            elif others:
                print(f"  CROSSTALK: the tag on {city} is also seen by {', '.join(sorted(others))}", file=out)
            else:
                print(f"  {city}: seen by its own reader only", file=out)
        if prompt is not None:
            prompt("lift", city)
        until = clock() + timeout_s
        lifted = uid is None
        while not lifted and clock() < until:
            for intent in _drain(rig, intents, clock, sleep, poll_interval_s):
                lifted = lifted or (isinstance(intent, TagLifted) and intent.city == city)
        settle = clock() + listen_s  # let the ghosts go too, so the next city starts clean
        while clock() < settle:
            list(_drain(rig, intents, clock, sleep, poll_interval_s))
    bad = sum(bool(v) for v in found.values())
    print(f"Crosstalk: {bad} of {len(found)} cities seen by another reader", file=out)
    return found


def firmware_files(
    config: HardwareConfig, adjacency: Mapping[str, Iterable[str]] | None = None, *, one_at_a_time: bool = False
) -> dict[str, str]:
    """File name → text of everything the Pico needs: the firmware, the shared register/protocol
    modules, and a ``bridge_config.py`` written from this hardware config (channels, card reader,
    RF groups from :func:`flash_groups`, LED bits, debounce). :class:`NoRfGroups` without groups."""
    from companion.hardware.firmware_host import FIRMWARE_DIR, SHARED_MODULES

    files = {p.name: p.read_text(encoding="utf-8") for p in sorted(FIRMWARE_DIR.glob("*.py"))}
    for name, module in SHARED_MODULES.items():
        files[f"{name}.py"] = Path(module.__file__ or "").read_text(encoding="utf-8")
    channels = [*config.readers, *([config.card_channel] if config.card_channel is not None else [])]
    readers = max(channels, default=-1) + 1
    groups = flash_groups(config, adjacency, one_at_a_time=one_at_a_time)
    d, c = config.debounce, config.card_debounce
    generated = [
        "",
        f"# --- written by `companion hardware flash` from {config.path} ---",
        f"READERS = {readers}",
        f"CARD_CHANNEL = {config.card_channel if config.card_channel is not None else -1}",
        f"GROUPS = {groups!r}",
        f"LED_BITS = {config.leds.led_map.size}",
        f"CITY_DEBOUNCE = ({d.place_votes}, {d.window}, {d.lift_misses})",
        f"CARD_DEBOUNCE = ({c.place_votes}, {c.window}, {c.lift_misses})",
        f"REVERIFY = {config.reverify_every}",
        f"RECEIVE_TIMEOUT_US = {round(config.spi.receive_timeout_s * 1e6)}",
        "",
    ]
    files["bridge_config.py"] += "\n".join(generated)
    return files


def flash_commands(port: str, directory: Path, names: Iterable[str]) -> list[list[str]]:
    """The mpremote command lines that copy the files to the Pico's flash and restart it."""
    connect = ["mpremote", "connect", port]
    copy = [*connect, "cp", *(str(directory / n) for n in sorted(names)), ":"]
    return [copy, [*connect, "reset"]]


def calibration_config(config: HardwareConfig, channels: range) -> HardwareConfig:
    """Every channel is a reader named ``channel N``; no card reader (it keeps its own channel)."""
    readers = {ch: f"channel {ch}" for ch in channels if ch != config.card_channel}
    return replace(config, readers=readers, card_channel=None)


def calibrate(
    rig: HardwareRig,
    intents: queue.Queue[Intent],
    cities: list[str],
    *,
    out: TextIO,
    clock: Clock = time.monotonic,
    sleep: Sleep = time.sleep,
    poll_interval_s: float = 0.05,
    timeout_s: float = 60.0,
    prompt: Callable[[str, str], None] | None = None,
) -> dict[int, str]:
    """Ask for a tag on each city in turn; returns channel → city (cities that timed out are skipped)."""
    mapping: dict[int, str] = {}

    def wait_for(kind: type, until: float) -> int | None:
        while clock() < until:
            for intent in _drain(rig, intents, clock, sleep, poll_interval_s):
                if isinstance(intent, kind) and isinstance(intent, TagPlaced | TagLifted):
                    match = CHANNEL_NAME.match(intent.city)
                    if match and (kind is TagLifted or int(match.group(1)) not in mapping):
                        return int(match.group(1))
        return None

    for city in cities:
        print(f"Put a tag on {city} ...", file=out)
        if prompt is not None:
            prompt("place", city)
        channel = wait_for(TagPlaced, clock() + timeout_s)
        if channel is None:
            print(f"  no tag seen for {city}; skipped", file=out)
            continue
        mapping[channel] = city
        print(f"  {city} = reader {channel}. Lift the tag.", file=out)
        if prompt is not None:
            prompt("lift", city)
        wait_for(TagLifted, clock() + timeout_s)
    return mapping


def _suggest(cards: dict[str, str]) -> str:
    """The next id after the last enrolled one: ``otw-contract-7`` → ``otw-contract-8``."""
    if not cards:
        return "card-1"
    last = list(cards.values())[-1]
    match = re.match(r"^(.*?)(\d+)$", last)
    return f"{match.group(1)}{int(match.group(2)) + 1}" if match else f"{last}-2"


def enroll(
    rig: HardwareRig,
    intents: queue.Queue[Intent],
    config_path: Path,
    *,
    out: TextIO,
    ask: Callable[[str], str] = input,
    clock: Clock = time.monotonic,
    sleep: Sleep = time.sleep,
    count: int | None = None,
    timeout_s: float = 120.0,
) -> dict[str, str]:
    """Scan a card, name it (Enter accepts the suggestion), save; repeat ``count`` times or until timeout."""
    config = load(config_path)
    cards = dict(config.cards)
    enrolled: dict[str, str] = {}
    while count is None or len(enrolled) < count:
        print("Scan a card ...", file=out)
        uid = None
        until = clock() + timeout_s
        while uid is None and clock() < until:
            for intent in _drain(rig, intents, clock, sleep, config.poll_interval_s):
                if isinstance(intent, CardScanned):
                    uid = intent.uid
        if uid is None:
            break
        if uid in config.markers or uid in config.admin_cards:
            print(f"  {uid} is the {config.describe(uid)}; not a card", file=out)
            continue
        suggestion = cards.get(uid) or _suggest(cards)
        answer = ask(f"  {uid}: card id [{suggestion}]: ").strip() or suggestion
        cards[uid] = enrolled[uid] = answer
        write_card(config_path, uid, answer, cards)
        print(f"  saved {uid} = {answer}", file=out)
    return enrolled


# --- argparse -----------------------------------------------------------------------------------
def _open(
    args: argparse.Namespace, transform: Callable[[HardwareConfig], HardwareConfig] | None = None
) -> tuple[HardwareConfig, HardwareRig, queue.Queue[Intent]]:
    from companion.hardware.factory import build_rig

    config = load(args.config)
    if transform is not None:
        config = transform(config)
    intents: queue.Queue[Intent] = queue.Queue()
    return config, build_rig(config, intents.put), intents


def _run_test(args: argparse.Namespace) -> int:
    with explain_missing_gpio("companion hardware test", EMULATED.format(command="companion hardware test")):
        return _test(args)


def _test(args: argparse.Namespace) -> int:
    try:
        config, rig, intents = _open(args)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    with rig:
        return hardware_test(
            rig,
            intents,
            config,
            out=sys.stdout,
            seconds=args.seconds,
            led_step_s=args.led_step,
            crosstalk_check=args.crosstalk,
        )


def _run_calibrate(args: argparse.Namespace) -> int:
    try:
        config = load(args.config)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    cities = args.cities.split(",") if args.cities else config.cities
    channels = range(args.channels if args.channels is not None else _capacity(config))
    with explain_missing_gpio("companion hardware calibrate", EMULATED.format(command="companion hardware calibrate")):
        _, rig, intents = _open(args, lambda c: calibration_config(c, channels))
    with rig:
        mapping = calibrate(
            rig,
            intents,
            cities,
            out=sys.stdout,
            timeout_s=args.timeout,
            poll_interval_s=config.poll_interval_s,
        )
    if not mapping:
        print("No reader was calibrated; the file is unchanged.", file=sys.stderr)
        return 1
    write_readers(Path(args.config), mapping)
    print(f"Wrote {len(mapping)} readers to [readers] in {args.config}.")
    return 0


def _capacity(config: HardwareConfig) -> int:
    if config.backend == "spi" and config.spi.chip_select == "decoder":
        return 1 << len(config.spi.address_pins)
    if config.backend == "spi":
        return len(config.spi.cs_pins)
    return max([*config.readers, config.card_channel or 0], default=0) + 1


def _run_enroll(args: argparse.Namespace) -> int:
    try:
        with explain_missing_gpio("companion cards enroll", EMULATED.format(command="companion cards enroll")):
            _, rig, intents = _open(args)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    with rig:
        try:
            enroll(rig, intents, Path(args.config), out=sys.stdout, count=args.count)
        except (KeyboardInterrupt, EOFError):
            print()
    return 0


def _run_flash(args: argparse.Namespace) -> int:
    import shutil
    import subprocess
    import tempfile

    try:
        config = load(args.config)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    adjacency = None
    if args.adjacency:
        import tomllib

        raw = tomllib.loads(Path(args.adjacency).read_text(encoding="utf-8"))
        adjacency = {str(k): [str(n) for n in v] for k, v in raw.items() if isinstance(v, list)}
    if adjacency is not None and not config.rf.groups and not args.one_at_a_time:
        print(
            "WARNING: RF groups from the board's neighbours only: cities close on the print but not joined "
            "by a road may transmit together and ghost-read. `companion hardware plan` groups by distance.",
            file=sys.stderr,
        )
    try:
        files = firmware_files(config, adjacency, one_at_a_time=args.one_at_a_time)
    except NoRfGroups as exc:
        print(f"Refused: {exc}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="companion-firmware-") as tmp:
        directory = Path(args.output) if args.output else Path(tmp)
        directory.mkdir(parents=True, exist_ok=True)
        for name, text in files.items():
            (directory / name).write_text(text, encoding="utf-8")
        from companion.hardware.firmware_build import precompile

        commands = flash_commands(args.port, directory, precompile(directory, files))  # .mpy (issue #19)
        for command in commands:
            print(" ".join(command))
        if args.dry_run:
            return 0
        if shutil.which("mpremote") is None:
            print(
                "mpremote is not installed: pip install mpremote (or use --dry-run and copy by hand)", file=sys.stderr
            )
            return 2
        for command in commands:
            if subprocess.run(command, check=False).returncode != 0:
                return 1
    print("Flashed. Check the link with: companion hardware test --config " + args.config)
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    hw = sub.add_parser("hardware", help="check and set up the readers, LEDs and buttons")
    hw_sub = hw.add_subparsers(dest="hardware_command", metavar="COMMAND", required=True)
    test = hw_sub.add_parser("test", help="list answering readers, walk every LED, show live events")
    test.add_argument("--config", default=str(REFERENCE), help="hardware TOML (default: the reference board)")
    test.add_argument("--seconds", type=float, default=30.0, help="how long to show live events")
    test.add_argument("--led-step", type=float, default=0.5, help="seconds per LED in the walk")
    test.add_argument(
        "--crosstalk", action="store_true", help="put one tag on each city in turn; report other readers that see it"
    )
    test.set_defaults(handler=_run_test)
    flash = hw_sub.add_parser("flash", help="copy the RP2040 bridge firmware to a Pico with mpremote")
    flash.add_argument("--config", default=str(REFERENCE), help="hardware TOML (channels, card reader, [rf])")
    flash.add_argument("--port", default="auto", help="mpremote device (default: auto, the first Pico found)")
    flash.add_argument("--adjacency", help='TOML of neighbouring cities, City = ["Neighbour", ...] (RF groups)')
    flash.add_argument(
        "--one-at-a-time",
        action="store_true",
        help="no RF groups: switch on one antenna at a time (safe, slow); without it the TOML needs [rf] groups",
    )
    flash.add_argument("--output", help="also keep the files in this directory")
    flash.add_argument("--dry-run", action="store_true", help="write the files and print the commands only")
    flash.set_defaults(handler=_run_flash)
    from companion.cli.hardware_plan import register_plan

    register_plan(hw_sub)
    cal = hw_sub.add_parser("calibrate", help="put a tag on each city in turn; writes [readers]")
    cal.add_argument("--config", required=True, help="hardware TOML to update")
    cal.add_argument("--cities", help="comma-separated cities to ask for (default: those in the file)")
    cal.add_argument("--channels", type=int, help="reader channels to scan (default: all the decoder selects)")
    cal.add_argument("--timeout", type=float, default=60.0, help="seconds to wait for each city")
    cal.set_defaults(handler=_run_calibrate)
    cards = sub.add_parser("cards", help="card tags: scan the box's cards and name them in the hardware file")
    cards_sub = cards.add_subparsers(dest="cards_command", metavar="COMMAND", required=True)
    enroll_cmd = cards_sub.add_parser("enroll", help="scan cards and name them; writes [cards]")
    enroll_cmd.add_argument("--config", required=True, help="hardware TOML to update")
    enroll_cmd.add_argument("--count", type=int, help="stop after this many cards")
    enroll_cmd.set_defaults(handler=_run_enroll)
