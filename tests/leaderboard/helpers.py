"""Messages for the leaderboard tests, written compactly."""

from __future__ import annotations

import json
from dataclasses import dataclass

from companion.leaderboard.topics import (
    GameInfo,
    LiveGame,
    PlayerLine,
    Result,
    TableLive,
    encode,
    live_topic,
    result_topic,
)

ROOT = "companion/v1"
OTW = GameInfo("on-the-way", "On The Way", "VP", "R")
AA = GameInfo("auf-achse", "Auf Achse", "DM", "DM")


@dataclass(frozen=True)
class FakeGame:
    """What the publisher reads of a plug-in (a real plug-in is used where the registry is at hand)."""

    name: str = "race"
    title: str = "Race to ten"
    score_label: str = "pts"
    currency: str = "pts"

    def money(self, amount: int, *, signed: bool = False) -> str:
        return f"{amount} {self.currency}"


def lines(spec: str) -> tuple[PlayerLine, ...]:
    """ "red 12 340, blue 9 120" -> places by score (ties share), money written as "<n> R"."""
    rows = [part.split() for part in spec.split(",")]
    scores = sorted((int(s) for _, s, _ in rows), reverse=True)
    return tuple(PlayerLine(scores.index(int(s)) + 1, colour, int(s), int(m), f"{m} R") for colour, s, m in rows)


def result(table: str, n: int, spec: str, game: GameInfo = OTW, at: float = 1000.0) -> tuple[str, bytes]:
    r = Result(f"{table}/{n}", table, game, at + n, lines(spec))
    return result_topic(ROOT, table, str(n)), encode(r)


def live(
    table: str, seq: int, spec: str | None, game: GameInfo = OTW, round_: int = 3, session: str = "s1"
) -> tuple[str, bytes]:
    g = None if spec is None else LiveGame(f"{table}/9", game, round_, "red", lines(spec), finished=False)
    return live_topic(ROOT, table), encode(TableLive(table, session, seq, 2000.0 + seq, g))


def edit(payload: bytes, **changes: object) -> bytes:
    data = json.loads(payload)
    data.update(changes)
    return json.dumps(data).encode()
