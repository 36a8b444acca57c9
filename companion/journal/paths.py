"""Where the companion keeps its state (the journal database).

Order: ``$COMPANION_STATE_DIR`` (tests, odd installs), ``$STATE_DIRECTORY`` (set by systemd from the
unit's ``StateDirectory=``; on a read-only root this is the writable data partition, see
docs/pi-install.md), ``$XDG_STATE_HOME/companion``, then ``~/.local/state/companion``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

JOURNAL_NAME = "journal.sqlite"


def default_state_dir(environ: Mapping[str, str] | None = None) -> Path:
    env = os.environ if environ is None else environ
    if env.get("COMPANION_STATE_DIR"):
        return Path(env["COMPANION_STATE_DIR"])
    if env.get("STATE_DIRECTORY"):
        # systemd passes a colon-separated list when the unit names several directories.
        return Path(env["STATE_DIRECTORY"].split(":")[0])
    if env.get("XDG_STATE_HOME"):
        return Path(env["XDG_STATE_HOME"]) / "companion"
    return Path.home() / ".local" / "state" / "companion"


def default_journal_path(environ: Mapping[str, str] | None = None) -> Path:
    return default_state_dir(environ) / JOURNAL_NAME
