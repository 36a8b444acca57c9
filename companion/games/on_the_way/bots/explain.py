"""One plain sentence per advised action: what it does and why it helps, from the position alone.

The sentence is :class:`Words` (keys of the game's ``advice.*`` catalogue section), so the table tells
it in its language with each counted word in its plural form; ``sentence`` is the English one (the
``advise`` JSON's field).
"""

from __future__ import annotations

from companion.games.advice import Words, counted, in_english, said
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

PACKAGE = "companion.games.on_the_way"  # the catalogue of the advice's words


def _roads(n: int) -> Words:
    return counted("advice.roads", n)


def _trucks(n: int) -> Words:
    return counted("advice.trucks", n)


def _turns(roads: int) -> Words:
    turns = max(1, -(-roads // 2))  # two move steps a turn (OTW-10), one road each without transshipment
    if roads <= 1:
        return said("advice.this_turn")
    return said("advice.one_turn") if turns == 1 else counted("advice.turns", turns)


def _because(action: Words, why: Words) -> Words:
    return said("advice.because", action=action, why=why)


def sentence(k: Kernel, action: Action) -> str:
    """E.g. "Take B07 Szeged→Bratislava (2 500 R, 1 truck): your transport 1 at Bratislava is 1 road away"."""
    return in_english(words(k, action), PACKAGE)


def words(k: Kernel, action: Action) -> Words:
    """What to do and why, to be told in a language (``sentence`` tells it in English)."""
    t = k.t
    seat = k.seat
    names = t.names
    kind, a, b, c, d = action
    transports = [(m + 1, tp) for m, tp in enumerate(k.tr[seat]) if tp is not None]
    if kind == TAKE:
        card = f"{t.card_ids[a]} {names[t.c_origin[a]]}→{names[t.c_dest[a]]}"
        pays: Words | str = (
            said("advice.pays_vp", money=money(t.c_pay[a]), vp=t.c_vp[a]) if t.c_vp[a] else money(t.c_pay[a])
        )
        origin = t.c_origin[a]
        need = t.c_trucks[a]
        take = said("advice.take", card=card, pays=pays, trucks=_trucks(need))
        near = [(t.dist[tp[0]][origin], m, tp) for m, tp in transports if tp[1] >= need]
        if near:
            roads, m, here = min(near)
            if roads == 0:
                return _because(take, said("advice.transport_there", marker=m, city=names[here[0]]))
            return _because(take, said("advice.transport_away", marker=m, city=names[here[0]], roads=_roads(roads)))
        idle = [(t.dist[city][origin], city) for city, n in enumerate(k.idle) if n >= need]
        if idle:
            roads, city = min(idle)
            if roads == 0:
                return _because(take, counted("advice.idle_wait", need, city=names[origin]))
            return _because(take, said("advice.idle_reach", city=names[city], origin=names[origin], when=_turns(roads)))
        nearest = min(((t.dist[city][origin], city) for city, n in enumerate(k.idle) if n > 0), default=None)
        if nearest is not None:
            roads, city = nearest
            if roads == 0:
                have = k.idle[origin]
                return _because(take, counted("advice.gather_here", have, city=names[origin], more=need - have))
            why = said(
                "advice.gather", trucks=_trucks(need), city=names[city], roads=_roads(roads), origin=names[origin]
            )
            return _because(take, why)
        return _because(said("advice.take_plain", card=card, pays=pays), said("advice.best_pay"))
    if kind == FULFIL:
        pay = t.c_pay[a]
        e = k.event
        if e >= 0 and t.e_kind[e] == BONUS:
            pay += t.e_amount[e]
        elif e >= 0 and t.e_kind[e] == MALUS:
            pay -= min(t.e_amount[e], pay)
        done = (
            said("advice.fulfil_vp", card=t.card_ids[a], money=money(pay), vp=t.c_vp[a])
            if t.c_vp[a]
            else said("advice.fulfil", card=t.card_ids[a], money=money(pay))
        )
        return said("advice.fills_strip", sentence=done) if len(k.strip) + 1 >= t.strip_size else done
    if kind == MOVE:
        marker, to = a, b
        tp = k.tr[seat][marker - 1]
        start = c if tp is None else tp[0]
        trucks = d if d >= 0 else (tp[1] if tp is not None else 1)
        if tp is None:
            what = counted("advice.start", trucks, marker=marker, city=names[start], to=names[to])
        elif d > tp[1]:
            what = counted("advice.join", d - tp[1], marker=marker, city=names[start], to=names[to])
        else:
            what = said("advice.move", marker=marker, city=names[start], to=names[to])
        return _because(what, _goal(k, start, to, trucks, tp[2] if tp is not None else 0))
    if kind in (BUILD_WH, BUILD_LC, EXPAND):
        what = said({BUILD_WH: "advice.build_wh", BUILD_LC: "advice.build_lc", EXPAND: "advice.expand"}[kind],
                    city=names[a])  # fmt: skip
        base = {BUILD_WH: t.wh_cost, BUILD_LC: t.lc_cost, EXPAND: t.ex_cost}[kind]
        vp = {BUILD_WH: 2, BUILD_LC: 5, EXPAND: 3}[kind]
        trucks = {BUILD_WH: 1, BUILD_LC: 2, EXPAND: 1}[kind]
        why = counted("advice.build_why", trucks, vp=vp, cost=money(k.cost(base)), per=money(3000))
        return _because(what, why)
    if kind == CANCEL:
        tp = k.tr[seat][a - 1]
        what = (
            said("advice.cancel_at", marker=a, city=names[tp[0]]) if tp is not None else said("advice.cancel", marker=a)
        )
        return _because(what, said("advice.cancel_why"))
    if kind == PASS:
        return _because(said("advice.pass"), said("advice.pass_why"))
    return said("advice.reveal", event=t.event_ids[a])


def _goal(k: Kernel, start: int, to: int, trucks: int, loaded: int) -> Words:
    """Why going to ``to`` helps: the held contract whose start or end city it brings closer."""
    t = k.t
    best: tuple[int, Words] | None = None
    for c in k.contracts[k.seat]:
        card = t.card_ids[c]
        if loaded >> c & 1 or (start == t.c_origin[c] and trucks >= t.c_trucks[c]):
            target, end = t.c_dest[c], True
        elif trucks >= t.c_trucks[c]:
            target, end = t.c_origin[c], False
        else:
            if k.idle[to] > 0 and best is None:
                more = min(k.idle[to], t.c_trucks[c] - trucks)
                best = (FAR, counted("advice.picks_up", more, card=card))
            continue
        left = t.dist[to][target]
        gain = t.dist[start][target] - left
        if gain > 0 and (best is None or left < best[0] or best[0] == FAR):
            if left == 0:
                text = said("advice.arrives_end" if end else "advice.arrives_start", card=card)
            else:
                text = said("advice.closer_end" if end else "advice.closer_start", card=card, left=_roads(left),
                            gain=_roads(gain))  # fmt: skip
            best = (left, text)
    if best is None:
        return said("advice.move_on")
    return best[1]
