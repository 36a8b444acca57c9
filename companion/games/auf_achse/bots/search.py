"""The medium bot: short Monte-Carlo playouts through the validated engine, the easy policy playing.

For a decision worth searching (where to move, AA-7; which public contract to auction, or none, and
the roadworks sign after a 1, AA-18, AA-10; how high to bid, AA-19) a few candidate commands are
each followed by the same ``PLAYOUTS`` short playouts (common random numbers: playout i of every
candidate sees the same die and the same cards), of ``HORIZON`` engine commands each, then the
position is scored (``evaluate``). The work budget is a count of engine commands, not time, so the
answer is the same on any machine and under any load.

The search does not peek at what a player at the table could not know:
- the die: playouts roll their own seeded die (``Roll(value=...)``), never the companion's
  (``Roll(value=None)`` is reproducible from the game's seed, AA-7, and would give the future away);
- the other players' private contracts (AA-4, secret): each playout deals them afresh from the cards
  the bot has not seen (``determinize``);
- the cards still to come (public contracts, action cards, leftovers): drawn at random by the policy.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from companion.engine.values import evolve
from companion.games.auf_achse.bots.policy import destination_scores, distances, easy_command, sign_space, worth_to
from companion.games.auf_achse.engine.commands import Bid, Command, EndTurn, Move, OpenAuction, PassBid, PlaceSign, Roll
from companion.games.auf_achse.engine.movement import sign_spaces
from companion.games.auf_achse.engine.queries import auction_status, auctionable, unseen_contracts
from companion.games.auf_achse.engine.rules import apply, check
from companion.games.auf_achse.engine.scoring import winners, worth
from companion.games.auf_achse.engine.state import GameState, Phase, Sign, Stage

PLAYOUTS = 8  # playouts per candidate
HORIZON = 60  # engine commands per playout (about four turns of each player in a 2-player game)
MAX_CANDIDATES = 4
MIN_GAIN = 200.0  # DM: the least mean gain over the plan that makes the search leave it
Z = 1.0  # ... and that many standard errors of the paired gain
LOADED_SHARE = 1.0  # a begun contract counts this share of its payout (it is on its way, AA-16)
HAND_SHARE = 0.6  # a private contract not begun counts this share (still to load and deliver)
STEP = 0.97  # a contract's value falls by 3 % per space still to drive
BACKLOG = 0.75  # the k-th private contract (best first) counts BACKLOG**k of its share
WIN_BONUS = 20_000  # DM: a playout that ends the game counts a win this much (AA-23, AA-24)


@dataclass(frozen=True, slots=True)
class Scored:
    command: Command
    score: float  # mean of ``evaluate`` over the playouts (DM)
    gain: float = 0.0  # mean gain over the plan, playout by playout (DM)
    error: float = 0.0  # the standard error of that gain


def next_actor(state: GameState, rng: random.Random) -> Command | None:
    """Whoever is to act next, by the easy policy (in an auction: the first in bidding order who acts)."""
    if state.finished:
        return None
    if state.auction is not None and state.awaiting is None:
        for colour in state.auction.order:
            command = easy_command(state, colour, rng)
            if command is not None:
                return command
        return None
    waiting = state.awaiting
    colour = (waiting.player if waiting is not None else None) or state.current.colour
    return easy_command(state, colour, rng)


def playout(state: GameState, seed: int, horizon: int) -> tuple[GameState, int]:
    """Play ``horizon`` commands of the easy policy (every seat) with a private die; (state, commands).

    The die has a random stream of its own, so the n-th roll of a playout is the same whatever the
    candidate before it (common random numbers: candidates are compared on the same luck)."""
    die = random.Random(seed)
    rng = random.Random(seed + 1)
    played = 0
    while played < horizon and not state.finished:
        command = next_actor(state, rng)
        if command is None:
            break
        if isinstance(command, Roll) and command.value is None:
            command = Roll(command.player, die.randint(1, 6))  # the playout's own die, not the companion's
        state, _ = apply(state, command)
        played += 1
    return state, played


def evaluate(state: GameState, colour: str) -> float:
    """``colour``'s standing less the best other's, in DM: money less debts (AA-24) plus a share of
    the contracts held; a finished game adds ``WIN_BONUS`` for a win (or takes it off for a loss)."""

    dist = distances(state.board)
    config = state.config

    def value(colour_: str) -> float:
        p = state.player(colour_)
        assert p is not None and p.space is not None
        total = float(worth(state, p))
        for c in p.loaded:  # on its way: the payout, less for each space still to drive (AA-16)
            card = config.contract(c)
            if card is not None:
                total += LOADED_SHARE * card.payout * STEP ** dist.between(p.space, card.end)
        # Still to load and deliver; each further one is less likely to be delivered before the end (AA-23).
        hand = sorted(
            (
                card.payout * STEP ** (dist.between(p.space, card.start) + dist.between(card.start, card.end))
                for c in p.hand
                if (card := config.contract(c)) is not None
            ),
            reverse=True,
        )
        share = HAND_SHARE * (1.0 if state.public_left > 0 else 0.5)
        for k, w in enumerate(hand):
            total += share * BACKLOG**k * w
        return total

    mine = value(colour)
    best_other = max(value(p.colour) for p in state.players if p.colour != colour)
    score = mine - best_other
    if state.finished:
        score += WIN_BONUS if colour in winners(state) else -WIN_BONUS
    return score


def determinize(state: GameState, colour: str, rng: random.Random) -> GameState:
    """The other players' private contracts (secret, AA-4) dealt afresh from every card ``colour``
    has not seen; begun contracts lie open (AA-14) and stay."""
    others = [p for p in state.players if p.colour != colour and p.hand]
    if not others:
        return state
    pool = sorted(set(unseen_contracts(state)) | {c for p in others for c in p.hand})
    rng.shuffle(pool)
    players = list(state.players)
    dealt: set[str] = set()
    old: set[str] = set()
    for i, p in enumerate(players):
        if p.colour == colour or not p.hand:
            continue
        hand = tuple(pool[: len(p.hand)])
        del pool[: len(p.hand)]
        old.update(p.hand)
        dealt.update(hand)
        players[i] = evolve(p, hand=hand)
    return evolve(state, players=tuple(players), seen=(state.seen - old) | dealt)


def candidates(state: GameState, colour: str, plan: Command, limit: int = MAX_CANDIDATES) -> list[Command]:
    """The commands worth comparing now (the easy plan first), or just the plan."""
    found: list[Command] = [plan]
    status = auction_status(state)
    if status is not None and isinstance(plan, Bid | PassBid):
        # AA-19: pass, or one of the two lowest levels allowed.
        for level, _ in status.allowed_for(colour)[:2]:
            found.append(Bid(colour, level))
        found.append(PassBid(colour))
    elif state.phase is Phase.PLAY and state.turn.stage is Stage.MOVE and isinstance(plan, Move):
        found.extend(Move(colour, space) for _, space in destination_scores(state, colour)[:limit])
    elif isinstance(plan, OpenAuction | EndTurn):
        # The end of the act stage: which public contract to auction (AA-18), or none; the roadworks
        # sign in front of the richest other truck after a 1 (AA-10).
        p = state.player(colour)
        assert p is not None
        ranked = sorted(
            auctionable(state, colour),
            key=lambda c: (-worth_to(state, p, state.config.contract(c)), c),  # type: ignore[arg-type]
        )
        found.extend(OpenAuction(colour, c) for c in ranked[: max(2, limit - 2)])
        if state.turn.roadworks_allowed and sign_spaces(state, Sign.ROADWORKS.value):
            found.append(PlaceSign(colour, Sign.ROADWORKS, sign_space(state, colour, Sign.ROADWORKS)))
        if check(state, EndTurn(colour)) is None:
            found.append(EndTurn(colour))
    unique: list[Command] = []
    for command in found:
        if command not in unique:
            unique.append(command)
    return unique[:limit]


@dataclass(frozen=True, slots=True)
class Effort:
    """How hard a search looks: candidates compared and playouts (of ``horizon`` commands) per candidate."""

    candidates: int = MAX_CANDIDATES
    playouts: int = PLAYOUTS
    horizon: int = HORIZON


def search(
    state: GameState, colour: str, plan: Command, rng: random.Random, effort: Effort = Effort()
) -> tuple[Command, list[Scored], int]:
    """The best of the candidates, compared playout by playout with the plan (same die, same cards);
    (command, scores, engine commands played). The plan is left only for a candidate whose mean gain
    is at least ``MIN_GAIN`` and ``Z`` standard errors: with a few noisy playouts the search would
    otherwise trade a sound greedy step for luck."""
    options = candidates(state, colour, plan, effort.candidates)
    if len(options) <= 1:
        return plan, [], 0
    seeds = [rng.getrandbits(32) for _ in range(effort.playouts)]
    results, work = play_out_all(state, colour, options, seeds, effort.horizon)
    scored = compare(options, [[v for v, _ in row] for row in results])
    best = max(scored, key=lambda sc: sc.gain - Z * sc.error)
    if best.command != plan and clearly_better(best):
        return best.command, scored, work
    return plan, scored, work


def clearly_better(scored: Scored) -> bool:
    """Worth leaving the plan for: a mean gain of at least ``MIN_GAIN`` and ``Z`` standard errors."""
    return scored.gain >= MIN_GAIN and scored.gain >= Z * scored.error


def play_out_all(
    state: GameState,
    colour: str,
    options: list[Command],
    seeds: list[int],
    horizon: int,
    after_playout: Callable[[], None] | None = None,
) -> tuple[list[list[tuple[float, bool]]], int]:
    """Each option followed by one playout per seed, on common random numbers (the n-th playout of every
    option: the same dealt hands, die and cards): per option, per seed (evaluation in DM, ``colour``
    leads or won); and the engine commands played. ``after_playout`` is called after each playout."""
    worlds = [determinize(state, colour, random.Random(s + 2)) for s in seeds]  # s, s + 1: the playout's
    results: list[list[tuple[float, bool]]] = []
    work = 0
    for command in options:
        row: list[tuple[float, bool]] = []
        for s, world in zip(seeds, worlds, strict=True):
            after, _ = apply(world, command)  # a candidate is a legal command: the same in every world
            end, played = playout(after, s, horizon)
            work += played + 1
            value = evaluate(end, colour)
            row.append((value, colour in winners(end) if end.finished else value > 0))
            if after_playout is not None:
                after_playout()
        results.append(row)
    return results, work


def compare(options: list[Command], results: list[list[float]]) -> list[Scored]:
    """Each option's mean and its paired gain over the first (the plan), playout by playout."""
    base = results[0]  # the plan
    scored: list[Scored] = []
    for command, row in zip(options, results, strict=True):
        diffs = [a - b for a, b in zip(row, base, strict=True)]
        gain = sum(diffs) / len(diffs)
        var = sum((d - gain) ** 2 for d in diffs) / max(1, len(diffs) - 1)
        scored.append(Scored(command, sum(row) / len(row), gain, math.sqrt(var / len(diffs))))
    return scored
