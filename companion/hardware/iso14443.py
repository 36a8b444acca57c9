"""ISO/IEC 14443-3 type A framing shared by the driver, the emulator and the firmware (copied to the
Pico as it is, so MicroPython-clean): CRC_A, BCC, command bytes."""

REQA = 0x26  # 7-bit short frame: wakes tags in IDLE
WUPA = 0x52  # 7-bit short frame: wakes tags in IDLE and HALT
HLTA = 0x50
SEL_CL = (0x93, 0x95, 0x97)  # SELECT / ANTICOLLISION command per cascade level
CASCADE_TAG = 0x88  # first byte of a cascade level that is not the last one
SAK_CASCADE = 0x04  # SAK bit: UID not complete, go to the next cascade level
NVB_SELECT = 0x70  # 7 valid bytes: SEL, NVB, 4 UID bytes, BCC


def crc_a_of(data: bytes | bytearray | list[int], start: int, end: int) -> int:
    """CRC_A of ``data[start:end]`` as an int (low byte is sent first). Allocates nothing: the
    firmware runs it on its preallocated frame buffer in every steady-state sweep."""
    crc = 0x6363
    for i in range(start, end):
        b = (data[i] ^ crc) & 0xFF
        b = (b ^ (b << 4)) & 0xFF
        crc = ((crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)) & 0xFFFF
    return crc


def crc_a(data: bytes | bytearray | list[int]) -> bytes:
    """CRC_A of ISO/IEC 14443-3 (CRC-16/ISO-IEC-14443-3-A), low byte first as it is sent."""
    crc = crc_a_of(data, 0, len(data))
    return bytes((crc & 0xFF, crc >> 8))


def bcc(four: bytes | bytearray | list[int]) -> int:
    """Block check character of a cascade level: XOR of its four UID bytes."""
    out = 0
    for byte in four:
        out ^= byte
    return out


def cascade_levels(uid: bytes) -> list[bytes]:
    """The 4-byte chunks a tag answers per cascade level (4-, 7- and 10-byte UIDs)."""
    if len(uid) == 4:
        return [uid]
    if len(uid) == 7:
        return [bytes((CASCADE_TAG,)) + uid[:3], uid[3:]]
    if len(uid) == 10:
        return [bytes((CASCADE_TAG,)) + uid[:3], bytes((CASCADE_TAG,)) + uid[3:6], uid[6:]]
    raise ValueError(f"a UID has 4, 7 or 10 bytes, not {len(uid)}: {uid.hex().upper()}")


def bytes_to_bits(data: bytes | bytearray | list[int], nbits: int | None = None) -> list[int]:
    """Bits in air order (LSB of each byte first)."""
    bits = [(byte >> i) & 1 for byte in data for i in range(8)]
    return bits if nbits is None else bits[:nbits]


def bits_to_bytes(bits: list[int], offset: int = 0) -> bytes:
    """Pack air-order bits into bytes, the first bit landing at bit ``offset`` of the first byte."""
    total = offset + len(bits)
    out = bytearray((total + 7) // 8)
    for i, bit in enumerate(bits):
        pos = offset + i
        if bit:
            out[pos // 8] |= 1 << (pos % 8)
    return bytes(out)
