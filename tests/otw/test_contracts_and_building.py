"""OTW-21..27: fulfilling, payouts, building, expanding, supply limits and cancelling."""

from __future__ import annotations

from companion.games.on_the_way.engine import Build, Building, Cancel, Expand, Fulfil, Move, TakeContract
from companion.games.on_the_way.engine.queries import fulfillable, legal_builds

from .conftest import DECK, pos
from .helpers import play, refused

B01 = DECK.contract("B01")  # Alpha -> Gamma, 2 trucks, 1 500 R
assert B01 is not None and (B01.origin, B01.destination, B01.trucks, B01.pay) == ("Alpha", "Gamma", 2, 1500)


def test_otw21_route_must_start_at_the_start_city_after_taking() -> None:
    # The transport is at Alpha with 2 trucks when B01 is taken: that counts as being at the start.
    state = play(pos("cities Beta=W2\nred 1:Alpha:2"), TakeContract("red", "B01"), Move("red", 1, "Gamma"))
    assert state.players[0].transport(1).loaded == frozenset({"B01"})  # type: ignore[union-attr]


def test_otw21_arriving_without_having_been_at_the_start_is_refused() -> None:
    state = pos("red B01 1:Gamma:2\nturn red")
    refused(state, Fulfil("red", "B01"), "OTW-21", "has not been at Alpha with 2 trucks")
    # House rule: standing at the end city with enough trucks is enough.
    lenient = pos("red B01 1:Gamma:2", fulfil_needs_route=False)
    assert play(lenient, Fulfil("red", "B01")).players[0].money == 1000 + 1500


def test_otw21_too_few_trucks_or_wrong_city_are_refused() -> None:
    refused(pos("red B01 1:Gamma:1:B01"), Fulfil("red", "B01"), "OTW-21", "has 1 truck", "needs 2")
    refused(pos("red B01 1:Beta:2:B01"), Fulfil("red", "B01"), "OTW-21", "no transport of red stands at Gamma")
    refused(pos("red 1:Gamma:2:B01"), Fulfil("red", "B01"), "OTW-21", "does not hold contract B01")


def test_otw21_passing_through_the_start_city_in_a_transshipment_counts() -> None:
    # B05 Beta -> Hotel, 2 trucks: the goods are picked up at Beta on the way Alpha -> Beta -> Golf.
    state = pos("cities Beta=W2 Golf=-0\nred B05 1:Alpha:2")
    state = play(state, Move("red", 1, "Golf"))
    assert "B05" in state.players[0].transport(1).loaded  # type: ignore[union-attr]


def test_otw22_fulfil_pays_frees_the_trucks_and_fills_the_strip() -> None:
    state = pos("cities Gamma=W0\nred B01 1:Gamma:2:B01")
    assert [(c.id, m) for c, m in fulfillable(state, "red")] == [("B01", 1)]
    after = play(state, Fulfil("red", "B01"))
    red = after.players[0]
    assert (red.money, red.contracts, red.transports) == (2500, (), ())
    assert after.idle_at("Gamma") == 2
    assert after.strip == ("B01",)
    last = after.ledger.last
    assert last is not None and (last.player, last.amount, last.rule, last.card) == ("red", 1500, "OTW-22", "B01")
    assert after.ledger.balance("red") == 2500


def test_otw22_professional_contracts_can_give_vp() -> None:
    card = next(c for c in DECK.contracts if c.vp)
    state = pos(f"red {card.id} 1:{card.destination}:{card.trucks}:{card.id}")
    assert play(state, Fulfil("red", card.id)).players[0].vp == card.vp


def test_otw23_build_a_warehouse() -> None:
    state = pos("red 3500R")
    after = play(state, Build("red", "Delta", Building.WAREHOUSE))
    red = after.players[0]
    assert (red.money, red.vp) == (500, 2)
    assert after.building_at("Delta") is Building.WAREHOUSE
    assert after.idle_at("Delta") == 1
    assert after.supply_trucks == state.supply_trucks - 1
    assert after.ledger.last is not None and after.ledger.last.amount == -3000
    refused(state, Build("red", "Alpha", Building.WAREHOUSE), "OTW-23", "already has a warehouse", "expand")
    refused(pos(), Build("red", "Delta", Building.WAREHOUSE), "OTW-23", "red has 1 000 R", "costs 3 000 R")


def test_otw24_expand_a_warehouse() -> None:
    state = pos("red 5000R")
    after = play(state, Expand("red", "Alpha"))
    red = after.players[0]
    assert (red.money, red.vp) == (500, 3)
    assert after.building_at("Alpha") is Building.LOGISTICS_CENTRE
    assert after.idle_at("Alpha") == 2
    assert (after.supply_warehouses, after.supply_logistics_centres) == (state.supply_warehouses + 1, 17)
    refused(state, Expand("red", "Delta"), "OTW-24", "Delta has no building")
    refused(after, Expand("red", "Alpha"), "OTW-24", "logistics centre already")


def test_otw25_build_a_logistics_centre() -> None:
    after = play(pos("red 8000R"), Build("red", "Delta", Building.LOGISTICS_CENTRE))
    assert (after.players[0].money, after.players[0].vp, after.idle_at("Delta")) == (500, 5, 2)


def test_otw26_supply_limits_refuse_with_a_reason() -> None:
    # 33 trucks: put 32 idle on the board so a logistics centre (2 trucks) cannot be supplied.
    state = pos("cities Alpha=W10 Gamma=W10 Echo=W6 Foxtrot=W2 Hotel=W2 Juliet=W2\nred 9000R")
    assert state.supply_trucks == 1
    refused(state, Build("red", "Delta", Building.LOGISTICS_CENTRE), "OTW-26", "supply has 1 truck left")
    assert play(state, Build("red", "Delta", Building.WAREHOUSE)).supply_trucks == 0
    unlimited = pos("cities Alpha=W10 Gamma=W10 Echo=W6 Foxtrot=W2 Hotel=W2 Juliet=W2\nred 9000R", limited_supply=False)
    assert play(unlimited, Build("red", "Delta", Building.LOGISTICS_CENTRE)).idle_at("Delta") == 2


def test_otw26_building_types_run_out() -> None:
    from dataclasses import replace

    state = replace(pos("red 9000R"), supply_warehouses=0)
    refused(state, Build("red", "Delta", Building.WAREHOUSE), "OTW-26", "every warehouse")
    assert Build("red", "Delta", Building.WAREHOUSE) not in legal_builds(state, "red")
    assert Build("red", "Delta", Building.LOGISTICS_CENTRE) in legal_builds(state, "red")


def test_otw27_cancel_leaves_the_trucks_idle_where_they_stand() -> None:
    state = pos("cities Beta=0\nred 1:Beta:2")
    after = play(state, Cancel("red", 1))
    assert after.players[0].transports == ()
    assert after.idle_at("Beta") == 2
    assert after.steps_left == 1
    refused(after, Cancel("red", 1), "OTW-27", "no transport under marker 1")
