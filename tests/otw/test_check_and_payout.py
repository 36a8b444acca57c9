"""The questions the table asks the engine: ``check`` (style point 18) and the OTW-30 payout and costs."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.on_the_way.engine import (
    Build,
    Building,
    Cancel,
    Command,
    Expand,
    Fulfil,
    Move,
    Pass,
    RevealEvent,
    TakeContract,
    Undo,
    new_game,
)
from companion.games.on_the_way.engine.check import check
from companion.games.on_the_way.engine.queries import building_cost, expansion_cost, legal_commands, payout

from .conftest import DECK, NAMES, config, pos
from .helpers import play

COLOURS = ("red", "blue", "green", "purple")  # purple never plays: a player who is not in the game
CITIES = (*NAMES, "Atlantis")
CARDS = (*(c.id for c in DECK.contracts[::5]), "E01", "E05", "E13", "Z99")


def any_command(rng: random.Random) -> Command:
    """A command of any type with arguments that are often wrong: other players, unknown cities..."""
    colour, city, card = rng.choice(COLOURS), rng.choice(CITIES), rng.choice(CARDS)
    marker = rng.randint(0, 3)
    options: list[Command] = [
        TakeContract(colour, card),
        Move(colour, marker, city, rng.choice((None, *CITIES)), rng.choice((None, 0, 1, 2, 3, 5))),
        Fulfil(colour, card),
        Build(colour, city, rng.choice(tuple(Building))),
        Expand(colour, city),
        Cancel(colour, marker),
        Pass(colour),
        RevealEvent(card),
        Undo(),
    ]
    return rng.choice(options)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), players=st.integers(2, 3), end_at=st.sampled_from([None, 2]))
def test_check_accepts_every_legal_command_and_refuses_with_a_rule_id(
    data: st.DataObject, players: int, end_at: int | None
) -> None:
    """The queries (``legal_commands``) and the rules agree: every command the queries offer passes the
    check; a command the check refuses names an OTW rule or the input."""
    game = new_game(config(COLOURS[:players], end_at=end_at))
    rng = data.draw(st.randoms(use_true_random=False))
    for _ in range(60):
        state = game.state
        if state.finished:
            break
        for _ in range(4):
            refusal = check(state, any_command(rng))
            assert refusal is None or refusal.rule.startswith("OTW-") or refusal.rule == "undo", refusal
        if state.awaiting_event:
            unseen = [e.id for e in state.config.deck.events if e.id not in state.revealed]
            command: Command = RevealEvent(rng.choice(unseen))
        else:
            offered = list(legal_commands(state))
            assert all(check(state, c) is None for c in offered), "a command the queries offer is refused"
            command = rng.choice(offered)
        assert check(state, command) is None
        game.push(command)


def test_check_names_the_rule_and_leaves_the_state_alone() -> None:
    state = pos("cities Gamma=W1\nred 1:Beta:2")
    refusal = check(state, Move("red", 1, "Hotel"))  # through Gamma: 1 idle truck is not enough (OTW-18)
    assert refusal is not None and refusal.rule == "OTW-18"
    assert check(state, Move("red", 1, "Gamma")) is None
    assert state == pos("cities Gamma=W1\nred 1:Beta:2")
    assert check(state, Undo()) is not None  # undo needs a Game's history, not a check


# -- OTW-30: the payout and the costs the table shows are the ones the reducer books ----------------

READY = "red B01 1:Gamma:2:B01\ntime 1"


def test_otw30_payout_query_includes_the_bonus_and_malus() -> None:
    b01 = DECK.contract("B01")
    assert b01 is not None
    assert payout(pos(READY), "B01") == (b01.pay, None, 0)
    assert payout(pos(READY + " event=E01"), "B01") == (b01.pay + 500, "E01", 500)
    assert payout(pos(READY + " event=E02"), "B01") == (b01.pay - 500, "E02", -500)
    assert payout(pos(READY + " event=E03"), "B01") == (b01.pay, None, 0)  # cheaper build: not a payout
    assert payout(pos(READY), "Z99") is None


def test_otw30_the_reducer_pays_what_the_query_says() -> None:
    for event in ("", " event=E01", " event=E02"):
        state = pos(READY + event)
        expected = payout(state, "B01")
        assert expected is not None
        after = play(state, Fulfil("red", "B01"))
        assert after.players[0].money - state.players[0].money == expected.amount
        entry = after.ledger.last
        assert entry is not None and (entry.amount, entry.modifier) == (expected.amount, expected.modifier)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_fulfilment_in_a_random_game_pays_the_queried_payout(data: st.DataObject) -> None:
    game = new_game(config())
    for _ in range(120):
        state = game.state
        if state.finished:
            break
        if state.awaiting_event:
            unseen = [e.id for e in state.config.deck.events if e.id not in state.revealed]
            game.push(RevealEvent(data.draw(st.sampled_from(unseen))))
            continue
        options = list(legal_commands(state))
        fulfils = [c for c in options if isinstance(c, Fulfil)]
        command = fulfils[0] if fulfils else data.draw(st.sampled_from(options))
        game.push(command)
        if isinstance(command, Fulfil):
            expected = payout(state, command.card)
            assert expected is not None
            colour = command.player
            before = next(p.money for p in state.players if p.colour == colour)
            now = next(p.money for p in game.state.players if p.colour == colour)
            assert now - before == expected.amount


def test_otw23_24_25_30_build_costs_with_and_without_the_cheaper_build_event() -> None:
    plain, cheaper = pos(), pos("time 1 event=E03")
    assert (building_cost(plain, Building.WAREHOUSE), building_cost(plain, Building.LOGISTICS_CENTRE)) == (3000, 7500)
    assert expansion_cost(plain) == 4500
    assert building_cost(cheaper, Building.WAREHOUSE) == 2500
    assert expansion_cost(cheaper) == 4000
    after = play(pos("red 2500R\ntime 1 event=E03"), Build("red", "Delta", Building.WAREHOUSE))
    assert after.players[0].money == 2500 - building_cost(cheaper, Building.WAREHOUSE)
