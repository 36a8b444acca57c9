"""Bot strength: 2-player games between two levels through the validated engine, seats alternating.

    python benchmarks/bots.py [--games 200] [--pair hard:easy] [--budget 0.05] [--jobs 2] [--offer] [--quick]

``--quick``: two games at a hundredth of the levels' budgets (a smoke run in seconds, not a measurement).

``--budget`` is the search budget per command in seconds of a Pi 4 core (``bots.budget``), reduced
from the levels' defaults (medium 0.25 s, hard 1 s) so that 200 games finish in minutes. Every
command goes through ``engine.apply``; a refused one is counted (and the game abandoned). Numbers go
in the notes and docs/bots.md, never in test assertions.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from pathlib import Path

from companion.engine.errors import IllegalAction
from companion.engine.stats import wilson
from companion.games.on_the_way.bots import BUDGET_S, Kernel, Level, choose
from companion.games.on_the_way.bots.advisor import same_turn
from companion.games.on_the_way.bots.policy import reveal_action
from companion.games.on_the_way.data import load_reference
from companion.games.on_the_way.engine import Command, GameConfig, GameState, LayOut, TakeContract, apply
from companion.games.on_the_way.engine.cards import Tier
from companion.games.on_the_way.engine.queries import offer_missing
from companion.games.on_the_way.engine.scoring import score, winners
from companion.games.on_the_way.engine.state import REMOVED_CONTRACTS, initial_state

sys.path.insert(0, str(Path(__file__).resolve().parent))
from casual_policy import casual_action

COLOURS = ("red", "blue")
CASUAL = "casual"  # the fixed baseline: easy as it was before issue 22, plus "build whenever affordable"


def pile_for(config: GameConfig, rng: random.Random) -> list[str]:
    """The contract pile as the box deals it: OTW-4 removes random cards per tier, each tier is
    shuffled, basic on top of extended on top of professional (OTW-5)."""
    pile: list[str] = []
    for tier in Tier:
        cards = [c.id for c in config.deck.contracts if c.tier is tier]
        rng.shuffle(cards)
        pile.extend(cards[REMOVED_CONTRACTS[config.player_count][tier] :])
    return pile


def _command(
    state: GameState,
    colour: str,
    level: str,
    game: int,
    budget: float | None,
    scale: float | None,
    rng: random.Random,
    earlier: tuple[GameState, ...] = (),
) -> Command:
    """The seat's command: a bot level's, or the fixed casual baseline's (``casual_policy.py``).
    ``earlier``: the states of this turn the seat was asked in (as a table's bot seat remembers them)."""
    if level == CASUAL:
        k = Kernel.from_state(state)
        return k.to_command(reveal_action(k, rng) if k.awaiting else casual_action(k, rng))
    spend = budget if budget is not None else (BUDGET_S[Level(level)] * scale if scale is not None else None)
    return choose(state, colour, level, seed=game, budget_s=spend, earlier=earlier)


def play(args: tuple[int, str, str, float | None, bool, float | None]) -> tuple[int, float, int, int, int, int]:
    """One game; the first level sits first in even games. Returns
    (game, result for the first level: 1 win / 0.5 tie / 0 loss, refused, commands, margin, finished).
    With ``offer`` the face-up offer is laid out from a dealt pile and refilled after every take
    (OTW-9), as at a table: the bots then take only open cards. ``scale`` multiplies each level's own
    budget (keeping hard's 4× medium), where ``budget`` gives both the same."""
    game, first, second, budget, offer, scale = args
    board, deck = load_reference()
    config = GameConfig(board, deck, COLOURS)
    levels = {COLOURS[0]: first, COLOURS[1]: second} if game % 2 == 0 else {COLOURS[0]: second, COLOURS[1]: first}
    mine = COLOURS[0] if game % 2 == 0 else COLOURS[1]
    state = initial_state(config)
    pile = pile_for(config, random.Random(f"pile:{game}")) if offer else []
    refused = commands = 0
    rng = random.Random(f"casual:{game}")
    asked: list[GameState] = []  # the states the seats were asked in, oldest first
    while not state.finished and commands < 3000:
        while offer and pile and offer_missing(state):
            state, _ = apply(state, LayOut(pile.pop(0)))
        colour = state.current.colour
        earlier = same_turn(asked, state)
        command = _command(state, colour, levels[colour], game, budget, scale, rng, earlier)
        asked = [*earlier, state]
        try:
            state, _ = apply(state, command)
        except IllegalAction:
            refused += 1
            break
        if offer and isinstance(command, TakeContract) and command.card in pile:
            pile.remove(command.card)  # not open: it was the top of the pile (a bot never does this)
        commands += 1
    won = winners(state)
    result = 0.5 if len(won) > 1 and mine in won else float(mine in won)
    player = {p.colour: p for p in state.players}
    other = COLOURS[1] if mine == COLOURS[0] else COLOURS[0]
    margin = score(player[mine]) - score(player[other])
    return game, result, refused, commands, margin, int(state.finished)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--pair", default="hard:easy", help="LEVEL:LEVEL, e.g. medium:easy or medium:casual")
    parser.add_argument("--budget", type=float, default=None, help="Pi-4 seconds per command (default: the level's)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--offset", type=int, default=0, help="first game number (seed)")
    parser.add_argument("--scale", type=float, default=None, help="each level's budget × this (keeps their ratio)")
    parser.add_argument("--offer", action="store_true", help="lay out the face-up offer (OTW-9): bots see only it")
    parser.add_argument("--quick", action="store_true", help="2 games at the budgets × 0.01: a smoke run in seconds")
    args = parser.parse_args()
    if args.quick:
        args.games, args.scale = 2, 0.01 if args.budget is None else args.scale
    first, second = (x if x == CASUAL else Level(x).value for x in args.pair.split(":"))
    jobs = [(args.offset + g, first, second, args.budget, args.offer, args.scale) for g in range(args.games)]
    t0 = time.perf_counter()
    results = []
    with multiprocessing.Pool(max(1, args.jobs)) as pool:
        for r in pool.imap_unordered(play, jobs):
            results.append(r)  # each game on stderr as it ends: a run cut short still tells something
            print(f"{len(results)}/{len(jobs)} game {r[0]}: {first} scores {r[1]}", file=sys.stderr)
    results.sort()
    elapsed = time.perf_counter() - t0
    points = sum(r[1] for r in results)
    wins = sum(1 for r in results if r[1] == 1.0)
    ties = sum(1 for r in results if r[1] == 0.5)
    refused = sum(r[2] for r in results)
    commands = sum(r[3] for r in results)
    finished = sum(r[5] for r in results)
    low, high = wilson(points, len(results))
    margin = sum(r[4] for r in results) / len(results)
    budget = "level default" if args.budget is None else f"{args.budget} s of a Pi 4 per command"
    if args.budget is None and args.scale is not None:
        budget = f"each level's default × {args.scale} (Pi-4 s per command)"
    if args.offer:
        budget += ", face-up offer laid out (OTW-9)"
    print(
        f"{first} vs {second}, {len(results)} games (seats alternating, budget {budget}): "
        f"{first} scores {points / len(results):.1%} [95% Wilson {low:.1%}, {high:.1%}] "
        f"({wins} wins, {ties} ties), mean VP margin {margin:+.1f}; "
        f"{refused} refused commands of {commands}; {finished}/{len(results)} finished; "
        f"{elapsed:.0f} s with {args.jobs} job(s)"
    )


if __name__ == "__main__":
    main()
