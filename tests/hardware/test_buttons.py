"""gpiozero Buttons on mock pins: short and long presses, with an injected clock (no sleeping)."""

from __future__ import annotations

from gpiozero.pins.mock import MockFactory

from companion.hardware.buttons import GpioButtons
from companion.hardware.emulated import EmulatedTable
from companion.intents import ButtonName, ButtonPressed, Intent

PINS = {ButtonName.OK: 4, ButtonName.MENU: 21}


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def make() -> tuple[GpioButtons, MockFactory, Clock, list[Intent]]:
    got: list[Intent]
    factory, clock, got = MockFactory(), Clock(), []
    buttons = GpioButtons(got.append, PINS, long_press_s=1.5, bounce_s=None, clock=clock, pin_factory=factory)
    return buttons, factory, clock, got


def test_short_press_reported_on_release() -> None:
    buttons, factory, clock, got = make()
    with buttons:
        factory.pin(4).drive_low()
        assert got == []
        clock.now = 0.2
        factory.pin(4).drive_high()
        assert got == [ButtonPressed(ButtonName.OK)]


def test_long_press_reported_while_held_and_not_again_on_release() -> None:
    buttons, factory, clock, got = make()
    with buttons:
        factory.pin(21).drive_low()
        clock.now = 1.0
        buttons.poll(clock.now)
        assert got == []
        clock.now = 1.6
        buttons.poll(clock.now)
        assert got == [ButtonPressed(ButtonName.MENU, long=True)]
        clock.now = 3.0
        buttons.poll(clock.now)
        factory.pin(21).drive_high()
        assert got == [ButtonPressed(ButtonName.MENU, long=True)]


def test_long_press_without_poll_is_reported_on_release() -> None:
    buttons, factory, clock, got = make()
    with buttons:
        factory.pin(21).drive_low()
        clock.now = 2.0
        factory.pin(21).drive_high()
        assert got == [ButtonPressed(ButtonName.MENU, long=True)]


def test_close_twice_is_fine() -> None:
    buttons, *_ = make()
    buttons.close()
    buttons.close()


def test_emulated_table_press_helper() -> None:
    with EmulatedTable(["A"]) as table:
        table.press("plus")
        table.press(ButtonName.MENU, long=True)
        assert table.intents() == [ButtonPressed(ButtonName.PLUS), ButtonPressed(ButtonName.MENU, long=True)]
