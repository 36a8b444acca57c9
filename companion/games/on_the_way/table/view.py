"""The UI model as a pure function of (prompt, engine state, sensed problems, texts).

What the screen shows first: the end of the game, then a table that must be put right, then an
event card that is due, then the prompt. Payouts, costs and hints are the engine's answers
(``engine/queries.py``); nothing here recomputes a rule.
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.on_the_way.engine.commands import Cancel, Fulfil, Pass
from companion.games.on_the_way.engine.queries import (
    building_cost,
    expansion_cost,
    payout,
    reachable_from_marker,
    reachable_new_transport,
)
from companion.games.on_the_way.engine.rules import money
from companion.games.on_the_way.engine.scoring import winners
from companion.games.on_the_way.engine.state import Building, GameState
from companion.games.on_the_way.table.prompts import (
    Confirm,
    Forming,
    GameOver,
    Idle,
    Lifted,
    Menu,
    MenuItem,
    Prompt,
    SelectCity,
)
from companion.table.messages import Catalogue
from companion.table.reconcile import Problem, PutBack, TakeOff
from companion.table.ui import Mode, Refusal, UiModel


def ui_model(
    prompt: Prompt,
    state: GameState,
    t: Catalogue,
    *,
    problems: list[Problem],
    refusal: Refusal | None,
    message: str,
    lay_out: int = 0,
    lay_out_leavable: bool = False,
) -> UiModel:
    """``lay_out``: face-up cards the table still has to scan into the offer (OTW-9)."""
    colour = state.current.colour
    base = UiModel(language=t.language, player=colour, steps_left=state.steps_left, refusal=refusal, message=message)
    if state.finished or isinstance(prompt, GameOver):
        names = winners(state)
        text = (
            t.text("message.winners_one", winner=t.player_name(names[0]))
            if len(names) == 1
            else t.text("message.winners_many", winners=", ".join(map(t.player_name, names)))
        )
        return replace(base, mode=Mode.GAME_OVER, prompt=t.text("prompt.game_over", winners=text))
    if problems:
        expected = tuple(dict.fromkeys(p.city for p in problems))
        return replace(base, mode=Mode.MISMATCH, prompt=problem_text(t, problems[0]), expected=expected)
    if state.awaiting_event:
        return replace(base, mode=Mode.EVENT_DUE, prompt=t.text("prompt.event_due", player=colour))
    if lay_out and isinstance(prompt, Idle):
        detail = (t.text("prompt.lay_out_first") if state.offer is None
                  else t.text("prompt.lay_out_detail", cards=", ".join(state.offer) or "—"))  # fmt: skip
        if lay_out_leavable:  # only the advice asked for it: say how to leave the wait
            detail = f"{detail} · {t.text('prompt.lay_out_leave')}"
        return replace(base, mode=Mode.CARD_DUE, prompt=t.text("prompt.lay_out", missing=lay_out), detail=detail)
    match prompt:
        case Confirm(command=command):
            offer = command.card if isinstance(command, Fulfil) else None
            return replace(base, mode=Mode.CONFIRM, prompt=confirm_text(t, command, state),
                           detail=t.text("prompt.confirm_detail"), offer=offer)  # fmt: skip
        case Menu(items=items, index=index):
            labels = tuple(menu_label(t, item, state) for item in items)
            return replace(base, mode=Mode.MENU, prompt=t.text("prompt.menu"), detail=t.text("prompt.menu_detail"),
                           choices=labels, choice_index=index)  # fmt: skip
        case SelectCity(purpose=purpose, candidates=candidates, index=index):
            what = menu_label(t, purpose.item, state)
            return replace(base, mode=Mode.SELECT_CITY, prompt=t.text("prompt.select_city", what=what),
                           detail=t.text("prompt.select_city_detail"), choices=candidates, choice_index=index,
                           hints=frozenset(candidates), selected=prompt.city)  # fmt: skip
        case Lifted(marker=m, city=city, trucks=trucks):
            hints = frozenset(reachable_from_marker(state, m.colour, m.number, trucks))
            key = "prompt.lifted" if hints else "prompt.lifted_none"
            text = t.text(key, colour=m.colour, n=m.number, trucks=t.trucks(trucks), city=city)
            return replace(base, mode=Mode.LIFTED, prompt=text, detail=t.text("prompt.lifted_detail", city=city),
                           hints=hints, lifted=(m.colour, m.number), trucks=trucks)  # fmt: skip
        case Forming(marker=m, city=city, trucks=trucks):
            hints = frozenset(reachable_new_transport(state, m.colour, city, trucks))
            text = t.text("prompt.forming", colour=m.colour, city=city, trucks=t.trucks(trucks))
            top = max(1, state.idle_at(city))
            return replace(base, mode=Mode.FORMING, prompt=text, detail=t.text("prompt.forming_detail"),
                           hints=hints, trucks=trucks, choices=tuple(t.trucks(n) for n in range(1, top + 1)),
                           choice_index=trucks - 1, lifted=(m.colour, m.number))  # fmt: skip
        case Idle():
            pass
    text = t.text("prompt.turn", player=colour, steps=t.steps(state.steps_left))
    return replace(base, mode=Mode.IDLE, prompt=text, detail=t.text("prompt.turn_detail"))


def confirm_text(t: Catalogue, command: object, state: GameState) -> str:
    """The question a Confirm asks, from the command it would send (the payout is the engine's)."""
    match command:
        case Fulfil(card=card_id):
            card = state.config.contract(card_id)
            pay = payout(state, card_id)
            assert card is not None and pay is not None
            return t.text(
                "prompt.confirm_fulfil",
                card=card.id,
                origin=card.origin,
                destination=card.destination,
                pay=money(pay.amount),
            )
        case Cancel(player=colour, marker=n):
            player = state.player(colour)
            transport = None if player is None else player.transport(n)
            city = "" if transport is None else transport.city
            return t.text("prompt.confirm_cancel", colour=colour, n=n, city=city)
        case Pass(player=colour):
            return t.text("prompt.confirm_pass", player=colour, steps=t.steps(state.steps_left))
    return repr(command)


def menu_label(t: Catalogue, item: MenuItem, state: GameState) -> str:
    match item:
        case MenuItem.BUILD_WAREHOUSE:
            return t.text("menu.build_warehouse", cost=money(building_cost(state, Building.WAREHOUSE)))
        case MenuItem.BUILD_LOGISTICS_CENTRE:
            return t.text("menu.build_logistics_centre", cost=money(building_cost(state, Building.LOGISTICS_CENTRE)))
        case MenuItem.EXPAND:
            return t.text("menu.expand", cost=money(expansion_cost(state)))
    return t.text(f"menu.{item.value}")


def problem_text(t: Catalogue, problem: Problem) -> str:
    match problem:
        case PutBack(marker=m, city=city):
            return t.text("prompt.put_back", colour=m.colour, n=m.number, city=city)
        case TakeOff(marker=None, city=city):
            return t.text("prompt.take_off_unknown", city=city)
        case TakeOff(marker=m, city=city):
            assert m is not None
            return t.text("prompt.take_off", colour=m.colour, n=m.number, city=city)
    return ""
