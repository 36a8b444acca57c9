"""``companion`` with no command: the main job of this machine.

On a Raspberry Pi with a hardware file (``$COMPANION_HARDWARE_FILE`` or ``/etc/companion/hardware.toml``)
it is the table: the kiosk with the real readers, LEDs and buttons (``docs/pi-install.md``).
Anywhere else it is the simulator in a window (``docs/simulator.md``); options such as
``--players red,blue --end-at 3`` or ``--game auf-achse`` skip its start dialog.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path

PI_MODEL = Path("/proc/device-tree/model")
DEFAULT_HARDWARE_FILE = Path("/etc/companion/hardware.toml")


def is_raspberry_pi(model_file: Path = PI_MODEL) -> bool:
    try:
        return "Raspberry Pi" in model_file.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False


def table_hardware_file(environ: dict[str, str] | None = None, model_file: Path = PI_MODEL) -> Path | None:
    """The box's hardware file when this machine is the table, else None (then: the simulator)."""
    env = os.environ if environ is None else environ
    if not is_raspberry_pi(model_file):
        return None
    path = Path(env.get("COMPANION_HARDWARE_FILE") or DEFAULT_HARDWARE_FILE)
    return path if path.exists() else None


def run_default(argv: Sequence[str] | None = None) -> int:
    arguments = list(argv) if argv is not None else []
    hardware = None if arguments else table_hardware_file()
    if hardware is not None:
        from companion.cli import main as cli_main

        return cli_main(["kiosk", "--hardware", str(hardware)])
    try:
        from companion.simulator.app import main
    except ImportError as exc:  # pygame-ce missing: say so plainly instead of a traceback
        print(f"companion: the simulator needs pygame-ce ({exc})", file=sys.stderr)
        return 2
    return main(arguments)
