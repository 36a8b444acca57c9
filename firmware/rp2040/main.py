"""Runs at power-up on the Pico: the reader bridge (see bridge.py)."""

import bridge

bridge.main()
