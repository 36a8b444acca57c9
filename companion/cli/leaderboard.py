"""``companion leaderboard --broker URL``: the event's big screen (docs/leaderboard.md)."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

log = logging.getLogger(__name__)


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "leaderboard",
        help="the event's leaderboard on a big screen: every table's results and live games, from an MQTT broker",
    )
    p.add_argument(
        "--broker",
        required=True,
        metavar="URL",
        help="mqtt://[user[:password]@]host[:port] or mqtts://... (password also from $COMPANION_MQTT_PASSWORD)",
    )
    p.add_argument("--ca-file", metavar="FILE", help="mqtts: the CA certificate that signed the broker's certificate")
    p.add_argument("--cert-file", metavar="FILE", help="mqtts: a client certificate, if the broker asks for one")
    p.add_argument("--key-file", metavar="FILE", help="mqtts: the client certificate's key")
    p.add_argument("--topic-root", default=None, metavar="ROOT", help="the event's topic root (default companion/v1)")
    p.add_argument("--event", default="", metavar="NAME", help="the title on the screen (default: Leaderboard)")
    p.add_argument(
        "--language",
        default=None,
        metavar="LANG",
        help="the board's language: en, cs, de or pl (default $COMPANION_LANGUAGE, else en)",
    )
    p.add_argument("--windowed", metavar="WxH", help="a window instead of the full screen (default 1920x1080)")
    p.add_argument("--seconds", type=float, metavar="N", help="stop after N seconds (trying it out, measuring)")
    p.add_argument("--screenshot", metavar="PNG", help="save the last frame to this file when it stops")
    p.add_argument("--stats", action="store_true", help="print the run's numbers (CPU, frames, messages) as JSON")
    p.set_defaults(handler=run_leaderboard)


def run_leaderboard(args: argparse.Namespace) -> int:
    from companion.display.fonts import font
    from companion.display.visible import refuse_invisible
    from companion.leaderboard import DEFAULT_ROOT, BrokerSettings, LeaderboardError
    from companion.leaderboard.app import run
    from companion.leaderboard.screen import SIZE
    from companion.leaderboard.topics import check_topic_root
    from companion.table.messages import chosen_language
    from companion.text import printable

    try:
        settings = BrokerSettings.from_url(
            args.broker, ca_file=args.ca_file, cert_file=args.cert_file, key_file=args.key_file
        )
        check_topic_root(args.topic_root or DEFAULT_ROOT)
    except LeaderboardError as exc:
        print(f"companion leaderboard: {exc}", file=sys.stderr)
        return 2
    try:
        language = chosen_language(args.language)
    except ValueError as exc:
        print(f"companion leaderboard: {exc}", file=sys.stderr)
        return 2
    size = SIZE
    if args.windowed:
        try:
            w, h = (int(v) for v in args.windowed.lower().split("x"))
            size = (w, h)
        except ValueError:
            print(f"companion leaderboard: --windowed {args.windowed}: expected WxH, e.g. 1280x720", file=sys.stderr)
            return 2
    if (code := refuse_invisible("companion leaderboard")) is not None:
        return code
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    stats = run(
        settings,
        topic_root=args.topic_root or DEFAULT_ROOT,
        event=printable(args.event, 100),  # drawn and a window title: nothing that cannot be shown
        language=language,
        fonts=lambda size, bold: font(size, bold=bold),
        size=size,
        fullscreen=not args.windowed,
        seconds=args.seconds,
        screenshot=Path(args.screenshot) if args.screenshot else None,
    )
    if args.stats:
        print(json.dumps(stats.to_json()))
    return 0
