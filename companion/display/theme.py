"""Colours, player styles and number formats shared by every part of the screen.

Player colours are the Okabe–Ito palette (safe for the common colour-vision deficiencies) and each
player also has a letter and a fill pattern, so no information rests on colour alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.engine.money import format_money
from companion.ledframe import CityLight

RGB = tuple[int, int, int]

BACKGROUND: RGB = (18, 22, 28)
PANEL: RGB = (32, 38, 48)
PANEL_ACTIVE: RGB = (44, 54, 70)
SEA: RGB = (24, 34, 46)
LAND: RGB = (30, 40, 36)
TEXT: RGB = (236, 238, 240)
TEXT_DIM: RGB = (160, 166, 176)
TEXT_FAINT: RGB = (110, 116, 128)
ROAD: RGB = (96, 104, 116)
JAM: RGB = (255, 140, 0)
CITY: RGB = (200, 204, 210)
WAREHOUSE: RGB = (170, 174, 180)
LOGISTICS_CENTRE: RGB = (230, 90, 80)
CREDIT: RGB = (120, 220, 140)
DEBIT: RGB = (255, 150, 130)
REFUSAL: RGB = (255, 120, 100)
REFUSAL_BG: RGB = (70, 30, 30)
ACCENT: RGB = (255, 214, 10)

# The city LEDs' two colours, mirrored on the map as rings (ledframe.CityLight).
LIGHT_COLOURS: dict[CityLight, RGB] = {
    CityLight.HINT: (250, 250, 250),
    CityLight.SELECTED: (250, 250, 250),
    CityLight.EXPECTED: (255, 70, 200),
    CityLight.SEEN: (120, 230, 140),
}

SLOW_BLINK_HZ = 1.0  # SELECTED
FAST_BLINK_HZ = 2.5  # EXPECTED


@dataclass(frozen=True, slots=True)
class PlayerStyle:
    colour: RGB
    letter: str  # drawn on every token: the colour is never the only cue
    pattern: str  # "solid" | "stripes" | "dots" | "checks" (drawn on panel swatches)
    ink: RGB = (0, 0, 0)  # text drawn on the colour


_KNOWN: dict[str, PlayerStyle] = {
    "red": PlayerStyle((230, 97, 0), "R", "solid"),
    "blue": PlayerStyle((86, 180, 233), "B", "stripes"),
    "green": PlayerStyle((0, 170, 125), "G", "dots"),
    "yellow": PlayerStyle((240, 228, 66), "Y", "checks"),
    "black": PlayerStyle((150, 150, 150), "K", "checks"),
    "white": PlayerStyle((245, 245, 245), "W", "dots"),
    "orange": PlayerStyle((230, 159, 0), "O", "stripes"),
    "purple": PlayerStyle((204, 121, 167), "P", "dots"),
}
_SPARE = [(230, 159, 0), (204, 121, 167), (0, 114, 178), (213, 94, 0)]
_PATTERNS = ("solid", "stripes", "dots", "checks")


def player_style(colour: str, seat: int = 0) -> PlayerStyle:
    """The style of a player colour; unknown names get a spare colour and their first letter."""
    known = _KNOWN.get(colour.lower())
    if known is not None:
        return known
    letter = (colour[:1] or "?").upper()
    return PlayerStyle(_SPARE[seat % len(_SPARE)], letter, _PATTERNS[seat % len(_PATTERNS)])


def money(amount: int, *, signed: bool = False, unit: str = "R") -> str:
    """``12 500 R``; with ``signed`` a leading + or − (U+2212). Thousands grouped with a space."""
    return format_money(amount, unit, signed=signed)


def title(colour: str) -> str:
    return colour[:1].upper() + colour[1:]


def dm(amount: int, *, signed: bool = False) -> str:
    """Auf Achse money: ``5 000 DM``."""
    return money(amount, signed=signed, unit="DM")
