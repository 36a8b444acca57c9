"""The serial-bridge line protocol (version 1), both directions. Pure: bytes in, values out.

Every line is ASCII::

    <seq> <VERB> [ARG ...]*<CS>\\n

``seq`` is two hex digits, counting 00..FF per direction and wrapping (a gap = lost lines); ``CS`` is
the XOR of every byte before ``*``, two hex digits (as NMEA). Lines longer than 200 bytes, without
``*``, with a bad checksum or an unknown verb are dropped and counted.

Bridge → host: ``HELLO <protocol> <firmware> <readers>``, ``TAG <channel> <uid|->`` (the settled
state of one reader changed; the bridge debounces with the same K/N/M as the SPI backend), ``CARD
<uid>``, ``FAULT <channel> <text>``, ``RECOVERED <channel>``, ``SYNC <count>`` (end of a full state
report). Host → bridge: ``HELLO <protocol>`` (asks for HELLO and a full state report: every reader's
``TAG``, then ``SYNC``), ``LED <nbits> <hex>`` (the whole LED bit vector, bit 0 = LSB of the first
byte), ``RESYNC`` (state report only).
"""

from __future__ import annotations

from dataclasses import dataclass

PROTOCOL_VERSION = 1
MAX_LINE = 200
BRIDGE_VERBS = {
    "HELLO": (3, 3),
    "TAG": (2, 2),
    "CARD": (1, 1),
    "FAULT": (2, 99),
    "RECOVERED": (1, 1),
    "SYNC": (1, 1),
}
HOST_VERBS = {"HELLO": (1, 1), "LED": (2, 2), "RESYNC": (0, 0)}


class LineError(ValueError):
    """A line that is not a valid protocol line; ``kind`` says how (for the counters)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True, slots=True)
class Line:
    seq: int
    verb: str
    args: tuple[str, ...]


def checksum(payload: bytes) -> int:
    out = 0
    for byte in payload:
        out ^= byte
    return out


def encode(seq: int, verb: str, *args: object) -> bytes:
    payload = " ".join([f"{seq & 0xFF:02X}", verb, *(str(a) for a in args)]).encode("ascii")
    return payload + b"*" + f"{checksum(payload):02X}".encode("ascii") + b"\n"


def parse(raw: bytes, verbs: dict[str, tuple[int, int]]) -> Line:
    """Parse one line (without or with its newline). Raises :class:`LineError`."""
    raw = raw.rstrip(b"\r\n")
    if len(raw) > MAX_LINE:
        raise LineError("garbage", f"line of {len(raw)} bytes")
    payload, star, cs = raw.rpartition(b"*")
    if not star or len(cs) != 2:
        raise LineError("garbage", f"no checksum: {raw[:40]!r}")
    try:
        expected = int(cs, 16)
        text = payload.decode("ascii")
    except (ValueError, UnicodeDecodeError) as exc:
        raise LineError("garbage", f"not ASCII/hex: {raw[:40]!r}") from exc
    if checksum(payload) != expected:
        raise LineError("checksum", f"bad checksum in {raw[:40]!r}")
    parts = text.split(" ")
    if len(parts) < 2 or len(parts[0]) != 2:
        raise LineError("garbage", f"no sequence number/verb: {text[:40]!r}")
    try:
        seq = int(parts[0], 16)
    except ValueError as exc:
        raise LineError("garbage", f"bad sequence number: {text[:40]!r}") from exc
    verb, args = parts[1], tuple(parts[2:])
    if verb not in verbs:
        raise LineError("garbage", f"unknown verb {verb!r}")
    low, high = verbs[verb]
    if not low <= len(args) <= high:
        raise LineError("garbage", f"{verb} takes {low}..{high} arguments, got {len(args)}")
    return Line(seq, verb, args)


def bits_to_hex(bits: tuple[bool, ...] | list[bool]) -> str:
    out = bytearray((len(bits) + 7) // 8)
    for i, bit in enumerate(bits):
        if bit:
            out[i // 8] |= 1 << (i % 8)
    return out.hex().upper() or "00"


def hex_to_bits(nbits: int, text: str) -> tuple[bool, ...]:
    data = bytes.fromhex(text)
    return tuple(bool(data[i // 8] >> (i % 8) & 1) if i // 8 < len(data) else False for i in range(nbits))
