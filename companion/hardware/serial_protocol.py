"""The serial-bridge line protocol, version 3: codec and the bridge's side of the link.

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

    HELLO <protocol> <firmware> <readers> <boot> <session> <cards> <rf>   answer to (each) HELLO of a session
    TAG   <session> <gen> <channel> <uid|->                           a reader's settled tag changed
    CARD  <session> <gen> <n> <uid>                                   card presentation number n
    FAULT <session> <gen> <channel> <1|0> [text ...]                  a reader stopped / answers again
    SNAP  <session> <gen> <tags> <cards> <faults> <unsettled>         the whole table at <gen>
    BEAT  <session> <gen>                                             heartbeat, every ``beat_ms``
    PANIC <session> <text ...>                                        the main loop raised; it resets now

``tags`` is ``ch=uid,ch=uid`` (occupied readers only) or ``-``; ``cards`` the presentations the host
has not acknowledged yet (at most ``card_history``, oldest dropped first) ``n=uid,...`` or ``-``;
``faults`` ``ch,ch`` or ``-``; ``unsettled`` (version 3) the readers whose state the bridge does not
know yet, ``ch,ch`` or ``-``. ``boot`` is a random id per power-up; ``cards``
in HELLO is the presentation counter when the bridge first heard this session's HELLO (a host meeting
a new boot reports the cards after it; cards presented before any host said HELLO predate the link).
``rf`` (version 4) names the RF groups the bridge was flashed with (``rf_digest``: eight hex digits,
``-`` for none), so ``companion doctor`` can tell a bridge flashed for other groups than the hardware
file's; version 2 and 3 bridges send six fields.

A reboot never moves a marker (version 3): a bridge starts with every city reader *unsettled*. A reader
settles when its vote places a tag, or after ``settle_samples`` informative samples in a row that saw
nothing (no fewer than the vote's window, so it is never called empty while the running vote would still
hold a tag); only then is its state reported (a ``TAG`` line, also for "empty"). Until then ``SNAP``
lists it as unsettled and the host keeps what it knew, so a ``HELLO`` answered in the first sweeps after
a power cycle, a watchdog or a soft reset shows no marker lifted and placed again. A reader that faults
before it settles stays unsettled. Version 2 bridges send ``SNAP`` without the last field (the host
still talks to them, without this guarantee).

The bridge acknowledges a placement itself (version 3): once the host has said which LEDs are a
reader's SEEN light (``SEEN``), a tag its vote places on a settled reader lights them at once, in the
sweep that placed it, on top of the host's frame, until a host frame rendered with that generation
(``LED``'s ``gen``: the newest the host had when it drew the frame, whose table shows SEEN itself
while the placement settles) arrives, the tag leaves, or ``seen_ms`` pass. The person sees the box
saw the marker one host round trip sooner; the table stays the one that decides what is lit.

Every field is bounded before use (a number by its digits before ``int``, an LED frame by the chain's
length, a session by its length), so no line can make the bridge allocate more than one line's worth;
a line out of bounds is dropped and counted like any malformed one.

Host → bridge::

    HELLO  <protocol> <session>       (re)start a session: HELLO + SNAP come back. Retried until answered.
    SEEN   <session> <ch=bit+bit,...> (version 3) the LEDs of each city reader's SEEN light (see below)
    LED    <session> <nbits> <hex> [<gen>]  the whole LED bit vector (bit 0 = LSB of the first byte); re-sent
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


PROTOCOL_VERSION = const(4)
OLDEST_PROTOCOL = const(2)  # the oldest bridge protocol a host still talks to
MAX_LINE = const(2048)
MAX_NUMBER = const(0x3FFFFFFF)  # every decimal field: a small int on MicroPython (2**30 - 1)
MAX_LED_BITS = const(4 * (MAX_LINE - 40))  # what one line's hex can carry at most
MAX_SESSION = const(16)  # characters of a session nonce
MAX_READERS = const(256)
SEQ_MOD = const(0x10000)
SEQ_WINDOW = const(0x8000)  # a seq up to this far behind the last one is a duplicate or a replay
NO_SESSION = "-"

# verb → (min, max) argument count
BRIDGE_VERBS = {
    "HELLO": (6, 7),  # version 4 adds the RF groups' digest
    "TAG": (4, 4),
    "CARD": (4, 4),
    "FAULT": (4, 40),
    "SNAP": (5, 6),  # version 2 bridges send 5
    "BEAT": (2, 2),
    "PANIC": (1, 40),
}
HOST_VERBS = {"HELLO": (2, 2), "LED": (3, 4), "SEEN": (2, 2), "RESYNC": (1, 1), "BEAT": (2, 2)}


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


def rf_digest(groups) -> str:  # type: ignore[no-untyped-def]
    """The RF groups a bridge sweeps (lists of channels), as eight hex digits; ``-`` for none.

    The order of the groups and of the channels in a group does not change what is on together, so
    both are sorted first: ``[[3, 1], [2]]`` and ``[[2], [1, 3]]`` have the same digest."""
    if not groups:
        return NO_SESSION
    canonical = sorted(sorted(int(ch) for ch in group) for group in groups)
    text = ";".join(",".join(str(ch) for ch in group) for group in canonical)
    return f"{crc32(text.encode()):08X}"


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
    if len(parts) < 2 or len(parts[0]) != 4 or not is_hex(parts[0]):
        raise LineError("garbage", "no sequence number/verb")
    seq = int(parts[0], 16)
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


HEX_DIGITS = "0123456789ABCDEF"


def is_hex(text: str) -> bool:
    """Upper-case hex digits only (``int(x, 16)`` alone also takes ``0x``, ``+``, ``_`` and spaces)."""
    for char in text:
        if char not in HEX_DIGITS:
            return False
    return len(text) > 0


def is_uid(text: str) -> bool:
    return len(text) in (8, 14, 20) and is_hex(text)


def number(text: str, limit: int = MAX_NUMBER) -> int:
    """A decimal field ``0..limit``, checked by its digits before ``int`` runs (``int`` of a
    2000-digit field would allocate a long int on the Pico). Raises ValueError."""
    if not 0 < len(text) <= 10 or not text.isdigit():
        raise ValueError("not a number: " + text[:12])
    value = int(text)
    if value > limit:
        raise ValueError("out of range: " + text[:12])
    return value


def is_session(text: str) -> bool:
    """A host's nonce: 1..MAX_SESSION letters or digits (never ``-``, the bridge's "no session")."""
    if not 0 < len(text) <= MAX_SESSION:
        return False
    for char in text:  # noqa: SIM110 (a loop: all() over a generator allocates on the Pico)
        if not (char.isdigit() or char.isalpha()):
            return False
    return True


def bits_to_hex(bits) -> str:  # type: ignore[no-untyped-def]
    out = bytearray((len(bits) + 7) // 8)
    for i, bit in enumerate(bits):
        if bit:
            out[i // 8] |= 1 << (i % 8)
    return binascii.hexlify(bytes(out)).decode().upper() or "00"


def hex_to_bytes(nbits: int, text: str) -> bytes:
    """The LED frame's bytes; the hex must be exactly ``ceil(nbits / 8)`` bytes (or ``00`` for none).
    Raises ValueError (also before decoding, so a bad frame allocates nothing)."""
    need = (nbits + 7) // 8
    if len(text) != 2 * max(need, 1) or not is_hex(text):
        raise ValueError("LED frame of " + str(nbits) + " bits with " + str(len(text)) + " hex digits")
    return binascii.unhexlify(text)[:need]


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
        if eq < 0 or not is_uid(value):
            raise ValueError("bad entry " + item[:30])
        out[number(key)] = value
    return out


def parse_seen(text: str, max_channel: int, max_bit: int) -> dict:  # type: ignore[type-arg]
    """``3=12+13,5=20`` → {3: (12, 13), 5: (20,)}; ``-`` → {}; channels and bits bounded. Raises ValueError."""
    out = {}  # type: ignore[var-annotated]
    if text == "-":
        return out
    for item in text.split(","):
        eq = item.find("=")
        if eq < 0:
            raise ValueError("bad entry " + item[:30])
        bits = item[eq + 1 :].split("+")
        if len(bits) > 2:
            raise ValueError("more than two LEDs for reader " + item[:10])
        out[number(item[:eq], max_channel)] = tuple(number(bit, max_bit) for bit in bits)
    return out


def parse_channels(text: str, limit: int = MAX_NUMBER) -> list:  # type: ignore[type-arg]
    """``3,5`` → [3, 5]; ``-`` → []; every channel ``0..limit``. Raises ValueError."""
    if text == "-":
        return []
    return [number(item, limit) for item in text.split(",")]


class BridgeLink:
    """The bridge's side of the link: owns the table state it reports, answers the host, keeps time.

    The scanner calls :meth:`set_tag` when a reader's vote places or lifts a tag, :meth:`settling`
    after every other informative sample of a reader that is still unsettled (``unsettled[ch]``),
    :meth:`card` and :meth:`set_fault`; the main loop calls :meth:`feed` with bytes from the host and
    :meth:`tick` with a millisecond clock that never wraps. ``write`` sends bytes to the host;
    ``on_led(nbits, data)`` gets each LED frame (bytes, bit 0 = LSB of the first byte), and an
    all-dark frame when the host has been silent for ``host_timeout_ms``. ``led_bits``: the longest
    LED frame accepted (the chain's length); ``card_channel`` is not a city reader, so never unsettled.
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
        settle_samples: int = 5,
        card_channel: int = -1,
        led_bits: int = MAX_LED_BITS,
        seen_ms: int = 1000,
        rf: str = NO_SESSION,
    ) -> None:
        self.readers = readers
        self.rf = rf  # rf_digest of the groups it sweeps, reported in HELLO (version 4)
        self.firmware = firmware
        self.boot = boot
        self.write = write
        self.on_led = on_led
        self.snapshot_ms = snapshot_ms
        self.beat_ms = beat_ms
        self.host_timeout_ms = host_timeout_ms
        self.card_history = card_history
        self.settle_samples = settle_samples
        self.led_bits = min(led_bits, MAX_LED_BITS)
        self.seen_ms = seen_ms
        self.seen_bits = {}  # type: ignore[var-annotated]  # channel -> LED bits of its SEEN light (host's SEEN)
        self.acks = {}  # type: ignore[var-annotated]  # channel -> (generation, ms) of a placement lit here
        self.now_ms = 0
        self.tags = {}  # type: ignore[var-annotated]
        self.faults = {}  # type: ignore[var-annotated]
        self.cards = []  # type: ignore[var-annotated]
        # 1 = the reader's state is not known yet (since boot): not reported, listed in SNAP
        self.unsettled = bytearray(b"\x01" * readers)
        if 0 <= card_channel < readers:
            self.unsettled[card_channel] = 0
        self.empty_run = bytearray(readers)  # informative samples in a row that saw nothing, while unsettled
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
        """The reader's vote settled on ``uid`` (None: empty); the reader counts as settled from now on."""
        placed = True
        if self.unsettled[channel]:
            self.unsettled[channel] = 0
            placed = False  # what lay there at boot: not a person's move, nothing to acknowledge
        elif self.tags.get(channel) == uid:
            return
        self.gen += 1
        if uid is None:
            self.tags.pop(channel, None)
        else:
            self.tags[channel] = uid
        self.send("TAG", self.session, self.gen, channel, uid or "-")
        if uid is None and channel in self.acks:
            del self.acks[channel]
            self.show_leds()
        elif uid is not None and placed and channel in self.seen_bits:
            self.acks[channel] = (self.gen, self.now_ms)
            self.show_leds()

    def settling(self, channel: int, empty: bool) -> None:
        """An informative sample of an unsettled reader whose vote placed nothing (``empty``: the
        sample saw no tag). ``settle_samples`` empty samples in a row settle it as empty."""
        if not self.unsettled[channel]:
            return
        if not empty:
            self.empty_run[channel] = 0  # a tag answered: the vote decides once it has its K
            return
        if self.empty_run[channel] + 1 >= self.settle_samples:
            self.set_tag(channel, None)
        else:
            self.empty_run[channel] += 1

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
        unsettled = ",".join(str(ch) for ch in range(self.readers) if self.unsettled[ch]) or "-"
        self.send("SNAP", self.session, self.gen, tags, cards, faults, unsettled)

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
            if raw:  # an empty line is the host ending a partial one before its HELLO: not an error
                self.host_line(raw, now_ms)

    def host_line(self, raw: bytes, now_ms: int) -> None:
        try:
            line = parse(raw, HOST_VERBS)
        except LineError:
            self.bad_lines += 1
            return
        if line.verb == "HELLO":
            session = line.args[1]
            try:
                number(line.args[0])  # the host's protocol version: any, as long as it is a number
            except ValueError:
                session = NO_SESSION
            if not is_session(session):
                self.bad_lines += 1
                return
            if session != self.session:  # a new session: cards from now on are the host's to see
                self.session = session
                self.session_cards = self.card_n
                self.seen_bits = {}  # the new host says its own SEEN lights
                self.acks = {}
            self.rx_seq = line.seq
            self.heard(now_ms)
            cards = self.session_cards
            self.send("HELLO", PROTOCOL_VERSION, self.firmware, self.readers, self.boot, self.session, cards, self.rf)
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
        if line.verb == "LED":
            try:
                nbits = number(line.args[1], self.led_bits)  # refused before anything is allocated
                data = hex_to_bytes(nbits, line.args[2])
                drawn_at = number(line.args[3]) if len(line.args) > 3 else -1
            except ValueError:
                self.bad_lines += 1
                return
            self.accepted(line, now_ms)
            self.led_nbits, self.led_data = nbits, data
            for channel in list(self.acks):
                if self.acks[channel][0] <= drawn_at:
                    del self.acks[channel]  # the host's table shows this placement itself now
            self.show_leds()
        elif line.verb == "SEEN":
            try:
                lights = parse_seen(line.args[1], self.readers - 1, self.led_bits - 1)
            except ValueError:
                self.bad_lines += 1
                return
            self.accepted(line, now_ms)
            self.seen_bits = lights
        elif line.verb == "RESYNC":
            self.accepted(line, now_ms)
            self.snapshot()
        elif line.verb == "BEAT":
            try:
                acked = number(line.args[1])
            except ValueError:
                self.bad_lines += 1
                return
            self.accepted(line, now_ms)
            while self.cards and self.cards[0][0] <= acked:
                self.cards.pop(0)

    def accepted(self, line: Line, now_ms: int) -> None:
        """A valid line of the session: its sequence number is the one to compare the next with."""
        self.rx_seq = line.seq
        self.heard(now_ms)

    def heard(self, now_ms: int) -> None:
        self.host_lines += 1
        self.last_host_ms = now_ms
        if self.host_silent:
            self.host_silent = False
            self.show_leds()  # the host is back: its last frame again

    def show_leds(self) -> None:
        """The host's last frame, with the SEEN lights of placements it has not drawn yet on top."""
        if self.on_led is None or not self.led_nbits or self.host_silent:
            return
        if not self.acks:
            self.on_led(self.led_nbits, self.led_data)
            return
        data = bytearray(self.led_data)
        for channel in self.acks:
            for bit in self.seen_bits.get(channel, ()):
                if bit < self.led_nbits:
                    data[bit // 8] |= 1 << (bit % 8)
        self.on_led(self.led_nbits, bytes(data))

    def tick(self, now_ms: int) -> None:
        self.now_ms = now_ms
        if self.acks:
            expired = False
            for channel in list(self.acks):
                if now_ms - self.acks[channel][1] > self.seen_ms:
                    del self.acks[channel]  # the host never drew it (no LEDs at its table?): not forever
                    expired = True
            if expired:
                self.show_leds()  # once, however many expired: one shift-out of the chain
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
