"""Auf Achse data files: the board (cities, junctions, roads of spaces), contracts and action cards.

Formats: docs/auf-achse.md. Every loader raises :class:`DataFileError` listing each
:class:`Problem` with file, line and field (the same helpers as the On The Way files).

    board = load_aa_board()                   # the reference board
    deck = load_aa_deck(board=board)          # reference contracts + action cards, checked against it
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.data.fields import TableReader, array_readers, shown, table_reader
from companion.data.problems import DataFileError, Problem
from companion.data.source import SourceFile
from companion.engine.errors import DataError
from companion.games.auf_achse.engine.board import AABoard, RoadSpec, Space, build_board
from companion.games.auf_achse.engine.cards import (
    BID_LEVELS,
    EFFECTS_WITH_AMOUNT,
    AADeck,
    ActionCard,
    ContractCard,
    Effect,
)
from companion.games.auf_achse.engine.state import MAX_PLAYERS, MIN_PLAYERS, PRIVATE_CONTRACTS, PUBLIC_DECK

AA_BOARD = Path(__file__).with_name("auf-achse.board.toml")
AA_CONTRACTS = Path(__file__).with_name("auf-achse.contracts.toml")
AA_ACTIONS = Path(__file__).with_name("auf-achse.actions.toml")

BOARD_SECTIONS = ("board", "cities", "junctions", "roads")
MIN_GOODS, MAX_GOODS = 2, 6  # AA-13 (goods per contract on the 1987 cards)
MONEY_UNIT = 100  # every printed DM amount is a multiple of 100
# Limits far above any printed card or board, far below nonsense (docs/auf-achse.md, docs/data.md).
MAX_PAYOUT = 100_000  # DM; the reference cards pay at most 8 000
MAX_ACTION_AMOUNT = 20_000  # DM
MAX_MISS_TURNS = 10
MAX_SPACES = 99  # plain spaces on one road; the reference roads have at most a dozen


def _read(path: Path | str, sections: tuple[str, ...]) -> SourceFile:
    source = SourceFile.read(path)
    problems = list(source.problems)
    foreign = other_game(source)
    if foreign is not None:
        problems.append(foreign)
    for key in (source.data or {}) if not problems else ():
        if key not in sections:
            line = source.locate(key)
            problems.append(
                Problem(source.label, line, key, f"unknown section {shown(key)} (expected: {', '.join(sections)})")
            )
    _raise_if(problems)
    return source


def _unknown_sections(source: SourceFile) -> list[Problem]:
    """A top-level key no Auf Achse file has; a file's kind is found from its sections."""
    data = source.data or {}
    sections = BOARD_SECTIONS if "board" in data else ("contracts",) if "contracts" in data else ("actions",)
    expected = ", ".join(sections)
    return [
        Problem(source.label, source.locate(key), key, f"unknown section {shown(key)} (expected: {expected})")
        for key in data
        if key not in sections
    ]


def _raise_if(problems: list[Problem]) -> None:
    if problems:
        raise DataFileError(sorted(problems, key=lambda p: p.line))


def _bool(reader: TableReader, key: str, default: bool) -> bool:
    value = reader.values.get(key, default)
    if not isinstance(value, bool):
        reader.problem(key, f"must be true or false, not {shown(value)}")
        return default
    return value


def _int_list(reader: TableReader, key: str) -> list[int] | None:
    value = reader.values.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        reader.problem(key, f"must be a list of whole numbers, not {shown(value)}")
        return None
    return list(value)


# -- the board ---------------------------------------------------------------------------------


def parse_aa_board(source: SourceFile) -> tuple[AABoard | None, list[Problem]]:
    problems: list[Problem] = []
    data: dict[str, Any] = source.data or {}
    header = table_reader(source, problems, data, "board")
    name = header.string("name") if "board" in data else None
    if "board" in data:
        game = header.string("game")
        if game is not None and game != "auf-achse":
            header.problem("game", f"this is a board of {game!r}, not auf-achse")
        header.unknown_keys(("name", "game"))
    nodes: list[Space] = []
    seen: set[str] = set()
    for reader in array_readers(source, problems, data, "cities"):
        city = reader.city("name")
        x, y = reader.fraction("x"), reader.fraction("y")
        reader.unknown_keys(("name", "x", "y"))
        if city is None:
            continue
        if city in seen:
            reader.problem("name", f"duplicate city {city!r}")
            continue
        seen.add(city)
        nodes.append(Space(city, True, x=x or 0.0, y=y or 0.0))
    for reader in array_readers(source, problems, data, "junctions") if "junctions" in data else []:
        jid = reader.string("id")
        x, y = reader.fraction("x"), reader.fraction("y")
        triangle = _bool(reader, "triangle", False)
        reader.unknown_keys(("id", "x", "y", "triangle"))
        if jid is None:
            continue
        if jid in seen:
            reader.problem("id", f"duplicate city or junction {jid!r}")
            continue
        seen.add(jid)
        nodes.append(Space(jid, False, triangle, True, x or 0.0, y or 0.0))
    roads: list[RoadSpec] = []
    pairs: set[frozenset[str]] = set()
    for reader in array_readers(source, problems, data, "roads"):
        road = _road(reader, seen, pairs)
        if road is not None:
            roads.append(road)
    if problems:
        return None, problems
    try:
        board = build_board(name or "?", tuple(nodes), tuple(roads))
    except DataError as exc:
        problems.append(Problem(source.label, source.locate("roads"), "roads", str(exc)))
        return None, problems
    if not board.is_connected():
        reached = board.distances_from(board.spaces[0].id)
        cut = [s for s in board.cities if s not in reached]
        problems.append(
            Problem(source.label, source.locate("roads"), "roads", f"the map is not connected: {', '.join(cut[:8])}")
        )
    return board, problems


def _road(reader: TableReader, known: set[str], pairs: set[frozenset[str]]) -> RoadSpec | None:
    before = len(reader.problems)
    ends = reader.city_list("between", length=2)
    spaces = reader.integer("spaces", minimum=0, maximum=MAX_SPACES)
    triangles = _int_list(reader, "triangles")
    signs = _bool(reader, "signs", True)
    reader.unknown_keys(("between", "spaces", "triangles", "signs"))
    if ends is not None:
        for end in ends:
            if end not in known:
                reader.problem("between", f"unknown city or junction {end!r}", needle=end)
        if ends[0] == ends[1]:
            reader.problem("between", f"a road joins two different places, not {ends[0]!r} to itself")
        elif frozenset(ends) in pairs:
            reader.problem("between", f"duplicate road {ends[0]}–{ends[1]}")
        pairs.add(frozenset(ends))
    if spaces is not None and triangles is not None:
        for t in triangles:
            if not 1 <= t <= spaces:
                reader.problem("triangles", f"triangle {t} is not one of the road's spaces 1..{spaces}")
        if len(set(triangles)) != len(triangles):
            reader.problem("triangles", "a space is listed twice")
    if len(reader.problems) > before or ends is None or spaces is None or triangles is None:
        return None
    return RoadSpec(ends[0], ends[1], spaces, tuple(triangles), signs)


# -- contracts and action cards ------------------------------------------------------------------


def parse_aa_contracts(source: SourceFile, board: AABoard | None) -> tuple[list[ContractCard], list[Problem]]:
    problems: list[Problem] = []
    cards: list[ContractCard] = []
    ids: set[str] = set()
    for reader in array_readers(source, problems, source.data or {}, "contracts"):
        before = len(problems)
        card_id = reader.string("id")
        start, end = reader.city("from"), reader.city("to")
        goods = reader.integer("goods", minimum=MIN_GOODS)
        payout = reader.integer("payout", minimum=0, multiple=MONEY_UNIT, maximum=MAX_PAYOUT)
        costs = _int_list(reader, "costs") if "costs" in reader.values else None
        if "costs" not in reader.values:
            reader.problem("costs", "missing 'costs' (the Kosten column: 5 amounts, AA-19)")
        reader.unknown_keys(("id", "from", "to", "goods", "payout", "costs"))
        if goods is not None and goods > MAX_GOODS:
            reader.problem("goods", f"a contract carries {MIN_GOODS} to {MAX_GOODS} goods (AA-13), not {goods}")
        if start is not None and start == end:
            reader.problem("to", f"a contract goes to another city, not from {start!r} to itself")
        if board is not None:
            for key, city in (("from", start), ("to", end)):
                if city is not None and not board.is_city(city):
                    reader.problem(key, f"unknown city {city!r} on board {board.name!r}")
        if costs is not None:
            if len(costs) != BID_LEVELS:
                reader.problem("costs", f"the Kosten column has {BID_LEVELS} levels (AA-19), not {len(costs)}")
            elif any(c <= 0 or c % MONEY_UNIT or c > MAX_PAYOUT for c in costs) or costs != sorted(set(costs)):
                reader.problem(
                    "costs",
                    f"costs must be positive multiples of {MONEY_UNIT} up to {MAX_PAYOUT}, strictly rising: "
                    f"{shown(costs)}",
                )
        if card_id is not None and card_id in ids:
            reader.problem("id", f"duplicate card id {card_id!r}")
        if len(problems) > before:
            continue
        assert card_id and start and end and goods is not None and payout is not None and costs is not None
        ids.add(card_id)
        cards.append(ContractCard(card_id, start, end, goods, payout, tuple(costs)))
    problems.extend(_empty(source, "contracts", "no contract cards"))
    return cards, problems


def parse_aa_actions(source: SourceFile) -> tuple[list[ActionCard], list[Problem]]:
    problems: list[Problem] = []
    cards: list[ActionCard] = []
    ids: set[str] = set()
    for reader in array_readers(source, problems, source.data or {}, "actions"):
        before = len(problems)
        card_id = reader.string("id")
        text = reader.string("text", required=False) or ""
        raw = reader.string("effect")
        reader.unknown_keys(("id", "effect", "amount", "turns", "text"))
        effect: Effect | None = None
        if raw is not None:
            try:
                effect = Effect(raw)
            except ValueError:
                reader.problem("effect", f"must be one of {' | '.join(e.value for e in Effect)}, not {raw!r}")
        amount = turns = 0
        if effect in EFFECTS_WITH_AMOUNT:
            amount = reader.integer("amount", minimum=MONEY_UNIT, multiple=MONEY_UNIT, maximum=MAX_ACTION_AMOUNT) or 0
        elif effect is not None and "amount" in reader.values:
            reader.problem("amount", f"{effect.value} cards have no amount")
        if effect is Effect.MISS_TURNS:
            turns = reader.integer("turns", minimum=1, maximum=MAX_MISS_TURNS) or 0
        elif effect is not None and "turns" in reader.values:
            reader.problem("turns", f"{effect.value} cards have no turns (only miss_turns)")
        if card_id is not None and card_id in ids:
            reader.problem("id", f"duplicate card id {card_id!r}")
        if len(problems) > before or card_id is None or effect is None:
            continue
        ids.add(card_id)
        cards.append(ActionCard(card_id, effect, amount, turns, text))
    problems.extend(_empty(source, "actions", "no action cards: a warning triangle draws one (AA-12)"))
    return cards, problems


def _empty(source: SourceFile, section: str, message: str) -> list[Problem]:
    items = (source.data or {}).get(section)
    return [Problem(source.label, source.locate(section), section, message)] if items == [] else []


# -- loaders ----------------------------------------------------------------------------------------


def load_aa_board(path: Path | str = AA_BOARD) -> AABoard:
    board, problems = parse_aa_board(_read(path, BOARD_SECTIONS))
    _raise_if(problems)
    assert board is not None
    return board


def load_aa_deck(
    contracts_path: Path | str = AA_CONTRACTS, actions_path: Path | str = AA_ACTIONS, *, board: AABoard | None = None
) -> AADeck:
    contracts, problems = parse_aa_contracts(_read(contracts_path, ("contracts",)), board)
    _raise_if(problems)
    actions, problems = parse_aa_actions(_read(actions_path, ("actions",)))
    _raise_if(problems)
    return AADeck(tuple(contracts), tuple(actions))


def load_aa_reference() -> tuple[AABoard, AADeck]:
    board = load_aa_board()
    return board, load_aa_deck(board=board)


# -- checking, as ``companion board check --game auf-achse`` does -------------------------------------


def inspect_aa_files(paths: list[Path]) -> tuple[list[Problem], str]:
    """Every problem in the given Auf Achse board / contracts / actions files (kind found from the
    content), contracts checked against the board given or the reference board; and a summary line."""
    problems: list[Problem] = []
    sources = [SourceFile.read(path) for path in paths]
    board: AABoard | None = None
    parts: list[str] = []
    foreign_labels: set[str] = set()
    for source in sources:
        problems.extend(source.problems)
        foreign = other_game(source)
        if foreign is not None:
            problems.append(foreign)
            foreign_labels.add(source.label)
            continue
        problems.extend(_unknown_sections(source))
        if source.data is not None and "board" in source.data:
            found_board, found = parse_aa_board(source)
            problems.extend(found)
            board = board or found_board
            if found_board is not None:
                parts.append(f"{len(found_board.cities)} cities, {len(found_board.spaces)} spaces")
    against = board if board is not None or problems else load_aa_board()
    for source in sources:
        data = source.data or {}
        if "board" in data or source.label in foreign_labels:
            continue
        if "contracts" in data:
            contracts, found = parse_aa_contracts(source, against)
            problems.extend(found)
            parts.append(f"{len(contracts)} contracts")
            if not found:
                problems.extend(_deck_size(source, len(contracts)))
        elif "actions" in data:
            actions, found = parse_aa_actions(source)
            problems.extend(found)
            parts.append(f"{len(actions)} action cards")
        elif source.data is not None:
            problems.append(Problem(source.label, 1, "file", "not an Auf Achse board, contracts or actions file"))
    order = {source.label: n for n, source in enumerate(sources)}
    problems.sort(key=lambda p: (order.get(p.file, len(order)), p.line))
    return problems, "ok: " + (", ".join(parts) or "nothing to check")


def _deck_size(source: SourceFile, count: int) -> list[Problem]:
    """Per player count: AA-4 deals 3 private contracts a player and a public deck; fewer cards and
    a game of that many players cannot be set up."""
    problems = []
    for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        need = PRIVATE_CONTRACTS * players + PUBLIC_DECK[players]
        if count < need:
            problems.append(
                Problem(
                    source.label,
                    source.locate("contracts"),
                    "contracts",
                    f"{players} players: AA-4 deals {need} contract cards and the deck has {count}",
                )
            )
    return problems


# Marks of the other game's files (docs/data.md): refused with a pointer, not as a list of typos.
_ON_THE_WAY_CONTRACT_KEYS = frozenset({"tier", "distance", "pay", "trucks"})


def other_game(source: SourceFile) -> Problem | None:
    """An On The Way board, contracts or events file given to Auf Achse: one clear problem."""
    data = source.data or {}
    board = data.get("board")
    kind = None
    if (isinstance(board, dict) and board.get("game") == "on-the-way") or "setup" in data:
        kind, section = "board", "board"
    elif "events" in data:
        kind, section = "events", "events"
    else:
        contracts = data.get("contracts")
        first = contracts[0] if isinstance(contracts, list) and contracts else None
        if isinstance(first, dict) and _ON_THE_WAY_CONTRACT_KEYS & set(first) and "goods" not in first:
            kind, section = "contracts", "contracts"
    if kind is None:
        return None
    message = f"this is an On The Way {kind} file; use --game on-the-way"
    return Problem(source.label, source.locate(section), "file", message)
