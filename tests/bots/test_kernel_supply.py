"""The finite supply limits what the bots may build (OTW-23..26), asked in one place (``Kernel.supplied``):
checked against the validated engine, which refuses such a build with OTW-26, in states where the
supply runs short (random games of the differential test rarely get there)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

import pytest

from companion.engine.errors import IllegalAction
from companion.games.on_the_way.bots.kernel import Kernel
from companion.games.on_the_way.bots.policy import policy_action
from companion.games.on_the_way.engine import Build, Expand, HouseRules, apply
from companion.games.on_the_way.engine.queries import legal_commands
from companion.games.on_the_way.engine.state import Building, GameState, initial_state
from tests.bots.helpers import config_for

RICH = 50_000  # enough for any building under any event: only the supply decides


def short_supply(trucks: int, warehouses: int, centres: int, limited: bool = True) -> GameState:
    state = initial_state(config_for(2, HouseRules(limited_supply=limited)))
    players = (dataclasses.replace(state.players[0], money=RICH), *state.players[1:])
    return dataclasses.replace(
        state,
        players=players,
        supply_trucks=trucks,
        supply_warehouses=warehouses,
        supply_logistics_centres=centres,
    )


def kinds(commands: Sequence[object]) -> set[str]:
    out = {"expansion" for c in commands if isinstance(c, Expand)}
    return out | {c.building.value for c in commands if isinstance(c, Build)}


@pytest.mark.parametrize(
    ("trucks", "warehouses", "centres", "expected"),
    [
        (5, 5, 5, {"warehouse", "logistics_centre", "expansion"}),
        (1, 5, 5, {"warehouse", "expansion"}),  # OTW-25: a centre places two trucks
        (0, 5, 5, set()),  # OTW-23, OTW-24: a warehouse and an expansion place one
        (5, 0, 5, {"logistics_centre", "expansion"}),
        (5, 5, 0, {"warehouse"}),  # OTW-24: an expansion turns a warehouse into a centre
    ],
)
def test_the_kernel_offers_exactly_the_builds_the_engine_allows(
    trucks: int, warehouses: int, centres: int, expected: set[str]
) -> None:
    state = short_supply(trucks, warehouses, centres)
    kernel = Kernel.from_state(state)
    engine_builds = [c for c in legal_commands(state) if isinstance(c, Build | Expand)]
    kernel_builds = [kernel.to_command(a) for a in kernel.legal_builds()]
    assert kernel_builds == engine_builds
    assert kinds(engine_builds) == expected
    # A build the kernel does not offer is one the engine refuses, citing the supply.
    if "logistics_centre" not in expected:
        city = next(c for c in state.config.board.names if state.building_at(c) is None)
        with pytest.raises(IllegalAction) as refused:
            apply(state, Build("red", city, Building.LOGISTICS_CENTRE))
        assert refused.value.rule == "OTW-26"
    # The greedy policy builds only what is supplied.
    for seed in range(20):
        command = kernel.to_command(policy_action(kernel.copy(), random.Random(seed)))
        assert not isinstance(command, Build | Expand) or command in engine_builds, command


def test_an_unlimited_supply_house_rule_lifts_every_limit() -> None:
    state = short_supply(0, 0, 0, limited=False)
    kernel = Kernel.from_state(state)
    assert kernel.supplied() == (True, True, True)
    engine_builds = [c for c in legal_commands(state) if isinstance(c, Build | Expand)]
    assert [kernel.to_command(a) for a in kernel.legal_builds()] == engine_builds
    assert kinds(engine_builds) == {"warehouse", "logistics_centre", "expansion"}
