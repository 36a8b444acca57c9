"""``companion hardware plan``: antennas, RF groups, sweep time and power from the printed board's geometry.

Crosstalk follows physical distance, not the roads of the map: two cities 2 cm apart on the print
couple whether or not a road joins them. From every city's position on the print (``plan_inputs``)
and one antenna kind this computes

* the room each antenna has (distance to the nearest other antenna) and which cities cannot hold
  the antenna (closer than ``Antenna.min_room_mm``: the boards collide, or a neighbour's field alone
  powers the tag, which no grouping can fix), with what the builder can do;
* the close pairs (closer than ``Antenna.close_mm``, plus ``[rf] close``) and RF groups without a close
  pair, with at most ``per_bank`` antennas of one bank (one regulator) on at once;
* the sweep time of those groups, the power budget (per-bank regulators, the 5 V supply), and the
  ``[readers]``/``[card_reader]``/``[rf]`` tables and the bridge ``GROUPS`` they imply.

Numbers and their sources are the module constants below; ``plan_template`` draws the 1:1 template.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from companion.hardware.mfrc522_core import GUARD_US
from companion.hardware.plan_inputs import CARD, SMALLEST_COIL_MM, Antenna, Position
from companion.hardware.rf_groups import check_groups, colour_groups

BANK_SIZE = 8  # readers per bank in the bridge build (firmware/rp2040/bridge_config.py, wiring.md)
# Sweep cost on the RP2040 bridge, measured with benchmarks/readers.py's bridge_sweep on the emulated
# bus (RP2040_XFER_S = 40 us per register transaction, 4 MHz SPI): 1 group of 45 readers with 44 tags
# took 28.1 ms = one group (guard + receive timeout) + 45 x 0.49 ms; 45 groups of one took 270-293 ms.
RECEIVE_TIMEOUT_MS = 1.0  # bridge_config.RECEIVE_TIMEOUT_US: the last WUPA's answer window in a group
READER_MS = 0.49  # per reader with a tag on it (the empty reader costs 0.34 ms)
GROUP_MS = GUARD_US / 1000 + RECEIVE_TIMEOUT_MS

# Currents: NXP MFRC522 data sheet Rev. 3.9, §4 "Quick reference data" (Table 1).
ANTENNA_MA_TYP = 60.0  # IDD(TVDD), transmitter supply current, antenna driven: typical
ANTENNA_MA_MAX = 100.0  # ... maximum: what the regulators and the supply are sized for
CHIP_MA = 6.5 + 10.0  # IDDD (digital) + IDDA (analog) of a running chip, antenna off or on
LOGIC_MA_PER_BANK = 5.0  # guess, generous: a 74LVC244, a '138 and a '251 switching at 4 MHz (static ICC ≤ 10 uA)
LED_MA = 3.0  # one lit LED bit (wiring.md: 1 kOhm / 560 Ohm at 5 V)
REGULATOR_SIZES_MA = (300, 500, 800, 1000, 1500)  # common 3.3 V LDOs (e.g. LD1117S33: 800 mA)
REGULATOR_HEADROOM = 1.25  # run an LDO at most at 80 % of its rating
SUPPLY_SIZES_A = (2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0)
SUPPLY_MARGIN = 1.3  # 30 % over the worst case: inrush, tolerances, ageing
RAIL_V, SUPPLY_V = 3.3, 5.0


@dataclass(frozen=True)
class CityRoom:
    name: str
    channel: int
    bank: int
    position: Position
    room_mm: float  # centre distance to the nearest other antenna
    nearest: str
    fits: bool


@dataclass(frozen=True)
class PowerBudget:
    bank_ma: dict[int, float]  # worst current of each bank's 3.3 V regulator
    regulator_ma: dict[int, int]  # the regulator size chosen per bank
    ldo_watts: dict[int, float]  # heat in each LDO at its worst
    worst_bank: int
    supply_worst_a: float  # the 5 V side in the worst group, every chip running, every LED lit
    supply_a: float  # the supply to buy
    all_on_a: float  # every antenna on at once (a firmware fault): what the regulators then limit


@dataclass(frozen=True)
class Plan:
    antenna: Antenna
    board_size_mm: tuple[float, float]
    rooms: list[CityRoom]
    card_channel: int | None
    card_position: Position | None
    too_close: list[tuple[str, str, float]]  # pairs closer than min_room_mm
    close: list[tuple[str, str, float]]  # pairs closer than close_mm (geometry)
    extra_close: tuple[tuple[str, str], ...]  # [rf] close pairs (the card reader beside a city...)
    groups: list[list[str]]
    per_bank: int
    max_on: int
    sweep_ms: float
    power: PowerBudget
    adjacency_misses: list[tuple[str, str, float]] = field(default_factory=list)  # close, yet not neighbours
    fit_by_kind: dict[str, list[str]] = field(default_factory=dict)  # antenna kind → cities that cannot hold it

    @property
    def cannot_hold(self) -> list[CityRoom]:
        return [room for room in self.rooms if not room.fits]

    @property
    def scale_to_fit(self) -> float:
        """How much larger the board would have to be printed for every city to hold this antenna (1.0:
        it already does); measured positions scale with the print too."""
        tightest = min((room.room_mm for room in self.rooms), default=math.inf)
        return max(1.0, self.antenna.min_room_mm / tightest) if tightest > 0 else math.inf

    @property
    def channels(self) -> dict[str, int]:
        out = {room.name: room.channel for room in self.rooms}
        if self.card_channel is not None:
            out[CARD] = self.card_channel
        return out

    @property
    def group_channels(self) -> list[list[int]]:
        channels = self.channels
        return [sorted(channels[n] for n in group) for group in self.groups]

    @property
    def position_sources(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for room in self.rooms:
            out[room.position.source] = out.get(room.position.source, 0) + 1
        return out

    def advice(self, room: CityRoom) -> str:
        """What the builder can do about a city that cannot hold the antenna."""
        largest = room.room_mm / (self.antenna.min_room_mm / self.antenna.coil_mm)
        if largest >= SMALLEST_COIL_MM:
            return (
                f"use a smaller antenna here and at {room.nearest}: a coil of at most {math.floor(largest)} mm "
                f"(--antenna coil:{math.floor(largest)}), or check the position on the print (--positions)"
            )
        return (
            f"{room.nearest} is only {room.room_mm:.0f} mm away: even a {SMALLEST_COIL_MM:.0f} mm coil would be "
            "powered by its neighbour; measure the print (--positions), or sense only one of the two"
        )


def assign_channels(positions: Mapping[str, Position], bank_size: int = BANK_SIZE) -> dict[str, int]:
    """Channels for a board without a hardware file: banks of ``bank_size`` neighbouring cities (vertical
    strips from west to east, each read from north to south), so each bank's ribbon stays short."""
    names = sorted(positions, key=lambda n: (positions[n].x_mm, positions[n].y_mm, n))
    out: dict[str, int] = {}
    for start in range(0, len(names), bank_size):
        strip = sorted(names[start : start + bank_size], key=lambda n: (positions[n].y_mm, n))
        for offset, name in enumerate(strip):
            out[name] = start + offset
    return out


def _distance(a: Position, b: Position) -> float:
    return math.hypot(a.x_mm - b.x_mm, a.y_mm - b.y_mm)


def _regulator(ma: float) -> int:
    need = ma * REGULATOR_HEADROOM
    return next((size for size in REGULATOR_SIZES_MA if size >= need), math.ceil(need / 100) * 100)


def power_budget(
    groups: list[list[str]], bank_of: Mapping[str, int], *, leds: int, bank_size: int = BANK_SIZE
) -> PowerBudget:
    """Regulators per bank for the worst group in that bank; the 5 V supply for the worst group, every
    chip running and every LED lit, plus ``SUPPLY_MARGIN``."""
    chips = {bank: sum(1 for n in bank_of if bank_of[n] == bank) for bank in set(bank_of.values())}
    antennas_on = {bank: 0 for bank in chips}
    for group in groups:
        for bank in chips:
            antennas_on[bank] = max(antennas_on[bank], sum(1 for n in group if bank_of[n] == bank))
    bank_ma = {
        bank: antennas_on[bank] * ANTENNA_MA_MAX + chips[bank] * CHIP_MA + LOGIC_MA_PER_BANK for bank in sorted(chips)
    }
    regulator = {bank: _regulator(ma) for bank, ma in bank_ma.items()}
    watts = {bank: (SUPPLY_V - RAIL_V) * ma / 1000 for bank, ma in bank_ma.items()}
    worst_group = max((len(g) for g in groups), default=0)
    chips_ma = sum(chips.values()) * CHIP_MA + len(chips) * LOGIC_MA_PER_BANK
    worst = (worst_group * ANTENNA_MA_MAX + chips_ma + leds * LED_MA) / 1000
    supply = next((s for s in SUPPLY_SIZES_A if s >= worst * SUPPLY_MARGIN), math.ceil(worst * SUPPLY_MARGIN))
    all_on = (sum(chips.values()) * ANTENNA_MA_MAX + chips_ma + leds * LED_MA) / 1000
    worst_bank = max(bank_ma, key=lambda b: bank_ma[b]) if bank_ma else 0
    return PowerBudget(bank_ma, regulator, watts, worst_bank, worst, float(supply), all_on)


def make_plan(
    positions: Mapping[str, Position],
    antenna: Antenna,
    size: tuple[float, float],
    *,
    channels: Mapping[str, int] | None = None,
    card_channel: int | None = None,
    extra_close: Iterable[tuple[str, str]] = (),
    per_bank: int = 4,
    max_on: int = 0,
    bank_size: int = BANK_SIZE,
    leds: int = 0,
    adjacency: Mapping[str, Iterable[str]] | None = None,
    compare: Iterable[Antenna] = (),
) -> Plan:
    """The plan for antennas of ``antenna`` under cities at ``positions`` (mm on the print; ``card`` may
    be among them). ``channels``: city → reader channel (from the hardware file), else assigned."""
    cities = {n: p for n, p in positions.items() if n != CARD}
    card_position = positions.get(CARD)
    channels = dict(channels) if channels else assign_channels(cities, bank_size)
    if card_channel is None and channels:
        card_channel = max(channels.values()) + 1
    placed = dict(cities)
    if card_position is not None:
        placed[CARD] = card_position
    names = sorted(placed)
    pairs = [(a, b, _distance(placed[a], placed[b])) for i, a in enumerate(names) for b in names[i + 1 :]]
    too_close = sorted((p for p in pairs if p[2] < antenna.min_room_mm), key=lambda p: p[2])
    close = sorted((p for p in pairs if p[2] < antenna.close_mm), key=lambda p: p[2])
    rooms = []
    for name in sorted(cities, key=lambda n: channels[n]):
        others = [(d, b if a == name else a) for a, b, d in pairs if name in (a, b)]
        room, nearest = min(others) if others else (math.inf, "")
        channel = channels[name]
        rooms.append(
            CityRoom(name, channel, channel // bank_size, cities[name], room, nearest, room >= antenna.min_room_mm)
        )
    fit_by_kind = {
        kind.kind: [room.name for room in rooms if room.room_mm < kind.min_room_mm] for kind in (antenna, *compare)
    }
    near: dict[str, set[str]] = {n: set() for n in names}
    for a, b, _ in close:
        near[a].add(b)
        near[b].add(a)
    readers = sorted(cities) + ([CARD] if card_channel is not None else [])
    bank_of = {room.name: room.bank for room in rooms}
    if card_channel is not None:
        bank_of[CARD] = card_channel // bank_size
    extra = tuple((a, b) for a, b in extra_close)
    groups = colour_groups(readers, near, extra, bank_of, per_bank, max_on)
    misses: list[tuple[str, str, float]] = []
    if adjacency is not None:
        neighbours = {k: set(v) for k, v in adjacency.items()}
        misses = [(a, b, d) for a, b, d in close if CARD not in (a, b) and b not in neighbours.get(a, set())]
    return Plan(
        antenna=antenna,
        board_size_mm=size,
        rooms=rooms,
        card_channel=card_channel,
        card_position=card_position,
        too_close=too_close,
        close=close,
        extra_close=extra,
        groups=groups,
        per_bank=per_bank,
        max_on=max_on,
        sweep_ms=len(groups) * GROUP_MS + len(readers) * READER_MS,
        power=power_budget(groups, bank_of, leds=leds, bank_size=bank_size),
        adjacency_misses=misses,
        fit_by_kind=fit_by_kind,
    )


def adjacency_conflicts(plan: Plan, adjacency: Mapping[str, Iterable[str]]) -> list[tuple[str, str]]:
    """Close pairs (by distance) that a colouring of ``adjacency`` alone puts in one group."""
    names = [room.name for room in plan.rooms]
    groups = colour_groups(sorted(names), {k: set(v) for k, v in adjacency.items()}, ())
    near = {room.name: set() for room in plan.rooms}  # type: dict[str, set[str]]
    for a, b, _ in plan.close:
        if a in near and b in near:
            near[a].add(b)
            near[b].add(a)
    return [tuple(pair) for pair in check_groups(groups, near)]  # type: ignore[misc]
