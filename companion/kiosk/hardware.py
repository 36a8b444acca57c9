"""The box's hardware for the kiosk: the rig from the hardware TOML, polled on its own thread.

The polling thread only puts intents on the kiosk's queue (style point 10); LED frames go to the rig
under the thread's lock, since LEDs and readers may share a bus. Without a hardware file the kiosk
runs with simulated tags and no LEDs (a laptop, a screen-only box).
"""

from __future__ import annotations

import queue
from collections.abc import Iterable, Mapping
from pathlib import Path

from companion.hardware.config import load
from companion.hardware.factory import build_rig
from companion.hardware.rig import HardwareRig, PollingThread
from companion.kiosk.machine import KioskIntent
from companion.ledframe import LedFrame
from companion.table.session import directory_from_hardware
from companion.table.tags import TagDirectory


class BoxLeds:
    """``KioskLeds`` over a polled rig: ``show`` sets the frame, ``off`` stops polling and goes dark."""

    def __init__(self, rig: HardwareRig, poller: PollingThread) -> None:
        self.rig, self.poller = rig, poller

    def show(self, frame: LedFrame, now: float) -> None:
        self.poller.show(frame)

    def off(self) -> None:
        self.poller.close()
        self.rig.close()  # LEDs dark, pins and ports released; safe twice


def open_box(
    path: Path, intents: queue.Queue[KioskIntent], neighbours: Mapping[str, Iterable[str]] | None = None
) -> tuple[TagDirectory, BoxLeds]:
    """Load the hardware TOML (file/line/field errors on a bad file), build and start the rig.
    ``neighbours``: the cities next to each other on the board (the games' ``neighbours()``), so that
    neighbouring readers are never scanned together (RF-safe scanning)."""
    config = load(path)
    rig = build_rig(config, intents.put, adjacency=neighbours)
    poller = PollingThread(rig, config.poll_interval_s)
    tags = directory_from_hardware(config.markers, config.cards, config.admin_cards, config.bank_cards)
    return tags, BoxLeds(rig, poller)
