"""Where the companion keeps its state (the journal database, the admin PIN, small state files).

Order: ``$COMPANION_STATE_DIR`` (tests, odd installs), ``$STATE_DIRECTORY`` (set by systemd from the
unit's ``StateDirectory=``; on a read-only root this is the writable data partition, see
docs/pi-install.md), ``$XDG_STATE_HOME/companion``, then ``~/.local/state/companion``.
"""

from __future__ import annotations

import contextlib
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


def write_atomically(path: Path, text: str, mode: int = 0o600) -> None:
    """Replace ``path`` with ``text`` so that a power cut leaves the old or the new content, never half."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    with contextlib.suppress(OSError):  # the rename itself is durable once the directory is synced
        dfd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
