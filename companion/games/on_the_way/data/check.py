"""Checking boards and decks together, as ``companion board check`` does.

Each file's kind is found from its content: a ``[board]`` table, ``[[contracts]]``, ``[[events]]``
(one file may hold several). Contracts and events are checked against the board given, or against
the reference board when no board file is given.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from companion.data.fields import shown
from companion.data.problems import Problem
from companion.data.source import SourceFile
from companion.games.on_the_way.data.board_file import parse_board
from companion.games.on_the_way.data.deck_file import card_ids, parse_contracts, parse_events
from companion.games.on_the_way.engine.board import Board
from companion.games.on_the_way.engine.cards import ContractCard, EventCard, Tier
from companion.games.on_the_way.engine.state import REMOVED_CONTRACTS, TIME_END

REFERENCE_BOARD = Path(__file__).with_name("on-the-way.board.toml")
REFERENCE_CONTRACTS = Path(__file__).with_name("on-the-way.contracts.toml")
REFERENCE_EVENTS = Path(__file__).with_name("on-the-way.events.toml")
REFERENCE_FILES = (REFERENCE_BOARD, REFERENCE_CONTRACTS, REFERENCE_EVENTS)

# Top-level keys a data file may have.
SECTIONS = ("board", "cities", "roads", "setup", "contracts", "events")


@dataclass(frozen=True)
class CheckResult:
    """What a check found: the problems, and what loaded cleanly enough to count."""

    problems: tuple[Problem, ...]
    boards: tuple[Board, ...]
    contracts: tuple[ContractCard, ...]
    events: tuple[EventCard, ...]
    deck_board: Board | None  # the board the contracts and events were checked against
    deck_board_is_reference: bool

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        """One line for a clean check: ``ok: 44 cities, 75 roads, 84 contracts, 22 events``."""
        parts = [f"{len(board.cities)} cities, {len(board.roads)} roads" for board in self.boards]
        if self.contracts:
            parts.append(f"{len(self.contracts)} contracts")
        if self.events:
            parts.append(f"{len(self.events)} events")
        text = "ok: " + (", ".join(parts) or "nothing to check")
        if self.deck_board_is_reference and self.deck_board is not None:
            text += f" (checked against the reference board, {len(self.deck_board.cities)} cities)"
        return text


def inspect_files(paths: Sequence[Path | str]) -> CheckResult:
    """Check boards and decks together; see the module docstring."""
    problems: list[Problem] = []
    sources = [SourceFile.read(path) for path in paths]
    board_sources: list[SourceFile] = []
    deck_sources: list[SourceFile] = []
    for source in sources:
        problems.extend(source.problems)
        if source.data is None:
            continue
        foreign = other_game(source)
        if foreign is not None:
            problems.append(foreign)
            continue
        problems.extend(unknown_sections(source))
        if "board" in source.data:
            board_sources.append(source)
        if "contracts" in source.data or "events" in source.data:
            deck_sources.append(source)
        if not any(key in source.data for key in ("board", "contracts", "events")):
            problems.append(
                Problem(
                    source.label,
                    1,
                    "file",
                    "not a board, contracts or events file: no [board] table, [[contracts]] or [[events]]",
                )
            )

    boards: list[Board] = []
    for source in board_sources:
        board, found = parse_board(source)
        boards.append(board)
        problems.extend(found)

    deck_board: Board | None = boards[0] if boards else None
    is_reference = False
    unparsed = any(source.data is None for source in sources)
    if deck_sources and not boards and not unparsed:
        # No board given: the reference board. (If a file could not be parsed it may be the board
        # meant, and checking against the reference would only add noise.)
        deck_board, _ = parse_board(SourceFile.read(REFERENCE_BOARD))
        is_reference = True
    if deck_sources and len(boards) > 1:
        for source in board_sources[1:]:
            problems.append(
                Problem(
                    source.label,
                    source.locate("board"),
                    "board",
                    f"several boards given; the contracts and events are checked against the first, "
                    f"{board_sources[0].label}: check one board at a time",
                )
            )

    contracts: list[ContractCard] = []
    events: list[EventCard] = []
    for source in deck_sources:
        data = source.data or {}
        if "contracts" in data:
            found_contracts, found = parse_contracts(source, deck_board)
            contracts.extend(found_contracts)
            problems.extend(found)
        if "events" in data:
            found_events, found = parse_events(source, deck_board)
            events.extend(found_events)
            problems.extend(found)
    problems.extend(duplicate_ids_across(deck_sources))
    deck_labels = {source.label for source in deck_sources}
    if not any(p.file in deck_labels for p in problems):  # counts of a broken deck would only add noise
        problems.extend(deck_size_problems(deck_sources, contracts, events))

    order = {source.label: n for n, source in enumerate(sources)}
    problems.sort(key=lambda p: (order.get(p.file, len(order)), p.line))
    return CheckResult(tuple(problems), tuple(boards), tuple(contracts), tuple(events), deck_board, is_reference)


def check_files(paths: Sequence[Path | str]) -> list[Problem]:
    """Every problem in the given board, contracts and events files, checked together."""
    return list(inspect_files(paths).problems)


def unknown_sections(source: SourceFile) -> list[Problem]:
    """A top-level key that is not a known section (a typo such as ``[[contract]]``)."""
    expected = ", ".join(SECTIONS)
    return [
        Problem(source.label, source.locate(key), key, f"unknown top-level key {shown(key)} (expected: {expected})")
        for key in (source.data or {})
        if key not in SECTIONS
    ]


def duplicate_ids_across(sources: Sequence[SourceFile]) -> list[Problem]:
    """A card id used in two files, or by a contract and an event (within one section: see the parsers)."""
    problems: list[Problem] = []
    first: dict[str, tuple[str, str]] = {}
    for source in sources:
        for section, n, card_id in card_ids(source.data or {}):
            where = (source.label, section)
            if card_id not in first:
                first[card_id] = where
            elif first[card_id] != where:
                other = f"{first[card_id][0]} ({first[card_id][1]})"
                problems.append(
                    Problem(
                        source.label,
                        source.locate(section, "id", n),
                        f"{section}[{n}].id",
                        f"duplicate card id {card_id!r}, already used in {other}",
                    )
                )
    return problems


# Marks of the other game's files (docs/auf-achse.md): refused with a pointer, not as 30 typos.
_AUF_ACHSE_CONTRACT_KEYS = frozenset({"goods", "payout", "costs"})


def other_game(source: SourceFile) -> Problem | None:
    """An Auf Achse board, contracts or action-card file given to On The Way: one clear problem."""
    data = source.data or {}
    board = data.get("board")
    kind = None
    if (isinstance(board, dict) and board.get("game") == "auf-achse") or "junctions" in data:
        kind, section = "board", "board"
    elif "actions" in data:
        kind, section = "action-card", "actions"
    else:
        contracts = data.get("contracts")
        first = contracts[0] if isinstance(contracts, list) and contracts else None
        if isinstance(first, dict) and _AUF_ACHSE_CONTRACT_KEYS & set(first) and "tier" not in first:
            kind, section = "contracts", "contracts"
    if kind is None:
        return None
    line = source.locate(section)
    return Problem(source.label, line, "file", f"this is an Auf Achse {kind} file; use --game auf-achse")


def deck_size_problems(
    sources: Sequence[SourceFile], contracts: Sequence[ContractCard], events: Sequence[EventCard]
) -> list[Problem]:
    """Per player count: every tier keeps at least one card in play after OTW-4 returns some to the
    box (else every ``take_contract`` of that tier is refused), and the event deck has a card for
    every step of the time track (OTW-28, OTW-31; fewer and cards come round again)."""
    problems: list[Problem] = []
    contract_source = next((s for s in sources if "contracts" in (s.data or {})), None)
    if contract_source is not None:
        line = contract_source.locate("contracts")
        for players in REMOVED_CONTRACTS:
            for message in contract_shortfalls(contracts, players):
                problems.append(Problem(contract_source.label, line, "contracts", message))
    event_source = next((s for s in sources if "events" in (s.data or {})), None)
    if event_source is not None:
        line = event_source.locate("events")
        for players, end in TIME_END.items():
            if len(events) < end:
                problems.append(
                    Problem(
                        event_source.label,
                        line,
                        "events",
                        f"{players} players: a game reveals up to {end} event cards (OTW-28, OTW-31) "
                        f"and the deck has {len(events)}; at least {end} needed",
                    )
                )
    return problems


def contract_shortfalls(contracts: Sequence[ContractCard], players: int) -> list[str]:
    """OTW-4 for one player count: a message per tier the box would leave with no card in play.

    ``board check`` reports these for 2, 3 and 4 players; a game of ``players`` could refuse to
    start with them (``OnTheWay.config`` does not call it yet: the plug-in is not part of the data package).
    """
    removed = REMOVED_CONTRACTS[players]
    messages = []
    for tier in Tier:
        count = sum(1 for card in contracts if card.tier is tier)
        if count <= removed[tier]:
            messages.append(
                f"{players} players: OTW-4 returns {removed[tier]} {tier.value} contracts to the box "
                f"and the deck has {count}, so no {tier.value} contract could be taken; "
                f"at least {removed[tier] + 1} needed"
            )
    return messages
