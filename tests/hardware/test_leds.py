"""LED frames → bits → 74HC595 chain (gpiozero mock pins) → decoded back into frames."""

from __future__ import annotations

from typing import cast

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.hardware.emulated import EmulatedTable
from companion.hardware.leds import DECODE_PHASES, GpioLeds, LedMap, decode_bits, render_bits
from companion.hardware.shift_register import Emulated595Chain, ShiftRegisterLeds
from companion.ledframe import EVENT_KINDS, TIME_TRACK_LENGTH, CityLight, LedFrame

CITIES = ["Bremen", "Poznań", "Vilnius", "Lviv", "Bratislava", "Mönchengladbach", "Prague", "Riga", "Oss"]
MAP = LedMap.sequential(CITIES)

frames = st.builds(
    lambda cities, time, end, event, seat: LedFrame.build(cities, time=time, time_end=end, event_kind=event, seat=seat),
    st.dictionaries(st.sampled_from(CITIES), st.sampled_from(list(CityLight))),
    st.none() | st.integers(0, TIME_TRACK_LENGTH - 1),
    st.none() | st.integers(0, TIME_TRACK_LENGTH - 1),
    st.none() | st.sampled_from(EVENT_KINDS),
    st.none() | st.integers(0, 3),
)


@given(frames)
def test_render_then_decode_gives_the_frame_back(frame: LedFrame) -> None:
    decoded = decode_bits([render_bits(frame, MAP, phase) for phase in DECODE_PHASES], MAP)
    expected_end = None if frame.time_end == frame.time else frame.time_end  # the steady position wins
    assert decoded == LedFrame(frame.cities, frame.time, expected_end, frame.event_kind, frame.seat)


def test_patterns_hint_steady_selected_slow_expected_fast_second_colour() -> None:
    frame = LedFrame.build({"Riga": CityLight.HINT, "Oss": CityLight.SELECTED, "Lviv": CityLight.EXPECTED})
    a = {city: MAP.cities[city][0] for city in CITIES}
    b = {city: cast(int, MAP.cities[city][1]) for city in CITIES}  # a two-colour map: every city has a B bit
    at = {t: render_bits(frame, MAP, t) for t in (0.0, 0.2, 0.6)}
    assert [at[t][a["Riga"]] for t in at] == [True, True, True]
    assert [at[t][a["Oss"]] for t in at] == [True, True, False]
    assert [at[t][b["Lviv"]] for t in at] == [True, False, True]
    assert not any(at[t][a["Lviv"]] for t in at)


@pytest.fixture
def factory() -> MockFactory:
    return MockFactory()


def test_shift_register_chain_latches_the_rendered_bits(factory: MockFactory) -> None:
    chain = Emulated595Chain(factory, data_pin=17, clock_pin=27, latch_pin=22, length=MAP.size)
    with ShiftRegisterLeds(MAP, data_pin=17, clock_pin=27, latch_pin=22, enable_pin=18, pin_factory=factory) as leds:
        # 18 city + 15 time + 5 event + 4 seat = 42 bits: six 595s. (cast: BlinkingOutput.__enter__ is typed
        # as returning BlinkingOutput, not the subclass.)
        assert chain.length == 48 and cast(ShiftRegisterLeds, leds).length == 48
        frame = LedFrame.build({"Prague": CityLight.HINT}, time=7, event_kind="bonus", seat=2)
        leds.show(frame, 0.0)
        assert chain.outputs[: MAP.size] == render_bits(frame, MAP, 0.0)
        assert chain.outputs[MAP.cities["Prague"][0]]
        assert sum(chain.outputs) == 4
        assert not factory.pin(18).state  # OE low: outputs enabled
    assert not any(chain.outputs)  # close() turned every LED off


def test_unchanged_frame_is_not_shifted_again(factory: MockFactory) -> None:
    chain = Emulated595Chain(factory, data_pin=17, clock_pin=27, latch_pin=22, length=MAP.size)
    with ShiftRegisterLeds(MAP, data_pin=17, clock_pin=27, latch_pin=22, pin_factory=factory) as leds:
        leds.show(LedFrame.build({"Oss": CityLight.HINT}), 0.0)
        latches = chain.latches
        leds.poll(0.1)
        leds.poll(0.7)
        assert chain.latches == latches  # steady: nothing to blink


def test_blinking_needs_polls(factory: MockFactory) -> None:
    chain = Emulated595Chain(factory, data_pin=17, clock_pin=27, latch_pin=22, length=MAP.size)
    with ShiftRegisterLeds(MAP, data_pin=17, clock_pin=27, latch_pin=22, pin_factory=factory) as leds:
        leds.show(LedFrame.build({"Oss": CityLight.SELECTED}), 0.0)
        bit = MAP.cities["Oss"][0]
        seen = []
        for i in range(8):
            leds.poll(i * 0.25)
            seen.append(chain.outputs[bit])
        assert seen == [True, True, False, False] * 2


def test_direct_gpio_leds(factory: MockFactory) -> None:
    small = LedMap(cities={"A": (0, None), "B": (1, None)}, seats=(2, 3))
    pins = list(range(5, 5 + small.size))  # not 2, 3: they have pull-ups
    with GpioLeds(small, pins, pin_factory=factory) as leds:
        leds.show(LedFrame.build({"B": CityLight.HINT}, seat=1), 0.0)
        states = [factory.pin(p).state for p in pins]
        assert states == list(render_bits(LedFrame.build({"B": CityLight.HINT}, seat=1), small, 0.0))
    assert not any(factory.pin(p).state for p in pins)


def test_emulated_table_decodes_what_it_shows() -> None:
    with EmulatedTable(CITIES) as table:
        frame = LedFrame.build(
            {"Oss": CityLight.EXPECTED, "Riga": CityLight.HINT, "Bremen": CityLight.SELECTED},
            time=14,
            time_end=11,
            event_kind="traffic_jam",
            seat=3,
        )
        table.show(frame)
        assert table.decoded_leds() == frame
        table.show(LedFrame())
        assert table.decoded_leds() == LedFrame()


@settings(max_examples=25, deadline=None)
@given(frames)
def test_any_frame_survives_the_shift_register(frame: LedFrame) -> None:
    factory = MockFactory()
    chain = Emulated595Chain(factory, data_pin=17, clock_pin=27, latch_pin=22, length=MAP.size)
    with ShiftRegisterLeds(MAP, data_pin=17, clock_pin=27, latch_pin=22, pin_factory=factory) as leds:
        samples = []
        for phase in DECODE_PHASES:
            leds.show(frame, 10 + phase)
            samples.append(chain.outputs)
    decoded = decode_bits(samples, MAP)
    assert decoded.cities == frame.cities and decoded.seat == frame.seat and decoded.time == frame.time
