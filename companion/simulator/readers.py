"""The simulator's optional emulated readers: the window drives the MFRC522 emulators, not the queue.

With ``companion --emulated-readers`` a marker dropped on a city is a tag laid on that city's
emulated MFRC522 (the real ``mfrc522`` code polls it over the emulated SPI bus, the reader layer
debounces it), a clicked card is held over the emulated card reader, and the buttons are gpiozero
mock pins; the LED frame goes to the emulated 74HC595 chain. It costs CPU (45 emulated readers swept
20 times a second), so the plain simulator feeds the intents straight into the same queue instead.
Places that have no reader (Auf Achse's plain spaces, chosen on the screen) stay direct intents.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from companion.hardware.emulated import EmulatedTable
from companion.hardware.emulated_mfrc522 import EmulatedTag
from companion.intents import ButtonPressed, CardScanned, Intent, TagLifted, TagPlaced

CARD_HELD_S = 0.4  # how long a clicked card is held over the card reader
POLL_S = 0.05  # the readers' sweep interval (20 Hz, as on the box)


class EmulatedReaders:
    """Routes the window's intents to the emulated hardware; ``rig`` goes to the TableSession."""

    def __init__(
        self,
        cities: Sequence[str],
        sink: Callable[[Intent], None],
        neighbours: Mapping[str, Iterable[str]] | None = None,
    ) -> None:
        # ``neighbours``: the board's neighbouring cities, so the sweep is RF-safe as on the box
        self.hw = EmulatedTable(list(cities), sink=sink, adjacency=neighbours)
        self.rig = self.hw.rig
        self._card_off_at: float | None = None

    def drive(self, intent: Intent, now: float) -> bool:
        """Put ``intent`` on the emulated hardware; False if it has no device (send it directly)."""
        match intent:
            case TagPlaced(city=city, uid=uid) if city in self.hw.channels:
                self.hw.chip(city).place(EmulatedTag.from_hex(uid))
            case TagLifted(city=city, uid=uid) if city in self.hw.channels:
                chip = self.hw.chip(city)
                chip.tags = [t for t in chip.tags if t.uid != bytes.fromhex(uid)]
            case CardScanned(uid=uid) if self.hw.config.card_channel is not None:
                self.hw.chip("card").place(EmulatedTag.from_hex(uid))
                self._card_off_at = now + CARD_HELD_S
            case ButtonPressed(button=button, long=long):
                self.hw.press(button, long)
            case _:
                return False
        return True

    def tick(self, now: float) -> None:
        """Take a held card away once the reader has had time to see it."""
        if self._card_off_at is not None and now >= self._card_off_at:
            self.hw.chip("card").tags.clear()
            self._card_off_at = None

    def close(self) -> None:
        self.hw.close()
