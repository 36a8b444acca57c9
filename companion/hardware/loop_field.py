"""How strongly one reader's antenna reaches a tag lying on another: the emulator's coupling, from geometry.

The model is the textbook one for a 13.56 MHz reader antenna, a flat circular loop, and a tag coil
parallel to it (a sticker under a marker lying flat on the board):

* the axial field of a circular loop of radius ``a`` at radial distance ``r`` and height ``z`` in
  closed form with the complete elliptic integrals K and E (Simpson, Lane, Immer, Youngquist, "Simple
  Analytic Expressions for the Magnetic Field of a Circular Current Loop", NASA/TM-2013-217919, eq.
  for B_z; the same as Jackson, *Classical Electrodynamics*, §5.5). On the axis it reduces to
  a² / (2 (a² + z²)^{3/2}) (Finkenzeller, *RFID Handbook*, §4.1.1.1, the field of a conductor loop).
* the voltage a tag coil picks up follows the flux through it: the mean axial field over the tag's
  disc (radius ``TAG_RADIUS_MM``, an NTAG213 sticker of ≤ 25 mm as wiring.md lists).
* a reader just powers a tag at its reading range on its own axis. The MFRC522 data sheet (§3,
  Features) gives "typical operating distance … up to 50 mm depending on the antenna size": we take
  the top of that, 50 mm, for the 40 mm coil of the stock module and scale it with the coil size.
  The longest range is the pessimistic choice: it makes the activation field the weakest, so every
  neighbour looks as strong as it can.

``coupling(d)`` is the flux of reader B's field through a tag lying on reader A (centres ``d`` apart)
divided by the flux that just powers a tag (on B's axis at B's reading range, same drive current). So
1.0 = B's field alone powers the tag on A (ISO/IEC 14443-2 Hmin reached), as the emulator reads it.
Plain floats, no numpy: it runs wherever the emulator runs.
"""

from __future__ import annotations

import functools
import math

STOCK_COIL_MM = 40.0  # the stock RC522 module's PCB antenna (the module is 60 × 40 mm)
RANGE_PER_COIL = 50.0 / STOCK_COIL_MM  # MFRC522 DS §3: up to 50 mm, with the stock 40 mm coil
TAG_RADIUS_MM = 10.0  # an NTAG213 sticker of ≤ 25 mm has a coil of about 20 mm
TAG_HEIGHT_MM = 3.0  # the tag above the antenna: board card (≈ 2 mm) and the sticker under a marker
_GRID = 8  # points per tag radius when averaging the field over the tag's disc


def _ellipke(m: float) -> tuple[float, float]:
    """Complete elliptic integrals K(m) and E(m), parameter m = k², by the arithmetic-geometric mean."""
    a, b = 1.0, math.sqrt(max(0.0, 1.0 - m))
    c_sum, power = m / 2.0, 0.5
    while abs(a - b) > 1e-15 * a:
        c = (a - b) / 2.0
        a, b = (a + b) / 2.0, math.sqrt(a * b)
        power *= 2.0
        c_sum += power * c * c
    k = math.pi / (2.0 * a)
    return k, k * (1.0 - c_sum)


def axial_field(radius: float, r: float, z: float) -> float:
    """B_z of a loop of ``radius`` carrying μ0·I = 1, at radial distance ``r`` and height ``z``."""
    alpha2 = radius * radius + r * r + z * z - 2.0 * radius * r
    beta2 = radius * radius + r * r + z * z + 2.0 * radius * r
    if alpha2 <= 1e-12:
        return math.inf  # on the wire itself
    k, e = _ellipke(1.0 - alpha2 / beta2)
    return ((radius * radius - r * r - z * z) * e + alpha2 * k) / (2.0 * math.pi * alpha2 * math.sqrt(beta2))


def tag_flux(radius: float, d: float, z: float, tag_radius: float = TAG_RADIUS_MM) -> float:
    """Mean B_z over a tag disc of ``tag_radius`` centred ``d`` from the loop's axis at height ``z``."""
    total, count = 0.0, 0
    step = tag_radius / _GRID
    for i in range(-_GRID, _GRID + 1):
        for j in range(-_GRID, _GRID + 1):
            x, y = i * step, j * step
            if x * x + y * y <= tag_radius * tag_radius:
                total += axial_field(radius, math.hypot(d + x, y), z)
                count += 1
    return total / count


def reading_range(coil_mm: float) -> float:
    """The pessimistic (longest) reading range of a coil of this size, mm."""
    return coil_mm * RANGE_PER_COIL


@functools.lru_cache(maxsize=64)
def _activation(coil_mm: float) -> float:
    return tag_flux(coil_mm / 2.0, 0.0, reading_range(coil_mm))


def coupling(distance_mm: float, coil_mm: float = STOCK_COIL_MM, height_mm: float = TAG_HEIGHT_MM) -> float:
    """How strongly a reader with a coil of ``coil_mm`` reaches a tag on an antenna ``distance_mm`` away:
    its flux through the tag over the flux that just powers a tag (1.0 = it powers the tag alone)."""
    return abs(tag_flux(coil_mm / 2.0, distance_mm, height_mm)) / _activation(coil_mm)
