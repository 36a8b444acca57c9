"""Table commands seen by scripts (``companion play --game auf-achse``): refusals name the action,
an optional ``player`` on ``draw_action`` / ``reveal_public``, late bids and passes (AA-12, AA-19, AA-21)."""

from __future__ import annotations

import json

from companion.games.auf_achse.engine import (
    Bid,
    DrawAction,
    Move,
    OpenAuction,
    PassBid,
    RevealPublic,
    Roll,
    TakeSpare,
    new_game,
)
from companion.games.auf_achse.engine.commands import action_name
from companion.games.auf_achse.engine.serialize import command_from_json, command_to_json

from .conftest import config, pos
from .helpers import play, refused

DRAW = "red @Alpha-Beta#1\nblue @Gamma-Delta#4\n"
THREE = """
red    @Alpha
blue   @Gamma-Delta#4 1000DM
green  @Beta-Gamma#1
public C10,C11,C12,C13
turn   red stage=act exact
"""
COLOURS = ("red", "blue", "green")


def on_triangle():  # type: ignore[no-untyped-def]
    return play(pos(DRAW), Roll("red", 1), Move("red", "Alpha-Beta#2"))


def test_aa12_a_refusal_names_the_action_not_the_python_class() -> None:
    state = pos(DRAW + "turn red stage=act\n")
    error = refused(state, DrawAction("A01"), "AA-12", "no card is due now (draw_action refused)")
    assert "DrawAction" not in error.message
    refused(state, RevealPublic("C20"), "AA-21", "(reveal_public refused)")
    refused(state, TakeSpare("red", "C20"), "AA-4", "(take_spare refused)")
    assert action_name(PassBid("red")) == "pass_bid" and action_name(DrawAction("A01")) == "draw_action"


def test_aa12_draw_action_may_name_the_drawer_and_a_wrong_one_is_refused() -> None:
    state = on_triangle()
    refused(state, DrawAction("A02", "blue"), "AA-12", "red's to do, not blue's", "warning triangle")
    refused(state, DrawAction("A02", "purple"), "AA-1", "no purple player")
    after = play(state, DrawAction("A02", "red"))
    assert after.players[0].money == 6000 and after == play(state, DrawAction("A02"))


def test_aa21_reveal_public_may_name_the_opener() -> None:
    state = play(pos(THREE, COLOURS), OpenAuction("red", "C10"), PassBid("blue"), PassBid("green"))
    refused(state, RevealPublic("C20", "blue"), "AA-21", "red's to do, not blue's", "red opened it")
    assert play(state, RevealPublic("C20", "red")).public == ("C11", "C12", "C13", "C20")


def test_aa4_reveal_public_in_set_up_accepts_any_player_of_the_game() -> None:
    game = new_game(config())
    game.push(RevealPublic("C10", "blue"))
    assert game.state.public == ("C10",)
    refused(game.state, RevealPublic("C11", "purple"), "AA-1", "no purple player")


def test_optional_player_json_round_trips_and_old_scripts_stay_byte_for_byte() -> None:
    for line in ('{"action": "draw_action", "card": "A01"}', '{"action": "reveal_public", "card": "C07"}'):
        command = command_from_json(json.loads(line))
        assert json.dumps(command_to_json(command)) == line
    named = command_from_json({"player": "red", "action": "draw_action", "card": "A01"})
    assert named == DrawAction("A01", "red")
    assert command_to_json(named) == {"player": "red", "action": "draw_action", "card": "A01"}
    assert command_from_json({"action": "reveal_public", "card": "C07", "player": None}) == RevealPublic("C07")
    assert command_from_json(command_to_json(RevealPublic("C07", "blue"))) == RevealPublic("C07", "blue")


def test_aa19_an_automatically_passed_player_is_told_he_has_passed() -> None:
    # blue has 1 000 DM: after green bids level 3 (1 200 DM) he cannot bid and passes automatically.
    state = play(pos(THREE, COLOURS), OpenAuction("red", "C10"), Bid("green", 3))
    refused(state, PassBid("blue"), "AA-19", "blue has already passed automatically", "C10")
    refused(state, Bid("blue", 4), "AA-19", "blue has already passed automatically")
    # red (the opener) passes: green wins; blue's late pass is still about the auction, not the next card
    state = play(state, PassBid("red"))
    assert state.auction is None and state.awaiting is not None
    refused(state, PassBid("blue"), "AA-19", "blue has already passed automatically", "green won it")
    refused(state, Bid("red", 3), "AA-19", "red has already passed", "green won it")
    refused(state, PassBid("green"), "AA-19", "the auction of C10 is over: green won it")
