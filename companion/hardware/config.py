"""The hardware TOML: load, validate (errors name file, line and field), and rewrite two sections.

``tomllib`` gives no line numbers, so :func:`locate` finds a key in the raw text (table headers and
``key =`` lines; quoted keys too). The format is documented in ``docs/hardware.md`` and shown whole
in ``companion/hardware/examples/reference.toml``.
"""

from __future__ import annotations

import math
import os
import re
import stat
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from companion.hardware.debounce import CARD_DEBOUNCE, DebounceSettings
from companion.hardware.errors import ConfigError
from companion.hardware.leds import LedMap
from companion.intents import ButtonName, normalise_uid
from companion.ledframe import EVENT_KINDS, TIME_TRACK_LENGTH
from companion.text import shown, text_problem

BACKENDS = ("spi", "serial", "emulated")
LED_BACKENDS = ("shift_register", "gpio", "serial", "none")
ENV_BACKEND = "COMPANION_HARDWARE"
REFERENCE = Path(__file__).parent / "examples" / "reference.toml"
SPI0_PINS = {9: "SPI0 MISO", 10: "SPI0 MOSI", 11: "SPI0 SCLK"}
SPI0_CE = {0: 8, 1: 7}  # spidev0.<device> drives this CE pin on every transfer
# The spi0 overlay (dtparam=spi=on: spi0-2cs) claims BOTH CE pins as chip selects whichever device is
# opened; on a Pi 5 (RP1) the claimed pins are driven by the SPI block and cannot be used as GPIO. A
# config may be written on a laptop and the SD card moved between a Pi 4 and a Pi 5, so both are
# reserved whenever the SPI backend is used.
SPI0_CE_PINS = {8: "SPI0 CE0", 7: "SPI0 CE1"}
RESERVED_PINS = {0: "ID EEPROM SDA", 1: "ID EEPROM SCL"}
MAX_CHANNEL = 255  # 8 address lines of decoders select 256 readers: more than any board has cities
MAX_NAME = 100  # characters of a city, card id or colour: it must fit a line of the screen
# Ranges of the numbers the box depends on, each with its reason (docs/hardware.md repeats them).
POLL_RANGE = (0.005, 1.0, "below 5 ms the poll thread only spins (a reader scan takes about 1 ms); "
              "above 1 s a placed marker takes seconds to register")  # fmt: skip
RETRY_RANGE = (0.1, 60.0, "a lost device is retried at most 10 times a second and at least once a minute")
LONG_PRESS_RANGE = (0.3, 5.0, "shorter, a normal press counts as long; longer, nobody holds a button "
                    "that long and the admin menu is out of reach")  # fmt: skip
BOUNCE_RANGE = (0.001, 0.2, "contacts settle within milliseconds; more than 0.2 s swallows real presses")
RECEIVE_RANGE = (0.1, 100.0, "an MFRC522 answers within 5 ms (ISO/IEC 14443-3 frame delay); 100 ms stalls every reader")
BAUD_RANGE = (9600, 4_000_000, "the bridge's frames need at least 9600 baud; an RP2040 UART runs up to "
              "about 7.8 Mbaud (RP2040 datasheet 4.2), 4 Mbaud is what a Pi's UART takes reliably")  # fmt: skip
VOTES_RANGE = (1, 50, "samples of one reader: 50 polls at 20 Hz are 2.5 s, already a slow marker")

T = TypeVar("T")


@dataclass(frozen=True)
class SpiSettings:
    bus: int = 0
    device: int = 0
    speed_hz: int = 1_000_000
    reset_pin: int = 25
    chip_select: str = "decoder"  # decoder | gpio
    address_pins: tuple[int, ...] = ()
    cs_pins: tuple[int, ...] = ()
    receive_timeout_s: float = 0.001


@dataclass(frozen=True)
class RfSettings:
    """``[rf]``: RF-safe scanning. ``close``: reader pairs (city names or ``card``) whose antennas
    couple although the cities are not neighbours on the board (the card reader beside a city)."""

    rf_safe: bool = True
    guard_s: float = 0.0051  # ISO/IEC 14443-3 §5.2.1: tags accept REQA/WUPA within 5 ms of the field
    close: tuple[tuple[str, str], ...] = ()
    # ``groups``: the RF groups ``companion hardware plan`` made from the antennas' physical distances
    # (reader names); empty = colour them at start-up from the board's neighbours and ``close``.
    groups: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True)
class SerialSettings:
    url: str = "/dev/ttyACM0"
    baudrate: int = 115200
    retry_interval_s: float = 2.0


@dataclass(frozen=True)
class LedSettings:
    backend: str = "none"
    led_map: LedMap = field(default_factory=lambda: LedMap({}))
    data_pin: int | None = None
    clock_pin: int | None = None
    latch_pin: int | None = None
    enable_pin: int | None = None
    pins: tuple[int, ...] = ()


@dataclass(frozen=True)
class ButtonSettings:
    pins: Mapping[ButtonName, int] = field(default_factory=dict)
    long_press_s: float = 1.5
    bounce_s: float = 0.02


@dataclass(frozen=True)
class Marker:
    colour: str
    number: int


@dataclass(frozen=True)
class HardwareConfig:
    path: str = "<defaults>"
    backend: str = "emulated"
    poll_interval_s: float = 0.05
    debounce: DebounceSettings = field(default_factory=DebounceSettings)
    card_debounce: DebounceSettings = CARD_DEBOUNCE
    reverify_every: int = 10
    retry_interval_s: float = 5.0
    spi: SpiSettings = field(default_factory=SpiSettings)
    rf: RfSettings = field(default_factory=RfSettings)
    serial: SerialSettings = field(default_factory=SerialSettings)
    readers: Mapping[int, str] = field(default_factory=dict)  # channel → city
    card_channel: int | None = None
    leds: LedSettings = field(default_factory=LedSettings)
    buttons: ButtonSettings = field(default_factory=ButtonSettings)
    markers: Mapping[str, Marker] = field(default_factory=dict)  # UID → marker
    cards: Mapping[str, str] = field(default_factory=dict)  # UID → card id
    admin_cards: frozenset[str] = frozenset()
    bank_cards: Mapping[str, str] = field(default_factory=dict)  # UID → player colour (who pays / bids)

    def known_uid(self, uid: str) -> bool:
        return uid in self.markers or uid in self.cards or uid in self.admin_cards or uid in self.bank_cards

    def describe(self, uid: str) -> str:
        if uid in self.markers:
            m = self.markers[uid]
            return f"marker {m.colour} {m.number}"
        if uid in self.cards:
            return f"card {self.cards[uid]}"
        if uid in self.admin_cards:
            return "admin card"
        if uid in self.bank_cards:
            return f"bank card {self.bank_cards[uid]}"
        return "unknown tag"

    @property
    def cities(self) -> list[str]:
        return [self.readers[ch] for ch in sorted(self.readers)]


# --- locating keys in the raw text -------------------------------------------------------------
_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"""^\s*("([^"]*)"|'([^']*)'|[A-Za-z0-9_\-]+)\s*=""")


def _norm_table(name: str) -> str:
    return ".".join(part.strip().strip('"').strip("'") for part in name.split("."))


def locate(text: str, section: str, key: str | None = None) -> int | None:
    """1-based line of ``key`` in table ``section`` (or of the table header when ``key`` is None)."""
    current = ""
    header_line = None
    for number, line in enumerate(text.splitlines(), start=1):
        header = _HEADER.match(line)
        if header:
            current = _norm_table(header.group(1))
            if current == section and key is None:
                return number
            if current == section:
                header_line = number
            continue
        if current != section or key is None:
            continue
        match = _KEY.match(line)
        if match:
            name = match.group(2) if match.group(2) is not None else match.group(3) or match.group(1)
            if name == key:
                return number
    return header_line


class _Reader:
    """Typed access to the parsed TOML that raises :class:`ConfigError` with the line."""

    def __init__(self, path: str, text: str, data: dict[str, Any]) -> None:
        self.path, self.text, self.data = path, text, data

    def fail(self, section: str, key: str | None, problem: str) -> ConfigError:
        name = f"[{section}] {key}" if key is not None else f"[{section}]"
        return ConfigError(self.path, locate(self.text, section, key), name, problem)

    def table(self, section: str) -> dict[str, Any]:
        node: Any = self.data
        for part in section.split("."):
            node = node.get(part, {}) if isinstance(node, dict) else None
            if not isinstance(node, dict):
                raise self.fail(section, None, "must be a table")
        table: dict[str, Any] = node
        return table

    def get(self, section: str, key: str, kind: type[T] | tuple[type, ...], default: T) -> T:
        table = self.table(section)
        if key not in table:
            return default
        value = table[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
            names = " or ".join(k.__name__ for k in kinds)
            raise self.fail(section, key, f"must be {names}, not {value!r}")
        return value  # type: ignore[return-value]

    def choice(self, section: str, key: str, choices: tuple[str, ...], default: str) -> str:
        value = self.get(section, key, str, default)
        if value not in choices:
            raise self.fail(section, key, f"must be one of {', '.join(choices)}, not {value!r}")
        return value

    def pin(self, section: str, key: str, default: int | None = None) -> int | None:
        value = self.get(section, key, int, default)
        if value is not None and not 0 <= value <= 27:
            raise self.fail(section, key, f"BCM pin numbers go from 0 to 27, not {value}")
        return value

    def pins(self, section: str, key: str) -> tuple[int, ...]:
        values = self.get(section, key, list, [])
        for value in values:
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 27:
                raise self.fail(section, key, f"every entry must be a BCM pin number 0..27, not {value!r}")
        return tuple(values)

    def positive(self, section: str, key: str, default: float) -> float:
        value = self.get(section, key, (int, float), default)
        if not math.isfinite(value) or value <= 0:  # nan / inf would make a polling loop spin or never wake
            raise self.fail(section, key, f"must be a positive finite number, not {value}")
        return float(value)

    def bounded(self, section: str, key: str, default: float, low: float, high: float, reason: str) -> float:
        """A finite number from ``low`` to ``high`` (``reason``: why the box needs that range)."""
        value = self.positive(section, key, default)
        if not low <= value <= high:
            raise self.fail(section, key, f"must be from {low:g} to {high:g}, not {value:g}: {reason}")
        return value

    def whole(self, section: str, key: str, default: int, low: int, high: int, reason: str) -> int:
        """A whole number from ``low`` to ``high`` (``reason``: why the box needs that range)."""
        value = self.get(section, key, int, default)
        if not low <= value <= high:
            raise self.fail(section, key, f"must be from {low} to {high}, not {shown(value)}: {reason}")
        return value

    def name(self, section: str, key: str, value: object, what: str) -> str:
        """A name a person reads on the screen: text without control, zero-width or bidi characters."""
        problem = text_problem(value, limit=MAX_NAME, what=what)
        if problem is not None:
            raise self.fail(section, key, problem)
        assert isinstance(value, str)
        return value

    def uid(self, section: str, key: str) -> str:
        try:
            uid = normalise_uid(key)
        except ValueError:
            raise self.fail(section, key, "is not a hex UID") from None
        if len(uid) not in (8, 14, 20):
            raise self.fail(section, key, f"a UID has 4, 7 or 10 bytes, not {len(uid) // 2}")
        return uid


MAX_FILE_BYTES = 1 << 20  # a hardware file is a few kilobytes; anything larger is not one


def load(path: str | os.PathLike[str], *, env: Mapping[str, str] | None = None) -> HardwareConfig:
    """The hardware TOML at ``path``; ``ConfigError`` (file, line, field) for a bad file, including one
    that is not a regular readable text file (a device, a symlink loop, binary bytes)."""
    return parse(read_text(path), str(path), env=env)


def read_text(path: str | os.PathLike[str]) -> str:
    """A TOML file of the box (hardware file, plan positions, board): a regular file, at most
    ``MAX_FILE_BYTES``, UTF-8; ``ConfigError`` naming the file (and the line of a bad byte) otherwise."""
    name = str(path)
    try:
        mode = os.stat(path).st_mode
        if not stat.S_ISREG(mode):
            raise ConfigError(name, None, "file", "is not a regular file")
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise ConfigError(name, None, "file", f"cannot be read: {exc.strerror or exc}") from None
    if len(data) > MAX_FILE_BYTES:
        raise ConfigError(name, None, "file", f"is larger than {MAX_FILE_BYTES // 1024} KiB: not a hardware file")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ConfigError(name, line, "file", f"is not UTF-8 text (byte {data[exc.start]:#04x})") from None


def parse_toml(text: str, path: str) -> dict[str, Any]:
    """``tomllib.loads`` with the line of a syntax error, and deep nesting as a message, not a crash."""
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise ConfigError(path, None, "TOML syntax", "arrays or tables nested too deeply") from None
    except tomllib.TOMLDecodeError as exc:
        line = re.search(r"line (\d+)", str(exc))
        raise ConfigError(path, int(line.group(1)) if line else None, "TOML syntax", str(exc)) from None


def parse(text: str, path: str = "<string>", *, env: Mapping[str, str] | None = None) -> HardwareConfig:
    data = parse_toml(text, path)
    r = _Reader(path, text, data)
    known = {
        "hardware",
        "debounce",
        "spi",
        "serial",
        "card_reader",
        "readers",
        "leds",
        "buttons",
        "markers",
        "cards",
        "bank_cards",
        "admin",
        "rf",
    }
    for section in data:
        if section not in known:
            raise r.fail(section, None, f"unknown table; expected one of {', '.join(sorted(known))}")

    env = os.environ if env is None else env
    backend = r.choice("hardware", "backend", BACKENDS, "emulated")
    if env.get(ENV_BACKEND):
        backend = env[ENV_BACKEND]
        if backend not in BACKENDS:
            raise ConfigError("environment", None, ENV_BACKEND, f"must be one of {', '.join(BACKENDS)}")

    try:
        debounce = DebounceSettings(
            r.whole("debounce", "place_votes", 4, *VOTES_RANGE),
            r.whole("debounce", "window", 5, *VOTES_RANGE),
            r.whole("debounce", "lift_misses", 3, *VOTES_RANGE),
        )
    except ValueError as exc:
        raise r.fail("debounce", None, str(exc)) from None

    spi = SpiSettings(
        bus=r.whole("spi", "bus", 0, 0, 6, "spidev bus numbers: SPI0 to SPI6 (a Pi 4 has the most)"),
        device=r.get("spi", "device", int, 0),
        speed_hz=r.get("spi", "speed_hz", int, 1_000_000),
        reset_pin=_with_default(r.pin("spi", "reset_pin", 25), 25),  # BCM 0 is a valid pin: not "or 25"
        chip_select=r.choice("spi", "chip_select", ("decoder", "gpio"), "decoder"),
        address_pins=r.pins("spi", "address_pins"),
        cs_pins=r.pins("spi", "cs_pins"),
        receive_timeout_s=r.bounded("spi", "receive_timeout_ms", 1.0, *RECEIVE_RANGE) / 1000,
    )
    if spi.device not in SPI0_CE:
        raise r.fail("spi", "device", f"SPI0 has CE0 and CE1 (device 0 or 1), not {spi.device}")
    if not 100_000 <= spi.speed_hz <= 10_000_000:
        raise r.fail("spi", "speed_hz", f"the MFRC522 works from 100 kHz to 10 MHz, not {spi.speed_hz}")

    readers: dict[int, str] = {}
    for key, city in r.table("readers").items():
        if not (key.isascii() and key.isdigit()) or len(key) > 3 or int(key) > MAX_CHANNEL:
            raise r.fail("readers", key, f"keys are reader channel numbers 0 to {MAX_CHANNEL}, not {shown(key)}")
        if not isinstance(city, str) or not city:
            raise r.fail("readers", key, f"must be a city name, not {shown(city)}")
        r.name("readers", key, city, "a city name")
        if city in readers.values():
            raise r.fail("readers", key, f"{city} already has a reader")
        readers[int(key)] = city
    card = None
    if "channel" in r.table("card_reader"):
        card = r.whole("card_reader", "channel", 0, 0, MAX_CHANNEL, "a reader channel (leave it out: no card reader)")
    if card is not None and card in readers:
        raise r.fail("card_reader", "channel", f"channel {card} is also the reader of {readers[card]}")
    channels = [*readers, *([card] if card is not None else [])]
    if backend == "spi" and channels:
        if spi.chip_select == "decoder":
            capacity = 1 << len(spi.address_pins)
            if not spi.address_pins or max(channels) >= capacity:
                raise r.fail(
                    "spi",
                    "address_pins",
                    f"{len(spi.address_pins)} address lines select {capacity} readers; channel {max(channels)} is used",
                )
        elif max(channels) >= len(spi.cs_pins):
            raise r.fail("spi", "cs_pins", f"{len(spi.cs_pins)} pins, but channel {max(channels)} is used")

    rf = _rf(r, [*readers.values(), *(["card"] if card is not None else [])])

    serial = SerialSettings(
        url=r.name("serial", "url", r.get("serial", "url", str, "/dev/ttyACM0"), "a serial port"),
        baudrate=r.whole("serial", "baudrate", 115200, *BAUD_RANGE),
        retry_interval_s=r.bounded("serial", "retry_interval", 2.0, *RETRY_RANGE),
    )
    leds = _leds(r, [readers[ch] for ch in sorted(readers)])
    buttons = _buttons(r)
    _check_pins(r, backend, spi, leds, buttons)

    markers: dict[str, Marker] = {}
    for key, value in r.table("markers").items():
        uid = r.uid("markers", key)
        if not (
            isinstance(value, dict) and isinstance(value.get("colour"), str) and isinstance(value.get("number"), int)
        ):
            raise r.fail("markers", key, 'must be { colour = "red", number = 1 }')
        colour, number = value["colour"].strip(), value["number"]
        if not colour:
            raise r.fail("markers", key, "colour must not be empty")
        r.name("markers", key, colour, "a colour")
        if isinstance(number, bool) or not 1 <= number <= 99:
            raise r.fail(
                "markers", key, f"number counts from 1 to 99 (a box has a few markers a colour), not {number!r}"
            )
        if uid in markers:  # the same UID written twice (e.g. in another case): never silently replaced
            raise r.fail("markers", key, f"this UID is already marker {markers[uid].colour} {markers[uid].number}")
        markers[uid] = Marker(colour, number)
    cards: dict[str, str] = {}
    for key, value in r.table("cards").items():
        uid = r.uid("cards", key)
        if not isinstance(value, str) or not value:
            raise r.fail("cards", key, f"must be a card id string, not {shown(value)}")
        r.name("cards", key, value, "a card id")
        if uid in markers:
            raise r.fail("cards", key, "this UID is already a marker")
        if uid in cards:
            raise r.fail("cards", key, f"this UID is already card {cards[uid]}")
        cards[uid] = value
    bank: dict[str, str] = {}
    for key, value in r.table("bank_cards").items():
        uid = r.uid("bank_cards", key)
        if not isinstance(value, str) or not value:
            raise r.fail("bank_cards", key, f"must be a player colour string, not {value!r}")
        if uid in markers or uid in cards or uid in bank:
            raise r.fail("bank_cards", key, "this UID is already a marker, a card or a bank card")
        if not value.strip():
            raise r.fail("bank_cards", key, "the player colour must not be empty")
        r.name("bank_cards", key, value, "a player colour")
        bank[uid] = value
    admin_list = r.get("admin", "cards", list, [])
    admin: set[str] = set()
    for entry in admin_list:
        if not isinstance(entry, str):
            raise r.fail("admin", "cards", f"every entry must be a UID string, not {entry!r}")
        uid = r.uid("admin", entry)
        if uid in markers or uid in cards or uid in bank:  # a marker that opens the admin menu: refused
            raise r.fail("admin", "cards", f"{entry} is already a {'marker' if uid in markers else 'card'}")
        admin.add(uid)

    return HardwareConfig(
        path=path,
        backend=backend,
        poll_interval_s=r.bounded("hardware", "poll_interval", 0.05, *POLL_RANGE),
        debounce=debounce,
        reverify_every=r.whole("debounce", "reverify_every", 10, 1, 1000, "polls between re-reads of a settled tag"),
        retry_interval_s=r.bounded("hardware", "retry_interval", 5.0, *RETRY_RANGE),
        spi=spi,
        rf=rf,
        serial=serial,
        readers=readers,
        card_channel=card,
        leds=leds,
        buttons=buttons,
        markers=markers,
        cards=cards,
        admin_cards=frozenset(admin),
        bank_cards=bank,
    )


def _rf(r: _Reader, names: list[str]) -> RfSettings:
    guard_ms = r.positive("rf", "guard_ms", 5.1)
    if guard_ms < 5.0:
        raise r.fail(
            "rf", "guard_ms", f"ISO/IEC 14443-3 gives tags up to 5 ms to wake in a field; {guard_ms} is too short"
        )
    pairs: list[tuple[str, str]] = []
    for pair in r.get("rf", "close", list, []):
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(n, str) for n in pair)):
            raise r.fail(
                "rf", "close", f'every entry is a pair of reader names, e.g. ["card", "Antwerp"], not {pair!r}'
            )
        for name in pair:
            if names and name not in names:
                raise r.fail("rf", "close", f"{name!r} has no reader (readers: cities in [readers], and card)")
        pairs.append((pair[0], pair[1]))
    groups = _rf_groups(r, names, pairs)
    return RfSettings(
        rf_safe=r.get("rf", "rf_safe", bool, True), guard_s=guard_ms / 1000, close=tuple(pairs), groups=groups
    )


def _rf_groups(r: _Reader, names: list[str], close: list[tuple[str, str]]) -> tuple[tuple[str, ...], ...]:
    """``[rf] groups``: every reader in exactly one group, no ``close`` pair inside one."""
    raw = r.get("rf", "groups", list, [])
    groups: list[tuple[str, ...]] = []
    seen: dict[str, int] = {}
    for number, group in enumerate(raw, start=1):
        if not (isinstance(group, list) and group and all(isinstance(n, str) for n in group)):
            raise r.fail(
                "rf", "groups", f'every group is a list of reader names, e.g. ["Antwerp", "Kyiv"], not {group!r}'
            )
        for name in group:
            if names and name not in names:
                raise r.fail("rf", "groups", f"{name!r} has no reader (readers: cities in [readers], and card)")
            if name in seen:
                raise r.fail("rf", "groups", f"{name} is in group {seen[name]} and group {number}")
            seen[name] = number
        groups.append(tuple(group))
    if groups:
        missing = [n for n in names if n not in seen]
        if missing:
            raise r.fail("rf", "groups", f"readers in no group (they would never be read): {', '.join(missing)}")
        for a, b in close:
            if a in seen and seen.get(a) == seen.get(b):
                raise r.fail("rf", "groups", f"{a} and {b} are close ([rf] close) but share group {seen[a]}")
    return tuple(groups)


def _leds(r: _Reader, cities: list[str]) -> LedSettings:
    backend = r.choice("leds", "backend", LED_BACKENDS, "none")
    layout = r.choice("leds", "layout", ("sequential", "explicit"), "sequential")
    if layout == "sequential":
        led_map = LedMap.sequential(cities, two_colour=r.get("leds", "two_colour", bool, True))
    else:
        city_bits: dict[str, tuple[int, int | None]] = {}
        for city, bits in r.table("leds.cities").items():
            if not (isinstance(bits, list) and 1 <= len(bits) <= 2 and all(isinstance(b, int) for b in bits)):
                raise r.fail("leds.cities", city, "must be [bit] or [colour A bit, colour B bit]")
            city_bits[city] = (bits[0], bits[1] if len(bits) == 2 else None)
        time = tuple(r.get("leds", "time", list, []))
        if len(time) != TIME_TRACK_LENGTH:
            raise r.fail("leds", "time", f"needs {TIME_TRACK_LENGTH} bits (positions 0..14), got {len(time)}")
        events = r.get("leds", "events", dict, {})
        for kind in events:
            if kind not in EVENT_KINDS:
                raise r.fail("leds", "events", f"unknown event kind {kind!r}; known: {', '.join(EVENT_KINDS)}")
        led_map = LedMap(city_bits, time, dict(events), tuple(r.get("leds", "seats", list, [])))
        used = [b for _, b in led_map.bits_used()]
        if len(used) != len(set(used)):
            raise r.fail("leds", None, "two LEDs share a bit")
    pins = r.pins("leds", "pins")
    if backend == "gpio" and len(pins) < led_map.size:
        raise r.fail("leds", "pins", f"the LED map uses {led_map.size} bits, only {len(pins)} pins given")
    settings = LedSettings(
        backend=backend,
        led_map=led_map,
        data_pin=r.pin("leds", "data_pin"),
        clock_pin=r.pin("leds", "clock_pin"),
        latch_pin=r.pin("leds", "latch_pin"),
        enable_pin=r.pin("leds", "enable_pin"),
        pins=pins,
    )
    if backend == "shift_register":
        for key in ("data_pin", "clock_pin", "latch_pin"):
            if getattr(settings, key) is None:
                raise r.fail("leds", key, "is needed by the shift_register backend")
    return settings


def _buttons(r: _Reader) -> ButtonSettings:
    table = r.table("buttons")
    pins: dict[ButtonName, int] = {}
    for name in ButtonName:
        pin = r.pin("buttons", name.value)
        if pin is not None:
            pins[name] = pin
    for key in table:
        if key not in {b.value for b in ButtonName} | {"long_press", "bounce"}:
            raise r.fail("buttons", key, f"unknown button; buttons are {', '.join(b.value for b in ButtonName)}")
    return ButtonSettings(
        pins,
        r.bounded("buttons", "long_press", 1.5, *LONG_PRESS_RANGE),
        r.bounded("buttons", "bounce", 0.02, *BOUNCE_RANGE),
    )


def _check_pins(r: _Reader, backend: str, spi: SpiSettings, leds: LedSettings, buttons: ButtonSettings) -> None:
    owners: dict[int, tuple[str, str]] = {}

    def claim(pin: int | None, section: str, key: str) -> None:
        if pin is None:
            return
        reserved = dict(RESERVED_PINS)
        if backend == "spi":
            reserved.update(SPI0_PINS)
            for ce, name in SPI0_CE_PINS.items():  # both: the overlay claims both (see SPI0_CE_PINS)
                if ce == SPI0_CE.get(spi.device):
                    decoder = spi.chip_select == "decoder"
                    what = "gates the decoders" if decoder else "toggled by spidev, leave it unconnected"
                else:
                    what = "claimed by the spi0 overlay (a Pi 5 cannot use it as GPIO)"
                reserved[ce] = f"{name} ({what})"
        if pin in reserved:
            raise r.fail(section, key, f"BCM {pin} is {reserved[pin]}")
        if pin in owners:
            other = owners[pin]
            raise r.fail(section, key, f"BCM {pin} is already used by [{other[0]}] {other[1]}")
        owners[pin] = (section, key)

    if backend == "spi":
        claim(spi.reset_pin, "spi", "reset_pin")
        for pin in spi.address_pins if spi.chip_select == "decoder" else spi.cs_pins:
            claim(pin, "spi", "address_pins" if spi.chip_select == "decoder" else "cs_pins")
    if leds.backend == "shift_register":
        for key in ("data_pin", "clock_pin", "latch_pin", "enable_pin"):
            claim(getattr(leds, key), "leds", key)
    if leds.backend == "gpio":
        for pin in leds.pins:
            claim(pin, "leds", "pins")
    for name, pin in buttons.pins.items():
        claim(pin, "buttons", name.value)


# --- rewriting sections (calibrate, enroll) ---------------------------------------------------
def _quote(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_\-]+", key) else '"' + key.replace('"', '\\"') + '"'


def replace_section(text: str, section: str, lines: list[str]) -> str:
    """Replace the body of ``[section]`` (or append the table) keeping everything else as it is."""
    out = text.splitlines()
    start = locate(text, section)
    body = [f"{line}" for line in lines]
    if start is None:
        return "\n".join([*out, "", f"[{section}]", *body]) + "\n"
    end = start
    while end < len(out) and not _HEADER.match(out[end]):
        end += 1
    while end > start and not out[end - 1].strip():
        end -= 1  # keep the blank lines before the next table
    return "\n".join([*out[:start], *body, *out[end:]]) + "\n"


def write_readers(path: Path, readers: Mapping[int, str]) -> None:
    lines = [f"{ch} = {_toml_str(city)}" for ch, city in sorted(readers.items())]
    path.write_text(replace_section(path.read_text(encoding="utf-8"), "readers", lines), encoding="utf-8")


def write_card(path: Path, uid: str, card_id: str, existing: Mapping[str, str]) -> None:
    cards = dict(existing)
    cards[uid] = card_id
    lines = [f"{_quote(u)} = {_toml_str(c)}" for u, c in sorted(cards.items())]
    path.write_text(replace_section(path.read_text(encoding="utf-8"), "cards", lines), encoding="utf-8")


def _toml_str(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _with_default(value: int | None, default: int) -> int:
    return default if value is None else value
