"""Fit the advice's chance to whole games, and check the fit on other games (issue 22, "Calibrated").

    python benchmarks/calibrate.py [--game on-the-way|auf-achse] FIT.jsonl [...] [--check HELD_OUT.jsonl ...]
                                   [--shared-slope] [--phases K] [--folds K [--shuffles N]] [--quick]

Reads the ``--pairs`` files of ``benchmarks/advice.py`` (one ``"kind": "advice"`` line per follower
advice: its playouts' win rate, their number and the game's result). For each player count and
opponent kind it fits the map of ``companion/games/calibration.py``,

    logit(chance) = a + b * logit(win rate)        (a logistic regression, Newton's method)

on the advices of the FIT files, each game weighing as one (with ``--phases K``, one such line per
phase of the game: K equal shares of On The Way's time track, a ``ByPhase`` map), and prints it as the ``FITTED``
entries to paste in the game's ``companion/games/<game>/bots/chances.py``. On the advices of the
``--check`` files (games the fit never saw: other seeds) it prints the Brier score and the
reliability per decile of the win rate and of the fitted chance, pooled and per opponent, with the
games behind each decile and the 95 % interval of its share won with those games drawn again (a
decile's advices share few outcomes: ``games_resampled``). A tie counts as half a win. ``--folds K``
also cross-checks on the FIT files themselves: fitted on the games of all folds but one, checked on
that one, for each of K folds of games dealt at random (``--shuffles`` deals). ``--quick`` (a smoke
run) plays one short game per follower pairing at a fiftieth of the budgets, fits on it and checks on it.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent))

from advice import ALL_PAIRINGS, PAIRINGS, Result, _append_pairs, brier, calibration_line, deciles, play, play_aa

from companion.games.calibration import ByPhase, Logistic, Map, Maps, chance, logit, phase_index, sigmoid, smoothed
from companion.games.on_the_way.engine.state import TIME_END


class AdviceRow(NamedTuple):
    """One follower advice of a --pairs file."""

    players: int
    kind: str  # the opponents' kind
    rate: float  # the playouts' win rate
    playouts: int
    score: float  # its game's result for the follower: 1 won, 1/k shared by k, 0 lost
    game: str = ""  # which game (its advices share one outcome); "": a game of its own
    elapsed: float | None = None  # the share of the game gone (time track / its end); None: not recorded


# A weak prior towards the identity (a = 0, b = 1): a cell its player nearly always wins stays finite.
# Each game weighing as one, it weighs as a handful of games; what a fit needs is games (about a
# hundred per cell, docs/bots.md), which the prior does not replace.
PRIOR_SD = 2.0
LEAST = 50  # a decile counts for the goal (within 10 points) when it has this many advices


def read(paths: Iterable[Path], unfinished: bool = False, game: str = "on-the-way") -> list[AdviceRow]:
    """The follower's advices of finished games in ``paths`` (with ``unfinished``, also of games a quick
    run stopped); a malformed line names its file and line. Auf Achse's casual pairing is left out: there
    casual plays as easy on the same seeds (advice.py), so its games repeat easy's."""
    out: list[AdviceRow] = []
    for path in paths:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise SystemExit(f"{path}: cannot read it ({exc})") from None
        for number, line in enumerate(text.splitlines(), 1):
            try:
                row = json.loads(line)
                if row.get("kind") != "advice" or not (row["finished"] or unfinished):
                    continue
                first, second = ALL_PAIRINGS[row["pairing"]]  # default or extra (--pairings follower:hard)
                if first != "follower" or (game == "auf-achse" and second == "casual"):
                    continue
                # One game of one run: runs with other --players or --scale may share a file.
                where = f"{path}:{row['seed']}:{row['scale']}:{row['players']}:{row['pairing']}:{row['game']}"
                players, rate, playouts, score = (
                    int(row["players"]),
                    float(row["chance"]),
                    int(row["playouts"]),
                    float(row["score"]),
                )
                if not (2 <= players <= 4 and 0 <= rate <= 1 and playouts >= 0 and 0 <= score <= 1):
                    raise ValueError("players 2-4, a chance and a score in 0..1 and playouts >= 0")
                # Where the time track ends the game (OTW-31); files before "time_end" hold whole games only.
                track, end = row.get("time"), row.get("time_end")
                end = TIME_END[players] if end is None else end
                elapsed = None if track is None else min(1.0, int(track) / int(end))
                if elapsed is not None and not (int(track) >= 0 and int(end) >= 1):
                    raise ValueError("a time track of 0 or more, ending at 1 or more")
                advice = AdviceRow(players, second, rate, playouts, score, where, elapsed)
                out.append(advice)
            except (ValueError, KeyError, IndexError, TypeError, AttributeError, ArithmeticError) as exc:
                raise SystemExit(f"{path}:{number}: not an advice line of advice.py --pairs ({exc})") from None
    return out


def fit(advices: list[AdviceRow]) -> Logistic:
    """The a, b of logit(P(win)) = a + b * logit(win rate) for advices against one kind of opponent."""
    (found,) = fit_kinds(advices).values()
    return found


def fit_kinds(advices: list[AdviceRow]) -> dict[str, Logistic]:
    """One map per opponent kind in ``advices``, each its own a, all one slope b: logit(P(win)) =
    a_kind + b * logit(win rate), by Newton's method. Each game weighs as one (its advices share one
    outcome: counted one by one, a game of 200 advices would weigh as 200 games and a fit on twenty
    games would be as sure as one on thousands). Maximum likelihood with a weak normal prior
    (``PRIOR_SD``) around the identity map. A slope that comes out negative (a chance that falls as
    the win rate rises: noise) is set to 0, each a to its share won."""
    kinds = sorted({a.kind for a in advices})
    per_game = Counter(a.game for a in advices if a.game)
    rows = [
        (kinds.index(a.kind), logit(smoothed(a.rate, a.playouts)), a.score, 1.0 / per_game[a.game] if a.game else 1.0)
        for a in advices
    ]
    size = len(kinds) + 1  # a per kind, then b
    prior = 1.0 / PRIOR_SD**2
    centre = [0.0] * len(kinds) + [1.0]  # the identity map

    def log_posterior(theta: list[float]) -> float:
        fit = sum(
            w * (y * _log_sigmoid(z) + (1.0 - y) * _log_sigmoid(-z))
            for k, x, y, w in rows
            for z in [theta[k] + theta[-1] * x]
        )
        return fit - 0.5 * prior * sum((t - c) ** 2 for t, c in zip(theta, centre, strict=True))

    theta = list(centre)
    for _ in range(200):
        grad = [-(t - c) * prior for t, c in zip(theta, centre, strict=True)]
        hess = [[prior if i == j else 0.0 for j in range(size)] for i in range(size)]
        for k, x, y, weight in rows:
            q = sigmoid(theta[k] + theta[-1] * x)
            w = weight * q * (1.0 - q)
            grad[k] += weight * (y - q)
            grad[-1] += weight * (y - q) * x
            hess[k][k] += w
            hess[k][-1] += w * x
            hess[-1][k] += w * x
            hess[-1][-1] += w * x * x
        if sum(abs(g) for g in grad) < 1e-7 * len(rows):  # the posterior's top: converged
            break
        step = _solve(hess, grad)
        # Newton's full step can overshoot far where the outcomes are nearly all wins: halve it until
        # the posterior does not fall (it is concave, so a short enough step always rises).
        now, scale = log_posterior(theta), 1.0
        while scale > 1e-12 and log_posterior([t + scale * d for t, d in zip(theta, step, strict=True)]) < now - 1e-12:
            scale /= 2
        theta = [t + scale * d for t, d in zip(theta, step, strict=True)]
    else:
        raise SystemExit(f"the fit against {', '.join(kinds)} did not converge in 200 Newton steps")
    if not all(math.isfinite(t) for t in theta):
        raise SystemExit(f"the fit against {', '.join(kinds)} is not finite: {theta}")
    if theta[-1] < 0:
        won = {kind: [(y * w, w) for k, _, y, w in rows if kinds[k] == kind] for kind in kinds}
        share = {kind: (sum(y for y, _ in ys) + 0.5) / (sum(w for _, w in ys) + 1) for kind, ys in won.items()}
        return {kind: Logistic(round(logit(p), 3), 0.0) for kind, p in share.items()}
    return {kind: Logistic(round(theta[i], 3), round(theta[-1], 3)) for i, kind in enumerate(kinds)}


def _log_sigmoid(z: float) -> float:
    return -math.log1p(math.exp(-z)) if z >= 0 else z - math.log1p(math.exp(z))


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``matrix`` x = ``vector`` by Gaussian elimination with partial pivoting (a few unknowns)."""
    n = len(vector)
    m = [[*row, v] for row, v in zip(matrix, vector, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            m[r] = [a - f * b for a, b in zip(m[r], m[col], strict=True)]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def fit_all(
    advices: list[AdviceRow], shared_slope: bool = False, phases: int = 1
) -> dict[tuple[int, str], tuple[Map, int, int]]:
    """The maps per player count and opponent kind (with ``shared_slope`` one slope per player count),
    each with the advices and the games it was fitted on. With ``phases`` > 1, a ``ByPhase`` map: one
    line per equal share of the game, fitted on that share's advices (a cell with none in a phase
    keeps its whole-game line there)."""
    whole = _fit_lines(advices, shared_slope)
    if phases <= 1:
        return dict(whole)
    unknown = next((a for a in advices if a.elapsed is None), None)
    if unknown is not None:
        raise SystemExit(f'{unknown.game}: an advice without "time": a fit by phase needs pairs lines that say it')
    cuts = tuple(round(i / phases, 3) for i in range(1, phases))
    parts = [_fit_lines([a for a in advices if _phase(a, cuts) == i], shared_slope) for i in range(phases)]
    return {
        key: (ByPhase(cuts, tuple(part.get(key, (line, 0, 0))[0] for part in parts)), n, games)
        for key, (line, n, games) in whole.items()
    }


def _phase(advice: AdviceRow, cuts: tuple[float, ...]) -> int:
    """The phase ``ByPhase.line`` reads ``advice``'s map from (fit_all has refused an advice without time)."""
    return phase_index(cuts, advice.elapsed or 0.0)


def _fit_lines(advices: list[AdviceRow], shared_slope: bool) -> dict[tuple[int, str], tuple[Logistic, int, int]]:
    cells: dict[tuple[int, str], list[AdviceRow]] = defaultdict(list)
    for advice in advices:
        cells[advice.players, advice.kind].append(advice)
    out: dict[tuple[int, str], tuple[Logistic, int, int]] = {}
    for players in sorted({n for n, _ in cells}):
        mine = {kind: cell for (n, kind), cell in sorted(cells.items()) if n == players}
        groups = [[a for cell in mine.values() for a in cell]] if shared_slope else list(mine.values())
        for group in groups:
            for kind, found in fit_kinds(group).items():
                out[players, kind] = (found, len(mine[kind]), len({a.game for a in mine[kind]}))
    return out


def check(advices: list[AdviceRow], maps: Maps) -> list[str]:
    """Reliability of the win rate and of the chance on ``advices``: pooled, then per opponent, then (where
    ``maps`` are by phase) per opponent and phase of the game: where one line per game misses."""
    lines = []
    groups: dict[str, list[AdviceRow]] = {"all": advices}
    for advice in advices:
        groups.setdefault(f"{advice.players} players vs {advice.kind}", []).append(advice)
    phased: dict[str, list[AdviceRow]] = {}
    for advice in advices:
        m = maps.get((advice.players, advice.kind))
        if isinstance(m, ByPhase) and advice.elapsed is not None:
            i = phase_index(m.cuts, advice.elapsed)
            bounds = (0.0, *m.cuts, 1.0)
            name = f"{advice.players} players vs {advice.kind}, {bounds[i]:g}-{bounds[i + 1]:g} of the game"
            phased.setdefault(name, []).append(advice)
    groups |= dict(sorted(phased.items()))
    for name, group in groups.items():
        raw = [(a.rate, a.score) for a in group]
        fitted = [(_told(a, maps), a.score) for a in group]
        lines.append(calibration_line(f"{name}, win rate", raw, LEAST))
        lines.append(calibration_line(f"{name}, chance", fitted, LEAST))
    pooled = [(_told(a, maps), a.score) for a in advices]
    cells: dict[int, list[tuple[str, float]]] = defaultdict(list)  # (game, result) per advice, by decile
    for i, (told, score) in enumerate(pooled):
        cells[min(9, int(told * 10))].append((advices[i].game or f"#{i}", score))
    table = deciles(pooled)
    for d, mean_p, mean_o, n in table:
        share = f"predicted {mean_p * 100:.1f} %, won {mean_o * 100:.1f} %"
        games = len({game for game, _ in cells[d]})  # the games behind the decile: its real sample size
        lines.append(f"chance decile {d * 10}-{d * 10 + 10} %: {share} over {n} advices of {games} games")
    for d, mean_p, _, _ in table:
        low, high = games_resampled(cells[d])
        lines.append(
            f"chance decile {d * 10}-{d * 10 + 10} %, games resampled: won {low * 100:.1f}-{high * 100:.1f} % "
            f"(95 %, {RESAMPLES} draws), predicted {mean_p * 100:.1f} % "
            + ("inside" if low <= mean_p <= high else "outside")
        )
    return lines


RESAMPLES = 2000


def games_resampled(cell: list[tuple[str, float]], draws: int = RESAMPLES, seed: int = 0) -> tuple[float, float]:
    """The 95 % interval of the share won in a decile, its games drawn again with replacement (``cell``:
    (game, result) per advice). The advices of one game share one outcome, so a decile of 70 advices
    from 6 games is as sure as 6 games are: the advices' own count would make it look far surer."""
    games: dict[str, list[float]] = defaultdict(list)
    for game, score in cell:
        games[game].append(score)
    sums = [(len(v), sum(v)) for v in games.values()]
    rng = random.Random(seed)
    shares = []
    for _ in range(draws):
        drawn = [sums[rng.randrange(len(sums))] for _ in sums]
        shares.append(sum(s for _, s in drawn) / sum(n for n, _ in drawn))
    shares.sort()
    return shares[int(0.025 * (draws - 1))], shares[int(0.975 * (draws - 1))]


def brier_of(advices: list[AdviceRow], maps: Maps) -> float:
    """The Brier score of the chances ``maps`` tell on ``advices``."""
    return brier([(_told(a, maps), a.score) for a in advices])


def largest_gap(advices: list[AdviceRow], maps: Maps) -> float:
    """The largest gap between told and won over the deciles of ``maps``' chances with ``LEAST`` advices."""
    return max(
        (abs(p - o) for _, p, o, n in deciles([(_told(a, maps), a.score) for a in advices]) if n >= LEAST), default=0.0
    )


def cross_check(advices: list[AdviceRow], folds: int, shuffles: int, shared_slope: bool, phases: int = 1) -> list[str]:
    """Fit on all games but one fold and check on that fold, for every fold of ``folds`` (games
    dealt to folds at random, ``shuffles`` times; with ``phases``, maps by phase): the Brier score and the
    largest decile gap of the win rate and of the chance on games the fit did not see, mean and worst
    over the checks."""
    games = sorted({a.game for a in advices})
    found: dict[str, list[tuple[float, float]]] = {"win rate": [], "chance": []}
    for shuffle in range(shuffles):
        order = games[:]
        random.Random(shuffle).shuffle(order)
        fold = {g: i % folds for i, g in enumerate(order)}
        for k in range(folds):
            test = [a for a in advices if fold[a.game] == k]
            maps = {
                key: m
                for key, (m, *_) in fit_all([a for a in advices if fold[a.game] != k], shared_slope, phases).items()
            }
            found["win rate"].append((brier_of(test, {}), largest_gap(test, {})))  # no map: the win rate
            found["chance"].append((brier_of(test, maps), largest_gap(test, maps)))
    lines = []
    for name, results in found.items():
        b, g = [r[0] for r in results], [r[1] for r in results]
        lines.append(
            f"cross-check {name}: brier {statistics.fmean(b):.3f} (worst {max(b):.3f}), largest decile gap "
            f"{statistics.fmean(g) * 100:.1f} points (worst {max(g) * 100:.1f}) over {len(results)} checks: "
            f"{folds} folds of {len(games)} games, {shuffles} shuffles"
        )
    return lines


def _told(advice: AdviceRow, maps: Maps) -> float:
    """The chance told for ``advice`` against its ``players`` - 1 opponents of its ``kind``, in its phase of
    the game; the win rate where no map was fitted. A map by phase cannot tell an advice without "time"
    (a file written before advice.py recorded it, or Auf Achse's): refused, naming its game."""
    if advice.elapsed is None and isinstance(maps.get((advice.players, advice.kind)), ByPhase):
        raise SystemExit(f'{advice.game}: an advice without "time": a map by phase cannot tell its chance')
    told = chance(advice.rate, advice.playouts, [advice.kind] * (advice.players - 1), maps, advice.elapsed)
    return advice.rate if told is None else told


def _per_phase(m: Map, advices: list[AdviceRow], players: int, kind: str) -> str:
    """The games and advices each phase's line of ``m`` was fitted on (none: the whole-game line)."""
    if isinstance(m, Logistic):
        return ""
    mine = [a for a in advices if (a.players, a.kind) == (players, kind)]
    counts = [[a for a in mine if _phase(a, m.cuts) == i] for i in range(len(m.lines))]
    said = [f"{len({a.game for a in c})} / {len(c)}" if c else "none: the whole game's line" for c in counts]
    return f"; per phase (games / advices): {', '.join(said)}"


def _source(m: Map) -> str:
    """``m`` as the line of a ``FITTED`` table that makes it."""
    if isinstance(m, Logistic):
        return f"Logistic({m.a}, {m.b})"
    return f"ByPhase({m.cuts!r}, ({', '.join(_source(line) for line in m.lines)}))"


def quick_pairs(path: Path, game: str) -> None:
    """One short game per follower pairing at a fiftieth of the budgets, as advice.py --quick plays."""
    for p, (first, _) in enumerate(PAIRINGS):
        if first == "follower":
            r: Result = play_aa((p, 0, 1, 0.02, 60, 2)) if game == "auf-achse" else play((p, 0, 1, 0.02, 2, 2))
            _append_pairs(path, r, 1, 0.02)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="on-the-way", choices=("on-the-way", "auf-achse"))
    parser.add_argument("fit", nargs="*", type=Path, help="advice.py --pairs files to fit on")
    parser.add_argument("--check", action="append", type=Path, default=[], help="--pairs files to check on")
    parser.add_argument("--quick", action="store_true", help="a smoke run: fit and check on 3 short games")
    parser.add_argument(
        "--shared-slope", action="store_true", help="one slope b per player count (an a per opponent kind)"
    )
    parser.add_argument(
        "--phases", type=int, default=1, metavar="K", help="one line per K equal shares of the game (its time track)"
    )
    parser.add_argument("--folds", type=int, default=0, metavar="K", help="also cross-check the fit: K folds of games")
    parser.add_argument("--shuffles", type=int, default=5, metavar="N", help="with --folds: N random deals of games")
    args = parser.parse_args(argv)
    if args.phases < 1:
        parser.error("--phases must be at least 1")
    if args.phases > 1 and args.game != "on-the-way":
        parser.error("--phases is On The Way's (its time track); Auf Achse has none (AA-23)")
    with tempfile.TemporaryDirectory() as tmp:
        if args.quick:
            path = Path(tmp) / "pairs.jsonl"
            quick_pairs(path, args.game)
            args.fit, args.check = [path], [path]
        if not args.fit:
            parser.error("name at least one --pairs file to fit on")
        fitting = read(args.fit, args.quick, args.game)
        fitted = fit_all(fitting, args.shared_slope, args.phases)
        held_out = read(args.check, args.quick, args.game)
    where = f"companion/games/{args.game.replace('-', '_')}/bots/chances.py"
    print(f"FITTED: Maps = {{  # {where}: calibrate.py --game {args.game} " + " ".join(map(str, args.fit)))
    for (players, kind), (m, n, games) in fitted.items():
        counts = f"{games} games, {n} advices{_per_phase(m, fitting, players, kind)}"
        print(f"    ({players}, {kind!r}): {_source(m)},  # {counts}")
    print("}")
    if held_out:
        maps = {key: m for key, (m, *_) in fitted.items()}
        for line in check(held_out, maps):
            print(line)
    if args.folds >= 2:
        for line in cross_check(fitting, args.folds, max(1, args.shuffles), args.shared_slope, args.phases):
            print(line)
    print(f"maps fitted: {len(fitted)}; held-out advices: {len(held_out)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
