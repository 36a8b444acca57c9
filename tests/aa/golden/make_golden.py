"""Regenerate the golden Auf Achse game: a seeded greedy bot plays 2 players on the reference data.

    .venv/bin/python -m tests.aa.golden.make_golden

writes ``two-players.jsonl`` (the commands) and ``two-players.state.json`` (the final state that
``companion play --game auf-achse --players red,blue --seed 7 --script two-players.jsonl`` prints).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from companion.games.auf_achse.data import load_aa_reference
from companion.games.auf_achse.engine import (
    Bid,
    BuyTrailer,
    DealContract,
    DrawAction,
    EndTurn,
    GameConfig,
    Load,
    Move,
    OpenAuction,
    PassBid,
    PlaceSign,
    PlaceTruck,
    RevealPublic,
    Roll,
    Sign,
    StartGame,
    TakeSpare,
    TrailerSize,
    Unload,
    new_game,
)
from companion.games.auf_achse.engine.commands import Command
from companion.games.auf_achse.engine.movement import sign_spaces
from companion.games.auf_achse.engine.queries import auction_status, cargo_options, legal_destinations
from companion.games.auf_achse.engine.serialize import command_to_json, state_to_json
from companion.games.auf_achse.engine.state import TRAILERS, GameState, Phase, Stage, Waiting

HERE = Path(__file__).parent
COLOURS = ("red", "blue")
SEED = 7


class Bot:
    def __init__(self, state: GameState, seed: int) -> None:
        self.rng = random.Random(seed)
        contracts = [c.id for c in state.config.deck.contracts]
        self.rng.shuffle(contracts)
        self.pile = contracts  # dealt, then the public deck, then the leftovers
        self.actions = [a.id for a in state.config.deck.actions]
        self.rng.shuffle(self.actions)

    def next_contract(self, state: GameState) -> str:
        return next(c for c in self.pile if c not in state.seen)

    def next_action(self, state: GameState) -> str:
        used = set(state.actions_used)
        fresh = [a for a in self.actions if a not in used]
        return fresh[0] if fresh else self.actions[0]

    def target(self, state: GameState, colour: str) -> str | None:
        p = state.player(colour)
        assert p is not None and p.space is not None
        config = state.config
        goals = [config.contract(c).end for c in p.loaded]  # type: ignore[union-attr]
        if not goals:  # deliver first, then fetch what fits
            goals = [card.start for c in p.hand if (card := config.contract(c)) is not None and card.goods <= p.free]
        if not goals:
            return None
        dist = state.board.distances_from(p.space)
        return min(goals, key=lambda g: (dist.get(g, 999), g))

    def choose(self, state: GameState) -> Command:
        if state.phase is Phase.SETUP:
            return self.setup(state)
        waiting = state.awaiting
        if waiting is not None:
            who = waiting.player or state.current.colour
            match waiting.kind:
                case Waiting.PUBLIC_CARD:
                    return RevealPublic(self.next_contract(state))
                case Waiting.ACTION_CARD:
                    return DrawAction(self.next_action(state))
                case Waiting.SPARE_CONTRACT:
                    return TakeSpare(who, self.next_contract(state))
                case Waiting.STAU:
                    return PlaceSign(who, Sign.STAU, self.rng.choice(sign_spaces(state, "stau")))
                case _:
                    return PlaceSign(who, Sign.ROADWORKS, self.rng.choice(sign_spaces(state, "roadworks")))
        status = auction_status(state)
        if status is not None:
            colour = status.may_act[0]  # AA-19: any order; the bot lets the opener's left go first
            bidder = state.player(colour)
            assert bidder is not None
            cheap = [lv for lv, amount in status.allowed_for(colour) if lv <= 3 and bidder.money - amount >= 2000]
            if cheap and len(bidder.contracts) < 4 and self.rng.random() < 0.6:
                return Bid(colour, cheap[0])
            return PassBid(colour)
        colour = state.current.colour
        turn = state.turn
        if turn.stage is Stage.ROLL:
            return Roll(colour)
        if turn.stage is Stage.MOVE:
            dests = legal_destinations(state, colour)
            goal = self.target(state, colour)
            if goal is None:
                cities = [d for d in dests if state.board.is_city(d)]
                return Move(colour, sorted(cities or dests)[0])
            dist = state.board.distances_from(goal)
            return Move(colour, min(dests, key=lambda d: (dist.get(d, 999), dests[d].rule != "AA-7", d)))
        p = state.current
        for option in cargo_options(state, colour):
            if option.unload:
                return Unload(colour, option.card)
        for option in cargo_options(state, colour):
            if option.fits:
                return Load(colour, option.card)
            need = option.goods - p.free
            for size in (TrailerSize.SMALL, TrailerSize.LARGE):
                spec = TRAILERS[size]
                if spec.capacity >= need and state.trailers_available(size) and p.money >= spec.price:
                    return BuyTrailer(colour, size)
        if turn.exact_city and not turn.auctioned and state.public:
            return OpenAuction(colour, self.rng.choice(state.public))
        return EndTurn(colour)

    def setup(self, state: GameState) -> Command:
        for p in state.players:
            if p.space is None:
                free = [s.id for s in state.board.spaces if not s.city and state.occupant(s.id) is None]
                return PlaceTruck(p.colour, self.rng.choice(sorted(free)))
        for p in state.players:
            if len(p.hand) < 3:
                return DealContract(p.colour, self.next_contract(state))
        if len(state.public) < 4:
            return RevealPublic(self.next_contract(state))
        return StartGame()


def play_golden(limit: int = 3000) -> tuple[list[Command], GameState]:
    board, deck = load_aa_reference()
    game = new_game(GameConfig(board, deck, COLOURS, seed=SEED))
    bot = Bot(game.state, SEED)
    commands: list[Command] = []
    while not game.state.finished and len(commands) < limit:
        command = bot.choose(game.state)
        game.push(command)
        commands.append(command)
    return commands, game.state


def main() -> None:
    commands, state = play_golden()
    assert state.finished, f"no end after {len(commands)} commands"
    lines = [json.dumps(command_to_json(c), ensure_ascii=False) for c in commands]
    (HERE / "two-players.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    text = json.dumps(state_to_json(state), ensure_ascii=False, indent=1)
    (HERE / "two-players.state.json").write_text(text + "\n", encoding="utf-8")
    print(f"{len(commands)} commands; {state.end_reason}")


if __name__ == "__main__":
    main()
