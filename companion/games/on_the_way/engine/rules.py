"""The On The Way reducer: ``apply(state, command) -> (state, events)``; validate first, then apply.

Validation order (style point 4): game over -> awaiting an event card -> whose turn -> the rule.
A refused command raises ``IllegalAction`` naming the rule; the state passed in is never changed
(it is immutable).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from companion.engine.errors import IllegalAction
from companion.engine.money import format_money
from companion.engine.values import evolve
from companion.games.on_the_way.engine import events as ev
from companion.games.on_the_way.engine.cards import ContractCard, EventKind, Tier
from companion.games.on_the_way.engine.commands import (
    Build,
    Cancel,
    Command,
    Expand,
    Fulfil,
    LayOut,
    Move,
    Pass,
    PlayerCommand,
    RevealEvent,
    TakeContract,
    Undo,
)
from companion.games.on_the_way.engine.movement import Route, reachable, why_unreachable
from companion.games.on_the_way.engine.options import ContractOffer
from companion.games.on_the_way.engine.scoring import winners
from companion.games.on_the_way.engine.state import (
    JAM_TOKENS,
    MARKERS_PER_PLAYER,
    OFFER_SIZE,
    Building,
    GameState,
    PlayerState,
    Transport,
    Turn,
)

# OTW-23..25: price, new trucks, VP.
BUILD_COST = {Building.WAREHOUSE: 3000, Building.LOGISTICS_CENTRE: 7500}
BUILD_TRUCKS = {Building.WAREHOUSE: 1, Building.LOGISTICS_CENTRE: 2}
BUILD_VP = {Building.WAREHOUSE: 2, Building.LOGISTICS_CENTRE: 5}
BUILD_RULE = {Building.WAREHOUSE: "OTW-23", Building.LOGISTICS_CENTRE: "OTW-25"}
EXPAND_COST, EXPAND_TRUCKS, EXPAND_VP = 4500, 1, 3  # OTW-24
TIER_ORDER = (Tier.BASIC, Tier.EXTENDED, Tier.PROFESSIONAL)

Outcome = tuple[GameState, list[ev.Event]]


def money(amount: int) -> str:
    """1500 -> '1 500 R' (how the cards print it; the one formatter, ``companion.engine.money``)."""
    return format_money(amount, "R")


def apply(state: GameState, command: Command) -> Outcome:
    """Validate ``command`` against ``state`` and return the new state and what happened."""
    if isinstance(command, Undo):
        raise IllegalAction("OTW-10", "undo needs the game history; push it to a Game")
    if state.finished:
        raise IllegalAction("OTW-31", "the game is over")
    if isinstance(command, RevealEvent):
        return _reveal_event(state, command)
    if isinstance(command, LayOut):
        return _lay_out(state, command)
    if state.awaiting_event:
        waiting = state.current.colour
        raise IllegalAction("OTW-28", f"the strip is full: {waiting} must first reveal the next event card")
    seat = _check_turn(state, command)
    match command:
        case TakeContract():
            return _take_contract(state, seat, command)
        case Move():
            return _move(state, seat, command)
        case Fulfil():
            return _fulfil(state, seat, command)
        case Build():
            return _build(state, seat, command)
        case Expand():
            return _expand(state, seat, command)
        case Cancel():
            return _cancel(state, seat, command)
        case Pass():
            if not state.config.rules.allow_pass:
                raise IllegalAction("OTW-11", "passing is off (house rule allow_pass); use your steps")
            return _end_turn(state, [])
    raise IllegalAction("OTW-11", f"unknown command {command!r}")


# -- validation helpers -------------------------------------------------------------------


def _check_turn(state: GameState, command: PlayerCommand) -> int:
    seat = state.config.seat_of(command.player)
    if seat is None:
        raise IllegalAction("OTW-10", f"there is no {command.player} player in this game")
    if seat != state.turn.seat:
        raise IllegalAction("OTW-10", f"it is {state.current.colour}'s turn, not {command.player}'s")
    return seat


def _need_steps(state: GameState, steps: int, what: str) -> None:
    left = state.steps_left
    if left < steps:
        raise IllegalAction("OTW-10", f"{what} needs {steps} steps; {left} left this turn")


# -- state building helpers ---------------------------------------------------------------


def _with_player(state: GameState, seat: int, player: PlayerState) -> tuple[PlayerState, ...]:
    players = state.players
    return (*players[:seat], player, *players[seat + 1 :])


def _set(values: tuple, i: int, value: object) -> tuple:  # type: ignore[type-arg]
    return (*values[:i], value, *values[i + 1 :])


def _book(state: GameState, events: list[ev.Event], **entry: object) -> GameState:
    ledger = state.ledger.append(**entry)  # type: ignore[arg-type]
    assert ledger.last is not None
    events.append(ev.MoneyBooked(ledger.last))
    return evolve(state, ledger=ledger)


def _spend_steps(state: GameState, steps: int, events: list[ev.Event], **changes: Any) -> GameState:
    """Apply ``changes`` and use ``steps`` of the turn in one go; the turn ends when none are left."""
    turn = state.turn
    state = evolve(state, turn=Turn(turn.seat, turn.round, turn.steps_used + steps), **changes)
    return _maybe_end_turn(state, events)


def _maybe_end_turn(state: GameState, events: list[ev.Event]) -> GameState:
    if state.finished or state.awaiting_event or state.steps_left > 0:
        return state
    return _end_turn(state, events)[0]


def _end_turn(state: GameState, events: list[ev.Event]) -> Outcome:
    """OTW-10 and OTW-31: the next seat plays; the last round ends the game after the last seat."""
    n = state.config.player_count
    seat, rnd = state.turn.seat, state.turn.round
    events.append(ev.TurnEnded(state.players[seat].colour))
    if state.last_round is not None and seat == n - 1 and rnd >= state.last_round:
        return _finish(state, events, "the last round is over (OTW-31)")
    nxt = (seat + 1) % n
    state = evolve(state, turn=Turn(nxt, rnd + 1 if nxt == 0 else rnd, 0))
    events.append(ev.TurnStarted(state.players[nxt].colour, state.turn.round, state.steps_per_turn()))
    return state, events


def _finish(state: GameState, events: list[ev.Event], reason: str) -> Outcome:
    state = evolve(state, finished=True)
    events.append(ev.GameEnded(winners(state), reason))
    return state, events


# -- take a contract (OTW-4, OTW-9, OTW-12) ------------------------------------------------


def _take_contract(state: GameState, seat: int, cmd: TakeContract) -> Outcome:
    card = state.config.contract(cmd.card)
    if card is None:
        raise IllegalAction("OTW-12", f"there is no contract card {cmd.card} in this game's deck")
    if cmd.card in state.used_contracts:
        raise IllegalAction("OTW-12", f"contract {cmd.card} has already been taken")
    check_contract_available(state, card)
    offer = state.offer
    if offer is not None and card.id not in offer:
        check_in_pile(state, card, "taken from the pile")  # not open: it must be the pile's top card
    _need_steps(state, 1, "taking a contract")
    player = state.players[seat]
    events: list[ev.Event] = [ev.ContractTaken(player.colour, card.id)]
    transports = tuple(_load(t, card, player.colour, events) if t.city == card.origin else t for t in player.transports)
    player = evolve(player, contracts=(*player.contracts, card.id), transports=transports)
    if offer is not None and card.id in offer:  # taken from the offer (else: the top of the pile, OTW-9)
        offer = tuple(c for c in offer if c != card.id)
    state = evolve(
        state,
        players=_with_player(state, seat, player),
        used_contracts=state.used_contracts | {card.id},
        offer=offer,
    )
    return _spend_steps(state, 1, events), events


def offer_missing(state: GameState) -> int:
    """OTW-9: how many face-up cards the offer lacks: it holds 3/4/5 (2/3/4 players) while the pile lasts.

    The pile is what is in play (OTW-4) less the cards taken and the cards lying open.
    """
    offer = state.offer or ()
    in_pile = sum(state.config.contracts_in_play.values()) - len(state.used_contracts) - len(offer)
    return max(0, min(OFFER_SIZE[state.config.player_count] - len(offer), in_pile))


def check_in_pile(state: GameState, card: ContractCard, what: str) -> None:
    """Can ``card`` still lie in the pile, with the tracked offer counted as out of it? OTW-4: not when
    every card of its tier in play is taken or open; OTW-5 (house rule tier_order): not under cards of
    a lower tier that are neither taken nor open."""
    config = state.config
    taken = taken_by_tier(state)
    open_by_tier = dict.fromkeys(Tier, 0)
    for cid in state.offer or ():
        if (c := config.contract(cid)) is not None:
            open_by_tier[c.tier] += 1
    in_play = config.contracts_in_play

    def in_pile(tier: Tier) -> int:
        return in_play[tier] - taken[tier] - open_by_tier[tier]

    if in_pile(card.tier) <= 0:
        raise IllegalAction(
            "OTW-4",
            f"all {in_play[card.tier]} {card.tier.value} contracts of a {config.player_count}-player game are "
            f"taken or lie open; {card.id} cannot be {what}: it must be one returned to the box",
        )
    if config.rules.contract_offer is ContractOffer.TIER_ORDER:
        above = sum(in_pile(t) for t in TIER_ORDER[: TIER_ORDER.index(card.tier)])
        if above > 0:
            raise IllegalAction(
                "OTW-5",
                f"{above} lower-tier contracts still lie in the pile above {card.id}: it cannot be {what} "
                f"(house rule contract_offer = tier_order)",
            )


def _lay_out(state: GameState, cmd: LayOut) -> Outcome:
    """OTW-9: a card from the pile laid face up into the offer (any time: it is no player's step)."""
    card = state.config.contract(cmd.card)
    if card is None:
        raise IllegalAction("OTW-9", f"there is no contract card {cmd.card} in this game's deck")
    if cmd.card in state.used_contracts:
        raise IllegalAction("OTW-9", f"contract {cmd.card} has already been taken: it cannot lie in the offer")
    offer = state.offer or ()
    if cmd.card in offer:
        raise IllegalAction("OTW-9", f"contract {cmd.card} already lies in the offer")
    size = OFFER_SIZE[state.config.player_count]
    if offer_missing(state) == 0:
        raise IllegalAction(
            "OTW-9", f"the offer is complete ({len(offer)} of {size} face-up cards): take a card to make room"
        )
    check_in_pile(state, card, "laid out")
    state = evolve(state, offer=(*offer, card.id))
    return state, [ev.ContractLaidOut(card.id, offer_missing(state))]


def taken_by_tier(state: GameState) -> dict[Tier, int]:
    config = state.config
    taken = dict.fromkeys(Tier, 0)
    for cid in state.used_contracts:
        card = config.contract(cid)
        if card is not None:
            taken[card.tier] += 1
    return taken


def check_contract_available(state: GameState, card: ContractCard, taken: dict[Tier, int] | None = None) -> None:
    """OTW-4 (and OTW-5 with the tier_order house rule): may ``card`` be taken now?"""
    n = state.config.player_count
    in_play = state.config.contracts_in_play
    taken = taken_by_tier(state) if taken is None else taken
    if taken[card.tier] >= in_play[card.tier]:
        raise IllegalAction(
            "OTW-4",
            f"all {in_play[card.tier]} {card.tier.value} contracts of a {n}-player game are taken; "
            f"{card.id} must be one returned to the box",
        )
    if state.config.rules.contract_offer is ContractOffer.TIER_ORDER:
        lower = TIER_ORDER[: TIER_ORDER.index(card.tier)]
        remaining = sum(in_play[t] - taken[t] for t in lower)
        if remaining > OFFER_SIZE[n]:
            raise IllegalAction(
                "OTW-5",
                f"{remaining} lower-tier contracts are still above {card.id} in the pile "
                f"(house rule contract_offer = tier_order)",
            )


def _load(t: Transport, card: ContractCard, colour: str, events: list[ev.Event]) -> Transport:
    """OTW-21: the transport stands at the contract's start city; note it if it has enough trucks."""
    if t.trucks >= card.trucks and card.id not in t.loaded:
        events.append(ev.ContractLoaded(colour, t.marker, card.id))
        return Transport(t.marker, t.city, t.trucks, t.loaded | {card.id})
    return t


# -- move (OTW-14..20, OTW-30) -------------------------------------------------------------


def plan_move(state: GameState, seat: int, cmd: Move) -> tuple[Transport | None, str, int, Route]:
    """Check a move and return (existing transport or None, start city, trucks after joining, route)."""
    player = state.players[seat]
    board = state.board
    if cmd.to not in board.index:
        raise IllegalAction("OTW-14", f"there is no city {cmd.to} on this board")
    if not 1 <= cmd.marker <= MARKERS_PER_PLAYER:
        raise IllegalAction("OTW-15", f"{player.colour} has markers 1 and 2, not {cmd.marker}")
    transport = player.transport(cmd.marker)
    if transport is None:
        if cmd.origin is None or cmd.trucks is None:
            raise IllegalAction(
                "OTW-15", f"marker {cmd.marker} is not on the road: a new transport needs its start city and trucks"
            )
        if cmd.origin not in board.index:
            raise IllegalAction("OTW-14", f"there is no city {cmd.origin} on this board")
        if cmd.trucks < 1:
            raise IllegalAction("OTW-15", "a transport needs at least 1 truck")
        idle = state.idle_at(cmd.origin)
        if idle < cmd.trucks:
            raise IllegalAction(
                "OTW-15", f"{cmd.origin} has {_trucks(idle)} idle; a new transport of {cmd.trucks} cannot start there"
            )
        start, trucks = cmd.origin, cmd.trucks
    else:
        start = transport.city
        if cmd.origin is not None and cmd.origin != start:
            raise IllegalAction(
                "OTW-16", f"{player.colour}'s marker {cmd.marker} stands at {start}, not at {cmd.origin}"
            )
        trucks = transport.trucks if cmd.trucks is None else cmd.trucks
        if trucks < transport.trucks:
            raise IllegalAction(
                "OTW-17", f"a transport moves with all its trucks: marker {cmd.marker} has {transport.trucks}"
            )
        joining = trucks - transport.trucks
        if joining > state.idle_at(start):
            raise IllegalAction(
                "OTW-19",
                f"only idle trucks at {start} can join: it has {state.idle_at(start)}, "
                f"not the {joining} needed for {trucks}",
            )
    left = state.steps_left
    if left < 1:
        raise IllegalAction("OTW-10", "no steps left this turn")
    routes = reachable(state, player.colour, start, trucks, left)
    route = routes.get(cmd.to)
    if route is None:
        raise IllegalAction(*why_unreachable(state, player.colour, start, cmd.to, trucks, left))
    return transport, start, trucks, route


def _move(state: GameState, seat: int, cmd: Move) -> Outcome:
    transport, start, trucks, route = plan_move(state, seat, cmd)
    player = state.players[seat]
    colour = player.colour
    events: list[ev.Event] = []
    if transport is None:
        events.append(ev.TransportStarted(colour, cmd.marker, start, trucks))
        taken = trucks
        transport = Transport(cmd.marker, start, trucks)
    else:
        taken = trucks - transport.trucks
        if taken:
            events.append(ev.TrucksJoined(colour, cmd.marker, start, taken))
        transport = Transport(transport.marker, start, trucks, transport.loaded)
    i = state.board.index[start]
    idle = _set(state.idle, i, state.idle[i] - taken) if taken else state.idle
    events.append(ev.TransportMoved(colour, cmd.marker, route.cities, trucks, route.steps))
    # OTW-21: every city the goods pass (start, transshipment cities, destination) can be a start city.
    config = state.config
    for cid in player.contracts:
        card = config.contract(cid)
        if card is not None and card.origin in route.cities:
            transport = _load(transport, card, colour, events)
    transport = Transport(transport.marker, route.destination, transport.trucks, transport.loaded)
    transports = tuple(
        sorted((*[t for t in player.transports if t.marker != cmd.marker], transport), key=lambda t: t.marker)
    )
    player = PlayerState(player.colour, player.money, player.vp, player.contracts, transports)
    players = _with_player(state, seat, player)
    return _spend_steps(state, route.steps, events, idle=idle, players=players), events


# -- fulfil (OTW-21, OTW-22, OTW-28, OTW-30, OTW-32) -----------------------------------------


def ready_transport(state: GameState, player: PlayerState, card: ContractCard) -> Transport | None:
    """The transport that would fulfil ``card`` now, or None (the quick question the hints ask)."""
    needs_route = state.config.rules.fulfil_needs_route
    for t in player.transports:
        if t.city == card.destination and t.trucks >= card.trucks and (not needs_route or card.id in t.loaded):
            return t
    return None


def fulfilling_transport(state: GameState, player: PlayerState, card: ContractCard) -> Transport:
    """The transport that fulfils ``card`` now, or an IllegalAction saying why none can."""
    ready = ready_transport(state, player, card)
    if ready is not None:
        return ready
    at_end = [t for t in player.transports if t.city == card.destination]
    if not at_end:
        raise IllegalAction(
            "OTW-21", f"no transport of {player.colour} stands at {card.destination}, the end city of {card}"
        )
    enough = [t for t in at_end if t.trucks >= card.trucks]
    if not enough:
        best = max(t.trucks for t in at_end)
        raise IllegalAction(
            "OTW-21",
            f"{player.colour}'s transport at {card.destination} has {_trucks(best)}; {card.id} needs {card.trucks}",
        )
    raise IllegalAction(
        "OTW-21",
        f"{player.colour}'s transport has not been at {card.origin} with {_trucks(card.trucks)} "
        f"since {card.id} was taken",
    )


class Payout(NamedTuple):
    amount: int  # what the bank pays (R)
    modifier: str | None  # the event card that changed it (OTW-30), or None
    delta: int  # the event's change: +bonus, -malus, 0


def fulfil_payout(state: GameState, card: ContractCard) -> Payout:
    """OTW-22 and OTW-30: what fulfilling ``card`` pays now. The one place the payout is computed:
    the reducer books it and the table's fulfil offer shows it.

    The active bonus / malus changes the printed payout; it never goes below zero.
    """
    event = state.active_event()
    if event is None or event.kind not in (EventKind.BONUS, EventKind.MALUS):
        return Payout(card.pay, None, 0)
    delta = event.amount if event.kind is EventKind.BONUS else -min(event.amount, card.pay)
    return Payout(card.pay + delta, event.id, delta)


def _fulfil(state: GameState, seat: int, cmd: Fulfil) -> Outcome:
    player = state.players[seat]
    if cmd.card not in player.contracts:
        raise IllegalAction("OTW-21", f"{player.colour} does not hold contract {cmd.card}")
    card = state.config.contract(cmd.card)
    assert card is not None
    transport = fulfilling_transport(state, player, card)
    steps = 1 if state.config.rules.fulfil_is_action else 0
    _need_steps(state, steps, "fulfilling a contract")
    events: list[ev.Event] = [
        ev.ContractFulfilled(player.colour, transport.marker, card.id, card.destination, transport.trucks)
    ]
    i = state.board.index[card.destination]
    player = evolve(
        player,
        vp=player.vp + card.vp,
        contracts=tuple(c for c in player.contracts if c != card.id),
        transports=tuple(t for t in player.transports if t.marker != transport.marker),
    )
    pay, modifier, delta = fulfil_payout(state, card)
    reason = f"contract {card.id} {card.origin}→{card.destination}"
    if modifier is not None:
        reason += f", event {modifier} {'+' if delta >= 0 else '−'}{money(abs(delta))}"
    player = evolve(player, money=player.money + pay)
    state = evolve(
        state,
        players=_with_player(state, seat, player),
        idle=_set(state.idle, i, state.idle[i] + transport.trucks),
        strip=(*state.strip, card.id),
    )
    state = _book(
        state, events, player=player.colour, amount=pay, reason=reason, rule="OTW-22", card=card.id, modifier=modifier
    )
    if card.vp:
        events.append(ev.VictoryPoints(player.colour, card.vp, "OTW-22"))
    if len(state.strip) >= state.config.strip_size:
        if state.last_round is not None:
            return _finish(state, events, "a contract filled the strip in the last round (OTW-32)")
        state = evolve(state, awaiting_event=True)
        events.append(ev.EventDue(player.colour))
    return _spend_steps(state, steps, events), events


# -- build and expand (OTW-23..26, OTW-30) ---------------------------------------------------


def build_cost(state: GameState, base: int) -> tuple[int, str | None]:
    event = state.active_event()
    if event is not None and event.kind is EventKind.CHEAPER_BUILD:
        return max(0, base - event.amount), event.id
    return base, None


def _check_city(state: GameState, city: str) -> int:
    i = state.board.index.get(city)
    if i is None:
        raise IllegalAction("OTW-23", f"there is no city {city} on this board")
    return i


def _check_pay_and_supply(state: GameState, player: PlayerState, cost: int, what: str, rule: str, trucks: int) -> None:
    if player.money < cost:
        raise IllegalAction(rule, f"{player.colour} has {money(player.money)}; {what} costs {money(cost)}")
    if state.config.rules.limited_supply and state.supply_trucks < trucks:
        raise IllegalAction("OTW-26", f"the supply has {_trucks(state.supply_trucks)} left; {what} needs {trucks}")


def _build(state: GameState, seat: int, cmd: Build) -> Outcome:
    player = state.players[seat]
    i = _check_city(state, cmd.city)
    kind = Building(cmd.building)
    rule = BUILD_RULE[kind]
    existing = state.buildings[i]
    if existing is not None:
        hint = " (expand it instead, OTW-24)" if existing is Building.WAREHOUSE else ""
        raise IllegalAction(rule, f"{cmd.city} already has a {existing.value.replace('_', ' ')}{hint}")
    limited = state.config.rules.limited_supply
    left = state.supply_warehouses if kind is Building.WAREHOUSE else state.supply_logistics_centres
    if limited and left < 1:
        raise IllegalAction("OTW-26", f"every {kind.value.replace('_', ' ')} is already on the board")
    cost, modifier = build_cost(state, BUILD_COST[kind])
    trucks = BUILD_TRUCKS[kind]
    what = f"a {kind.value.replace('_', ' ')}"
    _check_pay_and_supply(state, player, cost, what, rule, trucks)
    _need_steps(state, 1, f"building {what}")
    events: list[ev.Event] = [ev.Built(player.colour, cmd.city, kind.value, trucks)]
    player = evolve(player, money=player.money - cost, vp=player.vp + BUILD_VP[kind])
    state = evolve(
        state,
        players=_with_player(state, seat, player),
        buildings=_set(state.buildings, i, kind),
        builders=_set(state.builders, i, player.colour),
        idle=_set(state.idle, i, state.idle[i] + trucks),
        supply_trucks=state.supply_trucks - trucks,
        supply_warehouses=state.supply_warehouses - (kind is Building.WAREHOUSE),
        supply_logistics_centres=state.supply_logistics_centres - (kind is Building.LOGISTICS_CENTRE),
    )
    reason = f"{kind.value.replace('_', ' ')} in {cmd.city}" + (f", event {modifier}" if modifier else "")
    state = _book(state, events, player=player.colour, amount=-cost, reason=reason, rule=rule, modifier=modifier)
    events.append(ev.VictoryPoints(player.colour, BUILD_VP[kind], rule))
    return _spend_steps(state, 1, events), events


def _expand(state: GameState, seat: int, cmd: Expand) -> Outcome:
    player = state.players[seat]
    i = _check_city(state, cmd.city)
    if state.buildings[i] is not Building.WAREHOUSE:
        has = state.buildings[i]
        raise IllegalAction(
            "OTW-24",
            f"{cmd.city} has {'no building' if has is None else 'a logistics centre already'}; "
            "only a warehouse expands",
        )
    if state.config.rules.limited_supply and state.supply_logistics_centres < 1:
        raise IllegalAction("OTW-26", "every logistics centre is already on the board")
    cost, modifier = build_cost(state, EXPAND_COST)
    _check_pay_and_supply(state, player, cost, "an expansion", "OTW-24", EXPAND_TRUCKS)
    _need_steps(state, 1, "expanding")
    events: list[ev.Event] = [ev.Built(player.colour, cmd.city, Building.LOGISTICS_CENTRE.value, EXPAND_TRUCKS)]
    player = evolve(player, money=player.money - cost, vp=player.vp + EXPAND_VP)
    state = evolve(
        state,
        players=_with_player(state, seat, player),
        buildings=_set(state.buildings, i, Building.LOGISTICS_CENTRE),
        builders=_set(state.builders, i, player.colour),
        idle=_set(state.idle, i, state.idle[i] + EXPAND_TRUCKS),
        supply_trucks=state.supply_trucks - EXPAND_TRUCKS,
        supply_warehouses=state.supply_warehouses + 1,  # the warehouse piece goes back to the box
        supply_logistics_centres=state.supply_logistics_centres - 1,
    )
    reason = f"expansion in {cmd.city}" + (f", event {modifier}" if modifier else "")
    state = _book(state, events, player=player.colour, amount=-cost, reason=reason, rule="OTW-24", modifier=modifier)
    events.append(ev.VictoryPoints(player.colour, EXPAND_VP, "OTW-24"))
    return _spend_steps(state, 1, events), events


# -- cancel (OTW-27) -----------------------------------------------------------------------


def _cancel(state: GameState, seat: int, cmd: Cancel) -> Outcome:
    player = state.players[seat]
    transport = player.transport(cmd.marker)
    if transport is None:
        raise IllegalAction("OTW-27", f"{player.colour} has no transport under marker {cmd.marker}")
    _need_steps(state, 1, "cancelling a transport")
    i = state.board.index[transport.city]
    events: list[ev.Event] = [ev.TransportCancelled(player.colour, cmd.marker, transport.city, transport.trucks)]
    player = evolve(player, transports=tuple(t for t in player.transports if t.marker != cmd.marker))
    state = evolve(
        state,
        players=_with_player(state, seat, player),
        idle=_set(state.idle, i, state.idle[i] + transport.trucks),
    )
    return _spend_steps(state, 1, events), events


# -- events and the time track (OTW-28..31) --------------------------------------------------


def _reveal_event(state: GameState, cmd: RevealEvent) -> Outcome:
    if not state.awaiting_event:
        raise IllegalAction("OTW-28", "no event is due: the completed-contracts strip is not full")
    card = state.config.event(cmd.card)
    if card is None:
        raise IllegalAction("OTW-28", f"there is no event card {cmd.card} in this game's deck")
    # OTW-28: the previous card goes under the event deck, so the deck never runs out. Until every
    # card has been revealed once, a card revealed earlier is a mis-scan; after that the cards come
    # round again (OTW-6: the owner may reshuffle them, so no order is imposed), any but the active
    # one - except in a one-card deck, whose only card goes under and comes straight back.
    all_events = len(state.config.deck.events)
    again = cmd.card == state.event and all_events > 1
    if again or (cmd.card in state.revealed and len(state.revealed) < all_events):
        raise IllegalAction(
            "OTW-28", f"event card {cmd.card} has already been revealed; scan the next card of the deck"
        )
    time = state.time + 1
    events: list[ev.Event] = [ev.EventRevealed(card.id, card.kind.value, time)]
    jams = state.jams if state.config.rules.jams_persist else ()
    if card.kind is EventKind.TRAFFIC_JAM and card.road is not None:
        a, b = card.road
        road = (a, b) if a < b else (b, a)
        if road not in jams:
            moved = jams[0] if len(jams) >= JAM_TOKENS else None
            jams = (*(jams[1:] if moved else jams), road)
            events.append(ev.JamPlaced(road, moved))
    state = evolve(
        state,
        event=card.id,
        revealed=(*state.revealed, card.id),
        time=time,
        strip=(),
        jams=jams,
        awaiting_event=False,
    )
    if state.last_round is None and time >= state.config.time_end:
        state = evolve(state, last_round=state.turn.round)
        events.append(ev.LastRound(state.turn.round))
    return _maybe_end_turn(state, events), events


def _trucks(n: int) -> str:
    return f"{n} truck" if n == 1 else f"{n} trucks"
