"""One line of ``companion doctor``'s report, and what the checks tell each other on the way."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import Enum

from companion.doctor.box import Box
from companion.hardware.config import HardwareConfig
from companion.hardware.serial_bridge import SerialBridge


class Status(Enum):
    OK = "ok"
    WARN = "warn"
    FAIL = "FAIL"
    NA = "n/a"


@dataclass(frozen=True)
class Result:
    name: str
    status: Status
    message: str
    fix: str = ""

    def line(self) -> str:
        fix = f" — fix: {self.fix}" if self.fix else ""
        return f"{self.status.value:<5} {self.name}: {self.message}{fix}"


def ok(name: str, message: str) -> Result:
    return Result(name, Status.OK, message)


def warn(name: str, message: str, fix: str = "") -> Result:
    return Result(name, Status.WARN, message, fix)


def fail(name: str, message: str, fix: str) -> Result:
    return Result(name, Status.FAIL, message, fix)


def na(name: str, message: str) -> Result:
    return Result(name, Status.NA, message)


@dataclass
class Findings:
    """What the checks learn on the way, for the checks after them."""

    pi: str | None = None
    config: HardwareConfig | None = None
    config_error: bool = False
    kiosk_running: bool = False
    serial_port_missing: bool = False  # the serial check failed: the bridge cannot be reached
    spi_missing: bool = False  # the spi check failed: the readers cannot be reached
    bridge: SerialBridge | None = None
    bridge_faults: dict[str, str] = field(default_factory=dict)


Check = Callable[[Box, Findings], Iterator[Result]]
