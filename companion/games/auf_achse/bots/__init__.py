"""Bot players for Auf Achse: a greedy policy (easy) and short Monte-Carlo playouts over it (medium).

Pure (no I/O, no clock): everything is deterministic given a seed (docs/bots-auf-achse.md).

    choose(state, "blue", "medium", seed=0) -> Command | None   # a bot's next command, or nothing to do
"""

from __future__ import annotations

from companion.games.auf_achse.bots.players import LEVELS, Level, choose

__all__ = ["LEVELS", "Level", "choose"]
