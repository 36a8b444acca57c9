"""The wizard's progress on disk: one JSON file per game, replaced atomically after every intent.

Write a temporary file in the same folder, flush and fsync it, rename it over the old one, fsync the
folder: after a power cut the file is either the old state or the new one, never half of each.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from companion.games.digitise.model import WizardState


class ProgressError(ValueError):
    """The progress file exists but cannot be read (damaged, or from another version)."""


def atomic_write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with temp.open("wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temp, path)
    fsync_dir(path.parent)


def fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - platforms without directory descriptors
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class ProgressStore:
    """``state_dir/setup-box/<game>.progress.json``: the wizard in progress for a game."""

    def __init__(self, state_dir: Path | str, game: str) -> None:
        self.path = Path(state_dir) / "setup-box" / f"{game}.progress.json"

    def load(self) -> WizardState | None:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        try:
            return WizardState.from_json(json.loads(text))
        except (ValueError, KeyError, TypeError) as exc:
            raise ProgressError(f"{self.path}: the saved progress cannot be read ({exc})") from exc

    def save(self, state: WizardState) -> None:
        data = json.dumps(state.to_json(), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        atomic_write(self.path, data)

    def clear(self) -> None:
        self.path.unlink(missing_ok=True)
