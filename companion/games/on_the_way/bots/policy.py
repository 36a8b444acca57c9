"""The greedy playout policy over the kernel: the "easy" bot and the default policy of every playout.

It plays like a sensible beginner: fulfil whenever it can; hold up to two contracts, picked for pay
per road, counting the approach from its trucks, among the open cards of the face-up offer (a few random
unused cards where the offer is not tracked); drive each transport to collect trucks, then to
the start city, then to the end city; start a transport for a contract that has none; build with
spare money (building always buys VP, OTW-23..25); otherwise end the turn. Its randomness comes from
the ``random.Random`` it is given, so a seed replays the same game. Every action it returns is one of
``Kernel.legal_actions()`` (the differential test checks it).
"""

from __future__ import annotations

import random

from companion.games.on_the_way.bots.kernel import (
    ANY_CARD,
    BUILD_LC,
    BUILD_WH,
    CANCEL,
    EXPAND,
    FAR,
    FULFIL,
    MOVE,
    NONE,
    PASS,
    REVEAL,
    TAKE,
    WH,
    Action,
    Kernel,
)

MAX_HELD = 2  # contracts a player works on at once (one per marker, OTW-15)
MAX_NEW_TRUCKS = 4  # as queries.legal_commands: the largest card needs 4 trucks


def reveal_action(k: Kernel, rng: random.Random) -> Action:
    """A random unseen event card: the shuffled event deck (OTW-6, OTW-28) as the bot imagines it."""
    events = len(k.t.event_ids)
    seen = set(k.revealed)
    pool = [e for e in range(events) if e not in seen and e != k.event]
    if not pool:
        pool = [e for e in range(events) if e != k.event]
    return (REVEAL, rng.choice(pool), 0, 0, 0)


def policy_action(k: Kernel, rng: random.Random, take_chance: float = 0.9, build_chance: float = 0.6) -> Action:
    """One legal action for whoever must act now."""
    if k.awaiting:
        return reveal_action(k, rng)
    t = k.t
    seat = k.seat
    held = k.contracts[seat]
    slots = k.tr[seat]
    tp0, tp1 = slots
    if held:
        c_dest, c_trucks, needs_route = t.c_dest, t.c_trucks, t.needs_route
        for c in held:
            dest, need = c_dest[c], c_trucks[c]
            for tp in (tp0, tp1):
                if tp is not None and tp[0] == dest and tp[1] >= need and (not needs_route or tp[2] >> c & 1):
                    return (FULFIL, c, 0, 0, 0)
    # Money buys VP at 1 500 R each by building (OTW-23..25) but only 3 000 R each at the end (OTW-33),
    # and a building brings trucks: build as soon as a centre is affordable (hoarding cash lost 99 % of
    # kernel games against this policy, 400 games).
    if k.money[seat] >= t.costs[k.event + 1][3]:  # most calls: nothing affordable, nothing to build
        action = _build_when_affordable(k, rng)
        if action is not None:
            return action
    if len(held) < MAX_HELD and rng.random() < take_chance:
        card = _pick_contract(k, rng)
        if card >= 0:
            return (TAKE, card, 0, 0, 0)
    # Which transport works on which held card: a loaded card first, then the nearest remaining card.
    a0 = a1 = -1
    free_cards = held[:]
    if tp0 is not None:
        for c in free_cards:
            if tp0[2] >> c & 1:
                a0 = c
                free_cards.remove(c)
                break
    if tp1 is not None:
        for c in free_cards:
            if tp1[2] >> c & 1:
                a1 = c
                free_cards.remove(c)
                break
    if free_cards:
        if tp0 is not None and a0 < 0:
            a0 = _nearest_card(t.dist[tp0[0]], t.c_origin, free_cards)
            free_cards.remove(a0)
        if tp1 is not None and a1 < 0 and free_cards:
            a1 = _nearest_card(t.dist[tp1[0]], t.c_origin, free_cards)
            free_cards.remove(a1)
    if a0 >= 0 and tp0 is not None:
        action = _drive(k, 0, tp0, a0, rng)
        if action is not None:
            return action
    if a1 >= 0 and tp1 is not None:
        action = _drive(k, 1, tp1, a1, rng)
        if action is not None:
            return action
    if tp0 is not None and a0 < 0:
        return (CANCEL, 1, 0, 0, 0)
    if tp1 is not None and a1 < 0:
        return (CANCEL, 2, 0, 0, 0)
    if free_cards:
        marker = 1 if tp0 is None else 2 if tp1 is None else 0
        if marker:
            action = _start(k, marker, free_cards[0], rng)
            if action is not None:
                return action
    if rng.random() < build_chance:
        action = _build(k, rng)
        if action is not None:
            return action
    # Every truck is on the road and a transport is too small for its card: free its trucks, so that the
    # other transport (or another player) can collect them. ``_start`` does not start a transport the
    # idle trucks cannot complete, so the freed trucks are not simply marked again (a cancel/restart loop).
    if not any(k.idle):
        action = _free_trucks(k, (tp0, a0), (tp1, a1))
        if action is not None:
            return action
    if not t.allow_pass:  # OTW-11 house rule allow_pass = false: every step must be used
        legal = k.legal_actions()
        if legal:
            return rng.choice(legal)
    return (PASS, 0, 0, 0, 0)


def _nearest_card(dist: list[int], c_origin: list[int], cards: list[int]) -> int:
    """The first of ``cards`` whose start city is nearest (``min`` with a key, without its calls)."""
    best, best_d = cards[0], dist[c_origin[cards[0]]]
    for c in cards:
        d = dist[c_origin[c]]
        if d < best_d:
            best, best_d = c, d
    return best


def _pick_contract(k: Kernel, rng: random.Random, candidates: int = 5) -> int:
    """The best of a few random takeable cards (or of the tracked offer) by pay per road, counting the
    way to its start city."""
    t = k.t
    tiers = k.open_tiers()
    if not (tiers[0] or tiers[1] or tiers[2]):
        return -1
    cards = len(t.card_ids)
    used, c_tier = k.used, t.c_tier
    seat = k.seat
    sources = [tp[0] for tp in k.tr[seat] if tp is not None] or [c for c, n in enumerate(k.idle) if n > 0]
    best, best_value = -1, -1.0
    if k.offer != ANY_CARD:  # OTW-9: the table knows the face-up offer: only those cards, all of them
        if k.refills:
            k.reveal_refills(rng)
        pool = [c for c in range(cards) if k.offer >> c & 1 and not used >> c & 1 and tiers[c_tier[c]]]
    else:  # any unused card may be meant: a few at random (the playout hot path)
        pool = []
        tries = 0
        # ``rng.randrange(cards)``, inlined: the same draws from the same stream (CPython's
        # ``_randbelow_with_getrandbits``), without two calls per card.
        getrandbits, bits = rng.getrandbits, cards.bit_length()
        while len(pool) < candidates and tries < 40:
            tries += 1
            c = getrandbits(bits)
            while c >= cards:
                c = getrandbits(bits)
            if not (used >> c & 1 or not tiers[c_tier[c]]):
                pool.append(c)
    rows = [t.dist[s] for s in sources]
    c_origin, c_worth, c_roads1 = t.c_origin, t.c_worth, t.c_roads1
    for c in pool:
        origin = c_origin[c]
        approach = FAR
        for row in rows:
            if row[origin] < approach:
                approach = row[origin]
        value = c_worth[c] / (c_roads1[c] + approach)
        if value > best_value:
            best, best_value = c, value
    return best


def _closest(k: Kernel, options: dict[int, int], target: int, rng: random.Random) -> int:
    """The option nearest to ``target``; ties broken at random."""
    to_target = k.t.dist[target]  # roads are two-way: the distance matrix is symmetric
    best_d = FAR + 1
    ties: list[int] = []
    for city in options:
        d = to_target[city]
        if d < best_d:
            best_d = d
            ties = [city]
        elif d == best_d:
            ties.append(city)
    return ties[0] if len(ties) == 1 else ties[rng.randrange(len(ties))]


def _drive(k: Kernel, m: int, tp: tuple[int, int, int], card: int, rng: random.Random) -> Action | None:
    """Collect trucks, go to the start city, then to the end city."""
    t = k.t
    city, trucks, loaded = tp
    join = 0
    if loaded >> card & 1:
        target = t.c_dest[card]
    else:
        need = t.c_trucks[card]
        join = min(k.idle[city], max(0, need - trucks))
        if trucks + join >= need:
            target = t.c_dest[card] if city == t.c_origin[card] else t.c_origin[card]
        else:  # find more idle trucks first
            dist = t.dist[city]
            best, best_d = -1, FAR + 1
            for c, n in enumerate(k.idle):
                if n > 0 and c != city and dist[c] < best_d:
                    best, best_d = c, dist[c]
            if best < 0:
                return None
            target = best
    n = trucks + join
    routes = k.reach(city, n, k.spt - k.steps_used)
    if not routes:
        return None
    to = _closest(k, routes, target, rng)
    if t.dist[to][target] >= t.dist[city][target]:
        return None
    return (MOVE, m + 1, to, -1, n if join else -1)


def _too_small(k: Kernel, tp: tuple[int, int, int] | None, card: int) -> bool:
    return tp is not None and card >= 0 and tp[1] < k.t.c_trucks[card] and not tp[2] >> card & 1


def _free_trucks(
    k: Kernel, first: tuple[tuple[int, int, int] | None, int], second: tuple[tuple[int, int, int] | None, int]
) -> Action | None:
    """Cancel a transport that cannot grow (no idle truck anywhere): the smaller one when the other,
    joined by its trucks, would be big enough; otherwise the one too small (its trucks are of no use
    under the marker; idle, any transport may collect them)."""
    small = [m for m, (tp, c) in enumerate((first, second)) if _too_small(k, tp, c)]
    if not small:
        return None
    if len(small) == 2:
        (tp0, c0), (tp1, c1) = first, second
        assert tp0 is not None and tp1 is not None
        if tp0[1] + tp1[1] >= k.t.c_trucks[c1] and (tp0[1] <= tp1[1] or tp0[1] + tp1[1] < k.t.c_trucks[c0]):
            return (CANCEL, 1, 0, 0, 0)
        if tp0[1] + tp1[1] >= k.t.c_trucks[c0]:
            return (CANCEL, 2, 0, 0, 0)
    return (CANCEL, small[0] + 1, 0, 0, 0)


def _start(k: Kernel, marker: int, card: int, rng: random.Random) -> Action | None:
    """A new transport from the idle trucks nearest the contract's start city."""
    t = k.t
    origin, need = t.c_origin[card], t.c_trucks[card]
    if sum(k.idle) < need:  # the idle trucks cannot complete it: wait for trucks to come free
        return None
    dist = t.dist[origin]
    best, best_key = -1, (0, 0, 0.0)
    for c, n in enumerate(k.idle):
        if n > 0:
            key = (-min(n, need), dist[c], rng.random())
            if best < 0 or key < best_key:
                best, best_key = c, key
    if best < 0:
        return None
    trucks = min(k.idle[best], need, MAX_NEW_TRUCKS)
    routes = k.reach(best, trucks, k.spt - k.steps_used)
    if not routes:
        return None
    target = t.c_dest[card] if best == origin and trucks >= need else origin
    return (MOVE, marker, _closest(k, routes, target, rng), best, trucks)


def _build(k: Kernel, rng: random.Random) -> Action | None:
    """The biggest affordable building (each buys VP at a better rate than money, OTW-33)."""
    t = k.t
    money = k.money[k.seat]
    wh_cost, lc_cost, ex_cost, _ = t.costs[k.event + 1]
    wh_ok, lc_ok, ex_ok = k.supplied()
    if money >= lc_cost and lc_ok:
        kinds = (BUILD_LC,)
    elif money >= ex_cost and ex_ok:
        kinds = (EXPAND,)
    elif money >= wh_cost and wh_ok:
        kinds = (BUILD_WH,)
    else:
        return None
    if kinds[0] == EXPAND:
        cities = [c for c, b in enumerate(k.bld) if b == WH]
        if not cities:
            return None
    else:
        cities = [c for c, b in enumerate(k.bld) if b == NONE]
        if not cities:
            if kinds[0] == BUILD_LC and money >= ex_cost:
                cities = [c for c, b in enumerate(k.bld) if b == WH]
                if not cities:
                    return None
                return (EXPAND, rng.choice(cities), 0, 0, 0)
            return None
    return _near_own_trucks(k, kinds[0], cities, rng)


def _build_when_affordable(k: Kernel, rng: random.Random) -> Action | None:
    """A logistics centre as soon as one is affordable (5 VP and two trucks for one step); a smaller
    building only when no centre can be built any more or in the last rounds (saving up for a centre
    beat building the biggest affordable at once 62 % of kernel games), next to the player's trucks.
    ``policy_action`` calls it only when the cheapest building is affordable (most calls it is not)."""
    t = k.t
    money = k.money[k.seat]
    wh_cost, lc_cost, ex_cost, _ = t.costs[k.event + 1]
    wh_ok, lc_ok, ex_ok = k.supplied()
    bld = k.bld
    any_free = NONE in bld  # the city lists only for the building chosen: this runs at every step
    centre_ok = any_free and lc_ok
    if centre_ok and money >= lc_cost:
        return _near_own_trucks(k, BUILD_LC, [c for c, b in enumerate(bld) if b == NONE], rng)
    if centre_ok and k.time < t.time_end - 1:
        return None  # save up for the centre
    if WH in bld and money >= ex_cost and ex_ok:
        return _near_own_trucks(k, EXPAND, [c for c, b in enumerate(bld) if b == WH], rng)
    if any_free and money >= wh_cost and wh_ok:
        return _near_own_trucks(k, BUILD_WH, [c for c, b in enumerate(bld) if b == NONE], rng)
    return None


def _near_own_trucks(k: Kernel, kind: int, cities: list[int], rng: random.Random) -> Action:
    """A building in a city next to the player's own transports if there is one: the new trucks help
    them (OTW-18, OTW-19)."""
    t = k.t
    near = {c for tp in k.tr[k.seat] if tp is not None for c in (tp[0], *t.nbrs[tp[0]])}
    close = [c for c in cities if c in near]
    return (kind, rng.choice(close or cities), 0, 0, 0)


def play_out(k: Kernel, rng: random.Random, max_steps: int = 4000) -> int:
    """Play ``k`` (in place) to the end with the policy; return the number of actions played."""
    steps = 0
    while not k.finished and steps < max_steps:
        k.step(policy_action(k, rng))
        steps += 1
    return steps


__all__ = ["play_out", "policy_action", "reveal_action"]
