"""``companion`` with no command: the simulator in a window (``docs/simulator.md``).

``python -m companion.display.simulator --players red,blue --end-at 3`` takes the same options that
the start dialog offers.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence


def run_default(argv: Sequence[str] | None = None) -> int:
    try:
        from companion.display.app import main
    except ImportError as exc:  # pygame-ce missing: say so plainly instead of a traceback
        print(f"companion: the simulator needs pygame-ce ({exc})", file=sys.stderr)
        return 2
    return main(list(argv) if argv is not None else [])
