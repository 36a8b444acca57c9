"""Fit the advice's chance to whole games, and check the fit on other games (issue 22, "Calibrated").

    python benchmarks/calibrate.py [--game on-the-way|auf-achse] FIT.jsonl [...] --check HELD_OUT.jsonl [...] [--quick]

Reads the ``--pairs`` files of ``benchmarks/advice.py`` (one ``"kind": "advice"`` line per follower
advice: its playouts' win rate, their number and the game's result). For each player count and
opponent kind it fits the map of ``companion/games/calibration.py``,

    logit(chance) = a + b * logit(win rate)        (a logistic regression, Newton's method)

on the advices of the FIT files, and prints it as the ``MAPS`` entries to paste in the game's
``companion/games/<game>/bots/chances.py``. On the advices of the ``--check`` files (games the
fit never saw: other seeds) it prints the Brier score and the reliability per decile of the win rate
and of the fitted chance, pooled and per opponent. A tie
counts as half a win. ``--quick`` (a smoke run) plays one short game per follower pairing at a
fiftieth of the budgets, fits on it and checks on it.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from advice import PAIRINGS, Result, _append_pairs, calibration_line, deciles, play, play_aa

from companion.games.calibration import Logistic, Maps, chance, logit, sigmoid, smoothed

Advice = tuple[int, str, float, int, float]  # players, opponent kind, win rate, playouts, the game's score
PRIOR_SD = 2.0  # a weak prior towards the identity (a = 0, b = 1): a cell its player nearly always wins stays finite
LEAST = 50  # a decile counts for the goal (within 10 points) when it has this many advices


def read(paths: Iterable[Path], unfinished: bool = False) -> list[Advice]:
    """The follower's advices of finished games in ``paths`` (with ``unfinished``, also of games a quick
    run stopped); a malformed line names its file and line."""
    out: list[Advice] = []
    for path in paths:
        with path.open(encoding="utf-8") as lines:
            for number, line in enumerate(lines, 1):
                try:
                    row = json.loads(line)
                    if row.get("kind") != "advice" or not (row["finished"] or unfinished):
                        continue
                    first, second = PAIRINGS[row["pairing"]]
                    if first != "follower":
                        continue
                    out.append((int(row["players"]), second, float(row["chance"]), int(row["playouts"]), row["score"]))
                except (ValueError, KeyError, IndexError, TypeError) as exc:
                    raise SystemExit(f"{path}:{number}: not an advice line of advice.py --pairs ({exc})") from None
    return out


def fit(advices: list[Advice]) -> Logistic:
    """The a, b of logit(P(win)) = a + b * logit(win rate) by Newton's method: maximum likelihood with a
    weak normal prior (``PRIOR_SD``) around the identity map, which a few hundred advices outweigh."""
    xs = [logit(smoothed(p, n)) for _, _, p, n, _ in advices]
    ys = [float(y) for *_, y in advices]
    a, b = 0.0, 1.0
    for _ in range(100):
        ga = gb = haa = hab = hbb = 0.0
        for x, y in zip(xs, ys, strict=True):
            q = sigmoid(a + b * x)
            w = q * (1.0 - q)
            ga += y - q
            gb += (y - q) * x
            haa += w
            hab += w * x
            hbb += w * x * x
        prior = 1.0 / PRIOR_SD**2
        ga -= a * prior
        gb -= (b - 1.0) * prior
        haa, hbb = haa + prior, hbb + prior
        det = haa * hbb - hab * hab
        if det <= 0:
            break
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        a, b = a + da, b + db
        if abs(da) + abs(db) < 1e-9:
            break
    if b < 0:  # a chance that falls as the win rate rises is noise: the share won, whatever the rate
        share = (sum(ys) + 0.5) / (len(ys) + 1)
        return Logistic(round(logit(share), 3), 0.0)
    return Logistic(round(a, 3), round(b, 3))


def fit_all(advices: list[Advice]) -> dict[tuple[int, str], tuple[Logistic, int]]:
    cells: dict[tuple[int, str], list[Advice]] = defaultdict(list)
    for advice in advices:
        cells[advice[0], advice[1]].append(advice)
    return {key: (fit(cell), len(cell)) for key, cell in sorted(cells.items())}


def check(advices: list[Advice], maps: Maps) -> list[str]:
    """Reliability of the win rate and of the chance on ``advices``: pooled, then per opponent."""
    lines = []
    groups: dict[str, list[Advice]] = {"all": advices}
    for advice in advices:
        groups.setdefault(f"{advice[0]} players vs {advice[1]}", []).append(advice)
    for name, group in groups.items():
        raw = [(p, float(y)) for _, _, p, _, y in group]
        fitted = [(chance(p, n, players, [kind], maps), float(y)) for players, kind, p, n, y in group]
        lines.append(calibration_line(f"{name}, win rate", raw, LEAST))
        lines.append(calibration_line(f"{name}, chance", fitted, LEAST))
    pooled = [(chance(p, n, players, [kind], maps), float(y)) for players, kind, p, n, y in advices]
    for d, mean_p, mean_o, n in deciles(pooled):
        share = f"predicted {mean_p * 100:.1f} %, won {mean_o * 100:.1f} %"
        lines.append(f"chance decile {d * 10}-{d * 10 + 10} %: {share} over {n} advices")
    return lines


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
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        if args.quick:
            path = Path(tmp) / "pairs.jsonl"
            quick_pairs(path, args.game)
            args.fit, args.check = [path], [path]
        if not args.fit:
            parser.error("name at least one --pairs file to fit on")
        fitted = fit_all(read(args.fit, args.quick))
        held_out = read(args.check, args.quick)
    where = f"companion/games/{args.game.replace('-', '_')}/bots/chances.py"
    print(f"MAPS: Maps = {{  # for {where}: benchmarks/calibrate.py --game {args.game} " + " ".join(map(str, args.fit)))
    for (players, kind), (m, n) in fitted.items():
        print(f"    ({players}, {kind!r}): Logistic({m.a}, {m.b}),  # {n} advices")
    print("}")
    if held_out:
        maps = {key: m for key, (m, _) in fitted.items()}
        for line in check(held_out, maps):
            print(line)
    print(f"maps fitted: {len(fitted)}; held-out advices: {len(held_out)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
