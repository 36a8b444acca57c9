"""The topic tree and the messages on it (docs/leaderboard.md is the reference for people).

Every message is retained, QoS 1, JSON (UTF-8), and complete on its own (style point 19): the board
rebuilds a table's or a game's whole state from any one message, so a lost, repeated or reordered
message costs at most one update and never invents a result.

    <root>/results/<table>/<n>      one finished game: ``id`` = "<table>/<n>" (n: the journal's game id)
    <root>/tables/<table>/live      the table now: its game in play (round, players, scores) or none
    <root>/tables/<table>/online    ``{"online": true}``; the broker publishes ``false`` (the last will)
                                    when the box vanishes

An empty retained payload on a result topic withdraws that result (how an organiser clears one).
``<root>`` defaults to ``companion/v1``; a separate root per event keeps events apart on one broker.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.leaderboard.errors import BadMessage, BadTableId, BadTopicRoot
from companion.text import bad_character, shown

VERSION = 1
DEFAULT_ROOT = "companion/v1"
MAX_PAYLOAD = 64 * 1024
MAX_PLAYERS = 12
# Topic levels are matched whole (``fullmatch``: "$" would let a trailing newline through).
_TABLE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,31}")
_GAME_NUMBER = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
_ROOT_LEVEL = re.compile(r"[A-Za-z0-9_.-]{1,64}")
# Bounds of the numbers a message carries (every one: a board never draws or sorts an absurd value).
MAX_SCORE = 10**9  # VP or money: a printed game's totals are far below
MAX_ROUND = 10_000
MAX_SEQ = 2**53  # a JSON number every reader holds exactly
LATEST_TIME = 4_102_444_800.0  # 2100-01-01: a finished_at/at beyond is a wrong clock or a forgery


def check_table_id(table: str) -> str:
    if not isinstance(table, str) or not _TABLE_ID.fullmatch(table):
        raise BadTableId(
            f"table id {table!r}: use 1-32 letters, digits, '-', '_' or '.' (it is a topic level: no '/', '+', '#')"
        )
    return table


def check_topic_root(root: str) -> str:
    """The event's topic root without its trailing "/": levels of letters, digits and ``-_.``, no
    wildcard, no empty level, no ``$`` (the broker's own topics). ``BadTopicRoot`` names what is wrong."""
    text = root.rstrip("/") if isinstance(root, str) else ""
    levels = text.split("/")
    if not text or len(text) > 100 or not all(_ROOT_LEVEL.fullmatch(level) for level in levels):
        raise BadTopicRoot(f"topic root {shown(root)}: use levels of letters, digits, '-', '_' or '.' separated by "
                           "'/' (at most 100 characters; no '+', '#', '$' or empty level)")  # fmt: skip
    return text


def result_topic(root: str, table: str, number: str) -> str:
    return f"{root}/results/{table}/{number}"


def live_topic(root: str, table: str) -> str:
    return f"{root}/tables/{table}/live"


def online_topic(root: str, table: str) -> str:
    return f"{root}/tables/{table}/online"


def subscription(root: str) -> str:
    return f"{root}/#"


# -- the messages ----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class PlayerLine:
    """One seat in a ranking: place (ties share it), colour, the score that ranks, money and how the
    game writes that money ("1 240 R")."""

    place: int
    colour: str
    score: int
    money: int
    money_text: str

    def to_json(self) -> dict[str, object]:
        return {"place": self.place, "colour": self.colour, "score": self.score, "money": self.money,
                "money_text": self.money_text}  # fmt: skip


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What the board must know about a game to show it, carried in every message (the board needs
    no game plug-ins): registry name, title, what the score is, the currency."""

    name: str
    title: str
    score_label: str
    currency: str

    def to_json(self) -> dict[str, object]:
        return {"game": self.name, "title": self.title, "score_label": self.score_label, "currency": self.currency}


@dataclass(frozen=True, slots=True)
class Result:
    """A finished game: ``id`` is "<table>/<n>", the key the board dedupes by."""

    id: str
    table: str
    game: GameInfo
    finished_at: float
    standings: tuple[PlayerLine, ...]

    def to_json(self) -> dict[str, object]:
        return {"v": VERSION, "kind": "result", "id": self.id, "table": self.table, **self.game.to_json(),
                "finished_at": self.finished_at, "standings": [p.to_json() for p in self.standings]}  # fmt: skip


@dataclass(frozen=True, slots=True)
class ResultWithdrawn:
    """An empty retained payload on a result topic: that result is cleared."""

    id: str
    table: str


@dataclass(frozen=True, slots=True)
class LiveGame:
    id: str
    game: GameInfo
    round: int | None
    turn: str | None  # the colour whose turn it is
    players: tuple[PlayerLine, ...]
    finished: bool

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, **self.game.to_json(), "round": self.round, "turn": self.turn,
                "players": [p.to_json() for p in self.players], "finished": self.finished}  # fmt: skip


@dataclass(frozen=True, slots=True)
class TableLive:
    """A table's whole live state. ``session`` + ``seq`` order the messages of one box: the board
    ignores one older than what it has (a new session — a new outbox file — always counts)."""

    table: str
    session: str
    seq: int
    at: float
    game: LiveGame | None

    def to_json(self) -> dict[str, object]:
        return {"v": VERSION, "kind": "live", "table": self.table, "session": self.session, "seq": self.seq,
                "at": self.at, "game": None if self.game is None else self.game.to_json()}  # fmt: skip


@dataclass(frozen=True, slots=True)
class TableOnline:
    table: str
    online: bool

    def to_json(self) -> dict[str, object]:
        return {"v": VERSION, "kind": "online", "table": self.table, "online": self.online}


Message = Result | ResultWithdrawn | TableLive | TableOnline


def encode(message: Result | TableLive | TableOnline) -> bytes:
    return json.dumps(message.to_json(), ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode()


# -- decoding: everything from the wire is checked; anything wrong is a BadMessage ------------------
def decode(root: str, topic: str, payload: bytes) -> Message:
    """The message on ``topic`` (under ``root``), or ``BadMessage`` saying what is wrong with it."""
    if not topic.startswith(root + "/"):
        raise BadMessage("topic", f"{topic} is not under {root}")
    levels = topic[len(root) + 1 :].split("/")
    match levels:
        case ["results", table, number] if _TABLE_ID.fullmatch(table) and _GAME_NUMBER.fullmatch(number):
            if not payload:
                return ResultWithdrawn(f"{table}/{number}", table)
            data = _object(topic, payload, "result")
            result = _result(data, topic)
            if result.table != table or result.id != f"{table}/{number}":
                raise BadMessage("topic", f"{topic}: carries result {result.id!r} of table {result.table!r}")
            return result
        case ["tables", table, "live"] if _TABLE_ID.fullmatch(table):
            if not payload:
                raise BadMessage("empty", f"{topic}: empty payload")
            data = _object(topic, payload, "live")
            live = _live(data, topic)
            if live.table != table:
                raise BadMessage("topic", f"{topic}: carries table {live.table!r}")
            return live
        case ["tables", table, "online"] if _TABLE_ID.fullmatch(table):
            if not payload:
                raise BadMessage("empty", f"{topic}: empty payload")
            data = _object(topic, payload, "online")
            if _str(data, "table", topic) != table:
                raise BadMessage("topic", f"{topic}: carries table {data.get('table')!r}")
            return TableOnline(table, _bool(data, "online", topic))
    raise BadMessage("topic", f"{topic}: not a leaderboard topic")


def _object(topic: str, payload: bytes, kind: str) -> dict[str, Any]:
    if len(payload) > MAX_PAYLOAD:
        raise BadMessage("size", f"{topic}: {len(payload)} bytes (at most {MAX_PAYLOAD})")
    try:
        data = json.loads(payload.decode("utf-8"), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise BadMessage("json", f"{topic}: not JSON ({exc})") from None
    if not isinstance(data, dict):
        raise BadMessage("json", f"{topic}: a JSON {type(data).__name__}, not an object")
    if data.get("v") != VERSION:
        raise BadMessage("version", f"{topic}: version {data.get('v')!r}, this board reads {VERSION}")
    if data.get("kind") != kind:
        raise BadMessage("field", f"{topic}: kind {data.get('kind')!r}, expected {kind!r}")
    return data


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def _result(data: Mapping[str, Any], topic: str) -> Result:
    standings = _players(data, "standings", topic)
    if not standings:
        raise BadMessage("field", f"{topic}: standings: empty")
    return Result(
        id=_str(data, "id", topic, 100),
        table=_str(data, "table", topic),
        game=_game(data, topic),
        finished_at=_time(data, "finished_at", topic),
        standings=standings,
    )


def _live(data: Mapping[str, Any], topic: str) -> TableLive:
    game = data.get("game")
    if game is not None and not isinstance(game, dict):
        raise BadMessage("field", f"{topic}: game: not an object or null")
    return TableLive(
        table=_str(data, "table", topic),
        session=_str(data, "session", topic),
        seq=_int(data, "seq", topic, 0, MAX_SEQ),
        at=_time(data, "at", topic),
        game=None if game is None else _live_game(game, topic),
    )


def _live_game(data: Mapping[str, Any], topic: str) -> LiveGame:
    round_ = data.get("round")
    turn = data.get("turn")
    if round_ is not None:
        round_ = _int(data, "round", topic, 0, MAX_ROUND)
    if turn is not None:
        turn = _str(data, "turn", topic)
    return LiveGame(
        id=_str(data, "id", topic, 100),
        game=_game(data, topic),
        round=round_,
        turn=turn,
        players=_players(data, "players", topic),
        finished=_bool(data, "finished", topic),
    )


def _game(data: Mapping[str, Any], topic: str) -> GameInfo:
    return GameInfo(
        name=_str(data, "game", topic),
        title=_str(data, "title", topic, 60),
        score_label=_str(data, "score_label", topic, 12, empty=True),
        currency=_str(data, "currency", topic, 12, empty=True),
    )


def _players(data: Mapping[str, Any], key: str, topic: str) -> tuple[PlayerLine, ...]:
    rows = data.get(key)
    if not isinstance(rows, list) or len(rows) > MAX_PLAYERS:
        raise BadMessage("field", f"{topic}: {key}: not a list of at most {MAX_PLAYERS} players")
    out = []
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            raise BadMessage("field", f"{topic}: {key}[{i}]: not an object")
        where = f"{topic}: {key}[{i}]"
        place = _int(row, "place", where, 1, MAX_PLAYERS)
        money = _int(row, "money", where, -MAX_SCORE, MAX_SCORE)
        out.append(PlayerLine(place, _str(row, "colour", where), _int(row, "score", where, -MAX_SCORE, MAX_SCORE),
                              money, _str(row, "money_text", where, 32)))  # fmt: skip
    colours = [p.colour for p in out]
    if len(set(colours)) != len(colours):
        raise BadMessage("field", f"{topic}: {key}: a colour twice")
    places = sorted(p.place for p in out)
    if any(place > n + 1 or (n and place != places[n - 1] and place != n + 1) for n, place in enumerate(places)):
        raise BadMessage("field", f"{topic}: {key}: places {places} are not a ranking (1, 1, 3, ...)")
    return tuple(out)


def _str(data: Mapping[str, Any], key: str, where: str, limit: int = 32, *, empty: bool = False) -> str:
    value = data.get(key)
    if not isinstance(value, str) or len(value) > limit or (not value and not empty):
        raise BadMessage("field", f"{where}: {key}: {shown(value)} is not a text of 1-{limit} characters")
    bad = bad_character(value)
    if bad is not None or (value and not value.strip()):  # NUL, zero-width, bidi: never drawn
        raise BadMessage("text", f"{where}: {key}: holds {bad or 'only spaces'}, which cannot be shown")
    return value


def _int(data: Mapping[str, Any], key: str, where: str, low: int = -(10**12), high: int = 10**12) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise BadMessage("field", f"{where}: {key}: {shown(value)} is not a whole number from {low} to {high}")
    return value


def _time(data: Mapping[str, Any], key: str, where: str) -> float:
    value = _number(data, key, where)
    if not 0.0 <= value <= LATEST_TIME:
        raise BadMessage("field", f"{where}: {key}: {value!r} is not a time from 1970 to 2100")
    return value


def _number(data: Mapping[str, Any], key: str, where: str) -> float:
    value = data.get(key)
    if not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value):
        raise BadMessage("field", f"{where}: {key}: {shown(value)} is not a number")
    return float(value)


def _bool(data: Mapping[str, Any], key: str, where: str) -> bool:
    value = data.get(key)
    if not isinstance(value, bool):
        raise BadMessage("field", f"{where}: {key}: {shown(value)} is not true or false")
    return value


def player_lines(standings: Sequence[object], money_text: Any) -> tuple[PlayerLine, ...]:
    """The journal's ``result`` rows (dicts) or ``Standing`` objects (with ``to_json``) as lines;
    ``money_text(amount)`` writes an amount as the game does."""
    out = []
    for row in standings[:MAX_PLAYERS]:
        data = row.to_json() if hasattr(row, "to_json") else row
        if not isinstance(data, Mapping):
            raise TypeError(f"a standing must be a mapping or have to_json(), not {type(row).__name__}")
        money = int(data.get("money", 0))
        out.append(PlayerLine(int(data["place"]), str(data["colour"]), int(data["score"]), money,
                              str(money_text(money))[:32]))  # fmt: skip
    return tuple(out)
