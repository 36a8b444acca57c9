"""What the LEDs must show: a pure value computed by the table controller, written by a backend.

The frame is hardware-neutral: a backend maps each city / time position / event kind / seat to a
physical LED (a 74HC595 bit, a gpiozero LED, a serial-bridge index) using the hardware TOML.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum


class CityLight(StrEnum):
    OFF = "off"
    HINT = "hint"  # steady, first colour: a city reachable / a legal candidate
    SELECTED = "selected"  # slow blink, first colour: the current candidate of a city selection
    EXPECTED = "expected"  # fast blink, second colour: "put the marker back here"
    SEEN = "seen"  # steady, both colours: the readers saw a marker put here; it counts once it rests


EVENT_KINDS = ("bonus", "malus", "cheaper_build", "extra_step", "traffic_jam")
TIME_TRACK_LENGTH = 15  # positions 0..14


@dataclass(frozen=True, slots=True)
class LedFrame:
    cities: tuple[tuple[str, CityLight], ...] = ()  # only cities that are not OFF, sorted by name
    time: int | None = None  # time-track position lit, 0..14
    time_end: int | None = None  # end mark for the player count, shown dimmed/blinking
    event_kind: str | None = None  # one of EVENT_KINDS
    seat: int | None = None  # whose turn, 0..3

    def city(self, name: str) -> CityLight:
        for city, light in self.cities:
            if city == name:
                return light
        return CityLight.OFF

    def acknowledging(self, cities: Iterable[str]) -> LedFrame:
        """This frame with ``cities`` lit SEEN over whatever they showed: the table acknowledges a
        placement the moment the readers report it, before it settles and the move commits."""
        seen = set(cities)
        if not seen:
            return self
        lights = {**dict(self.cities), **dict.fromkeys(seen, CityLight.SEEN)}
        return LedFrame.build(
            lights, time=self.time, time_end=self.time_end, event_kind=self.event_kind, seat=self.seat
        )

    @staticmethod
    def build(
        cities: dict[str, CityLight] | None = None,
        *,
        time: int | None = None,
        time_end: int | None = None,
        event_kind: str | None = None,
        seat: int | None = None,
    ) -> LedFrame:
        lit = tuple(sorted((c, light) for c, light in (cities or {}).items() if light is not CityLight.OFF))
        return LedFrame(lit, time, time_end, event_kind, seat)


DARK = LedFrame()
