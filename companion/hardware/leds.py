"""From an :class:`~companion.ledframe.LedFrame` to LED bits, and back (for tests and ``hardware test``).

Every LED backend (74HC595 chain, direct gpiozero LEDs, the serial bridge) drives one bit vector;
:class:`LedMap` says which bit is which LED, :func:`render_bits` is the pure frame → bits function
at a given time (blinking lives here), :func:`decode_bits` reads a frame back from bits sampled at
the three :data:`DECODE_PHASES`.

Patterns: HINT = colour A steady; SELECTED = colour A slow blink (1 Hz); EXPECTED = colour B fast
blink (4 Hz), or colour A fast blink on single-colour builds; SEEN = both colours steady (the
acknowledgement of a marker just put down), colour A steady on single-colour builds. The time track lights its position
steady and blinks the end mark slowly; the event kind and the seat on turn are steady.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from companion.ledframe import EVENT_KINDS, TIME_TRACK_LENGTH, CityLight, LedFrame

SLOW_PERIOD_S = 1.0
FAST_PERIOD_S = 0.25
DECODE_PHASES = (0.0, 0.1875, 0.5625)  # steady: on on on, slow: on on off, fast: on off on
_STEADY, _SLOW, _FAST = (True, True, True), (True, True, False), (True, False, True)


def slow_on(now: float) -> bool:
    return (now % SLOW_PERIOD_S) < SLOW_PERIOD_S / 2


def fast_on(now: float) -> bool:
    return (now % FAST_PERIOD_S) < FAST_PERIOD_S / 2


@dataclass(frozen=True)
class LedMap:
    """Bit index of every LED. ``cities`` gives (colour A bit, colour B bit or None)."""

    cities: Mapping[str, tuple[int, int | None]]
    time: tuple[int, ...] = ()
    events: Mapping[str, int] = field(default_factory=dict)
    seats: tuple[int, ...] = ()

    @property
    def size(self) -> int:
        used = [b for a, b2 in self.cities.values() for b in (a, b2) if b is not None]
        used += [*self.time, *self.events.values(), *self.seats]
        return max(used, default=-1) + 1

    def bits_used(self) -> list[tuple[str, int]]:
        """(label, bit) for every LED, in bit order: what ``hardware test`` walks through."""
        out: list[tuple[str, int]] = []
        for city, (a, b) in self.cities.items():
            out.append((f"{city} (colour A)", a))
            if b is not None:
                out.append((f"{city} (colour B)", b))
        out += [(f"time {i}", bit) for i, bit in enumerate(self.time)]
        out += [(f"event {kind}", bit) for kind, bit in self.events.items()]
        out += [(f"seat {i}", bit) for i, bit in enumerate(self.seats)]
        return sorted(out, key=lambda item: item[1])

    @staticmethod
    def sequential(cities: Iterable[str], *, two_colour: bool = True, seats: int = 4) -> LedMap:
        """The reference layout: cities (A, B) in order, then time 0..14, event kinds, seats."""
        bit = 0
        city_bits: dict[str, tuple[int, int | None]] = {}
        for city in cities:
            city_bits[city] = (bit, bit + 1) if two_colour else (bit, None)
            bit += 2 if two_colour else 1
        time = tuple(range(bit, bit + TIME_TRACK_LENGTH))
        bit += TIME_TRACK_LENGTH
        events = {kind: bit + i for i, kind in enumerate(EVENT_KINDS)}
        bit += len(EVENT_KINDS)
        return LedMap(city_bits, time, events, tuple(range(bit, bit + seats)))


def render_bits(frame: LedFrame, led_map: LedMap, now: float) -> tuple[bool, ...]:
    """The LED bit vector for ``frame`` at time ``now`` (seconds; only its phase matters)."""
    bits = [False] * led_map.size
    slow, fast = slow_on(now), fast_on(now)
    for city, light in frame.cities:
        if city not in led_map.cities:
            continue
        a, b = led_map.cities[city]
        if light is CityLight.HINT:
            bits[a] = True
        elif light is CityLight.SELECTED:
            bits[a] = slow
        elif light is CityLight.EXPECTED:
            bits[b if b is not None else a] = fast
        elif light is CityLight.SEEN:
            bits[a] = True
            if b is not None:
                bits[b] = True
    if frame.time_end is not None and 0 <= frame.time_end < len(led_map.time):
        bits[led_map.time[frame.time_end]] = slow
    if frame.time is not None and 0 <= frame.time < len(led_map.time):
        bits[led_map.time[frame.time]] = True
    if frame.event_kind is not None and frame.event_kind in led_map.events:
        bits[led_map.events[frame.event_kind]] = True
    if frame.seat is not None and 0 <= frame.seat < len(led_map.seats):
        bits[led_map.seats[frame.seat]] = True
    return tuple(bits)


def decode_bits(samples: Sequence[Sequence[bool]], led_map: LedMap) -> LedFrame:
    """Read a frame back from the bits seen at each of :data:`DECODE_PHASES`."""
    if len(samples) != len(DECODE_PHASES):
        raise ValueError(f"need one bit vector per phase {DECODE_PHASES}, got {len(samples)}")

    def pattern(bit: int) -> tuple[bool, ...]:
        return tuple(bool(s[bit]) if bit < len(s) else False for s in samples)

    cities: dict[str, CityLight] = {}
    for city, (a, b) in led_map.cities.items():
        pa, pb = pattern(a), pattern(b) if b is not None else (False, False, False)
        if pb == _FAST or (b is None and pa == _FAST):
            cities[city] = CityLight.EXPECTED
        elif pa == _STEADY and pb == _STEADY:
            cities[city] = CityLight.SEEN
        elif pa == _STEADY:
            cities[city] = CityLight.HINT
        elif pa == _SLOW:
            cities[city] = CityLight.SELECTED
    time = time_end = None
    for i, bit in enumerate(led_map.time):
        if pattern(bit) == _STEADY:
            time = i
        elif pattern(bit) == _SLOW:
            time_end = i
    event = next((kind for kind, bit in led_map.events.items() if pattern(bit) == _STEADY), None)
    seat = next((i for i, bit in enumerate(led_map.seats) if pattern(bit) == _STEADY), None)
    return LedFrame.build(cities, time=time, time_end=time_end, event_kind=event, seat=seat)


class BlinkingOutput:
    """Shared part of the bit-vector LED backends: remembers the frame, re-renders on ``poll``."""

    def __init__(self, led_map: LedMap) -> None:
        self.led_map = led_map
        self.frame = LedFrame()
        self.bits: tuple[bool, ...] = ()
        self._closed = False

    def show(self, frame: LedFrame, now: float) -> None:
        self.frame = frame
        self.poll(now)

    def poll(self, now: float) -> None:
        if self._closed:
            return
        bits = render_bits(self.frame, self.led_map, now)
        if bits != self.bits:
            self.write_bits(bits)
            self.bits = bits

    def write_bits(self, bits: Sequence[bool]) -> None:
        raise NotImplementedError

    def release(self) -> None:
        """Free pins/ports; called once by :meth:`close` after the LEDs went dark."""

    def close(self) -> None:
        if self._closed:
            return
        try:
            self.write_bits((False,) * self.led_map.size)
        finally:
            self._closed = True
            self.release()

    def __enter__(self) -> BlinkingOutput:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class GpioLeds(BlinkingOutput):
    """Small builds: one gpiozero ``LED`` per bit (``pins[i]`` is the BCM pin of bit i)."""

    def __init__(self, led_map: LedMap, pins: Sequence[int], pin_factory: object | None = None) -> None:
        from gpiozero import LED

        super().__init__(led_map)
        if len(pins) < led_map.size:
            raise ValueError(f"the LED map uses {led_map.size} bits but only {len(pins)} pins are given")
        self._leds = [LED(pin, pin_factory=pin_factory) for pin in pins]

    def write_bits(self, bits: Sequence[bool]) -> None:
        for led, bit in zip(self._leds, bits, strict=False):
            led.value = bool(bit)

    def release(self) -> None:
        for led in self._leds:
            led.close()
        self._leds = []
