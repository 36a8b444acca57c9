"""OTW-14..20: moves, new transports, transshipment and joining."""

from __future__ import annotations

from companion.games.on_the_way.engine import Cancel, Move
from companion.games.on_the_way.engine.movement import reachable
from companion.games.on_the_way.engine.queries import reachable_from_marker, reachable_new_transport

from .conftest import pos
from .helpers import play, refused


def test_otw14_a_move_goes_one_road() -> None:
    state = play(pos("red 1:Alpha:1\ncities Alpha=0 Beta=0"), Move("red", 1, "Beta"))
    assert state.players[0].transport(1).city == "Beta"  # type: ignore[union-attr]
    refused(pos("red 1:Alpha:1\ncities Beta=-0"), Move("red", 1, "Gamma"), "OTW-18", "no warehouse")
    refused(pos("red 1:Alpha:1"), Move("red", 1, "Atlantis"), "OTW-14", "no city Atlantis")
    refused(pos("red 1:Alpha:1"), Move("red", 1, "Alpha"), "OTW-14", "already stands at Alpha")


def test_otw15_a_new_transport_takes_idle_trucks_and_a_marker() -> None:
    state = pos("cities Alpha=W3")
    after = play(state, Move("red", 1, "Beta", "Alpha", 2))
    red = after.players[0]
    assert [(t.marker, t.city, t.trucks) for t in red.transports] == [(1, "Beta", 2)]
    assert after.idle_at("Alpha") == 1
    refused(state, Move("red", 1, "Beta", "Alpha", 4), "OTW-15", "Alpha has 3 trucks idle")
    refused(state, Move("red", 1, "Beta"), "OTW-15", "needs its start city")
    refused(state, Move("red", 1, "Beta", "Alpha", 0), "OTW-15", "at least 1 truck")


def test_otw15_at_most_two_transports() -> None:
    state = pos("cities Alpha=W3\nred 1:Gamma:1 2:Echo:1")
    assert not state.players[0].free_markers()
    refused(state, Move("red", 3, "Beta", "Alpha", 1), "OTW-15")


def test_otw16_only_the_owner_moves_his_transport() -> None:
    state = pos("red 1:Beta:1\nturn blue")
    after = play(state, Move("blue", 1, "Beta", "Alpha", 1))
    assert after.players[0].transport(1).city == "Beta"  # type: ignore[union-attr]
    assert after.players[1].transport(1).city == "Beta"  # type: ignore[union-attr]
    refused(pos("red 1:Beta:1"), Move("red", 1, "Gamma", "Alpha"), "OTW-16", "stands at Beta")


def test_otw17_the_whole_transport_moves_one_road() -> None:
    state = pos("red 1:Alpha:2\ncities Beta=-0")
    refused(state, Move("red", 1, "Beta", trucks=1), "OTW-17", "all its trucks")
    assert set(reachable_from_marker(state, "red", 1)) == {"Beta", "Foxtrot"}


def test_otw18_transshipment_rulebook_example() -> None:
    # Poznań -> Warsaw -> Lviv with 2 trucks because Warsaw has a warehouse and 2 idle trucks:
    # here Alpha -> Beta -> Gamma.
    state = pos("cities Beta=W2 Gamma=-0\nred 1:Alpha:2")
    after = play(state, Move("red", 1, "Gamma"))
    assert after.players[0].transport(1).city == "Gamma"  # type: ignore[union-attr]
    assert after.idle_at("Beta") == 2  # interpretation: goods change trucks, the count stays
    assert after.steps_left == 1  # one action


def test_otw18_transshipment_needs_enough_idle_trucks() -> None:
    state = pos("cities Beta=W1\nred 1:Alpha:2")
    err = refused(state, Move("red", 1, "Gamma"), "OTW-18", "Beta has 1 truck idle", "2-truck transport needs 2")
    assert "OTW-18" in str(err)


def test_otw18_transshipment_repeats_through_several_cities() -> None:
    state = pos("cities Beta=W1 Gamma=L1 Delta=-0\nred 1:Alpha:1")
    routes = reachable_from_marker(state, "red", 1)
    assert routes["Delta"].cities == ("Alpha", "Beta", "Gamma", "Delta")
    assert "Echo" not in routes  # Delta has no building
    assert routes["Hotel"].cities == ("Alpha", "Beta", "Gamma", "Hotel")


def test_otw18_neutral_buildings_house_rule() -> None:
    text = "cities Beta=W2\nred 1:Alpha:1"
    state = pos(text)
    assert "Gamma" in reachable_from_marker(state, "red", 1)
    # Built by blue: with neutral_buildings off, red cannot transship there.
    from dataclasses import replace

    strict = pos(text, neutral_buildings=False)
    i = strict.board.index["Beta"]
    strict = replace(strict, builders=tuple("blue" if j == i else b for j, b in enumerate(strict.builders)))
    assert "Gamma" not in reachable_from_marker(strict, "red", 1)
    refused(strict, Move("red", 1, "Gamma"), "OTW-18", "neutral_buildings")


def test_otw18_reachable_set_for_a_would_be_transport() -> None:
    state = pos("cities Alpha=W2 Beta=W1 Foxtrot=0 Gamma=-0")
    assert set(reachable_new_transport(state, "red", "Alpha", 1)) == {"Beta", "Foxtrot", "Gamma", "Golf"}
    assert set(reachable_new_transport(state, "red", "Alpha", 2)) == {"Beta", "Foxtrot"}
    assert reachable_new_transport(state, "red", "Alpha", 3) == {}


def test_otw19_joining_idle_trucks_at_the_start_city() -> None:
    state = pos("cities Alpha=W1\nred 1:Alpha:2")
    after = play(state, Move("red", 1, "Beta", trucks=3))
    assert after.players[0].transport(1).trucks == 3  # type: ignore[union-attr]
    assert after.idle_at("Alpha") == 0
    refused(state, Move("red", 1, "Beta", trucks=4), "OTW-19", "only idle trucks at Alpha")


def test_otw19_rulebook_example_build_a_centre_then_move_three() -> None:
    from companion.games.on_the_way.engine import Build, Building

    state = pos("cities Beta=-0\nred 8000R 1:Beta:1")
    after = play(state, Build("red", "Beta", Building.LOGISTICS_CENTRE), Move("red", 1, "Alpha", trucks=3))
    moved = [(t.marker, t.city, t.trucks) for t in after.players[0].transports]
    assert moved == [(1, "Alpha", 3)]
    assert after.idle_at("Beta") == 0


def test_otw20_two_transports_in_one_city_do_not_merge() -> None:
    state = pos("cities Beta=0\nred 1:Beta:1 2:Beta:1")
    refused(state, Move("red", 1, "Alpha", trucks=2), "OTW-19", "it has 0")
    after = play(state, Cancel("red", 2), Move("red", 1, "Alpha", trucks=2))
    assert [(t.marker, t.city, t.trucks) for t in after.players[0].transports] == [(1, "Alpha", 2)]


def test_reachable_is_empty_without_steps() -> None:
    state = pos("red 1:Alpha:1")
    assert reachable(state, "red", "Alpha", 1, 0) == {}
