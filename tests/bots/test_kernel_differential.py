"""The playout kernel equals the validated engine: random commands through both, every legal-command set,
every refusal and every resulting state compared (OTW-10..33 as the engine implements them)."""

from __future__ import annotations

import random

import pytest

from companion.engine.errors import IllegalAction
from companion.games.on_the_way.bots.kernel import Kernel
from companion.games.on_the_way.bots.policy import policy_action
from companion.games.on_the_way.engine import (
    Build,
    Building,
    Cancel,
    Command,
    ContractOffer,
    Expand,
    Fulfil,
    HouseRules,
    Move,
    RevealEvent,
    TakeContract,
    apply,
)
from companion.games.on_the_way.engine.queries import legal_commands
from companion.games.on_the_way.engine.state import GameState, initial_state
from tests.bots.helpers import config_for, engine_snapshot

VARIANTS = HouseRules(
    contract_offer=ContractOffer.TIER_ORDER,
    neutral_buildings=False,
    fulfil_needs_route=False,
    fulfil_is_action=False,
    limited_supply=False,
    jams_persist=False,
)
MAX_COMMANDS = 500  # per game
CASES = [
    pytest.param(2, HouseRules(), None, 8, id="2p"),
    pytest.param(3, HouseRules(), None, 4, id="3p"),
    pytest.param(4, HouseRules(), 4, 4, id="4p-short"),
    pytest.param(2, VARIANTS, 5, 6, id="2p-house-rules"),
    pytest.param(2, HouseRules(allow_pass=False), 3, 3, id="2p-no-pass"),
    pytest.param(2, HouseRules(jam_blocks_transshipment=False), None, 6, id="2p-jam-in-chain"),
]


def legal_reveals(state: GameState) -> list[Command]:
    out: list[Command] = []
    for card in state.config.deck.events:
        try:
            apply(state, RevealEvent(card.id))
        except IllegalAction:
            continue
        out.append(RevealEvent(card.id))
    return out


def probe_commands(state: GameState, rng: random.Random) -> list[Command]:
    """Commands a player might try, legal or not (in the forms ``legal_commands`` spells legal ones)."""
    board, deck = state.board, state.config.deck
    player = state.current
    colour = player.colour
    city = rng.choice(board.names)
    out: list[Command] = [
        TakeContract(colour, rng.choice(deck.contracts).id),
        Fulfil(colour, rng.choice(deck.contracts).id),
        Cancel(colour, rng.choice((1, 2))),
        Build(colour, city, rng.choice(list(Building))),
        Expand(colour, city),
    ]
    if player.contracts:
        out.append(Fulfil(colour, rng.choice(player.contracts)))
    for t in player.transports:
        out.append(Move(colour, t.marker, rng.choice(board.names)))
        out.append(Move(colour, t.marker, rng.choice(board.neighbours[t.city]), None, t.trucks + rng.randint(1, 2)))
    free = player.free_markers()
    if free:
        origin = rng.choice([c for c in board.names if state.idle_at(c)] or [city])
        out.append(Move(colour, free[0], rng.choice(board.names), origin, rng.randint(1, 4)))
    return out


@pytest.mark.parametrize(("players", "rules", "end_at", "games"), CASES)
def test_kernel_matches_engine_on_random_commands(
    players: int, rules: HouseRules, end_at: int | None, games: int
) -> None:
    config = config_for(players, rules, end_at)
    compared = reveals = finished = jammed = 0
    for seed in range(games):
        rng = random.Random(seed)
        state = initial_state(config)
        kernel = Kernel.from_state(state)
        for _ in range(MAX_COMMANDS):
            if state.finished:
                break
            if state.awaiting_event:
                reveals += 1
                legal = legal_reveals(state)
                assert [kernel.to_command(a) for a in kernel.legal_reveals()] == legal
                assert kernel.legal_actions() == []
            else:
                legal = list(legal_commands(state))
                assert [kernel.to_command(a) for a in kernel.legal_actions()] == legal, state.turn
                for probe in probe_commands(state, rng):
                    try:
                        apply(state, probe)
                    except IllegalAction:
                        assert probe not in legal, probe
                    else:
                        assert probe in legal, probe
            if rng.random() < 0.75:
                action = policy_action(kernel, rng)
                command = kernel.to_command(action)
                assert command in legal, command  # the policy never plays a refused command
            else:
                command = rng.choice(legal)
                action = kernel.from_command(command)
            state, _ = apply(state, command)
            kernel.step(action)
            assert kernel.snapshot() == engine_snapshot(state), command
            if compared % 50 == 0:  # the conversion from any engine state, not only the first
                assert Kernel.from_state(state).snapshot() == engine_snapshot(state)
            compared += 1
            jammed += bool(state.jams)
        finished += state.finished
    # The walk reached the parts that matter: events (and jams), and the end of the game.
    print(f"{compared} commands ({jammed} with a jam on the board), {reveals} events, {finished}/{games} finished")
    assert compared >= 100 * games and reveals >= games
    if not rules.jam_blocks_transshipment:  # the variant is about jammed roads: some must have been there
        assert jammed >= 100
    if end_at is not None:
        assert finished >= games // 2
