"""The advice's chance against the opponents at the table: the playouts' win rate, recalibrated.

An advisor's ``win_rate`` is what its playouts found, every seat playing the same policy: the chance
against opponents who play as well as the player will by following the advice. Real opponents do
not. Against weaker ones a follower of the advice wins far more often than it says, and how much
depends on who the opponent is (docs/bots.md, "Calibration"). So the chance a person is told is the
win rate through a logistic map fitted on whole benchmark games against each kind of opponent:

    logit(chance) = a + b * logit(win rate)

Where one line cannot fit a whole game, a map has one line per phase of it (``ByPhase``, keyed by
the share of the game elapsed as the table knows it: On The Way's time track). Two-player On The Way
needs it: one line per opponent over-predicted the middle by up to 31.5 points on fresh games, and
lines fitted to the early and the late half of games tell a win rate of 50 % against medium as 80 % and
62 % (docs/bots.md, "Sixteenth session" and "Seventeenth session").

Each game's advisor has its maps (``Maps``: per player count and opponent kind), which
``benchmarks/calibrate.py`` fits from the ``--pairs`` files of ``benchmarks/advice.py`` (each advice's
win rate and its game's result) and checks on games it was not fitted on. Where no map was fitted (a
player count or an opponent kind without benchmark games) there is no chance to tell: the advisor
says what its win rate is instead.

A bot seat counts as its level. A person (``PERSON``) has a map of his own in each game's maps: the
box cannot know how well a person plays, and a chance that overstates is the worse error for advice a
person follows (told 90 %, he loses half his games and stops trusting it), so each game sets it to
the map of its level that is about as strong as the advice itself: On The Way's hard (since its
playouts keep the face-up offer the follower beats medium 83 % and holds hard at 50 %: docs/bots.md,
"Fifteenth session"; since both screen every city, 47.9 % of 120 games: "Twenty-second session"),
Auf Achse's medium. Against people as strong as the advice the chances told
to a table of people then sum to about one, as a chance should.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

PERSON = "person"  # an opponent the box does not play


@dataclass(frozen=True, slots=True)
class Logistic:
    """logit(chance) = a + b * logit(win rate)."""

    a: float
    b: float

    def logit(self, rate: float, elapsed: float | None = None) -> float:
        """The chance's logit for a smoothed win rate ``rate``; one line for the whole game, so
        ``elapsed`` does not matter."""
        return self.a + self.b * logit(rate)


@dataclass(frozen=True, slots=True)
class ByPhase:
    """One line per phase of the game: ``lines[i]`` where the share of the game elapsed is at least
    ``cuts[i - 1]`` and below ``cuts[i]`` (a game past its end, or a share above 1, is in the last)."""

    cuts: tuple[float, ...]
    lines: tuple[Logistic, ...]

    def __post_init__(self) -> None:
        if len(self.lines) != len(self.cuts) + 1 or list(self.cuts) != sorted(set(self.cuts)):
            raise ValueError(f"a map by phase needs rising cuts and one line more than cuts: {self}")

    def line(self, elapsed: float) -> Logistic:
        return self.lines[phase_index(self.cuts, elapsed)]

    def logit(self, rate: float, elapsed: float | None = None) -> float:
        if elapsed is None:  # a caller that does not know the game's phase must not get the first one's line
            raise ValueError("a map by phase of the game needs the share of the game gone")
        return self.line(elapsed).logit(rate)


def phase_index(cuts: Sequence[float], elapsed: float) -> int:
    """Which phase a share ``elapsed`` of the game is in, for phases split at ``cuts``: a share on a cut
    starts the later phase (7 of 14 on the time track, with a cut at 0.5, is the second half)."""
    return bisect_right(cuts, elapsed)


Map = Logistic | ByPhase
Maps = Mapping[tuple[int, str], Map]  # (players, opponent kind) -> map


IDENTITY = Logistic(0.0, 1.0)  # the win rate is the chance: an opponent as strong as the advice


def with_stand_ins(fitted: Maps, stand_ins: Mapping[str, str], identity: Iterable[str] = ()) -> Maps:
    """A game's maps: ``fitted``, plus the ``identity`` kinds at 2-4 players where they have no fit (the
    win rate's own model, assumed), plus each kind of ``stand_ins`` (kind -> the kind it plays as, e.g.
    ``PERSON`` -> ``"hard"``) at every player count its stand-in has a map for (fitted or identity)."""
    maps = dict(fitted)
    for kind in identity:
        for n in (2, 3, 4):
            maps.setdefault((n, kind), IDENTITY)  # a fit, once there is one, wins
    known = dict(maps)
    for kind, like in stand_ins.items():
        maps |= {(n, kind): m for (n, known_kind), m in known.items() if known_kind == like}
    return maps


def logit(p: float) -> float:
    return math.log(p / (1.0 - p))


def sigmoid(z: float) -> float:
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def smoothed(win_rate: float, playouts: int) -> float:
    """The win rate moved half a playout towards 1/2, so that 0 and 1 (every playout lost or won) have
    a logit: a few hundred playouts do not make a certainty."""
    n = max(0, playouts)
    return (min(1.0, max(0.0, win_rate)) * n + 0.5) / (n + 1)


def rivals(colours: Iterable[str], player: str, opponents: Mapping[str, str] | None) -> list[str]:
    """The kinds of ``player``'s opponents among the seats ``colours``: a bot seat's level from
    ``opponents`` (colour -> level), every other seat ``PERSON``."""
    levels = opponents or {}
    return [levels.get(colour, PERSON) for colour in colours if colour != player]


def chance(
    win_rate: float, playouts: int, rivals: Sequence[str], maps: Maps, elapsed: float | None = None
) -> float | None:
    """The chance to win a game against ``rivals`` (each a bot level, ``"casual"`` or ``PERSON``; see
    ``rivals``) for a win rate from ``playouts`` playouts, with the share ``elapsed`` of the game
    gone (0 at its start, 1 at its end; needed by maps ``ByPhase``, a ``ValueError`` without it): the
    mean of their maps on the logit scale. None when any of them has no map (nothing was measured to
    tell it by)."""
    players = len(rivals) + 1
    found = [maps.get((players, kind)) for kind in rivals]
    if not found or any(m is None for m in found):
        return None
    x = smoothed(win_rate, playouts)
    return sigmoid(sum(m.logit(x, elapsed) for m in found if m is not None) / len(found))
