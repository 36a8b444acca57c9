"""``python -m companion.simulator [OPTIONS]``: the simulator window without the ``companion`` command.

Here and not in ``window.py``: the window is what ``app`` opens, so it must not import ``app`` back.
"""

from __future__ import annotations

import sys

from companion.simulator.app import main

raise SystemExit(main(sys.argv[1:]))
