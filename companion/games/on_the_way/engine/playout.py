"""A fast, seeded, heuristic-random player: plays whole games for benchmarks, tests and future hints.

It plays like a plausible beginner: fulfil when it can, keep one or two contracts, drive a transport
to the start city and then to the end city, build now and then, otherwise pass. Every choice it makes
goes through the engine's own ``apply`` (so it never plays an illegal move) and its randomness comes
from a ``random.Random`` it is given (so a seed replays the same game).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from companion.games.on_the_way.engine.cards import ContractCard
from companion.games.on_the_way.engine.commands import Cancel, Command, Fulfil, Move, Pass, RevealEvent, TakeContract
from companion.games.on_the_way.engine.movement import Route, reachable
from companion.games.on_the_way.engine.queries import fulfillable, legal_builds, takeable_contracts
from companion.games.on_the_way.engine.rules import apply
from companion.games.on_the_way.engine.state import GameState, Transport


@dataclass
class PlayoutResult:
    state: GameState
    commands: list[Command]

    @property
    def finished(self) -> bool:
        return self.state.finished


def choose_command(state: GameState, rng: random.Random) -> Command:
    """One plausible legal command for whoever must act now."""
    if state.awaiting_event:
        unseen = [e.id for e in state.config.deck.events if e.id not in state.revealed and e.id != state.event]
        pool = unseen or [e.id for e in state.config.deck.events if e.id != state.event]
        # A one-card deck: its only card comes straight back under the deck and up again (OTW-28).
        return RevealEvent(rng.choice(pool) if pool else state.config.deck.events[0].id)
    player = state.current
    colour = player.colour
    ready = fulfillable(state, colour)
    if ready:
        return Fulfil(colour, ready[0][0].id)
    config = state.config
    held = [c for cid in player.contracts if (c := config.contract(cid)) is not None]
    if len(held) < 2 and rng.random() < 0.7:
        cards = takeable_contracts(state)
        if cards:
            return TakeContract(colour, rng.choice(cards).id)
    # Transport i works on held card i; a transport with no card is cancelled to free its marker.
    for t, card in zip(player.transports, held, strict=False):
        move = _drive(state, colour, t, card, rng)
        if move is not None:
            return move
    for t in player.transports[len(held) :]:
        return Cancel(colour, t.marker)
    free = player.free_markers()
    for card in held[len(player.transports) :]:
        if free:
            move = _start(state, colour, free[0], card, rng)
            if move is not None:
                return move
    if rng.random() < 0.5:
        builds = legal_builds(state, colour)
        if builds:
            return rng.choice(builds)
    return Pass(colour)


def _closest(state: GameState, options: Mapping[str, Route], target: str, rng: random.Random) -> str:
    board = state.board
    return min(options, key=lambda c: (board.distance(c, target) or 0, rng.random()))


def _drive(state: GameState, colour: str, t: Transport, card: ContractCard, rng: random.Random) -> Command | None:
    """Collect trucks, go to the start city, then to the end city."""
    board = state.board
    join = 0
    if card.id in t.loaded:
        target = card.destination
    else:
        join = min(state.idle_at(t.city), max(0, card.trucks - t.trucks))
        if t.trucks + join >= card.trucks:
            target = card.destination if t.city == card.origin else card.origin
        else:  # find more idle trucks first
            dist = board.distances_from(t.city)
            spare = [c for c, n in zip(board.names, state.idle, strict=True) if n > 0 and c != t.city]
            if not spare:
                return None
            target = min(spare, key=lambda c: (dist.get(c, 99), rng.random()))
    trucks = t.trucks + join
    routes = reachable(state, colour, t.city, trucks, state.steps_left)
    if not routes:
        return None
    best = _closest(state, routes, target, rng)
    if (board.distance(best, target) or 0) >= (board.distance(t.city, target) or 0):
        return None
    return Move(colour, t.marker, best, None, trucks if join else None)


def _start(state: GameState, colour: str, marker: int, card: ContractCard, rng: random.Random) -> Command | None:
    """A new transport from the idle trucks nearest the contract's start city."""
    board = state.board
    dist = board.distances_from(card.origin)
    sources = [c for c, n in zip(board.names, state.idle, strict=True) if n > 0]
    if not sources:
        return None
    source = min(sources, key=lambda c: (-min(state.idle_at(c), card.trucks), dist.get(c, 99), rng.random()))
    trucks = min(state.idle_at(source), card.trucks)
    routes = reachable(state, colour, source, trucks, state.steps_left)
    if not routes:
        return None
    target = card.destination if source == card.origin and trucks >= card.trucks else card.origin
    return Move(colour, marker, _closest(state, routes, target, rng), source, trucks)


def play_out(state: GameState, rng: random.Random, max_commands: int = 5000) -> PlayoutResult:
    """Play from ``state`` until the game ends (or ``max_commands``), returning the commands used."""
    commands: list[Command] = []
    while not state.finished and len(commands) < max_commands:
        command = choose_command(state, rng)
        state, _ = apply(state, command)
        commands.append(command)
    return PlayoutResult(state, commands)
