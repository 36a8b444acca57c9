"""Bots and advice for On The Way: a fast playout kernel, a greedy policy, Monte-Carlo search.

Pure (no I/O, no clock): everything is deterministic given a seed.

    advise(state, "red", budget_s=1.0, seed=0) -> tuple[Advice, ...]   # top three, best first
    choose(state, "blue", "hard", seed=0) -> Command                   # a bot's next command
"""

from __future__ import annotations

from companion.native import select

# Before anything below imports the kernel: its compiled build only while it matches the sources.
KERNEL_BUILD = select(__name__)

from companion.games.on_the_way.bots.advisor import DEFAULT_BUDGET_S, Advice, advise  # noqa: E402
from companion.games.on_the_way.bots.budget import PI4_ACTIONS_PER_S, work_for  # noqa: E402
from companion.games.on_the_way.bots.kernel import Kernel, UnsupportedRules  # noqa: E402
from companion.games.on_the_way.bots.players import BUDGET_S, Level, choose  # noqa: E402

__all__ = [
    "BUDGET_S",
    "DEFAULT_BUDGET_S",
    "KERNEL_BUILD",
    "PI4_ACTIONS_PER_S",
    "Advice",
    "Kernel",
    "Level",
    "UnsupportedRules",
    "advise",
    "choose",
    "work_for",
]
