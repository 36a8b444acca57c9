"""Time budgets in seconds of a Raspberry Pi 4 core, converted to kernel actions (deterministic work).

A search counts the kernel actions its playouts play instead of reading a clock, so a seed gives the
same answer on any machine and under any load. The rate below is what one Pi 4 core is expected to
play; ``docs/bots.md`` ("Scaling to a Pi 4") says how it was measured and how to re-measure it on a
Pi with ``python benchmarks/engine.py`` (its "kernel actions/s" line is this number for that machine).
"""

from __future__ import annotations

# Measured on the development machine (AMD EPYC VM core, CPython 3.11): kernel actions per CPU-second in
# ``advise`` over positions of a whole game, scaled to a quiet core by the n-body time measured alongside
# (165-210 k/s; 245 k/s before the policy built its centres: more buildings, longer transshipment chains).
DEV_ACTIONS_PER_S = 180_000
# These rates are plain Python's. Where the install compiled the kernel (companion/native.py) the same work,
# and so the same decisions, take about half the time (docs/bots.md, "Scaling to a Pi 4"): a budget of
# "1 s of a Pi 4" is then ~0.45 s there. Kept in plain Python's terms so that a seed decides the same
# whichever build runs.
# The development machine is this many times faster than a Pi 4 core (nbody calibration, docs/bots.md).
PI4_SLOWDOWN = 4.0
PI4_ACTIONS_PER_S = int(DEV_ACTIONS_PER_S / PI4_SLOWDOWN)


def work_for(budget_s: float) -> int:
    """Kernel actions that ``budget_s`` seconds of a Pi 4 core play (at least one playout's worth)."""
    if budget_s <= 0:
        raise ValueError(f"a time budget must be positive, not {budget_s} s")
    return max(1, round(budget_s * PI4_ACTIONS_PER_S))
