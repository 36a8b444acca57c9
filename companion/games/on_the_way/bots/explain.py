"""One plain sentence per advised action: what it does and why it helps, from the position alone."""

from __future__ import annotations

from companion.games.on_the_way.bots.kernel import (
    BONUS,
    BUILD_LC,
    BUILD_WH,
    CANCEL,
    EXPAND,
    FAR,
    FULFIL,
    MALUS,
    MOVE,
    PASS,
    TAKE,
    Action,
    Kernel,
)
from companion.games.on_the_way.engine.rules import money


def _roads(n: int) -> str:
    return "1 road" if n == 1 else f"{n} roads"


def _turns(roads: int) -> str:
    turns = max(1, -(-roads // 2))  # two move steps a turn (OTW-10), one road each without transshipment
    return "this turn" if roads <= 1 else ("in one turn" if turns == 1 else f"in about {turns} turns")


def sentence(k: Kernel, action: Action) -> str:
    """E.g. "Take B07 Szeged→Bratislava (2 500 R): your idle trucks at Bratislava are 1 road from Szeged"."""
    t = k.t
    seat = k.seat
    names = t.names
    kind, a, b, c, d = action
    transports = [(m + 1, tp) for m, tp in enumerate(k.tr[seat]) if tp is not None]
    if kind == TAKE:
        card = f"{t.card_ids[a]} {names[t.c_origin[a]]}→{names[t.c_dest[a]]}"
        pays = money(t.c_pay[a]) + (f" + {t.c_vp[a]} VP" if t.c_vp[a] else "")
        origin = t.c_origin[a]
        need = t.c_trucks[a]
        take = f"Take {card} ({pays}, {_count(need, 'truck')})"
        near = [(t.dist[tp[0]][origin], m, tp) for m, tp in transports if tp[1] >= need]
        if near:
            roads, m, here = min(near)
            where = "already stands there" if roads == 0 else f"is {_roads(roads)} away"
            return f"{take}: your transport {m} at {names[here[0]]} {where}"
        idle = [(t.dist[city][origin], city) for city, n in enumerate(k.idle) if n >= need]
        if idle:
            roads, city = min(idle)
            if roads == 0:
                waits = "waits" if need == 1 else "wait"
                return f"{take}: {_count(need, 'idle truck')} {waits} at {names[origin]} already"
            return (
                f"{take}: the idle trucks at {names[city]} reach "
                f"{names[origin]} {_turns(roads)}"
            )
        nearest = min(((t.dist[city][origin], city) for city, n in enumerate(k.idle) if n > 0), default=None)
        if nearest is not None:
            roads, city = nearest
            if roads == 0:
                have = k.idle[origin]
                return (
                    f"{take}: {_count(have, 'idle truck')} already at "
                    f"{names[origin]}; gather the other {need - have} nearby"
                )
            return (
                f"{take}: gather {_count(need, 'truck')} from the idle ones nearby; "
                f"the nearest wait at {names[city]}, {_roads(roads)} from {names[origin]}"
            )
        return f"Take {card} ({pays}): the best pay for the distance among the open contracts"
    if kind == FULFIL:
        pay = t.c_pay[a]
        e = k.event
        if e >= 0 and t.e_kind[e] == BONUS:
            pay += t.e_amount[e]
        elif e >= 0 and t.e_kind[e] == MALUS:
            pay -= min(t.e_amount[e], pay)
        extra = f" and {t.c_vp[a]} VP" if t.c_vp[a] else ""
        strip = " — it fills the strip, so you reveal the next event" if len(k.strip) + 1 >= t.strip_size else ""
        return f"Fulfil {t.card_ids[a]} now: {money(pay)}{extra}, and the marker is free again{strip}"
    if kind == MOVE:
        marker, to = a, b
        tp = k.tr[seat][marker - 1]
        start = c if tp is None else tp[0]
        trucks = d if d >= 0 else (tp[1] if tp is not None else 1)
        what = (
            f"Start transport {marker} with {trucks} idle truck{'s' if trucks != 1 else ''} at {names[start]} to"
            if tp is None
            else f"Move transport {marker} {names[start]} to"
        )
        if tp is not None and d > tp[1]:
            joining = d - tp[1]
            what = (
                f"Join {joining} idle truck{'s' if joining != 1 else ''} to transport {marker} at {names[start]}, on to"
            )
        goal = _goal(k, start, to, trucks, tp[2] if tp is not None else 0)
        return f"{what} {names[to]}: {goal}"
    if kind in (BUILD_WH, BUILD_LC, EXPAND):
        what = {BUILD_WH: "a warehouse in", BUILD_LC: "a logistics centre in", EXPAND: "the warehouse in"}[kind]
        verb = "Expand" if kind == EXPAND else "Build"
        base = {BUILD_WH: t.wh_cost, BUILD_LC: t.lc_cost, EXPAND: t.ex_cost}[kind]
        vp = {BUILD_WH: 2, BUILD_LC: 5, EXPAND: 3}[kind]
        trucks = {BUILD_WH: 1, BUILD_LC: 2, EXPAND: 1}[kind]
        return (
            f"{verb} {what} {names[a]}: +{vp} VP for {money(k.cost(base))} (held money only counts 1 VP per "
            f"{money(3000)}), and {trucks} new idle truck{'s' if trucks != 1 else ''} there"
        )
    if kind == CANCEL:
        tp = k.tr[seat][a - 1]
        where = f" at {names[tp[0]]}" if tp is not None else ""
        return f"Cancel transport {a}{where}: its trucks become idle and the marker is free for a better contract"
    if kind == PASS:
        return "End the turn: no step left this turn improves your position"
    return f"Reveal event {t.event_ids[a]}"


def _goal(k: Kernel, start: int, to: int, trucks: int, loaded: int) -> str:
    """Why going to ``to`` helps: the held contract whose start or end city it brings closer."""
    t = k.t
    best: tuple[int, str] | None = None
    for c in k.contracts[k.seat]:
        card = t.card_ids[c]
        if loaded >> c & 1 or (start == t.c_origin[c] and trucks >= t.c_trucks[c]):
            target, role = t.c_dest[c], f"the end city of {card}"
        elif trucks >= t.c_trucks[c]:
            target, role = t.c_origin[c], f"the start city of {card}"
        else:
            if k.idle[to] > 0 and best is None:
                more = min(k.idle[to], t.c_trucks[c] - trucks)
                best = (FAR, f"it picks up {more} idle truck{'s' if more != 1 else ''} there for {card}")
            continue
        left = t.dist[to][target]
        gain = t.dist[start][target] - left
        if gain > 0 and (best is None or left < best[0] or best[0] == FAR):
            text = f"it arrives at {role}" if left == 0 else f"{_roads(left)} from {role}, {_roads(gain)} closer"
            best = (left, text)
    if best is None:
        return "the trucks move on towards idle trucks and the open contracts"
    return best[1]


def _count(n: int, noun: str) -> str:
    """ "1 truck", "2 trucks": the advice's sentences are English only (issue 21 lists translating them)."""
    return f"{n} {noun}{'' if n == 1 else 's'}"
