"""Auf Achse bots: legal commands only, whole games under every house rule, exact replays, auctions."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games import get
from companion.games.auf_achse.bots import LEVELS, choose
from companion.games.auf_achse.bots.search import determinize, playout
from companion.games.auf_achse.engine import (
    Bid,
    Command,
    DealContract,
    DrawAction,
    OpenAuction,
    PassBid,
    PlaceTruck,
    RevealPublic,
    Roll,
    StartGame,
    apply,
)
from companion.games.auf_achse.engine.notation import position
from companion.games.auf_achse.engine.queries import legal_commands
from companion.games.auf_achse.engine.state import initial_state
from tests.bots_aa.helpers import COLOURS, config_for, next_bot_command, play_game

# Every house-rule option of companion/games/auf_achse/engine/options.py away from its default.
VARIANTS: list[tuple[tuple[str, object], ...]] = [
    (),
    (("auction_order", "round_the_table"),),
    (("pass_is_final", False),),
    (("auto_settle_debts", False),),
    (("bids_need_cash", False), ("debts_count", False)),
    (("stau_removal", "round_end"), ("tie_break", "deliveries")),
]

# AA-18: red's move ended exactly in Hamburg; C10..C13 lie face up.
AUCTION = """
red  @Hamburg hand=C01
blue @Hamburg-Bremen#2 hand=C02
public C10,C11,C12,C13 hidden=8
turn red stage=act roll=3 exact
"""


def _plain(command: Command) -> Command:
    """``legal_commands`` lists the physical die's values and table cards without who scanned them;
    a bot rolls the companion's die (value None) and names itself on the cards it turns up."""
    if isinstance(command, Roll):
        return Roll(command.player, 1)
    if isinstance(command, RevealPublic | DrawAction):
        return replace(command, player=None)
    return command


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: ",".join(f"{k}={v}" for k, v in r) or "default")
def test_easy_bots_play_whole_games_of_2_to_4_players_with_only_legal_commands(
    rules: tuple[tuple[str, object], ...],
) -> None:
    for players in (2, 3, 4):
        seed = players * 7 + len(rules)
        levels = dict.fromkeys(COLOURS[:players], "easy")
        state, log, refused = play_game(levels, seed, rules)
        assert refused == 0, (players, log[-1:])
        assert state.finished and state.public_left == 0  # AA-23: every public contract was auctioned
    # Stronger than "not refused": each command is one the engine itself lists as legal now.
    state = initial_state(config_for(3, rules, 1))
    levels = dict.fromkeys(COLOURS[:3], "easy")
    for _ in range(400):
        command = next_bot_command(state, levels, 1)
        assert command is not None
        assert _plain(command) in {_plain(c) for c in legal_commands(state)}, command
        state, _ = apply(state, command)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 10_000),
    rules=st.sampled_from(VARIANTS),
    medium=st.integers(0, 7),  # 4..7: no medium seat
)
def test_no_bot_command_is_ever_refused(
    players: int, seed: int, rules: tuple[tuple[str, object], ...], medium: int
) -> None:
    # One seat medium (if it exists at this table), the others easy; 120 commands of the game.
    levels = {c: "medium" if i == medium else "easy" for i, c in enumerate(COLOURS[:players])}
    _state, log, refused = play_game(levels, seed, rules, max_commands=120)
    assert refused == 0, log[-1:]


def test_a_medium_bot_finishes_a_whole_game_against_easy_without_a_refusal() -> None:
    state, log, refused = play_game({"red": "easy", "blue": "medium"}, seed=3)
    assert refused == 0 and state.finished
    # AA-7: the bots roll the companion's die (its seeded roll), never a value of their own.
    assert all(c.value is None for c in log if isinstance(c, Roll))
    assert any(isinstance(c, Bid) for c in log) and any(isinstance(c, PassBid) for c in log)


def test_a_bot_game_replays_exactly_from_its_seed() -> None:
    levels = {"red": "medium", "blue": "easy"}
    first = play_game(levels, seed=5, max_commands=70)
    again = play_game(levels, seed=5, max_commands=70)
    other = play_game(levels, seed=6, max_commands=70)
    assert first[1] == again[1] and first[0] == again[0]
    assert first[1] != other[1]


def test_choose_is_a_pure_function_of_state_colour_level_and_seed() -> None:
    state = position(config_for(2), AUCTION)
    for level in LEVELS:
        assert choose(state, "red", level, 11) == choose(state, "red", level, 11)
    # The greedy step has no luck in it: whatever the seed, red auctions the public contract worth most to him.
    assert len({choose(state, "red", "easy", seed) for seed in range(5)}) == 1
    assert isinstance(choose(state, "red", "easy", 0), OpenAuction)


def test_set_up_is_played_in_the_engines_order_with_the_first_seat_laying_out_the_board() -> None:
    # AA-2..5: trucks, then private contracts, then the public ones and the start (the first seat's).
    state = initial_state(config_for(2))
    levels = {"red": "easy", "blue": "easy"}
    kinds = []
    while state.phase.value == "setup":
        command = next_bot_command(state, levels, 2)
        assert command is not None
        kinds.append((type(command), None if isinstance(command, StartGame) else getattr(command, "player", None)))
        state, _ = apply(state, command)
    assert kinds == [
        (PlaceTruck, "red"), (PlaceTruck, "blue"), *[(DealContract, "red")] * 3, *[(DealContract, "blue")] * 3,
        *[(RevealPublic, None)] * 4, (StartGame, None),
    ]  # fmt: skip
    assert state.phase.value == "play"  # AA-5: whoever won the roll-off starts
    # A seat that is not the first does not lay out the public contracts (its person or bot waits).
    state = initial_state(config_for(2))
    for command in (PlaceTruck("red", "Hamburg-Bremen#1"), PlaceTruck("blue", "Hamburg-Bremen#2")):
        state, _ = apply(state, command)
    assert choose(state, "blue", "easy", 0) is None  # red is dealt first (AA-4)


def test_aa19_a_bot_still_in_an_auction_bids_or_passes_whoever_s_turn_it_is() -> None:
    state = position(config_for(2), AUCTION)
    state, _ = apply(state, OpenAuction("red", "C10"))
    assert state.current.colour == "red"  # red's turn, and blue answers the auction
    answer = choose(state, "blue", "easy", 0)
    assert isinstance(answer, Bid | PassBid) and answer.player == "blue"
    # AA-20: the opener makes no bid while nobody has bid (nobody bidding gives him the card): he waits.
    assert choose(state, "red", "easy", 0) is None and choose(state, "red", "medium", 0) is None
    state, _ = apply(state, Bid("blue", 1))
    # The opener may now match; a blue bot, the high bidder, has nothing to do (AA-19).
    assert isinstance(choose(state, "red", "medium", 0), Bid | PassBid)
    assert choose(state, "blue", "easy", 0) is None


def test_aa19_round_the_table_only_the_named_bidder_answers() -> None:
    config = config_for(3, (("auction_order", "round_the_table"),))
    state = position(config, AUCTION + "green @Berlin\n")
    state, _ = apply(state, OpenAuction("red", "C10"))
    assert state.auction is not None and state.auction.bidder == "blue"
    assert choose(state, "green", "easy", 0) is None
    assert isinstance(choose(state, "blue", "easy", 0), Bid | PassBid)


def test_auctions_between_bots_always_end() -> None:
    for rules in VARIANTS[:3]:
        levels = {"red": "easy", "blue": "medium", "green": "easy"}
        state = position(config_for(3, rules), AUCTION + "green @Berlin\n")
        state, _ = apply(state, OpenAuction("red", "C11"))
        for _ in range(30):  # at most 5 levels each: an auction ends well within 30 commands
            if state.auction is None:
                break
            command = next_bot_command(state, levels, 0)
            assert isinstance(command, Bid | PassBid)
            state, _ = apply(state, command)
        assert state.auction is None and "C11" in {c for p in state.players for c in p.hand}
        # AA-21: the opener turns up the next public contract (a bot: a random unseen card).
        assert state.awaiting is not None and state.awaiting.player == "red"
        reveal = choose(state, "red", "easy", 0)
        assert isinstance(reveal, RevealPublic) and reveal.player == "red" and reveal.card not in state.seen


def test_a_bot_has_nothing_to_do_on_another_players_turn() -> None:
    state = position(config_for(2), AUCTION)
    assert choose(state, "blue", "easy", 0) is None and choose(state, "blue", "medium", 0) is None
    # AA-12: the action card is the drawer's to draw.
    state = position(config_for(2), AUCTION.replace("stage=act roll=3 exact", "stage=roll"))
    assert choose(state, "red", "easy", 0) == Roll("red")


def test_aa12_a_bot_draws_a_fresh_action_card_when_it_ended_on_a_triangle() -> None:
    levels = {"red": "easy", "blue": "easy"}
    _state, log, refused = play_game(levels, seed=4)
    drawn = [c for c in log if isinstance(c, DrawAction)]
    assert refused == 0 and drawn and all(c.player in levels for c in drawn)


def test_the_search_does_not_peek_at_the_companions_die_or_the_other_hands() -> None:
    state = position(config_for(3), AUCTION + "green @Berlin hand=C03,C04\n")
    world = determinize(state, "red", random.Random(1))
    red, blue, green = world.players
    assert red == state.players[0]  # his own contracts are his to know
    assert len(blue.hand) == 1 and len(green.hand) == 2
    assert (set(blue.hand) | set(green.hand)) != {"C02", "C03", "C04"}  # dealt afresh from the unseen cards
    assert {c for p in world.players for c in p.contracts} <= world.seen
    # AA-7: a playout rolls its own die; the companion's roll counter does not move.
    start = position(config_for(2), AUCTION.replace("stage=act roll=3 exact", "stage=roll"))
    end, played = playout(start, 9, 40)
    assert played == 40 and end.rolls == start.rolls and end.turn != start.turn


def test_an_unknown_level_is_refused_with_the_levels_there_are() -> None:
    state = position(config_for(2), AUCTION)
    plugin = get("auf-achse")
    assert plugin.bot_levels == LEVELS == ("easy", "medium", "hard")
    with pytest.raises(ValueError, match="easy, medium, hard"):
        choose(state, "red", "expert", 0)
    with pytest.raises(ValueError, match="easy, medium, hard"):
        plugin.bot_command(state, "red", "genius", 0)
    assert plugin.bot_command(state, "red", "easy", 0) == choose(state, "red", "easy", 0)
