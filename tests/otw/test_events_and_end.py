"""OTW-28..33: the strip, event cards, the time track, the end and scoring."""

from __future__ import annotations

from companion.games.on_the_way.engine import Build, Building, Fulfil, Move, Pass, RevealEvent, TakeContract
from companion.games.on_the_way.engine.events import EventDue, GameEnded, LastRound
from companion.games.on_the_way.engine.rules import apply
from companion.games.on_the_way.engine.scoring import ranking, score

from .conftest import pos
from .helpers import play, refused

READY = "cities Gamma=W0\nred B01 1:Gamma:2:B01\ntime 0 strip=B02,B03"  # the 3rd card fills a 2p strip


def test_otw28_third_card_on_a_2p_strip_asks_for_an_event() -> None:
    state, events = apply(pos(READY), Fulfil("red", "B01"))
    assert state.awaiting_event
    assert EventDue("red") in events
    refused(state, TakeContract("red", "B04"), "OTW-28", "reveal the next event card")
    after = play(state, RevealEvent("E01"))
    assert (after.strip, after.time, after.event, after.awaiting_event) == ((), 1, "E01", False)
    assert after.current.colour == "red" and after.steps_left == 1


def test_otw28_event_cards_cannot_be_revealed_unasked_or_twice() -> None:
    refused(pos(), RevealEvent("E01"), "OTW-28", "no event is due")
    state = play(pos(READY + " event=E01"), Fulfil("red", "B01"))
    refused(state, RevealEvent("E01"), "OTW-28", "already been revealed")
    refused(state, RevealEvent("E99"), "OTW-28", "no event card E99")


def test_otw29_extra_step_applies_at_once_rulebook_example() -> None:
    # Libor used a step to fulfil; the new card gives every player 1 extra step: 2 more steps now.
    state = play(pos(READY), Fulfil("red", "B01"), RevealEvent("E04"))
    assert (state.current.colour, state.steps_left) == ("red", 2)


def test_otw29_the_next_player_keeps_the_extra_step() -> None:
    state = play(pos(READY), Fulfil("red", "B01"), RevealEvent("E04"), Pass("red"))
    assert (state.current.colour, state.steps_left) == ("blue", 3)


def test_otw30_bonus_and_malus_change_the_payout_in_the_ledger() -> None:
    bonus = play(pos("red B01 1:Gamma:2:B01\ntime 1 event=E01"), Fulfil("red", "B01"))
    assert bonus.players[0].money == 1000 + 1500 + 500
    entry = bonus.ledger.last
    assert entry is not None and (entry.amount, entry.modifier, entry.rule) == (2000, "E01", "OTW-22")
    malus = play(pos("red B01 1:Gamma:2:B01\ntime 1 event=E02"), Fulfil("red", "B01"))
    assert malus.players[0].money == 1000 + 1500 - 500


def test_otw30_cheaper_build() -> None:
    state = play(pos("red 2500R\ntime 1 event=E03"), Build("red", "Delta", Building.WAREHOUSE))
    assert state.players[0].money == 0
    refused(pos("red 2400R\ntime 1 event=E03"), Build("red", "Delta", Building.WAREHOUSE), "OTW-23", "2 500 R")


def test_otw30_traffic_jam_takes_two_steps_and_blocks_transshipment() -> None:
    state = play(pos(READY), Fulfil("red", "B01"), RevealEvent("E05"))  # jam Beta–Gamma
    assert state.jams == (("Beta", "Gamma"),)
    jammed = pos("cities Beta=W2\nred 1:Alpha:2 2:Gamma:1\ntime 1 event=E05 jams=Beta-Gamma")
    refused(jammed, Move("red", 1, "Gamma"), "OTW-30", "Beta–Gamma is jammed", "inside a transshipment")
    crossed = play(jammed, Move("red", 2, "Beta"))
    assert crossed.players[0].transport(2).city == "Beta"  # type: ignore[union-attr]
    assert crossed.current.colour == "blue"  # both steps used
    one_left = pos("red 2:Gamma:1\nturn red used=1\ntime 1 event=E05 jams=Beta-Gamma")
    refused(one_left, Move("red", 2, "Beta"), "OTW-30", "takes 2 steps", "1 step left")


def test_otw30_jam_tokens_persist_and_the_fourth_moves_the_oldest() -> None:
    state = pos(READY + " event=E05 jams=Beta-Gamma,Gamma-Delta,Hotel-India")
    after = play(state, Fulfil("red", "B01"), RevealEvent("E08"))
    assert after.jams == (("Delta", "Gamma"), ("Hotel", "India"), ("Alpha", "Beta"))
    temporary = play(
        pos(READY + " event=E05 jams=Beta-Gamma", jams_persist=False), Fulfil("red", "B01"), RevealEvent("E01")
    )
    assert temporary.jams == ()


def test_otw30_house_rule_jam_inside_a_chain() -> None:
    state = pos("cities Beta=W2\nred 1:Alpha:2\ntime 1 jams=Beta-Gamma", jam_blocks_transshipment=False)
    after = play(state, Move("red", 1, "Gamma"))
    assert after.players[0].transport(1).city == "Gamma"  # type: ignore[union-attr]
    assert after.current.colour == "blue"  # 1 step + 1 for the jam


def test_otw31_reaching_the_end_mark_plays_out_the_round() -> None:
    state = pos(READY.replace("time 0", "time 13"), colours=("red", "blue"))
    state, events = apply(play(state, Fulfil("red", "B01")), RevealEvent("E01"))
    assert LastRound(1) in events and state.last_round == 1
    state = play(state, Pass("red"))
    assert not state.finished and state.current.colour == "blue"
    state, events = apply(state, Pass("blue"))
    assert state.finished
    assert any(isinstance(e, GameEnded) for e in events)
    refused(state, Pass("red"), "OTW-31", "game is over")


def test_otw31_end_at_overrides_the_time_track_end() -> None:
    state = pos(READY.replace("time 0", "time 2"), end_at=3)
    state = play(state, Fulfil("red", "B01"), RevealEvent("E01"))
    assert state.last_round == 1


def test_otw32_a_full_strip_in_the_last_round_ends_the_game_at_once() -> None:
    state = pos(READY.replace("time 0", "time 14") + " last=1")
    state, events = apply(state, Fulfil("red", "B01"))
    assert state.finished and not state.awaiting_event and state.time == 14
    assert any(isinstance(e, GameEnded) for e in events)


def test_otw33_score_is_vp_plus_one_per_full_3000() -> None:
    state = pos("red 8999R 3VP\nblue 9000R 2VP")
    assert [score(p) for p in state.players] == [5, 5]
    standings = ranking(state)
    assert [(s.place, s.colour) for s in standings] == [(1, "blue"), (2, "red")]  # tie on VP: most R


def test_otw33_complete_tie_shares_the_win() -> None:
    state = pos("red 3000R 1VP\nblue 3000R 1VP")
    assert [(s.place, s.colour) for s in ranking(state)] == [(1, "red"), (1, "blue")]
