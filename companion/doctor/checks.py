"""The checks of ``companion doctor``: one function per line of its report, in the order a box is
built (the Pi, its settings, the hardware file, SPI and serial, the bridge, the readers, the screen,
the journal, the PIN, the broker, the clock, the service, the bots' playout kernel).

Each check returns a ``Result``: ``ok``, ``warn`` (works, but look), ``FAIL`` (the kiosk will not work
as it should; ``fix`` says what to do) or ``n/a`` (does not apply here, and why — e.g. on a laptop).
Checks only read: the one exception is the journal check, which writes and removes a scratch file
beside the journal to prove the folder is writable. The bridge and the readers are opened only
when the kiosk is not running (two programs on one serial port steal each other's lines).
"""

from __future__ import annotations

from companion.doctor.box import Box
from companion.doctor.devices import bridge, display, readers, serial, spi
from companion.doctor.machine import clock, compiled_modules, hardware_file, platform, service, settings
from companion.doctor.network import broker
from companion.doctor.result import Check, Findings, Result
from companion.doctor.state import admin_pin, journal

CHECKS: tuple[Check, ...] = (
    platform,
    settings,
    hardware_file,
    spi,
    serial,
    bridge,
    readers,
    display,
    journal,
    admin_pin,
    broker,
    clock,
    service,
    compiled_modules,
)


def run(box: Box, checks: tuple[Check, ...] = CHECKS) -> list[Result]:
    found = Findings()
    results: list[Result] = []
    try:
        for check in checks:
            results.extend(check(box, found))
    finally:
        if found.bridge is not None:
            found.bridge.close()
    return results
