"""The device interfaces the table controller sees. Every backend (SPI, serial bridge, gpiozero,
emulated) satisfies these; intents leave a device only through the one ``IntentSink`` it was given.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from companion.intents import Intent
from companion.ledframe import LedFrame


class IntentSink(Protocol):
    """Where a device puts its intents: ``queue.Queue().put`` or any callable. Must be thread-safe."""

    def __call__(self, intent: Intent, /) -> None: ...


@runtime_checkable
class Pollable(Protocol):
    def poll(self, now: float) -> None:
        """Do one round of work (a sweep, a serial read, a blink step) at time ``now`` (seconds)."""

    def close(self) -> None: ...


@runtime_checkable
class CityReaders(Pollable, Protocol):
    """RFID readers under the cities: emit debounced ``TagPlaced``/``TagLifted``/``DeviceFault``."""

    def present(self) -> dict[str, str]:
        """City → UID of the tag settled there now."""


@runtime_checkable
class CardReader(Pollable, Protocol):
    """The card reader: emits ``CardScanned`` once per presentation."""


@runtime_checkable
class LedOutput(Protocol):
    def show(self, frame: LedFrame, now: float) -> None:
        """Display ``frame``; blinking is generated here from ``now``. Call again to keep blinking."""

    def close(self) -> None:
        """Turn everything off and release the pins/port."""


@runtime_checkable
class Buttons(Protocol):
    """The five buttons: emit ``ButtonPressed`` (``long=True`` when held past the long-press time)."""

    def close(self) -> None: ...
