"""Does the table match the engine? The engine is the truth; the sensed table is only a mirror.

Pure: given where the engine puts each tagged piece (On The Way markers, Auf Achse trucks standing
in a city), what the readers sense, and what the controller currently allows (a marker in the hand,
a transport being formed, placements still settling), list what must be put right, most important
first.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion.table.tags import MarkerTag, TagDirectory


@dataclass(frozen=True, slots=True)
class PutBack:
    marker: MarkerTag
    city: str


@dataclass(frozen=True, slots=True)
class TakeOff:
    marker: MarkerTag | None  # None: an unknown tag or a card lying on a city reader
    city: str
    uid: str


Problem = PutBack | TakeOff


def mismatches(
    expected: Mapping[MarkerTag, str],  # where the engine has each tagged piece that stands in a city
    tags: TagDirectory,
    sensed: Mapping[str, str],  # uid -> city where the readers see it
    *,
    in_hand: MarkerTag | None = None,
    forming: tuple[MarkerTag, str] | None = None,
    settling: frozenset[str] = frozenset(),  # uids placed but not settled yet: not judged
) -> list[Problem]:
    problems: list[Problem] = []
    where: dict[MarkerTag, str] = {}
    for uid, city in sensed.items():
        marker = tags.marker(uid)
        if marker is not None:
            where[marker] = city
    for marker, city in expected.items():
        if marker == in_hand:
            continue
        if where.get(marker) != city:
            problems.append(PutBack(marker, city))
    for uid, city in sorted(sensed.items(), key=lambda item: item[1]):
        if uid in settling:
            continue
        marker = tags.marker(uid)
        if marker is None:
            problems.append(TakeOff(None, city, uid))
        elif expected.get(marker) == city or (forming is not None and forming == (marker, city)):
            continue
        elif marker not in expected:
            problems.append(TakeOff(marker, city, uid))
        # A marker of a transport sensed elsewhere is already reported as PutBack.
    return problems
