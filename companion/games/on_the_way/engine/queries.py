"""Questions the table asks the engine: hints, offers, legal commands. Results are data, never errors."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from companion.engine.errors import IllegalAction
from companion.games.on_the_way.engine.cards import ContractCard
from companion.games.on_the_way.engine.commands import (
    Build,
    Cancel,
    Expand,
    Fulfil,
    Move,
    Pass,
    PlayerCommand,
    TakeContract,
)
from companion.games.on_the_way.engine.movement import Route, reachable
from companion.games.on_the_way.engine.rules import (
    BUILD_COST,
    EXPAND_COST,
    Payout,
    build_cost,
    check_contract_available,
    check_in_pile,
    fulfil_payout,
    ready_transport,
    taken_by_tier,
)
from companion.games.on_the_way.engine.rules import (
    offer_missing as offer_missing,  # the table asks it here, with the other questions
)
from companion.games.on_the_way.engine.state import MARKERS_PER_PLAYER, Building, GameState


def reachable_from_marker(state: GameState, colour: str, marker: int, trucks: int | None = None) -> Mapping[str, Route]:
    """Cities the transport under ``marker`` can reach in one action now (LED hints while lifted).

    ``trucks`` above the transport's count asks about joining idle trucks at its city (OTW-19).
    """
    player = state.player(colour)
    if player is None:
        return {}
    transport = player.transport(marker)
    if transport is None:
        return {}
    n = transport.trucks if trucks is None else trucks
    if n < transport.trucks or n - transport.trucks > state.idle_at(transport.city):
        return {}
    return reachable(state, colour, transport.city, n, _steps_for(state, colour))


def reachable_new_transport(state: GameState, colour: str, city: str, trucks: int) -> Mapping[str, Route]:
    """Cities a would-be transport of ``trucks`` idle trucks from ``city`` can reach in one action."""
    if trucks < 1 or state.idle_at(city) < trucks:
        return {}
    return reachable(state, colour, city, trucks, _steps_for(state, colour))


def _steps_for(state: GameState, colour: str) -> int:
    if state.finished or state.awaiting_event or state.current.colour != colour:
        return 0
    return state.steps_left


def fulfillable(state: GameState, colour: str) -> tuple[tuple[ContractCard, int], ...]:
    """Held contracts that a transport of ``colour`` could fulfil now: (card, marker)."""
    player = state.player(colour)
    if player is None:
        return ()
    out = []
    for cid in player.contracts:
        card = state.config.contract(cid)
        if card is None:
            continue
        transport = ready_transport(state, player, card)
        if transport is not None:
            out.append((card, transport.marker))
    return tuple(out)


def payout(state: GameState, card_id: str) -> Payout | None:
    """What fulfilling contract ``card_id`` would pay now, the OTW-30 event included (None: no such card).

    The reducer books exactly this amount (``rules.fulfil_payout`` is the one computation).
    """
    card = state.config.contract(card_id)
    return None if card is None else fulfil_payout(state, card)


def building_cost(state: GameState, kind: Building) -> int:
    """What building ``kind`` costs now (OTW-23, OTW-25; OTW-30 cheaper-build event included)."""
    return build_cost(state, BUILD_COST[kind])[0]


def expansion_cost(state: GameState) -> int:
    """What expanding a warehouse costs now (OTW-24; OTW-30 cheaper-build event included)."""
    return build_cost(state, EXPAND_COST)[0]


def legal_builds(state: GameState, colour: str) -> tuple[Build | Expand, ...]:
    """Every build or expansion ``colour`` can afford now, supply and free cities permitting."""
    player = state.player(colour)
    if player is None or _steps_for(state, colour) < 1:
        return ()
    limited = state.config.rules.limited_supply
    trucks = state.supply_trucks if limited else 10**9
    out: list[Build | Expand] = []
    options = []
    for kind, supply in (
        (Building.WAREHOUSE, state.supply_warehouses),
        (Building.LOGISTICS_CENTRE, state.supply_logistics_centres),
    ):
        need = 1 if kind is Building.WAREHOUSE else 2
        if (not limited or (supply > 0 and trucks >= need)) and player.money >= building_cost(state, kind):
            options.append(kind)
    can_expand = player.money >= expansion_cost(state) and (
        not limited or (state.supply_logistics_centres > 0 and trucks >= 1)
    )
    for city, building in zip(state.board.names, state.buildings, strict=True):
        if building is None:
            out.extend(Build(colour, city, kind) for kind in options)
        elif building is Building.WAREHOUSE and can_expand:
            out.append(Expand(colour, city))
    return tuple(out)


def takeable_contracts(state: GameState) -> tuple[ContractCard, ...]:
    """Cards a "take a contract" may be now (OTW-4, OTW-9)."""
    taken = taken_by_tier(state)
    open_tiers = set()
    for tier, first in state.config.first_card_of_tier.items():  # the answer is per tier: ask once each
        try:
            check_contract_available(state, first, taken)
        except IllegalAction:
            continue
        open_tiers.add(tier)
    used = state.used_contracts
    if state.offer is None:
        return tuple(c for c in state.config.deck.contracts if c.tier in open_tiers and c.id not in used)
    # A tracked offer (OTW-9): its cards, and from the pile only what can still lie there.
    from_pile = set()
    for tier, first in state.config.first_card_of_tier.items():
        if tier in open_tiers:
            try:
                check_in_pile(state, first, "taken from the pile")
            except IllegalAction:
                continue
            from_pile.add(tier)
    return tuple(
        c
        for c in state.config.deck.contracts
        if c.tier in open_tiers and c.id not in used and (c.id in state.offer or c.tier in from_pile)
    )


def legal_commands(state: GameState, max_new_trucks: int = 4) -> Iterator[PlayerCommand]:
    """Every legal player command for the player on turn (new transports up to ``max_new_trucks``).

    Used by the random-game tests and benchmarks; the table asks the narrower queries above.
    """
    if state.finished or state.awaiting_event:
        return
    player = state.current
    colour = player.colour
    left = state.steps_left
    for card in takeable_contracts(state):
        yield TakeContract(colour, card.id)
    for card, _marker in fulfillable(state, colour):
        if left >= 1 or not state.config.rules.fulfil_is_action:
            yield Fulfil(colour, card.id)
    for t in player.transports:
        for extra in range(state.idle_at(t.city) + 1):
            for city in reachable(state, colour, t.city, t.trucks + extra, left):
                yield Move(colour, t.marker, city, None, t.trucks + extra if extra else None)
        yield Cancel(colour, t.marker)
    free = player.free_markers()
    if free and len(player.transports) < MARKERS_PER_PLAYER:
        marker = free[0]
        for city, idle in zip(state.board.names, state.idle, strict=True):
            for n in range(1, min(idle, max_new_trucks) + 1):
                for dest in reachable(state, colour, city, n, left):
                    yield Move(colour, marker, dest, city, n)
    yield from legal_builds(state, colour)
    if state.config.rules.allow_pass:
        yield Pass(colour)
