"""The serial-bridge line protocol, version 2: codec and the bridge's side of the link.

This module is shared, unchanged, by the host (``companion.hardware.serial_bridge``), the emulated
peer (``serial_peer``) and the RP2040 firmware (copied to the Pico as ``serial_protocol.py``), so it
is written in the subset MicroPython has: no ``typing``, ``dataclasses``, ``enum``, ``__future__``.

Every line is ASCII::

    <seq> <VERB> [ARG ...]*<CRC>\\n

``seq`` is four hex digits counting 0000..FFFF per direction (wrapping); ``CRC`` is the CRC-32 (as
``binascii.crc32``, the zlib polynomial) of every byte before ``*``, eight hex digits. CRC-32 catches
every 1-, 2- and 3-bit error in lines this short, and random garbage passes with p = 2^-32 (the
XOR of version 1 missed any two flips in the same bit column). Lines longer than ``MAX_LINE``, without
``*``, with a bad CRC, an unknown verb or the wrong number of arguments are dropped and counted.

State, not edges (design/style.md point 19): the bridge keeps one *generation* counter, bumped on
every change of a reader's settled tag, a fault or a card presentation, and every state line carries
the generation at which it became true. The host applies a line only if it is newer than what it
knows for that reader, so a duplicated, replayed or reordered line can never move the board backwards;
``SNAP`` is the whole table at one generation (sent after ``HELLO``, on ``RESYNC`` and every
``snapshot_ms``), so a lost line costs at most one snapshot period. Every bridge line names the
*session* (a nonce the host chose in its ``HELLO``): lines of an earlier connection or of a bridge
that rebooted (session ``-``) are dropped, and the host says ``HELLO`` again.

Bridge → host::

    HELLO <protocol> <firmware> <readers> <boot> <session> <cards>   answer to (each) HELLO of a session
    TAG   <session> <gen> <channel> <uid|->                           a reader's settled tag changed
    CARD  <session> <gen> <n> <uid>                                   card presentation number n
    FAULT <session> <gen> <channel> <1|0> [text ...]                  a reader stopped / answers again
    SNAP  <session> <gen> <tags> <cards> <faults>                     the whole table at <gen>
    BEAT  <session> <gen>                                             heartbeat, every ``beat_ms``
    PANIC <session> <text ...>                                        the main loop raised; it resets now

``tags`` is ``ch=uid,ch=uid`` (occupied readers only) or ``-``; ``cards`` the presentations the host
has not acknowledged yet (at most ``card_history``, oldest dropped first) ``n=uid,...`` or ``-``;
``faults`` ``ch,ch`` or ``-``. ``boot`` is a random id per power-up; ``cards``
in HELLO is the presentation counter when the bridge first heard this session's HELLO (a host meeting
a new boot reports the cards after it; cards presented before any host said HELLO predate the link).

Host → bridge::

    HELLO  <protocol> <session>       (re)start a session: HELLO + SNAP come back. Retried until answered.
    LED    <session> <nbits> <hex>    the whole LED bit vector (bit 0 = LSB of the first byte); re-sent
    RESYNC <session>                  asks for a SNAP
    BEAT   <session> <cards>          heartbeat, acknowledging card presentations up to <cards>; after
                                      ``host_timeout_ms`` without a host line the LEDs go dark
"""

import binascii

try:
    from micropython import const  # type: ignore[import-not-found]
except ImportError:  # CPython

    def const(value):  # type: ignore[no-untyped-def]
        return value


PROTOCOL_VERSION = const(2)
MAX_LINE = const(2048)
SEQ_MOD = const(0x10000)
SEQ_WINDOW = const(0x8000)  # a seq up to this far behind the last one is a duplicate or a replay
NO_SESSION = "-"

# verb → (min, max) argument count
BRIDGE_VERBS = {
    "HELLO": (6, 6),
    "TAG": (4, 4),
    "CARD": (4, 4),
    "FAULT": (4, 40),
    "SNAP": (5, 5),
    "BEAT": (2, 2),
    "PANIC": (1, 40),
}
HOST_VERBS = {"HELLO": (2, 2), "LED": (3, 3), "RESYNC": (1, 1), "BEAT": (2, 2)}


class LineError(ValueError):
    """A line that is not a valid protocol line; ``kind`` says how (for the counters)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class Line:
    """One parsed line: ``seq``, ``verb`` and the argument strings."""

    __slots__ = ("args", "seq", "verb")

    def __init__(self, seq: int, verb: str, args: tuple) -> None:  # type: ignore[type-arg]
        self.seq = seq
        self.verb = verb
        self.args = args

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Line) and (self.seq, self.verb, self.args) == (other.seq, other.verb, other.args)

    def __repr__(self) -> str:
        return f"Line({self.seq}, {self.verb!r}, {self.args!r})"


def crc32_soft(data: bytes, crc: int = 0) -> int:
    """Bitwise CRC-32 (reflected, polynomial 0xEDB88320): the fallback for ports without binascii.crc32."""
    crc ^= 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0xEDB88320 if crc & 1 else crc >> 1
    return crc ^ 0xFFFFFFFF


def crc32(data: bytes) -> int:
    fast = getattr(binascii, "crc32", None)
    if fast is not None:
        return int(fast(data)) & 0xFFFFFFFF
    return crc32_soft(data)


def encode(seq: int, verb: str, *args: object) -> bytes:
    parts = [f"{seq % SEQ_MOD:04X}", verb]
    for arg in args:
        parts.append(str(arg))
    payload = " ".join(parts).encode()
    return payload + b"*" + f"{crc32(payload):08X}".encode() + b"\n"


def parse(raw: bytes, verbs: dict) -> Line:  # type: ignore[type-arg]
    """Parse one line (with or without its newline). Raises :class:`LineError`."""
    raw = bytes(raw)
    while raw and raw[-1:] in (b"\n", b"\r"):
        raw = raw[:-1]
    if len(raw) > MAX_LINE:
        raise LineError("garbage", f"line of {len(raw)} bytes")
    star = raw.rfind(b"*")
    if star < 0 or len(raw) - star - 1 != 8:
        raise LineError("garbage", "no CRC")
    payload = raw[:star]
    try:
        expected = int(raw[star + 1 :], 16)
        text = payload.decode()
    except (ValueError, UnicodeError) as exc:
        raise LineError("garbage", "not ASCII/hex") from exc
    if crc32(payload) != expected:
        raise LineError("checksum", "bad CRC")
    parts = text.split(" ")
    if len(parts) < 2 or len(parts[0]) != 4:
        raise LineError("garbage", "no sequence number/verb")
    try:
        seq = int(parts[0], 16)
    except ValueError as exc:
        raise LineError("garbage", "bad sequence number") from exc
    verb = parts[1]
    args = tuple(parts[2:])
    if verb not in verbs:
        raise LineError("garbage", "unknown verb " + verb[:20])
    low, high = verbs[verb]
    if not low <= len(args) <= high:
        raise LineError("garbage", f"{verb} takes {low}..{high} arguments, got {len(args)}")
    return Line(seq, verb, args)


def seq_delta(seq: int, last: int) -> int:
    """How far ``seq`` is ahead of ``last`` (1 = the next line; 0 or ≥ SEQ_WINDOW = old/duplicate)."""
    return (seq - last) % SEQ_MOD


def is_uid(text: str) -> bool:
    if len(text) not in (8, 14, 20):
        return False
    try:
        int(text, 16)
    except ValueError:
        return False
    return text == text.upper()


def bits_to_hex(bits) -> str:  # type: ignore[no-untyped-def]
    out = bytearray((len(bits) + 7) // 8)
    for i, bit in enumerate(bits):
        if bit:
            out[i // 8] |= 1 << (i % 8)
    return binascii.hexlify(bytes(out)).decode().upper() or "00"


def hex_to_bytes(nbits: int, text: str) -> bytes:
    data = binascii.unhexlify(text)
    need = (nbits + 7) // 8
    if len(data) < need:
        data = data + bytes(need - len(data))
    return data[:need]


def hex_to_bits(nbits: int, text: str) -> tuple:  # type: ignore[type-arg]
    data = hex_to_bytes(nbits, text)
    return tuple(bool(data[i // 8] >> (i % 8) & 1) for i in range(nbits))


def format_map(items, sep: str = "=") -> str:  # type: ignore[no-untyped-def]
    """``[(3, 'AB'), (5, 'CD')]`` → ``3=AB,5=CD``; empty → ``-``."""
    text = ",".join(f"{k}{sep}{v}" for k, v in items)
    return text or "-"


def parse_map(text: str) -> dict:  # type: ignore[type-arg]
    """``3=04AB..,5=DE..`` → {3: '04AB..', 5: 'DE..'}; ``-`` → {}. Raises ValueError."""
    out = {}  # type: ignore[var-annotated]
    if text == "-":
        return out
    for item in text.split(","):
        eq = item.find("=")
        key, value = item[:eq], item[eq + 1 :]
        if eq < 0 or not key.isdigit() or not is_uid(value):
            raise ValueError("bad entry " + item[:30])
        out[int(key)] = value
    return out


def parse_channels(text: str) -> list:  # type: ignore[type-arg]
    if text == "-":
        return []
    out = []
    for item in text.split(","):
        if not item.isdigit():
            raise ValueError("bad channel " + item[:10])
        out.append(int(item))
    return out


class BridgeLink:
    """The bridge's side of the link: owns the table state it reports, answers the host, keeps time.

    The scanner calls :meth:`set_tag`, :meth:`card` and :meth:`set_fault`; the main loop calls
    :meth:`feed` with bytes from the host and :meth:`tick` with a millisecond clock that never wraps.
    ``write`` sends bytes to the host; ``on_led(nbits, data)`` gets each LED frame (bytes, bit 0 = LSB
    of the first byte), and an all-dark frame when the host has been silent for ``host_timeout_ms``.
    """

    def __init__(
        self,
        readers: int,
        firmware: str,
        boot: str,
        write,  # type: ignore[no-untyped-def]
        on_led=None,  # type: ignore[no-untyped-def]
        snapshot_ms: int = 2000,
        beat_ms: int = 500,
        host_timeout_ms: int = 3000,
        card_history: int = 32,
    ) -> None:
        self.readers = readers
        self.firmware = firmware
        self.boot = boot
        self.write = write
        self.on_led = on_led
        self.snapshot_ms = snapshot_ms
        self.beat_ms = beat_ms
        self.host_timeout_ms = host_timeout_ms
        self.card_history = card_history
        self.tags = {}  # type: ignore[var-annotated]
        self.faults = {}  # type: ignore[var-annotated]
        self.cards = []  # type: ignore[var-annotated]
        self.card_n = 0
        self.session_cards = 0  # card_n when the current session began (sent in every HELLO answer)
        self.gen = 0
        self.session = NO_SESSION
        self.seq = 0
        self.rx_seq = -1
        self.led_nbits = 0
        self.led_data = b""
        self.host_silent = True
        self.last_host_ms = 0
        self.next_beat_ms = 0
        self.next_snap_ms = 0
        self.buffer = bytearray()
        self.bad_lines = 0
        self.dropped_lines = 0
        self.host_lines = 0

    # --- state from the scanner ---------------------------------------------------------------
    def set_tag(self, channel: int, uid) -> None:  # type: ignore[no-untyped-def]
        if self.tags.get(channel) == uid:
            return
        self.gen += 1
        if uid is None:
            self.tags.pop(channel, None)
        else:
            self.tags[channel] = uid
        self.send("TAG", self.session, self.gen, channel, uid or "-")

    def card(self, uid: str) -> None:
        self.gen += 1
        self.card_n += 1
        self.cards.append((self.card_n, uid))
        if len(self.cards) > self.card_history:
            self.cards.pop(0)
        self.send("CARD", self.session, self.gen, self.card_n, uid)

    def set_fault(self, channel: int, text) -> None:  # type: ignore[no-untyped-def]
        """``text`` = why the reader stopped answering, or None when it answers again."""
        if (channel in self.faults) == (text is not None):
            return
        self.gen += 1
        if text is None:
            del self.faults[channel]
            self.send("FAULT", self.session, self.gen, channel, 0)
        else:
            self.faults[channel] = text
            self.send("FAULT", self.session, self.gen, channel, 1, text)

    # --- the wire -----------------------------------------------------------------------------
    def send(self, verb: str, *args: object) -> None:
        self.write(encode(self.seq, verb, *args))
        self.seq = (self.seq + 1) % SEQ_MOD

    def panic(self, text: str) -> None:
        """The firmware's main loop raised ``text``: the last line before ``machine.reset()``."""
        self.send("PANIC", self.session, *text.split()[:39])

    def snapshot(self) -> None:
        tags = format_map(sorted(self.tags.items()))
        cards = format_map(self.cards)
        faults = ",".join(str(ch) for ch in sorted(self.faults)) or "-"
        self.send("SNAP", self.session, self.gen, tags, cards, faults)

    def feed(self, data: bytes, now_ms: int) -> None:
        if not data:
            return  # nothing arrived: the firmware's idle step allocates nothing
        self.buffer += data
        while True:
            newline = self.buffer.find(b"\n")
            if newline < 0:
                if len(self.buffer) > MAX_LINE:
                    self.bad_lines += 1
                    self.buffer = bytearray()
                return
            raw = bytes(self.buffer[:newline])
            self.buffer = self.buffer[newline + 1 :]
            self.host_line(raw, now_ms)

    def host_line(self, raw: bytes, now_ms: int) -> None:
        try:
            line = parse(raw, HOST_VERBS)
        except LineError:
            self.bad_lines += 1
            return
        if line.verb == "HELLO":
            if line.args[1] != self.session:  # a new session: cards from now on are the host's to see
                self.session = line.args[1]
                self.session_cards = self.card_n
            self.rx_seq = line.seq
            self.heard(now_ms)
            cards = self.session_cards
            self.send("HELLO", PROTOCOL_VERSION, self.firmware, self.readers, self.boot, self.session, cards)
            self.snapshot()
            self.next_snap_ms = now_ms + self.snapshot_ms
            return
        if line.args[0] != self.session or self.session == NO_SESSION:
            self.dropped_lines += 1
            return
        if self.rx_seq >= 0:
            delta = seq_delta(line.seq, self.rx_seq)
            if delta == 0 or delta >= SEQ_WINDOW:
                self.dropped_lines += 1  # duplicate or replay: an old LED frame must not come back
                return
        self.rx_seq = line.seq
        self.heard(now_ms)
        if line.verb == "LED":
            try:
                nbits = int(line.args[1])
                data = hex_to_bytes(nbits, line.args[2])
            except ValueError:
                self.bad_lines += 1
                return
            self.led_nbits, self.led_data = nbits, data
            if self.on_led is not None:
                self.on_led(nbits, data)
        elif line.verb == "RESYNC":
            self.snapshot()
        elif line.verb == "BEAT":
            try:
                acked = int(line.args[1])
            except ValueError:
                self.bad_lines += 1
                return
            while self.cards and self.cards[0][0] <= acked:
                self.cards.pop(0)

    def heard(self, now_ms: int) -> None:
        self.host_lines += 1
        self.last_host_ms = now_ms
        if self.host_silent:
            self.host_silent = False
            if self.on_led is not None and self.led_nbits:
                self.on_led(self.led_nbits, self.led_data)  # the host is back: its last frame again

    def tick(self, now_ms: int) -> None:
        if now_ms >= self.next_beat_ms:
            self.send("BEAT", self.session, self.gen)
            self.next_beat_ms = now_ms + self.beat_ms
        if now_ms >= self.next_snap_ms:
            self.snapshot()
            self.next_snap_ms = now_ms + self.snapshot_ms
        if not self.host_silent and now_ms - self.last_host_ms > self.host_timeout_ms:
            self.host_silent = True  # the Pi is gone: do not leave stale hints lit
            if self.on_led is not None and self.led_nbits:
                self.on_led(self.led_nbits, bytes(len(self.led_data)))
