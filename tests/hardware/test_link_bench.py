"""benchmarks/link_bench.py in its quick mode: a moved file or a changed interface breaks this test,
not a release (issue 19, §8). It checks the lines exist and the reboot runs had no phantom."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).parents[2] / "benchmarks" / "link_bench.py"


def test_link_bench_quick_prints_its_figures() -> None:
    out = subprocess.run(
        [sys.executable, str(BENCH), "--quick"], capture_output=True, text=True, check=True, timeout=300
    ).stdout
    figures = dict(re.findall(r"^(.+): (\d+(?:\.\d+)?) \w+$", out, flags=re.MULTILINE))
    for name in (
        "placement to led acknowledgement, bridge, p99",
        "placement to command accepted, bridge, p99",
        "reboot property test, phantom intents",
    ):
        assert name in figures, out
    assert float(figures["reboot property test, phantom intents"]) == 0
    assert float(figures["reboot property test, runs"]) > 0
    # the acknowledgement comes before the move is accepted (the settle is 0.35 s)
    ack = float(figures["placement to led acknowledgement, bridge, p99"])
    assert 0 < ack < float(figures["placement to command accepted, bridge, median"])
