"""OTW-9: the face-up offer. The table scans what lies open ("lay_out"); the engine tracks it; bots and
the advisor take only cards that lie there (issue 14), while a person may still take the top of the pile."""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine.errors import IllegalAction
from companion.engine.game import Game
from companion.games.on_the_way.bots import Kernel, Level, advise, choose
from companion.games.on_the_way.engine import LayOut, TakeContract, Undo, apply
from companion.games.on_the_way.engine.notation import position
from companion.games.on_the_way.engine.queries import offer_missing, takeable_contracts
from companion.games.on_the_way.engine.serialize import command_from_json, command_to_json, state_to_json
from companion.games.on_the_way.engine.state import GameState, initial_state
from tests.bots.helpers import config_for

TINY = 0.002


def laid_out(state: GameState, *cards: str) -> GameState:
    for card in cards:
        state, events = apply(state, LayOut(card))
        assert [type(e).__name__ for e in events] == ["ContractLaidOut"]
    return state


def refusal(state: GameState, command: object) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        apply(state, command)  # type: ignore[arg-type]
    return caught.value


# -- the engine ---------------------------------------------------------------------------------


def test_an_untracked_game_has_no_offer_and_its_state_json_is_unchanged() -> None:
    state = initial_state(config_for(2))
    assert state.offer is None and "offer" not in state_to_json(state)
    assert offer_missing(state) == 3  # what a table would have to lay out (2 players, OTW-9)
    assert takeable_contracts(state) == state.config.deck.contracts  # any card may be meant (OTW-9 default)


def test_laying_out_fills_the_offer_and_a_take_from_it_makes_room() -> None:
    state = laid_out(initial_state(config_for(2)), "B01", "B02", "B03")
    assert state.offer == ("B01", "B02", "B03") and offer_missing(state) == 0
    assert state_to_json(state)["offer"] == ["B01", "B02", "B03"]
    takeable = {c.id for c in takeable_contracts(state)}
    assert {"B01", "B02", "B03"} <= takeable and "B09" in takeable  # the open cards, and the pile's top
    after, _ = apply(state, TakeContract("red", "B02"))
    assert after.offer == ("B01", "B03") and offer_missing(after) == 1  # refill from the pile
    top, _ = apply(state, TakeContract("red", "B09"))  # not open: the top of the pile (OTW-9)
    assert top.offer == state.offer and offer_missing(top) == 0


@pytest.mark.parametrize(
    ("setup", "card", "rule", "words"),
    [
        ((), "ZZ9", "OTW-9", "no contract card ZZ9"),
        (("B01",), "B01", "OTW-9", "already lies in the offer"),
        (("B01", "B02", "B03"), "B04", "OTW-9", "offer is complete"),
    ],
)
def test_a_lay_out_that_cannot_be_is_refused_with_its_rule(
    setup: tuple[str, ...], card: str, rule: str, words: str
) -> None:
    state = laid_out(initial_state(config_for(2)), *setup)
    error = refusal(state, LayOut(card))
    assert error.rule == rule and words in error.message


def test_a_taken_card_cannot_be_laid_out_and_the_game_over_refuses_everything() -> None:
    state = position(config_for(2), "red 1000R B05")
    assert refusal(state, LayOut("B05")).rule == "OTW-9"
    over = position(config_for(2), "time 14 last=1\nturn blue round=1 used=1")
    over, _ = apply(over, TakeContract("blue", "B01"))
    assert over.finished and refusal(over, LayOut("B02")).rule == "OTW-31"


def test_a_tier_whose_cards_are_all_taken_or_open_cannot_be_laid_out() -> None:
    # 2 players: 17 of the 20 basic cards are in play (OTW-4); 15 taken and 2 open leave none.
    config = config_for(2)
    basic = [c.id for c in config.deck.contracts if c.tier.value == "basic"]
    state = position(config, f"time 0 used={','.join(basic[:15])}")
    state = laid_out(state, basic[15], basic[16])
    error = refusal(state, LayOut(basic[17]))
    assert error.rule == "OTW-4" and "returned to the box" in error.message


def test_laying_out_is_no_step_and_works_while_an_event_card_is_due() -> None:
    state = position(config_for(2), "turn red used=1\ntime 2 awaiting")
    after = laid_out(state, "B01")
    assert after.turn == state.turn and after.awaiting_event and after.offer == ("B01",)


def test_undo_takes_a_lay_out_and_a_take_back() -> None:
    game = Game(initial_state(config_for(2)), apply, undo_types=(Undo,))
    for card in ("B01", "B02", "B03"):
        game.push(LayOut(card))
    game.push(TakeContract("red", "B01"))
    game.push(LayOut("B04"))
    game.push(Undo())
    assert game.state.offer == ("B02", "B03")
    game.push(Undo())
    assert game.state.offer == ("B01", "B02", "B03") and game.state.players[0].contracts == ()


def test_lay_out_is_a_json_command_and_the_notation_names_the_offer() -> None:
    data = {"action": "lay_out", "card": "B07"}
    assert command_from_json(data) == LayOut("B07") and command_to_json(LayOut("B07")) == data
    assert position(config_for(2), "time 0 offer=B04,B05").offer == ("B04", "B05")


# -- bots and the advisor -----------------------------------------------------------------------


def test_the_kernel_knows_the_offer_at_the_root_only() -> None:
    state = laid_out(initial_state(config_for(2)), "B01", "B08", "B03")
    k = Kernel.from_state(state)
    index = k.t.card_index
    assert k.offered(index["B08"]) and not k.offered(index["B09"])
    k.step(k.from_command(TakeContract("red", "B08")))
    assert k.offered(index["B09"])  # a refill is pending and unseen: a loose bound (reveal_refills narrows it)
    assert Kernel.from_state(initial_state(config_for(2))).offered(index["B09"])  # untracked: any card


def open_cards(k: Kernel) -> set[int]:
    return {c for c in range(len(k.t.card_ids)) if k.offer >> c & 1 and not k.used >> c & 1}


def test_a_playout_keeps_the_cards_nobody_took_and_refills_only_the_gap() -> None:
    """OTW-9: the offer lies open all game. Before, a playout forgot it after the first take and dealt
    five fresh cards at every pick, so waiting or cancelling re-rolled the offer in the model."""
    state = laid_out(initial_state(config_for(2)), "B01", "B08", "B03")
    k = Kernel.from_state(state)
    index = k.t.card_index
    k.step(k.from_command(TakeContract("red", "B08")))
    assert open_cards(k) == {index["B01"], index["B03"]} and k.refills == 1
    k.reveal_refills(random.Random(4))
    now = open_cards(k)
    assert k.refills == 0 and len(now) == 3 and {index["B01"], index["B03"]} < now
    assert index["B08"] not in now
    (refill,) = now - {index["B01"], index["B03"]}
    assert k.t.card_ids[refill].startswith("B")  # OTW-5: basic cards lie on top of the pile
    k.reveal_refills(random.Random(5))  # nothing unseen: the offer stays as it lies
    assert open_cards(k) == now


def test_a_blind_take_from_the_pile_leaves_the_offer_as_it_lies() -> None:
    state = laid_out(initial_state(config_for(2)), "B01", "B08", "B03")
    k = Kernel.from_state(state)
    k.step(k.from_command(TakeContract("red", "B09")))  # a person may take the top of the pile
    assert open_cards(k) == {k.t.card_index[c] for c in ("B01", "B08", "B03")} and k.refills == 0


@pytest.mark.parametrize("tier_order", [False, True])
def test_a_refill_comes_from_a_tier_the_pile_still_holds(tier_order: bool) -> None:
    """OTW-4: 2 players, 15 basic cards taken and the last 2 in play lying open: taking one leaves no basic
    card in the pile, so its refill is the next tier's (OTW-5: the pile lies sorted, whichever cards the
    companion accepts)."""
    from companion.games.on_the_way.engine import HouseRules
    from companion.games.on_the_way.engine.options import ContractOffer

    offer = ContractOffer.TIER_ORDER if tier_order else ContractOffer.OPEN
    config = config_for(2, HouseRules(contract_offer=offer))
    basic = [c.id for c in config.deck.contracts if c.tier.value == "basic"]
    tiers = {c.id: c.tier.value for c in config.deck.contracts}
    state = laid_out(position(config, f"time 0 used={','.join(basic[:15])}"), basic[15], basic[16])
    seen: set[str] = set()
    for seed in range(40):
        k = Kernel.from_state(state)
        k.step(k.from_command(TakeContract("red", basic[15])))
        k.reveal_refills(random.Random(seed))
        refill = open_cards(k) - {k.t.card_index[basic[16]]}
        assert len(refill) == 1
        seen.add(tiers[k.t.card_ids[refill.pop()]])
    assert seen == {"extended"}, seen


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4))
def test_in_a_whole_playout_open_cards_leave_the_offer_only_when_taken(seed: int, players: int) -> None:
    """The greedy policy plays a whole game in the kernel from a laid-out offer: every take is an open
    card, the open cards never exceed the offer's size (OTW-9), and a card leaves only by being taken."""
    from companion.games.on_the_way.bots.kernel import OFFER_SIZE, TAKE
    from companion.games.on_the_way.bots.policy import policy_action

    rng = random.Random(seed)
    state = initial_state(config_for(players))
    pile = [c.id for c in state.config.deck.contracts]
    rng.shuffle(pile)
    state = laid_out(state, *pile[: OFFER_SIZE[players]])
    k = Kernel.from_state(state)
    before = open_cards(k)
    takes = 0
    for _ in range(3000):
        if k.finished:
            break
        action = policy_action(k, rng)
        revealed = open_cards(k)  # the pick turned up the unseen refills
        assert before <= revealed and len(revealed) <= OFFER_SIZE[players]
        if action[0] == TAKE:
            assert action[1] in revealed, action
            takes += 1
        k.step(action)
        after = open_cards(k)
        assert after == revealed - ({action[1]} if action[0] == TAKE else set()), action
        before = after
    assert takes > 0


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4), level=st.sampled_from([Level.EASY, Level.MEDIUM]))
def test_a_bot_takes_only_cards_that_lie_open_and_is_never_refused(seed: int, players: int, level: Level) -> None:
    """Whole games (shortened) with the offer laid out from a shuffled pile and refilled after every
    take, as the people at a table do: every bot take is a card of the offer, no command is refused."""
    rng = random.Random(seed)
    state = initial_state(config_for(players, None, 2))
    pile = [c.id for c in state.config.deck.contracts]
    rng.shuffle(pile)
    pile.sort(key=lambda c: "BXP".index(c[0]) if c[0] in "BXP" else 0)  # OTW-5: basic on top
    takes = 0
    for _ in range(400):
        if state.finished:
            break
        while offer_missing(state) and pile:
            card = pile.pop(0)
            try:
                state, _ = apply(state, LayOut(card))
            except IllegalAction as error:
                assert error.rule == "OTW-4"  # a card of an exhausted tier: one returned to the box
        colour = state.current.colour
        if rng.random() < 0.1 and not state.awaiting_event:  # the query agrees with the reducer on takes
            takeable = {c.id for c in takeable_contracts(state)}
            for contract in state.config.deck.contracts:
                try:
                    apply(state, TakeContract(colour, contract.id))
                    accepted = True
                except IllegalAction:
                    accepted = False
                assert accepted == (contract.id in takeable and state.steps_left > 0), contract.id
        command = choose(state, colour, level, seed, budget_s=TINY)
        if isinstance(command, TakeContract):
            assert state.offer is not None and command.card in state.offer, (command, state.offer)
            takes += 1
        state, _ = apply(state, command)  # raises if refused: the test fails
    assert takes > 0


def test_advice_names_only_cards_of_the_offer() -> None:
    state = laid_out(initial_state(config_for(2)), "B08", "B03", "B10")
    advice = advise(state, "red", budget_s=0.05, seed=1)
    assert advice
    for a in advice:
        named = set(re.findall(r"\b[BXP]\d\d\b", json.dumps(a.to_json())))
        assert named <= {"B08", "B03", "B10"}, a.to_json()
        if isinstance(a.command, TakeContract):
            assert a.command.card in ("B08", "B03", "B10")


def test_with_tier_order_only_a_card_that_can_be_on_top_is_laid_out() -> None:
    from companion.games.on_the_way.engine import HouseRules
    from companion.games.on_the_way.engine.options import ContractOffer

    state = initial_state(config_for(2, HouseRules(contract_offer=ContractOffer.TIER_ORDER)))
    error = refusal(state, LayOut("P01"))  # OTW-5: basic cards lie above the professional ones
    assert error.rule == "OTW-5" and "P01" in error.message
    assert laid_out(state, "B01").offer == ("B01",)


def test_a_blind_take_cannot_be_a_card_whose_tier_lies_all_open() -> None:
    # 2 players: 17 basic in play; 15 taken and 2 open: the pile holds no basic card any more (OTW-4).
    config = config_for(2)
    basic = [c.id for c in config.deck.contracts if c.tier.value == "basic"]
    state = laid_out(position(config, f"time 0 used={','.join(basic[:15])}"), basic[15], basic[16])
    error = refusal(state, TakeContract("red", basic[17]))
    assert error.rule == "OTW-4" and "taken from the pile" in error.message
    apply(state, TakeContract("red", basic[15]))  # the open card may be taken


@pytest.mark.parametrize("level", [Level.EASY, Level.MEDIUM, Level.HARD])
def test_without_passing_a_bot_never_plans_a_refused_pass(level: Level) -> None:
    """House rule allow_pass = false (OTW-11): with one open card left and nothing else to do, the bot
    uses its step instead of passing (it used to send a refused Pass, or fail to search)."""
    from companion.games.on_the_way.engine import HouseRules

    state = initial_state(config_for(2, HouseRules(allow_pass=False)))
    state = laid_out(state, "B07", "B08", "B09")
    for card in ("B07", "B08"):
        state, _ = apply(state, TakeContract("red", card))
    for seed in range(20):
        apply(state, choose(state, "blue", level, seed, budget_s=TINY))  # raises if refused


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4))
def test_every_refill_a_playout_turns_up_is_a_card_the_engine_lets_lie_on_top(seed: int, players: int) -> None:
    """The kernel's refill model against the validated engine, not its own arithmetic: the engine, with
    the tier_order house rule, refuses to lay out a card that cannot be the pile's top (OTW-4: its tier
    is all taken or open; OTW-5: a lower tier still lies above). Cards are taken from the offer until the
    pile runs dry; after each take the card the kernel turns up is laid out through the engine."""
    from companion.games.on_the_way.engine import HouseRules, Pass
    from companion.games.on_the_way.engine.options import ContractOffer

    rng = random.Random(seed)
    state = initial_state(config_for(players, HouseRules(contract_offer=ContractOffer.TIER_ORDER)))
    tiers = ("basic", "extended", "professional")
    pile = sorted((c.id for c in state.config.deck.contracts), key=lambda cid: rng.random())
    pile.sort(key=lambda cid: tiers.index(state.config.contract(cid).tier.value))  # type: ignore[union-attr]
    for card in pile:
        if not offer_missing(state):
            break
        state = laid_out(state, card)
    refills = 0
    while state.offer and not state.finished:
        if state.awaiting_event or state.steps_left == 0:
            break
        colour = state.current.colour
        card = rng.choice(state.offer)
        k = Kernel.from_state(state)
        k.step(k.from_command(TakeContract(colour, card)))
        state, _ = apply(state, TakeContract(colour, card))
        k.reveal_refills(rng)
        turned_up = sorted(open_cards(k) - {k.t.card_index[c] for c in state.offer or ()})
        if offer_missing(state) == 0:  # the pile is empty: nothing may come up
            assert turned_up == []
            continue
        assert len(turned_up) == 1
        state = laid_out(state, k.t.card_ids[turned_up[0]])  # raises (OTW-4/5) if it cannot lie on top
        refills += 1
        if state.steps_left and rng.random() < 0.5 and not state.awaiting_event:
            state, _ = apply(state, Pass(state.current.colour))
    assert refills > 0
