"""Screenshots the suite leaves in ``tests/output`` for people to look at: PNG, written fast.

``pygame.image.save`` compresses hard (libpng's default level and filter search): 15-45 ms a frame
here, and the suite saves several hundred. These are for looking at, not archiving: no row filter and
zlib level 1 write them about 2.4 times as fast, a few per cent larger, still ordinary PNGs. Opaque:
the screens are; an alpha channel would be dropped.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import pygame


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def save_png(surface: pygame.Surface, path: Path | str) -> None:
    """``surface`` as an 8-bit RGB PNG at ``path`` (PNG spec: IHDR, one IDAT, IEND; filter type 0)."""
    width, height = surface.get_size()
    pixels = pygame.image.tobytes(surface, "RGB")
    stride = width * 3
    rows = b"".join(b"\x00" + pixels[y * stride : (y + 1) * stride] for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8 bits, colour type 2 (RGB)
    Path(path).write_bytes(
        b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(rows, 1)) + _chunk(b"IEND", b"")
    )
