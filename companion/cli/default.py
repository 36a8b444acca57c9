"""``companion`` with no command: the simulator on a laptop (filled by the display issue)."""

from __future__ import annotations

import sys


def run_default() -> int:
    print("companion: the simulator is not built yet; see `companion --help`.", file=sys.stderr)
    return 2
