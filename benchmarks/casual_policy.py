"""A fixed baseline for the benchmarks: a casual player ("easy plus build whenever affordable", issue 22).

Frozen on purpose: the greedy policy of the bots as it was before issue 22 (``bots/policy.py`` at
commit b77c7bd), plus one rule a casual player follows: build the biggest affordable building at the
first step nothing is ready to fulfil. The bots' own policy keeps improving; this baseline must not
move with it, so it is a copy and not an import. Every action is one of ``Kernel.legal_actions()``.
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
    TAKE,
    WH,
    Action,
    Kernel,
)

MAX_HELD = 2  # contracts a player works on at once (one per marker, OTW-15)
MAX_NEW_TRUCKS = 4  # as queries.legal_commands: the largest card needs 4 trucks


def casual_action(k: Kernel, rng: random.Random, take_chance: float = 0.9, build_chance: float = 0.6) -> Action:
    """One legal action for the player on turn (not an event reveal)."""
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
    action = _build(k, rng)  # the casual player's rule: build whenever affordable
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
        c_origin = t.c_origin
        if tp0 is not None and a0 < 0:
            dist = t.dist[tp0[0]]
            a0 = min(free_cards, key=lambda c: dist[c_origin[c]])
            free_cards.remove(a0)
        if tp1 is not None and a1 < 0 and free_cards:
            dist = t.dist[tp1[0]]
            a1 = min(free_cards, key=lambda c: dist[c_origin[c]])
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
    # Every truck is on the road and a transport is too small for its card: free its trucks.
    if not any(k.idle):
        for m, tp, c in ((0, tp0, a0), (1, tp1, a1)):
            if tp is not None and c >= 0 and tp[1] < t.c_trucks[c] and not tp[2] >> c & 1:
                return (CANCEL, m + 1, 0, 0, 0)
    if not t.allow_pass:  # OTW-11 house rule allow_pass = false: every step must be used
        legal = k.legal_actions()
        if legal:
            return rng.choice(legal)
    return (PASS, 0, 0, 0, 0)


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
        pool = [c for c in range(cards) if k.offer >> c & 1 and not used >> c & 1 and tiers[c_tier[c]]]
    else:  # any unused card may be meant: a few at random (the playout hot path)
        pool = []
        tries = 0
        while len(pool) < candidates and tries < 40:
            tries += 1
            c = rng.randrange(cards)
            if not (used >> c & 1 or not tiers[c_tier[c]]):
                pool.append(c)
    for c in pool:
        origin = t.c_origin[c]
        approach = min((t.dist[s][origin] for s in sources), default=FAR)
        value = (t.c_pay[c] + 3000 * t.c_vp[c]) / (t.c_distance[c] + approach + 1)
        if value > best_value:
            best, best_value = c, value
    return best


def _closest(k: Kernel, options: dict[int, int], target: int, rng: random.Random) -> int:
    """The option nearest to ``target``; ties broken at random."""
    dist = k.t.dist
    best_d = FAR + 1
    ties: list[int] = []
    for city in options:
        d = dist[city][target]
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


def _start(k: Kernel, marker: int, card: int, rng: random.Random) -> Action | None:
    """A new transport from the idle trucks nearest the contract's start city."""
    t = k.t
    origin, need = t.c_origin[card], t.c_trucks[card]
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
    limited = t.limited
    trucks = k.sup_trucks if limited else 10**9
    if money >= k.cost(t.lc_cost) and (not limited or (k.sup_lc > 0 and trucks >= 2)):
        kinds = (BUILD_LC,)
    elif money >= k.cost(t.ex_cost) and (not limited or (k.sup_lc > 0 and trucks >= 1)):
        kinds = (EXPAND,)
    elif money >= k.cost(t.wh_cost) and (not limited or (k.sup_wh > 0 and trucks >= 1)):
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
            if kinds[0] == BUILD_LC and money >= k.cost(t.ex_cost):
                cities = [c for c, b in enumerate(k.bld) if b == WH]
                if not cities:
                    return None
                return (EXPAND, rng.choice(cities), 0, 0, 0)
            return None
    # Prefer a city next to the player's own transports: the new trucks help them (OTW-18, OTW-19).
    near = {c for tp in k.tr[k.seat] if tp is not None for c in (tp[0], *t.nbrs[tp[0]])}
    close = [c for c in cities if c in near]
    return (kinds[0], rng.choice(close or cities), 0, 0, 0)


__all__ = ["casual_action"]
