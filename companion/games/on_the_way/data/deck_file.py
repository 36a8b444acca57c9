"""Reading and checking contract cards (``[[contracts]]``) and event cards (``[[events]]``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from companion.data.fields import TableReader, array_readers, shown
from companion.data.problems import Problem
from companion.data.source import SourceFile
from companion.games.on_the_way.engine.board import Board
from companion.games.on_the_way.engine.cards import TIER_DISTANCES, ContractCard, EventCard, EventKind, Tier

# OTW-1: the smallest banknote is 500 R, so every printed amount is a multiple of it.
MONEY_UNIT = 500
# Limits far above any printed card, far below nonsense (docs/data.md): the reference cards pay at
# most 4 000 R; the box holds 33 trucks and 44 VP tokens (OTW-1).
MAX_PAY = 100_000
MAX_TRUCKS = 33
MAX_VP = 44
MAX_EVENT_AMOUNT = 10_000
CONTRACT_KEYS = ("id", "tier", "from", "to", "distance", "trucks", "pay", "vp")
EVENT_KEYS = ("id", "kind", "amount", "road")
E = TypeVar("E", Tier, EventKind)
C = TypeVar("C", ContractCard, EventCard)
KINDS_WITH_AMOUNT = frozenset({EventKind.BONUS, EventKind.MALUS, EventKind.CHEAPER_BUILD})


def parse_contracts(source: SourceFile, board: Board | None = None) -> tuple[list[ContractCard], list[Problem]]:
    """The contract cards in ``source``. With ``board``, cities and distances are checked against it."""
    return _parse_cards(source, "contracts", lambda reader: _contract(reader, board))


def _parse_cards(
    source: SourceFile, section: str, parse: Callable[[TableReader], C | None]
) -> tuple[list[C], list[Problem]]:
    """Each ``[[section]]`` block through ``parse``; a card id used twice is reported, not kept."""
    problems: list[Problem] = []
    cards: list[C] = []
    ids: set[str] = set()
    for reader in array_readers(source, problems, source.data or {}, section):
        card = parse(reader)
        if card is None:
            continue
        if card.id in ids:
            reader.problem("id", f"duplicate card id {card.id!r}")
            continue
        ids.add(card.id)
        cards.append(card)
    return cards, problems


def _contract(reader: TableReader, board: Board | None) -> ContractCard | None:
    before = len(reader.problems)
    card_id = reader.string("id")
    tier = _enum(reader, "tier", Tier)
    origin = reader.city("from")
    destination = reader.city("to")
    distance = reader.integer("distance", minimum=1)  # bounded by the tier check below (OTW-13)
    trucks = reader.integer("trucks", minimum=1, maximum=MAX_TRUCKS)
    pay = reader.integer("pay", minimum=0, multiple=MONEY_UNIT, maximum=MAX_PAY)
    vp = reader.integer("vp", minimum=0, default=0, maximum=MAX_VP)
    reader.unknown_keys(CONTRACT_KEYS)
    if origin is not None and origin == destination:
        reader.problem("to", f"a contract must go to another city, not from {origin!r} to itself")
    if tier is not None and distance is not None and distance not in TIER_DISTANCES[tier]:
        allowed = " or ".join(str(d) for d in TIER_DISTANCES[tier])
        reader.problem("distance", f"{tier} contracts have distance {allowed} (OTW-13), not {distance}")
    if board is not None:
        for key, city in (("from", origin), ("to", destination)):
            if city is not None and city not in board.index:
                reader.problem(key, f"unknown city {city!r} on board {board.name!r}")
        if (
            origin in board.index
            and destination in board.index
            and origin != destination
            and distance is not None
            and origin is not None
            and destination is not None
        ):
            shortest = board.distance(origin, destination)
            if shortest is None:
                reader.problem("distance", f"no road path from {origin} to {destination} on board {board.name!r}")
            elif shortest != distance:
                reader.problem(
                    "distance",
                    f"{origin}→{destination} is {shortest} roads on board {board.name!r}, "
                    f"not {distance} (OTW-12: the card shows the minimal distance)",
                )
    if len(reader.problems) > before:
        return None
    assert card_id is not None and tier is not None and origin is not None and destination is not None
    assert distance is not None and trucks is not None and pay is not None and vp is not None
    return ContractCard(card_id, tier, origin, destination, distance, trucks, pay, vp)


def parse_events(source: SourceFile, board: Board | None = None) -> tuple[list[EventCard], list[Problem]]:
    """The event cards in ``source``. With ``board``, traffic-jam roads must be roads of that board."""
    cards, problems = _parse_cards(source, "events", lambda reader: _event(reader, board))
    items = (source.data or {}).get("events")
    if isinstance(items, list) and not items:
        line = source.locate("events")
        problems.append(Problem(source.label, line, "events", "no event cards: OTW-28 needs at least one"))
    return cards, problems


def _event(reader: TableReader, board: Board | None) -> EventCard | None:
    """OTW-30: amount for bonus, malus and cheaper_build; a road for traffic_jam; neither for extra_step."""
    before = len(reader.problems)
    card_id = reader.string("id")
    kind = _enum(reader, "kind", EventKind)
    reader.unknown_keys(EVENT_KEYS)
    amount = 0
    road: tuple[str, str] | None = None
    if kind in KINDS_WITH_AMOUNT:
        value = reader.integer("amount", minimum=1, multiple=MONEY_UNIT, maximum=MAX_EVENT_AMOUNT)
        amount = value or 0
    elif kind is not None and "amount" in reader.values:
        reader.problem("amount", f"{kind} events have no amount (only bonus, malus and cheaper_build do)")
    if kind is EventKind.TRAFFIC_JAM:
        road = _jam_road(reader, board)
    elif kind is not None and "road" in reader.values:
        reader.problem("road", f"{kind} events have no road (only traffic_jam does)")
    if len(reader.problems) > before:
        return None
    assert card_id is not None and kind is not None
    return EventCard(card_id, kind, amount, road)


def _jam_road(reader: TableReader, board: Board | None) -> tuple[str, str] | None:
    ends = reader.city_list("road", length=2)
    if ends is None:
        return None
    a, b = ends
    if a == b:
        reader.problem("road", f"a road joins two different cities, not {a!r} to itself")
        return None
    if board is not None:
        unknown = [end for end in ends if end not in board.index]
        for end in unknown:
            reader.problem("road", f"unknown city {end!r} on board {board.name!r}", needle=end)
        if unknown:
            return None
        if not board.has_road(a, b):
            reader.problem("road", f"there is no road {a}–{b} on board {board.name!r} (OTW-30)")
            return None
    return (a, b)


def _enum(reader: TableReader, key: str, enum: type[E]) -> E | None:
    value = reader.string(key)
    if value is None:
        return None
    try:
        return enum(value)
    except ValueError:
        choices = " | ".join(member.value for member in enum)
        reader.problem(key, f"must be one of {choices}, not {shown(value)}")
        return None


def card_ids(data: dict[str, Any]) -> list[tuple[str, int, str]]:
    """(section, block number, id) for every card with a string id, for cross-file duplicate checks."""
    found = []
    for section in ("contracts", "events"):
        items = data.get(section)
        if isinstance(items, list):
            for n, item in enumerate(items, 1):
                if isinstance(item, dict) and isinstance(item.get("id"), str):
                    found.append((section, n, item["id"].strip()))
    return found
