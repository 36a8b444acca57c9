"""The greedy playout policy over the kernel: the "easy" bot and the default policy of every playout.

It plays like a sensible beginner: fulfil whenever it can; hold up to two contracts, picked for pay
per road from a few random candidates near its trucks; drive each transport to collect trucks, then to
the start city, then to the end city; start a transport for a contract that has none; build with
spare money (building always buys VP, OTW-23..25); otherwise end the turn. Its randomness comes from
the ``random.Random`` it is given, so a seed replays the same game. Every action it returns is one of
``Kernel.legal_actions()`` (the differential test checks it).
"""

from __future__ import annotations

import random

from companion.games.on_the_way.bots.kernel import (
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
    for c in held:
        if k.ready(seat, c) >= 0:
            return (FULFIL, c, 0, 0, 0)
    if len(held) < MAX_HELD and rng.random() < take_chance:
        card = _pick_contract(k, rng)
        if card >= 0:
            return (TAKE, card, 0, 0, 0)
    slots = k.tr[seat]
    # Which transport works on which held card: a loaded card first, then the remaining cards in order.
    assigned: list[int] = [-1, -1]
    free_cards = list(held)
    for m, tp in enumerate(slots):
        if tp is not None:
            for c in free_cards:
                if tp[2] >> c & 1:
                    assigned[m] = c
                    free_cards.remove(c)
                    break
    for m, tp in enumerate(slots):
        if tp is not None and assigned[m] < 0 and free_cards:
            # the card whose start city is nearest
            dist = t.dist[tp[0]]
            best = min(free_cards, key=lambda c: dist[t.c_origin[c]])
            assigned[m] = best
            free_cards.remove(best)
    for m, tp in enumerate(slots):
        if tp is not None and assigned[m] >= 0:
            action = _drive(k, m, tp, assigned[m], rng)
            if action is not None:
                return action
    for m, tp in enumerate(slots):
        if tp is not None and assigned[m] < 0:
            return (CANCEL, m + 1, 0, 0, 0)
    for m, tp in enumerate(slots):
        if tp is None and free_cards:
            action = _start(k, m + 1, free_cards.pop(0), rng)
            if action is not None:
                return action
    if rng.random() < build_chance:
        action = _build(k, rng)
        if action is not None:
            return action
    # Every truck is on the road and a transport is too small for its card: free its trucks.
    if not any(k.idle):
        for m, tp in enumerate(slots):
            c = assigned[m]
            if tp is not None and c >= 0 and tp[1] < t.c_trucks[c] and not tp[2] >> c & 1:
                return (CANCEL, m + 1, 0, 0, 0)
    return (PASS, 0, 0, 0, 0)


def _pick_contract(k: Kernel, rng: random.Random, candidates: int = 5) -> int:
    """The best of a few random takeable cards by pay per road, counting the way to its start city."""
    t = k.t
    tiers = k.open_tiers()
    if not (tiers[0] or tiers[1] or tiers[2]):
        return -1
    cards = len(t.card_ids)
    used, c_tier = k.used, t.c_tier
    seat = k.seat
    sources = [tp[0] for tp in k.tr[seat] if tp is not None] or [c for c, n in enumerate(k.idle) if n > 0]
    best, best_value = -1, -1.0
    tries = 0
    found = 0
    while found < candidates and tries < 40:
        tries += 1
        c = rng.randrange(cards)
        if used >> c & 1 or not tiers[c_tier[c]]:
            continue
        found += 1
        origin = t.c_origin[c]
        approach = min((t.dist[s][origin] for s in sources), default=FAR)
        value = (t.c_pay[c] + 3000 * t.c_vp[c]) / (t.c_distance[c] + approach + 1)
        if value > best_value:
            best, best_value = c, value
    return best


def _closest(k: Kernel, options: dict[int, int], target: int, rng: random.Random) -> int:
    dist = k.t.dist
    best, best_key = -1, (FAR + 1, 2.0)
    for city in options:
        key = (dist[city][target], rng.random())
        if key < best_key:
            best, best_key = city, key
    return best


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
    routes = k.reach(city, n, k.steps_left())
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
    routes = k.reach(best, trucks, k.steps_left())
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


def play_out(k: Kernel, rng: random.Random, max_steps: int = 4000) -> int:
    """Play ``k`` (in place) to the end with the policy; return the number of actions played."""
    steps = 0
    while not k.finished and steps < max_steps:
        k.step(policy_action(k, rng))
        steps += 1
    return steps


__all__ = ["play_out", "policy_action", "reveal_action"]
