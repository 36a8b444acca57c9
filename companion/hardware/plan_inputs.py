"""What ``companion hardware plan`` reads: where each city lies on the print, and which antenna sits under it.

Positions come from a board file's ``[[cities]]`` x, y (0..1 from the left and from the top of the
printed map, as both games' board files define them) scaled to the printed board's size, and may be
corrected per city by a TOML of measured millimetres (the print is the truth, not the file)::

    # measured on my print, from its top-left corner, in mm
    [positions]
    "Warsaw" = [412.0, 173.5]
    card = [630.0, 40.0]          # the card reader beside the board (optional)

Every value is checked; a bad file raises :class:`ConfigError` with the file, line and field.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from companion.hardware.config import locate, parse_toml, read_text
from companion.hardware.errors import ConfigError

MAX_BOARD_MM = 3000.0  # a table, not a room
CARD = "card"
BOARD = "board"  # a position scaled from the board file's x, y
MEASURED = "measured"  # a position given in millimetres by the builder

# Minimum centre distances in units of the coil size. They are simple rules with margin; the
# emulator's independent field model (loop_field) is checked against them in tests/hardware/test_plan.py:
# its "neighbour alone powers the tag" contour lies within 1.27 coil sizes and its "heard" (0.1)
# contour within 2.6 coil sizes for coils of 15-40 mm.
POWER_FACTOR = 1.4  # closer than this, a neighbour's field alone powers the tag: no grouping helps
CLOSE_FACTOR = 3.0  # closer than this, two antennas must never be on together (one RF group each)
SMALLEST_COIL_MM = 15.0  # guess: below this a reader coil is smaller than the tag's (~20 mm): poor reads


@dataclass(frozen=True)
class Antenna:
    """One kind of reader antenna: its coil size and the outline of the board it sits on."""

    kind: str
    coil_mm: float
    module_mm: tuple[float, float] | None  # (long, short) side of the PCB, None for a bare coil
    source: str

    @property
    def min_room_mm(self) -> float:
        """The nearest other antenna may be no closer than this (centre to centre)."""
        electrical = POWER_FACTOR * self.coil_mm
        physical = self.module_mm[1] if self.module_mm else self.coil_mm  # two boards side by side
        return max(electrical, physical)

    @property
    def close_mm(self) -> float:
        return CLOSE_FACTOR * self.coil_mm


STOCK = Antenna(
    "stock",
    40.0,
    (60.0, 40.0),
    "RC522 module: PCB 60 x 40 mm (vendor pages, e.g. ourpcb.com/rc522.html 'Compact size: 40mm x 60mm'), "
    "its PCB coil about 40 mm",
)
MINI = Antenna(
    "mini",
    25.0,
    (40.0, 30.0),
    "'mini' RC522 boards: no published drawing found; nominal 25 mm coil on a 40 x 30 mm PCB - measure yours "
    "and give --antenna coil:<mm> if it differs",
)
_COIL = re.compile(r"^coil:(\d+(?:\.\d+)?)(?:mm)?$")


def antenna_kind(spec: str) -> Antenna:
    """``stock``, ``mini`` or ``coil:<diameter mm>`` (a custom coil, e.g. ``coil:20``)."""
    if spec == STOCK.kind:
        return STOCK
    if spec == MINI.kind:
        return MINI
    match = _COIL.match(spec)
    if match:
        size = float(match.group(1))
        if not 5.0 <= size <= 200.0:
            raise ValueError(f"a coil of {size:g} mm: give 5 to 200 mm")
        return Antenna(f"coil:{size:g}", size, None, f"custom coil of {size:g} mm (the builder's)")
    raise ValueError(f"unknown antenna {spec!r}: stock, mini or coil:<diameter in mm> (e.g. coil:20)")


def board_size(text: str) -> tuple[float, float]:
    """``600x450`` (mm, width x height of the printed map) → (600.0, 450.0)."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*[xX×]\s*(\d+(?:\.\d+)?)\s*(?:mm)?\s*", text)
    if not match:
        raise ValueError(f"board size {text!r}: give WIDTHxHEIGHT in mm, e.g. 600x450")
    width, height = float(match.group(1)), float(match.group(2))
    if not (0 < width <= MAX_BOARD_MM and 0 < height <= MAX_BOARD_MM):
        raise ValueError(f"board size {text!r}: each side from 1 to {MAX_BOARD_MM:g} mm")
    return width, height


@dataclass(frozen=True)
class Position:
    x_mm: float
    y_mm: float
    source: str  # BOARD or MEASURED


def nfc(name: str) -> str:
    """City names are compared after Unicode NFC normalisation, as the board files say."""
    return unicodedata.normalize("NFC", name)


@dataclass(frozen=True)
class _Toml:
    """A small TOML file (a board or a positions file): its text, data, and where things are in it."""

    path: str
    text: str
    data: dict[str, object]

    def line_of_entry(self, table: str, occurrence: int, key: str | None = None) -> int | None:
        """The line of ``key`` in the ``occurrence``-th ``[[table]]`` block (or of the block's header)."""
        header = re.compile(rf"^\s*\[\[\s*{re.escape(table)}\s*\]\]")
        seen, start = 0, None
        lines = self.text.split("\n")
        for number, line in enumerate(lines, start=1):
            if header.match(line):
                seen += 1
                if seen == occurrence:
                    start = number
                    break
        if start is None or key is None:
            return start
        for number in range(start + 1, len(lines) + 1):
            line = lines[number - 1]
            if re.match(r"^\s*\[", line):
                break
            if re.match(rf"^\s*{re.escape(key)}\s*=", line):
                return number
        return start


def _read_toml(path: Path | str) -> _Toml:
    """Read a TOML file the way the hardware file is read (``config.read_text``, ``config.parse_toml``)."""
    text = read_text(path)
    return _Toml(str(path), text, parse_toml(text, str(path)))


def board_cities(path: Path | str) -> dict[str, tuple[float, float]]:
    """City → (x, y) fractions of the printed map, from a board file's ``[[cities]]``."""
    source = _read_toml(path)
    cities = source.data.get("cities")
    if not isinstance(cities, list) or not cities:
        raise ConfigError(source.path, None, "[[cities]]", "no cities: is this a board file?")
    out: dict[str, tuple[float, float]] = {}
    for number, city in enumerate(cities, start=1):
        line = source.line_of_entry("cities", number)
        if not isinstance(city, dict) or not isinstance(city.get("name"), str) or not city["name"].strip():
            raise ConfigError(source.path, line, f"[[cities]] #{number} name", "every city needs a name")
        name = nfc(city["name"].strip())
        for key in ("x", "y"):
            value = city.get(key)
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0.0 <= value <= 1.0:
                raise ConfigError(
                    source.path, source.line_of_entry("cities", number, key), f"[[cities]] {name} {key}",
                    f"must be a number from 0 to 1 (a fraction of the printed map), not {value!r}",
                )  # fmt: skip
        if name in out:
            raise ConfigError(source.path, line, f"[[cities]] {name}", "this city is listed twice")
        out[name] = (float(city["x"]), float(city["y"]))
    return out


def measured_positions(path: Path | str, cities: set[str], size: tuple[float, float]) -> dict[str, Position]:
    """``[positions]``: city (or ``card``) → [x mm, y mm] from the print's top-left corner."""
    source = _read_toml(path)
    data, name_of_file = source.data, source.path
    unknown = [key for key in data if key != "positions"]
    if unknown:
        line = locate(source.text, unknown[0])
        raise ConfigError(name_of_file, line, unknown[0], "unknown table; expected [positions]")
    table = data.get("positions")
    if not isinstance(table, dict):
        line = locate(source.text, "positions")
        raise ConfigError(name_of_file, line, "[positions]", "must be a table: City = [x_mm, y_mm]")
    width, height = size
    out: dict[str, Position] = {}
    for key, value in table.items():
        name = nfc(key.strip())
        line = locate(source.text, "positions", key)
        field = f"[positions] {key}"
        if name != CARD and name not in cities:
            raise ConfigError(name_of_file, line, field, f"no city {key!r} on the board (and not 'card')")
        if not (
            isinstance(value, list)
            and len(value) == 2
            and all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in value)
        ):
            raise ConfigError(name_of_file, line, field, f"must be [x_mm, y_mm], two numbers, not {value!r}")
        x, y = float(value[0]), float(value[1])
        if name != CARD and not (0.0 <= x <= width and 0.0 <= y <= height):
            raise ConfigError(
                name_of_file, line, field, f"({x:g}, {y:g}) mm lies outside the {width:g} x {height:g} mm board"
            )
        if name == CARD and not (abs(x) <= MAX_BOARD_MM and abs(y) <= MAX_BOARD_MM):
            raise ConfigError(name_of_file, line, field, f"({x:g}, {y:g}) mm is not beside the board")
        out[name] = Position(x, y, MEASURED)
    return out


def positions(
    cities: dict[str, tuple[float, float]], size: tuple[float, float], measured: dict[str, Position] | None = None
) -> dict[str, Position]:
    """Every city's position on the print: measured where given, else the board file's x, y scaled."""
    width, height = size
    out = {name: Position(fx * width, fy * height, BOARD) for name, (fx, fy) in cities.items()}
    out.update(measured or {})
    return out
