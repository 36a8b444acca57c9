"""``companion doctor``: one line per check of this box, exit status 1 when something is wrong."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "doctor",
        help="check this box: SPI and serial, the bridge, every reader, the display, the journal, the PIN, "
        "the broker, the clock",
        description="Check this box and say what to fix, one line per check: ok, warn, FAIL (with the fix) or "
        "n/a (does not apply here, e.g. on a laptop). Exit status 1 when a check fails. Run it as root on the "
        "box (sudo companion doctor): it reads /etc/companion/kiosk.env as the kiosk's unit does. The bridge "
        "and the readers are tested only while the kiosk is stopped.",
    )
    p.add_argument("--hardware", metavar="FILE", help="the hardware TOML (default: the kiosk's)")
    p.add_argument("--journal", metavar="FILE", type=Path, help="the journal (default: the kiosk's)")
    p.set_defaults(handler=run_doctor)


def run_doctor(args: argparse.Namespace) -> int:
    from companion.doctor import Box, Status, run

    results = run(Box(hardware_file=args.hardware, journal=args.journal))
    for result in results:
        print(result.line(), flush=True)
    failed = sum(r.status is Status.FAIL for r in results)
    warned = sum(r.status is Status.WARN for r in results)
    skipped = sum(r.status is Status.NA for r in results)
    summary = f"{failed} to fix" if failed else "nothing to fix"
    print(f"companion doctor: {summary}, {warned} to look at, {skipped} not applicable here", file=sys.stderr)
    return 1 if failed else 0
