"""Board and deck data files: the reference On The Way data, loaders and a validator.

Formats: docs/data.md. Every loader raises :class:`DataFileError` (a
:class:`companion.engine.errors.DataError`) listing each :class:`Problem` with file, line and field.

    board = load_board()                      # the reference board
    deck = load_deck(board=board)             # reference contracts + events, checked against it
    problems = check_files([path, ...])       # what ``companion board check`` reports
"""

from __future__ import annotations

from pathlib import Path

from companion.data.problems import DataFileError, Problem
from companion.data.source import SourceFile
from companion.games.on_the_way.data.board_file import SETUP_SIZES, parse_board
from companion.games.on_the_way.data.check import (
    REFERENCE_BOARD,
    REFERENCE_CONTRACTS,
    REFERENCE_EVENTS,
    REFERENCE_FILES,
    CheckResult,
    check_files,
    contract_shortfalls,
    duplicate_ids_across,
    inspect_files,
    other_game,
    unknown_sections,
)
from companion.games.on_the_way.data.deck_file import parse_contracts, parse_events
from companion.games.on_the_way.engine.board import Board
from companion.games.on_the_way.engine.cards import ContractCard, Deck, EventCard

__all__ = [
    "REFERENCE_BOARD",
    "REFERENCE_CONTRACTS",
    "REFERENCE_EVENTS",
    "REFERENCE_FILES",
    "SETUP_SIZES",
    "CheckResult",
    "DataFileError",
    "Problem",
    "check_files",
    "contract_shortfalls",
    "inspect_files",
    "load_board",
    "load_contracts",
    "load_deck",
    "load_events",
    "load_reference",
]


def load_board(path: Path | str = REFERENCE_BOARD) -> Board:
    """The board in ``path`` (default: the reference board). Raises DataFileError."""
    source = _read(path)
    board, problems = parse_board(source)
    _raise_if(problems)
    return board


def load_contracts(path: Path | str = REFERENCE_CONTRACTS, *, board: Board | None = None) -> tuple[ContractCard, ...]:
    """The contract cards in ``path``. With ``board``, their cities and distances must fit it (OTW-12)."""
    source = _read(path)
    cards, problems = parse_contracts(source, board)
    _raise_if(problems)
    return tuple(cards)


def load_events(path: Path | str = REFERENCE_EVENTS, *, board: Board | None = None) -> tuple[EventCard, ...]:
    """The event cards in ``path``. With ``board``, each traffic jam must be on one of its roads (OTW-30)."""
    source = _read(path)
    cards, problems = parse_events(source, board)
    _raise_if(problems)
    return tuple(cards)


def load_deck(
    contracts_path: Path | str = REFERENCE_CONTRACTS,
    events_path: Path | str = REFERENCE_EVENTS,
    *,
    board: Board | None = None,
) -> Deck:
    """Contracts and events as one Deck; card ids must be unique across both files."""
    contracts = load_contracts(contracts_path, board=board)
    events = load_events(events_path, board=board)
    problems = duplicate_ids_across([SourceFile.read(contracts_path), SourceFile.read(events_path)])
    _raise_if(problems)
    return Deck(contracts, events)


def load_reference() -> tuple[Board, Deck]:
    """The reference board and the reference deck, checked against each other."""
    board = load_board(REFERENCE_BOARD)
    return board, load_deck(REFERENCE_CONTRACTS, REFERENCE_EVENTS, board=board)


def _read(path: Path | str) -> SourceFile:
    source = SourceFile.read(path)
    foreign = other_game(source)
    _raise_if(source.problems + ([foreign] if foreign else unknown_sections(source)))
    return source


def _raise_if(problems: list[Problem]) -> None:
    if problems:
        raise DataFileError(sorted(problems, key=lambda p: p.line))
