"""The board's model: the event's results and live tables, rebuilt from messages (pure, no I/O).

``apply(topic, payload, now)`` takes one raw message: a good one updates the model, a bad one (garbage
JSON, wrong fields, a topic it does not know) is dropped and counted in ``rejected`` by reason —
never an exception. Results are keyed by their id ("<table>/<n>"): the same result delivered again
(redelivery after an outage, a retained copy at subscribe) changes nothing and is counted in
``duplicates``.
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass, field, replace

from companion.leaderboard.errors import BadMessage
from companion.leaderboard.topics import (
    DEFAULT_ROOT,
    GameInfo,
    PlayerLine,
    Result,
    ResultWithdrawn,
    TableLive,
    TableOnline,
    decode,
)

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class RankEntry:
    """One player's finished game in a game's event ranking."""

    table: str
    result_id: str
    colour: str
    place: int  # the place at their own table
    score: int
    money_text: str
    finished_at: float
    rank: int = 0  # the place on the event's board (ties share it; see ``BoardModel.rankings``)


@dataclass(frozen=True, slots=True)
class GameRanking:
    game: GameInfo
    games_played: int
    entries: tuple[RankEntry, ...]  # best score first


@dataclass(frozen=True, slots=True)
class LiveTable:
    table: str
    online: bool
    state: TableLive | None
    received_at: float


@dataclass
class BoardModel:
    root: str = DEFAULT_ROOT
    results: dict[str, Result] = field(default_factory=dict)
    tables: dict[str, TableLive] = field(default_factory=dict)
    online: dict[str, bool] = field(default_factory=dict)
    received_at: dict[str, float] = field(default_factory=dict)  # table -> when its live state came
    arrived_at: dict[str, float] = field(default_factory=dict)  # result id -> when it first came
    rejected: Counter[str] = field(default_factory=Counter)
    duplicates: int = 0
    stale: int = 0  # live states older than the one held
    messages: int = 0
    version: int = 0  # bumped on every change: the screen redraws when it moves

    def apply(self, topic: str, payload: bytes, now: float) -> bool:
        """One message from the broker; True if the model changed."""
        self.messages += 1
        try:
            message = decode(self.root, topic, payload)
        except BadMessage as exc:
            self.rejected[exc.reason] += 1
            count = self.rejected[exc.reason]
            if count <= 5 or count % 1000 == 0:  # a flood of garbage must not flood the log
                log.warning("leaderboard: dropped a message (%s #%d): %s", exc.reason, count, exc.detail[:200])
            return False
        changed = self._apply(message, now)
        if changed:
            self.version += 1
        return changed

    def _apply(self, message: Result | ResultWithdrawn | TableLive | TableOnline, now: float) -> bool:
        match message:
            case Result(id=result_id):
                if self.results.get(result_id) == message:
                    self.duplicates += 1
                    return False
                self.results[result_id] = message
                self.arrived_at.setdefault(result_id, now)
                return True
            case ResultWithdrawn(id=result_id):
                self.arrived_at.pop(result_id, None)
                return self.results.pop(result_id, None) is not None
            case TableLive(table=table):
                held = self.tables.get(table)
                if held == message:
                    self.duplicates += 1
                    return False
                if held is not None and held.session == message.session and held.seq > message.seq:
                    self.stale += 1
                    return False
                self.tables[table] = message
                self.received_at[table] = now
                self.online.setdefault(table, True)
                return True
            case TableOnline(table=table, online=online):
                if self.online.get(table) == online:
                    return False
                self.online[table] = online
                return True
        return False  # pragma: no cover - decode returns only the types above

    # -- what the screen shows ---------------------------------------------------------------------
    def rankings(self, limit: int = 10) -> list[GameRanking]:
        """Per game (in the order their first result came): the best ``limit`` scores of the event."""
        by_game: dict[str, list[Result]] = {}
        for result in sorted(self.results.values(), key=lambda r: (r.finished_at, r.id)):
            by_game.setdefault(result.game.name, []).append(result)
        out = []
        for results in by_game.values():
            entries = [
                RankEntry(r.table, r.id, p.colour, p.place, p.score, p.money_text, r.finished_at)
                for r in results
                for p in r.standings
            ]
            entries.sort(key=lambda e: (-e.score, e.place, e.finished_at, e.result_id, e.colour))
            out.append(GameRanking(results[-1].game, len(results), tuple(ranked(entries)[:limit])))
        return out

    def live_tables(self) -> list[LiveTable]:
        names = sorted(set(self.tables) | set(self.online))
        return [
            LiveTable(name, self.online.get(name, False), self.tables.get(name), self.received_at.get(name, 0.0))
            for name in names
        ]

    @property
    def dropped(self) -> int:
        return sum(self.rejected.values())


def ranked(entries: list[RankEntry]) -> list[RankEntry]:
    """Board places that agree with every table's own ranking. Sorted best score first (then the place
    at the table), an entry shares the place of the entries before it when its score is equal and
    none of them is from its own game with a better place there: two players a table ranked apart
    (a tie broken by money, OTW-33; by deliveries, AA-24) stay apart, a tie the table kept is kept,
    and equal scores of different tables share the place (the board knows no tie-break across
    tables). Places count like a table's: 1, 1, 3."""
    out: list[RankEntry] = []
    group: list[RankEntry] = []
    for i, entry in enumerate(entries):
        same = (
            bool(group)
            and entry.score == group[0].score
            and not any(other.result_id == entry.result_id and other.place < entry.place for other in group)
        )
        if not same:
            group = []
        rank = group[0].rank if group else i + 1
        entry = replace(entry, rank=rank)
        group.append(entry)
        out.append(entry)
    return out


__all__ = ["BoardModel", "GameRanking", "LiveTable", "PlayerLine", "RankEntry"]
