"""Majority-vote tag presence for one reader: pure, no clock, no I/O.

Each poll gives one sample: the UID seen, ``None`` (nothing answered), or :data:`UNKNOWN` (a read
error: no information either way, so it does not vote). A UID is *placed* once it was seen in at
least ``place_votes`` (K) of the last ``window`` (N) informative samples; the placed UID is *lifted*
once ``lift_misses`` (M) informative samples in a row did not see it. A tag that comes and goes
(flaps) produces nothing: it never collects K of N, and once placed it is never missed M times in a
row. Swapping tag A for tag B gives ``lifted A`` then ``placed B``.

Defaults K=4, N=5, M=3: at the default 20 Hz sweep a placement settles after 200 ms, a lift after
150 ms (PicoChess holds a move ~350 ms; Certabo keeps 3 frames).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Final


class _Unknown:
    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN: Final = _Unknown()
Sample = str | None | _Unknown


@dataclass(frozen=True, slots=True)
class DebounceSettings:
    place_votes: int = 4  # K
    window: int = 5  # N
    lift_misses: int = 3  # M

    def __post_init__(self) -> None:
        if not 1 <= self.place_votes <= self.window:
            raise ValueError(f"place_votes (K={self.place_votes}) must be between 1 and window (N={self.window})")
        if self.lift_misses < 1:
            raise ValueError(f"lift_misses (M={self.lift_misses}) must be at least 1")


CITY_DEBOUNCE = DebounceSettings()
CARD_DEBOUNCE = DebounceSettings(place_votes=2, window=3, lift_misses=3)


@dataclass(frozen=True, slots=True)
class Change:
    placed: str | None = None  # UID that settled
    lifted: str | None = None  # UID that went away


class TagVote:
    """The settled UID on one reader, from its recent samples."""

    def __init__(self, settings: DebounceSettings = CITY_DEBOUNCE) -> None:
        self.settings = settings
        self.samples: deque[str | None] = deque(maxlen=settings.window)
        self.current: str | None = None
        self._misses = 0

    def add(self, sample: Sample) -> Change:
        if isinstance(sample, _Unknown):
            return Change()
        self.samples.append(sample)
        lifted = placed = None
        if self.current is not None:
            self._misses = 0 if sample == self.current else self._misses + 1
            if self._misses >= self.settings.lift_misses:
                lifted, self.current, self._misses = self.current, None, 0
        if self.current is None:
            votes: dict[str, int] = {}
            for seen in self.samples:
                if seen is not None and seen != lifted:
                    votes[seen] = votes.get(seen, 0) + 1
            best = max(votes.items(), key=lambda kv: kv[1], default=None)
            if best is not None and best[1] >= self.settings.place_votes:
                placed = self.current = best[0]
                self._misses = 0
        return Change(placed, lifted)

    def reset(self, current: str | None = None) -> None:
        self.samples.clear()
        self.current = current
        self._misses = 0
