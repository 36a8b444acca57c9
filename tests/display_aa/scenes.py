"""Auf Achse key moments for the screen tests, reached through the table controller (as at the table)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.ledframe import LedFrame
from companion.table.ui import UiModel
from tests.table_aa.conftest import AATable


@dataclass
class Scene:
    name: str
    state: Any
    ui: UiModel
    leds: LedFrame


def _scene(name: str, t: AATable) -> Scene:
    return Scene(name, t.state, t.ui, t.ctl.led_frame)


AUCTION = """
red    @Hamburg 6500DM hand=C01,C02 loaded=C21 trailers=small
blue   @Bremen-Hanover#1 hand=C03
green  @Berlin debt=bank:700 0DM hand=C04,C05,C06
public C10,C11,C12,C13 hidden=9
signs  roadworks=Hamburg-Hanover#2 stau=Kassel-Frankfurt#1:blue
turn   red stage=act roll=3 exact round=4
"""


def auction() -> Scene:
    """C10 on auction: blue bid level 1, green passed (no money), red's card scanned, level 3 chosen."""
    t = AATable(AUCTION, colours=("red", "blue", "green"))
    t.scan("C10")
    t.press("ok")
    t.bank("blue")
    t.press("ok")  # blue: level 1 (700 DM); green cannot pay and passes automatically
    t.bank("red")
    t.press("plus")  # red chooses level 2... skips to
    t.press("plus")
    return _scene("aa_auction", t)


def setup() -> Scene:
    """Set-up: trucks placed, red has scanned 2 of his 3 private contracts."""
    t = AATable(None, colours=("red", "blue"))
    t.press("ok")
    t.tap("Bremen-Dortmund#1")
    t.press("ok")
    t.scan("C01")
    t.scan("C02")
    return _scene("aa_setup", t)


def move() -> Scene:
    t = AATable("red @Hamburg-Bremen#1 hand=C44\nblue @Berlin\npublic C10,C11,C12,C13\nturn red roll=3")
    t.press("plus")
    return _scene("aa_move", t)


END = """
red    @Hamburg-Bremen#1 16000DM loaded=C21 done=C01,C02
blue   @Vienna 21200DM hand=C04 done=C05,C06
green  @Kassel-Frankfurt#1 9000DM debt=bank:1200 done=C07
public hidden=0
turn   red roll=1 round=9
"""


def game_over() -> Scene:
    """No public contract left; red delivers his last one in Hamburg: the game ends (AA-23)."""
    t = AATable(END, colours=("red", "blue", "green"))
    t.place("red", "Hamburg")
    t.press("ok")  # unload C21: +6 500 DM
    assert t.state.finished
    return _scene("aa_game_over", t)
