"""``companion doctor``: checks a box and says what to fix, one line per check (``checks.py``).

It reads the kiosk's own settings, hardware file, journal folder and PIN through the same code the
kiosk uses (``companion.hardware.config``, ``companion.journal.paths``, ``companion.kiosk.admin``,
``companion.kiosk.display_env``), so it cannot disagree with the kiosk about where things are.
"""

from companion.doctor.box import Box
from companion.doctor.checks import CHECKS, run
from companion.doctor.result import Result, Status

__all__ = ["CHECKS", "Box", "Result", "Status", "run"]
