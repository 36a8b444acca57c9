"""A fast, mutable mirror of the On The Way engine for playouts: flat lists indexed by city, seat and card.

The validated engine (``engine.rules.apply``) is the authority; this kernel is an unchecked copy of the
same rules (OTW-10..33) for Monte-Carlo playouts: with its policy, ~5x the complete games per second
of the validated engine with ``engine.playout`` (``benchmarks/engine.py``). It is kept equal to the
engine by a differential test (``tests/bots/test_kernel_differential.py``): random commands through
both, every legal-command set and every resulting state compared.

Actions are small tuples of ints, ``(kind, a, b, c, d)``:

    (TAKE, card, 0, 0, 0)  (FULFIL, card, 0, 0, 0)  (CANCEL, marker, 0, 0, 0)  (PASS, 0, 0, 0, 0)
    (MOVE, marker, to, origin or -1, trucks or -1)   (BUILD_WH | BUILD_LC | EXPAND, city, 0, 0, 0)
    (REVEAL, event, 0, 0, 0)

``to_command`` / ``from_command`` translate to and from the engine's frozen commands. Only
``Kernel.step`` with an action from ``legal_actions`` (or the playout policy) is defined: the kernel
does not validate.
"""

from __future__ import annotations

import heapq
import random

from companion.engine.errors import GameError
from companion.games.on_the_way.engine.cards import EventKind, Tier
from companion.games.on_the_way.engine.commands import (
    Build,
    Cancel,
    Command,
    Expand,
    Fulfil,
    Move,
    Pass,
    RevealEvent,
    TakeContract,
)
from companion.games.on_the_way.engine.options import ContractOffer
from companion.games.on_the_way.engine.rules import BUILD_COST, EXPAND_COST
from companion.games.on_the_way.engine.state import (
    JAM_TOKENS,
    OFFER_SIZE,
    STEPS_PER_TURN,
    Building,
    GameConfig,
    GameState,
)

TAKE, FULFIL, MOVE, CANCEL, BUILD_WH, BUILD_LC, EXPAND, PASS, REVEAL = range(9)
ANY_CARD = -1  # an offer bitmask with every bit set: the offer is not tracked (OTW-9)
Action = tuple[int, int, int, int, int]

NONE, WH, LC = 0, 1, 2  # building codes per city
_KIND = {None: NONE, Building.WAREHOUSE: WH, Building.LOGISTICS_CENTRE: LC}
_BUILDING = (None, Building.WAREHOUSE, Building.LOGISTICS_CENTRE)
_TIERS = (Tier.BASIC, Tier.EXTENDED, Tier.PROFESSIONAL)
BONUS, MALUS, CHEAPER, EXTRA, JAM = range(5)
_EVENT_KIND = {
    EventKind.BONUS: BONUS,
    EventKind.MALUS: MALUS,
    EventKind.CHEAPER_BUILD: CHEAPER,
    EventKind.EXTRA_STEP: EXTRA,
    EventKind.TRAFFIC_JAM: JAM,
}
FAR = 99  # distance between unconnected cities


class UnsupportedRules(GameError, ValueError):
    """The kernel mirrors the default house rules and the simple switches, not every variant."""


class Tables:
    """Everything fixed for a game, as flat lists (built once per ``GameConfig`` and cached)."""

    def __init__(self, config: GameConfig) -> None:
        rules = config.rules
        # House rule jam_blocks_transshipment = false: a jammed road may lie inside a transshipment chain,
        # one extra step per jammed road (``movement._reachable``).
        self.jam_in_chain = not rules.jam_blocks_transshipment
        board, deck = config.board, config.deck
        self.config = config
        self.names: tuple[str, ...] = board.names
        self.index: dict[str, int] = dict(board.index)
        self.n_cities = self._n = len(self.names)
        self.nbrs: list[tuple[int, ...]] = [tuple(self.index[c] for c in board.neighbours[name]) for name in self.names]
        self.dist: list[list[int]] = []
        for name in self.names:
            d = board.distances_from(name)
            self.dist.append([d.get(other, FAR) for other in self.names])
        self.colours = config.colours
        self.players = len(config.colours)
        cards = deck.contracts
        self.card_ids: tuple[str, ...] = tuple(c.id for c in cards)
        self.card_index: dict[str, int] = {c.id: i for i, c in enumerate(cards)}
        self.c_origin = [self.index[c.origin] for c in cards]
        self.c_dest = [self.index[c.destination] for c in cards]
        self.c_trucks = [c.trucks for c in cards]
        self.c_pay = [c.pay for c in cards]
        self.c_vp = [c.vp for c in cards]
        self.c_tier = [_TIERS.index(c.tier) for c in cards]
        self.c_distance = [c.distance for c in cards]
        in_play = config.contracts_in_play
        self.in_play = [in_play[t] for t in _TIERS]
        self.offer_size = OFFER_SIZE[self.players]
        self.event_ids: tuple[str, ...] = tuple(e.id for e in deck.events)
        self.event_index: dict[str, int] = {e.id: i for i, e in enumerate(deck.events)}
        self.e_kind = [_EVENT_KIND[e.kind] for e in deck.events]
        self.e_amount = [e.amount for e in deck.events]
        self.e_road = [
            self.road_key(self.index[e.road[0]], self.index[e.road[1]]) if e.road is not None else -1
            for e in deck.events
        ]
        self.strip_size = config.strip_size
        self.time_end = config.time_end
        self.tier_order = rules.contract_offer is ContractOffer.TIER_ORDER
        self.allow_pass = rules.allow_pass
        self.neutral = rules.neutral_buildings
        self.needs_route = rules.fulfil_needs_route
        self.fulfil_steps = 1 if rules.fulfil_is_action else 0
        self.limited = rules.limited_supply
        self.jams_persist = rules.jams_persist
        self.wh_cost, self.lc_cost, self.ex_cost = (
            BUILD_COST[Building.WAREHOUSE],
            BUILD_COST[Building.LOGISTICS_CENTRE],
            EXPAND_COST,
        )
        # The playout's hot path reads these instead of computing them at every step: a card's worth
        # (pay plus 3 000 R per VP, OTW-33) and its roads plus one, for the policy's pay per road; the
        # building costs (warehouse, centre, expansion, the cheapest) under each event, index event + 1
        # (0: no event), the CHEAPER event lowering each by its amount (OTW-30).
        self.c_worth = [pay + 3000 * vp for pay, vp in zip(self.c_pay, self.c_vp, strict=True)]
        self.c_roads1 = [d + 1 for d in self.c_distance]
        self.discount = [0] + [a if k == CHEAPER else 0 for k, a in zip(self.e_kind, self.e_amount, strict=True)]
        self.costs: list[tuple[int, int, int, int]] = []
        for off in self.discount:
            wh, lc, ex = (max(0, base - off) for base in (self.wh_cost, self.lc_cost, self.ex_cost))
            self.costs.append((wh, lc, ex, min(wh, lc, ex)))

    def road_key(self, a: int, b: int) -> int:
        return a * self._n + b if a < b else b * self._n + a

    def road_names(self, key: int) -> tuple[str, str]:
        a, b = self.names[key // self._n], self.names[key % self._n]
        return (a, b) if a < b else (b, a)


_TABLES: dict[int, tuple[GameConfig, Tables]] = {}


def tables_for(config: GameConfig) -> Tables:
    cached = _TABLES.get(id(config))
    if cached is not None and cached[0] is config:
        return cached[1]
    tables = Tables(config)
    if len(_TABLES) > 16:
        _TABLES.clear()
    _TABLES[id(config)] = (config, tables)
    return tables


Transport = tuple[int, int, int]  # (city, trucks, loaded-card bitmask); markers are slots 0 and 1


class Kernel:
    """A mutable game state with the engine's rules, unchecked. ``copy()`` before trying things."""

    __slots__ = (
        "_rc",
        "awaiting",
        "bld",
        "builder",
        "contracts",
        "event",
        "finished",
        "idle",
        "jams",
        "last_round",
        "money",
        "offer",
        "refills",
        "revealed",
        "rnd",
        "seat",
        "spt",
        "steps_used",
        "strip",
        "sup_lc",
        "sup_trucks",
        "sup_wh",
        "t",
        "taken",
        "time",
        "tr",
        "used",
        "vp",
    )

    t: Tables
    idle: list[int]
    bld: list[int]
    builder: list[int]
    sup_trucks: int
    sup_wh: int
    sup_lc: int
    time: int
    event: int
    revealed: list[int]
    strip: list[int]
    used: int
    taken: list[int]
    jams: list[int]
    seat: int
    rnd: int
    steps_used: int
    awaiting: bool
    last_round: int
    finished: bool
    money: list[int]
    vp: list[int]
    contracts: list[list[int]]
    tr: list[list[Transport | None]]
    _rc: dict[tuple[int, int, int], dict[int, int]]  # reach() answers for the current state
    spt: int  # steps per turn under the active event (OTW-10, OTW-30)
    # OTW-9: the face-up cards a bot may take (bitmask), or ANY_CARD when the table does not track the
    # offer. The offer lies open for the whole game: the cards nobody takes stay, turn after turn, so a
    # playout keeps them too (forgetting them re-dealt a fresh offer at every pick, and waiting or
    # cancelling looked better in the model than at the table).
    offer: int
    # OTW-9: the offer's refills not seen yet. Only the search's root knows the real offer; after a take
    # inside the search the refill comes from the pile, unknown until a playout's pick turns it up
    # (``reveal_refills``). 0 at the root: the table has scanned every card that lies open.
    refills: int

    # -- conversion ---------------------------------------------------------------------
    @classmethod
    def from_state(cls, state: GameState) -> Kernel:
        t = tables_for(state.config)
        k = cls()  # no __init__: the fields are set below (mypyc compiles no cls.__new__)
        k.t = t
        k.idle = list(state.idle)
        k.bld = [_KIND[b] for b in state.buildings]
        k.builder = [-1 if b is None else t.colours.index(b) for b in state.builders]
        k.sup_trucks = state.supply_trucks
        k.sup_wh = state.supply_warehouses
        k.sup_lc = state.supply_logistics_centres
        k.time = state.time
        k.event = -1 if state.event is None else t.event_index[state.event]
        k.spt = STEPS_PER_TURN + (1 if k.event >= 0 and t.e_kind[k.event] == EXTRA else 0)
        k.revealed = [t.event_index[e] for e in state.revealed]
        k.strip = [t.card_index[c] for c in state.strip]
        k.used = 0
        k.taken = [0, 0, 0]
        for cid in state.used_contracts:
            i = t.card_index[cid]
            k.used |= 1 << i
            k.taken[t.c_tier[i]] += 1
        k.jams = [t.road_key(t.index[a], t.index[b]) for a, b in state.jams]
        k.seat = state.turn.seat
        k.rnd = state.turn.round
        k.steps_used = state.turn.steps_used
        k.awaiting = state.awaiting_event
        k.last_round = 0 if state.last_round is None else state.last_round
        k.finished = state.finished
        k.offer = ANY_CARD
        k.refills = 0
        if state.offer is not None:
            k.offer = 0
            for cid in state.offer:
                k.offer |= 1 << t.card_index[cid]
        k.money = [p.money for p in state.players]
        k.vp = [p.vp for p in state.players]
        k.contracts = [[t.card_index[c] for c in p.contracts] for p in state.players]
        k.tr = []
        for p in state.players:
            slots: list[Transport | None] = [None, None]
            for tp in p.transports:
                mask = 0
                for cid in tp.loaded:
                    mask |= 1 << t.card_index[cid]
                slots[tp.marker - 1] = (t.index[tp.city], tp.trucks, mask)
            k.tr.append(slots)
        k._rc = {}
        return k

    def copy(self) -> Kernel:
        k = Kernel()
        k.t = self.t
        k.idle = self.idle[:]
        k.bld = self.bld[:]
        k.builder = self.builder[:]
        k.sup_trucks = self.sup_trucks
        k.sup_wh = self.sup_wh
        k.sup_lc = self.sup_lc
        k.time = self.time
        k.event = self.event
        k.spt = self.spt
        k.revealed = self.revealed[:]
        k.strip = self.strip[:]
        k.used = self.used
        k.taken = self.taken[:]
        k.jams = self.jams[:]
        k.seat = self.seat
        k.rnd = self.rnd
        k.steps_used = self.steps_used
        k.awaiting = self.awaiting
        k.last_round = self.last_round
        k.finished = self.finished
        k.offer = self.offer
        k.refills = self.refills
        k.money = self.money[:]
        k.vp = self.vp[:]
        k.contracts = [c[:] for c in self.contracts]
        k.tr = [s[:] for s in self.tr]
        k._rc = {}
        return k

    def snapshot(self) -> tuple[object, ...]:
        """The game as plain values, in the same shape as ``engine_snapshot`` gives for a ``GameState``."""
        t = self.t
        players = []
        for seat, colour in enumerate(t.colours):
            transports = []
            for m, tp in enumerate(self.tr[seat]):
                if tp is not None:
                    loaded = frozenset(t.card_ids[i] for i in range(len(t.card_ids)) if tp[2] >> i & 1)
                    transports.append((m + 1, t.names[tp[0]], tp[1], loaded))
            contracts = tuple(t.card_ids[c] for c in self.contracts[seat])
            players.append((colour, self.money[seat], self.vp[seat], contracts, tuple(transports)))
        return (
            tuple(players),
            tuple(_BUILDING[b] for b in self.bld),
            tuple(None if b < 0 else t.colours[b] for b in self.builder),
            tuple(self.idle),
            (self.sup_trucks, self.sup_wh, self.sup_lc),
            self.time,
            None if self.event < 0 else t.event_ids[self.event],
            tuple(t.event_ids[e] for e in self.revealed),
            tuple(t.card_ids[c] for c in self.strip),
            frozenset(t.card_ids[i] for i in range(len(t.card_ids)) if self.used >> i & 1),
            tuple(t.road_names(j) for j in self.jams),
            (self.seat, self.rnd, self.steps_used),
            self.awaiting,
            self.last_round or None,
            self.finished,
        )

    def to_command(self, action: Action) -> Command:
        t = self.t
        kind, a, b, c, d = action
        colour = t.colours[self.seat]
        if kind == TAKE:
            return TakeContract(colour, t.card_ids[a])
        if kind == FULFIL:
            return Fulfil(colour, t.card_ids[a])
        if kind == MOVE:
            return Move(colour, a, t.names[b], None if c < 0 else t.names[c], None if d < 0 else d)
        if kind == CANCEL:
            return Cancel(colour, a)
        if kind == BUILD_WH:
            return Build(colour, t.names[a], Building.WAREHOUSE)
        if kind == BUILD_LC:
            return Build(colour, t.names[a], Building.LOGISTICS_CENTRE)
        if kind == EXPAND:
            return Expand(colour, t.names[a])
        if kind == PASS:
            return Pass(colour)
        return RevealEvent(t.event_ids[a])

    def from_command(self, command: Command) -> Action:
        t = self.t
        match command:
            case TakeContract(card=card):
                return (TAKE, t.card_index[card], 0, 0, 0)
            case Fulfil(card=card):
                return (FULFIL, t.card_index[card], 0, 0, 0)
            case Move(marker=marker, to=to, origin=origin, trucks=trucks):
                o = -1 if origin is None else t.index[origin]
                return (MOVE, marker, t.index[to], o, -1 if trucks is None else trucks)
            case Cancel(marker=marker):
                return (CANCEL, marker, 0, 0, 0)
            case Build(city=city, building=building):
                kind = BUILD_WH if Building(building) is Building.WAREHOUSE else BUILD_LC
                return (kind, t.index[city], 0, 0, 0)
            case Expand(city=city):
                return (EXPAND, t.index[city], 0, 0, 0)
            case Pass():
                return (PASS, 0, 0, 0, 0)
            case RevealEvent(card=card):
                return (REVEAL, t.event_index[card], 0, 0, 0)
        raise UnsupportedRules(f"the kernel has no action for {command!r}")

    # -- derived ------------------------------------------------------------------------
    def offered(self, card: int) -> bool:
        """OTW-9: may a bot choose ``card``: it lies in the tracked offer, the offer is not tracked, or
        an unseen refill is pending and the card is unused (a loose bound: ``reveal_refills`` turns up only
        cards of the lowest tier the pile still holds; the search asks only at the root, where no refill is
        pending, and the greedy pick reveals the refills first)."""
        return bool(self.offer >> card & 1) or (self.refills > 0 and not self.used >> card & 1)

    def reveal_refills(self, rng: random.Random) -> None:
        """OTW-9: the offer's unseen refills come up, each the top of the pile. The pile lies sorted
        (OTW-5: basic on top, then extended, then professional), so a refill is of the lowest tier the
        pile still holds (OTW-4: a tier's cards in play, less those taken and those lying open), and a
        random unused card of it (which of them went back to the box is unknown). A chance event the
        model resolves when a pick first looks at the offer."""
        t = self.t
        c_tier = t.c_tier
        cards = len(t.card_ids)
        left = [t.in_play[i] - self.taken[i] for i in range(3)]
        for c in range(cards):
            if self.offer >> c & 1 and not self.used >> c & 1:
                left[c_tier[c]] -= 1
        tier = 0
        while self.refills > 0:
            while tier < 3 and left[tier] <= 0:
                tier += 1
            if tier == 3:
                break  # the pile is empty (OTW-4): the gap stays
            pile = [c for c in range(cards) if c_tier[c] == tier and not (self.used >> c & 1 or self.offer >> c & 1)]
            if not pile:  # every card of the tier is out already (a person's blind takes): the next tier
                left[tier] = 0
                continue
            self.offer |= 1 << pile[rng.randrange(len(pile))]
            left[tier] -= 1
            self.refills -= 1
        self.refills = 0

    def steps_per_turn(self) -> int:
        return self.spt

    def steps_left(self) -> int:
        left = self.spt - self.steps_used
        return left if left > 0 else 0

    def cost(self, base: int) -> int:
        """``base`` under the active event (OTW-30: a CHEAPER event lowers every building's cost)."""
        return max(0, base - self.t.discount[self.event + 1])

    def open_tiers(self) -> list[bool]:
        t = self.t
        taken, in_play = self.taken, t.in_play
        out = [taken[i] < in_play[i] for i in range(3)]
        if t.tier_order:
            for i in (1, 2):
                remaining = sum(in_play[j] - taken[j] for j in range(i))
                if remaining > t.offer_size:
                    out[i] = False
        return out

    def reach(self, start: int, trucks: int, left: int) -> dict[int, int]:
        """Destinations of one move action -> the previous city on the route (``movement.reachable``).

        Insertion order is the engine's; a destination whose road from its previous city is jammed
        costs 2 steps (it can only be the start's neighbour).
        """
        if left < 1:
            return {}
        key = (start, trucks, left)
        cached = self._rc.get(key)
        if cached is not None:
            return cached
        t = self.t
        if t.jam_in_chain and self.jams:
            prev, _ = self._reach_weighted(start, trucks, left)
            self._rc[key] = prev
            return prev
        nbrs, idle, bld = t.nbrs, self.idle, self.bld
        jams = self.jams
        n = t.n_cities
        prev = {start: -1}
        queue = [start]
        neutral = t.neutral
        builder, seat = self.builder, self.seat
        for here in queue:  # the list grows while we walk it: breadth first
            for nxt in nbrs[here]:
                if nxt in prev:
                    continue
                if jams and (here * n + nxt if here < nxt else nxt * n + here) in jams:
                    continue
                prev[nxt] = here
                if bld[nxt] and idle[nxt] >= trucks and (neutral or builder[nxt] in (-1, seat)):
                    queue.append(nxt)
        del prev[start]
        if jams and left >= 2:
            for nxt in nbrs[start]:
                if nxt not in prev and (start * n + nxt if start < nxt else nxt * n + start) in jams:
                    prev[nxt] = start
        self._rc[key] = prev
        return prev

    def _reach_weighted(self, start: int, trucks: int, left: int) -> tuple[dict[int, int], dict[int, int]]:
        """The house-rule variant's routes (``movement._reachable``: fewest steps, then fewest roads,
        then city names; the same settle order): destination -> previous city, and -> steps."""
        t = self.t
        names, nbrs, idle, bld, jams, n = t.names, t.nbrs, self.idle, self.bld, self.jams, t.n_cities
        builder, seat, neutral = self.builder, self.seat, t.neutral
        prev: dict[int, int] = {}
        steps_to: dict[int, int] = {}
        heap: list[tuple[int, int, tuple[str, ...], tuple[int, ...]]] = [(1, 0, (names[start],), (start,))]
        settled: set[int] = set()
        while heap:
            steps, _roads, route_names, route = heapq.heappop(heap)
            here = route[-1]
            if here in settled:
                continue
            settled.add(here)
            if here != start:
                prev[here] = route[-2]
                steps_to[here] = steps
                if not (bld[here] and idle[here] >= trucks and (neutral or builder[here] in (-1, seat))):
                    continue
            for nxt in nbrs[here]:
                if nxt in settled or nxt == start:
                    continue
                cost = steps + (1 if (here * n + nxt if here < nxt else nxt * n + here) in jams else 0)
                if cost <= left:
                    heapq.heappush(heap, (cost, len(route), (*route_names, names[nxt]), (*route, nxt)))
        return prev, steps_to

    def ready(self, seat: int, card: int) -> int:
        """Marker slot (0, 1) of the transport that would fulfil ``card`` now, or -1 (``ready_transport``)."""
        t = self.t
        dest, need, bit = t.c_dest[card], t.c_trucks[card], 1 << card
        needs_route = t.needs_route
        for m, tp in enumerate(self.tr[seat]):
            if tp is not None and tp[0] == dest and tp[1] >= need and (not needs_route or tp[2] & bit):
                return m
        return -1

    # -- legal actions (the engine's ``queries.legal_commands``, same order) -----------------
    def legal_actions(self, max_new_trucks: int = 4) -> list[Action]:
        if self.finished or self.awaiting:
            return []
        t = self.t
        seat = self.seat
        left = self.steps_left()
        out: list[Action] = []
        tiers = self.open_tiers()
        used, c_tier = self.used, t.c_tier
        for i in range(len(t.card_ids)):
            if tiers[c_tier[i]] and not used >> i & 1:
                out.append((TAKE, i, 0, 0, 0))
        if left >= 1 or not t.fulfil_steps:
            for c in self.contracts[seat]:
                if self.ready(seat, c) >= 0:
                    out.append((FULFIL, c, 0, 0, 0))
        slots = self.tr[seat]
        for m, tp in enumerate(slots):
            if tp is None:
                continue
            city, trucks = tp[0], tp[1]
            for extra in range(self.idle[city] + 1):
                for dest in self.reach(city, trucks + extra, left):
                    out.append((MOVE, m + 1, dest, -1, trucks + extra if extra else -1))
            out.append((CANCEL, m + 1, 0, 0, 0))
        free = [m for m, tp in enumerate(slots) if tp is None]
        if free:
            marker = free[0] + 1
            for city, idle in enumerate(self.idle):
                for n in range(1, min(idle, max_new_trucks) + 1):
                    for dest in self.reach(city, n, left):
                        out.append((MOVE, marker, dest, city, n))
        out.extend(self.legal_builds())
        if t.allow_pass:
            out.append((PASS, 0, 0, 0, 0))
        return out

    def supplied(self) -> tuple[bool, bool, bool]:
        """Does the supply hold a warehouse, a logistics centre, an expansion, each with the trucks it
        places (OTW-23: one, OTW-25: two, OTW-24: one; OTW-26: the supply is finite)? Always, under the
        house rule of an unlimited supply. The one place the policy and the legal builds ask."""
        if not self.t.limited:
            return True, True, True
        trucks, lc = self.sup_trucks, self.sup_lc > 0
        return self.sup_wh > 0 and trucks >= 1, lc and trucks >= 2, lc and trucks >= 1

    def legal_builds(self) -> list[Action]:
        money = self.money[self.seat]
        wh_cost, lc_cost, ex_cost, _ = self.t.costs[self.event + 1]
        wh_ok, lc_ok, ex_ok = self.supplied()
        wh = wh_ok and money >= wh_cost
        lc = lc_ok and money >= lc_cost
        ex = ex_ok and money >= ex_cost
        out: list[Action] = []
        for city, b in enumerate(self.bld):
            if b == NONE:
                if wh:
                    out.append((BUILD_WH, city, 0, 0, 0))
                if lc:
                    out.append((BUILD_LC, city, 0, 0, 0))
            elif b == WH and ex:
                out.append((EXPAND, city, 0, 0, 0))
        return out

    def legal_reveals(self) -> list[Action]:
        if self.finished or not self.awaiting:
            return []
        all_events = len(self.t.event_ids)
        seen = set(self.revealed)
        full = len(self.revealed) >= all_events
        return [(REVEAL, e, 0, 0, 0) for e in range(all_events) if e != self.event and (full or e not in seen)]

    # -- apply (unchecked) --------------------------------------------------------------
    def step(self, action: Action) -> None:
        kind, a, b, c, d = action
        if kind == MOVE:  # most of a playout's actions: tested first
            self._move(a, b, c, d)
        elif kind == TAKE:
            self._take(a)
        elif kind == FULFIL:
            self._fulfil(a)
        elif kind == CANCEL:
            self._cancel(a)
        elif kind in (BUILD_WH, BUILD_LC):
            self._build(a, WH if kind == BUILD_WH else LC)
        elif kind == EXPAND:
            self._expand(a)
        elif kind == PASS:
            self._end_turn()
        else:
            self._reveal(a)
        self._rc = {}

    def _spend(self, steps: int) -> None:
        self.steps_used += steps
        if self.steps_used >= self.spt and not self.finished and not self.awaiting:
            self._end_turn()

    def _end_turn(self) -> None:
        n = self.t.players
        if self.last_round and self.seat == n - 1 and self.rnd >= self.last_round:
            self.finished = True
            return
        self.seat = (self.seat + 1) % n
        if self.seat == 0:
            self.rnd += 1
        self.steps_used = 0

    def _take(self, card: int) -> None:
        t = self.t
        seat = self.seat
        self.used |= 1 << card
        self.taken[t.c_tier[card]] += 1
        bit = 1 << card
        if self.offer != ANY_CARD and self.offer & bit:  # not a blind take from the top of the pile
            self.offer &= ~bit
            self.refills += 1  # the refill is unknown until a pick looks (``reveal_refills``)
        self.contracts[seat].append(card)
        origin, need = t.c_origin[card], t.c_trucks[card]
        slots = self.tr[seat]
        for m, tp in enumerate(slots):
            if tp is not None and tp[0] == origin and tp[1] >= need:
                slots[m] = (tp[0], tp[1], tp[2] | bit)
        self._spend(1)

    def _fulfil(self, card: int) -> None:
        t = self.t
        seat = self.seat
        m = self.ready(seat, card)
        tp = self.tr[seat][m]
        assert tp is not None
        self.tr[seat][m] = None
        self.vp[seat] += t.c_vp[card]
        self.contracts[seat].remove(card)
        pay = t.c_pay[card]
        e = self.event
        if e >= 0:
            kind = t.e_kind[e]
            if kind == BONUS:
                pay += t.e_amount[e]
            elif kind == MALUS:
                pay -= min(t.e_amount[e], pay)
        self.money[seat] += pay
        self.idle[tp[0]] += tp[1]
        self.strip.append(card)
        if len(self.strip) >= t.strip_size:
            if self.last_round:
                self.finished = True
                return
            self.awaiting = True
        self._spend(t.fulfil_steps)

    def _move(self, marker: int, to: int, origin: int, trucks: int) -> None:
        t = self.t
        seat = self.seat
        slots = self.tr[seat]
        tp = slots[marker - 1]
        if tp is None:
            start, n, loaded = origin, trucks, 0
        else:
            start, n, loaded = tp[0], (tp[1] if trucks < 0 else trucks), tp[2]
        prev = self.reach(start, n, self.spt - self.steps_used)
        self.idle[start] -= n if tp is None else n - tp[1]
        here = prev[to]
        if t.jam_in_chain and self.jams:
            steps = self._reach_weighted(start, n, self.spt - self.steps_used)[1][to]
        else:
            steps = 2 if here == start and self.jams and t.road_key(start, to) in self.jams else 1
        held = self.contracts[seat]
        if held:
            route = [to, start]
            while here != start:
                route.append(here)
                here = prev[here]
            c_origin, c_trucks = t.c_origin, t.c_trucks
            for card in held:
                if c_origin[card] in route and n >= c_trucks[card]:
                    loaded |= 1 << card
        slots[marker - 1] = (to, n, loaded)
        self.steps_used += steps  # ``_spend``, inlined on the playouts' most common action
        if self.steps_used >= self.spt and not self.finished and not self.awaiting:
            self._end_turn()

    def _cancel(self, marker: int) -> None:
        slots = self.tr[self.seat]
        tp = slots[marker - 1]
        assert tp is not None
        slots[marker - 1] = None
        self.idle[tp[0]] += tp[1]
        self._spend(1)

    def _build(self, city: int, kind: int) -> None:
        t = self.t
        seat = self.seat
        wh = kind == WH
        self.money[seat] -= self.cost(t.wh_cost if wh else t.lc_cost)
        self.vp[seat] += 2 if wh else 5
        self.bld[city] = kind
        self.builder[city] = seat
        trucks = 1 if wh else 2
        self.idle[city] += trucks
        self.sup_trucks -= trucks
        if wh:
            self.sup_wh -= 1
        else:
            self.sup_lc -= 1
        self._spend(1)

    def _expand(self, city: int) -> None:
        seat = self.seat
        self.money[seat] -= self.cost(self.t.ex_cost)
        self.vp[seat] += 3
        self.bld[city] = LC
        self.builder[city] = seat
        self.idle[city] += 1
        self.sup_trucks -= 1
        self.sup_wh += 1
        self.sup_lc -= 1
        self._spend(1)

    def _reveal(self, event: int) -> None:
        t = self.t
        self.time += 1
        if not t.jams_persist:
            self.jams = []
        road = t.e_road[event]
        if t.e_kind[event] == JAM and road >= 0 and road not in self.jams:
            if len(self.jams) >= JAM_TOKENS:
                self.jams.pop(0)
            self.jams.append(road)
        self.event = event
        self.spt = STEPS_PER_TURN + (1 if t.e_kind[event] == EXTRA else 0)
        self.revealed.append(event)
        self.strip = []
        self.awaiting = False
        if not self.last_round and self.time >= t.time_end:
            self.last_round = self.rnd
        if not self.finished and self.steps_used >= self.spt:
            self._end_turn()

    # -- outcome ------------------------------------------------------------------------
    def scores(self) -> list[tuple[int, int]]:
        """(score, money) per seat (OTW-33)."""
        return [(self.vp[s] + self.money[s] // 3000, self.money[s]) for s in range(self.t.players)]

    def winners(self) -> list[int]:
        scores = self.scores()
        best = max(scores)
        return [s for s, v in enumerate(scores) if v == best]
