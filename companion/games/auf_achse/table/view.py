"""The UI model of the Auf Achse table: what the screen shows for a prompt (pure; the texts come from
the catalogue, the game from the engine state and its queries)."""

from __future__ import annotations

from dataclasses import replace

from companion.games.auf_achse.engine import Command, EndTurn, GameState, Load, OpenAuction, Unload
from companion.games.auf_achse.engine.money import dm
from companion.games.auf_achse.engine.queries import auction_status, cargo_options
from companion.games.auf_achse.engine.state import FACE_UP, TRAILERS, Waiting
from companion.games.auf_achse.table.prompts import (
    ITEM_TRAILERS,
    Act,
    Bidding,
    CardDue,
    Choose,
    ChoosePurpose,
    ChooseStarter,
    Confirm,
    Deal,
    DieEntry,
    Menu,
    MenuItem,
    PlaceTrucks,
    Prompt,
    RevealPublics,
    SelectSpace,
    SpacePurpose,
    candidate,
    space_candidates,
)
from companion.table.messages import Catalogue
from companion.table.messages.spaces import named
from companion.table.ui import Mode, UiModel

_CARD_DUE = {
    Waiting.PUBLIC_CARD: "aa_prompt.public_due",
    Waiting.ACTION_CARD: "aa_prompt.action_due",
    Waiting.SPARE_CONTRACT: "aa_prompt.spare_due",
}


def prompt_ui(prompt: Prompt, state: GameState, t: Catalogue, base: UiModel) -> UiModel:
    """The screen's model for ``prompt`` (game over and a table that disagrees with the engine are
    the controller's: it decides those before asking)."""
    colour = state.current.colour
    match prompt:
        case PlaceTrucks(player=player):
            ui = _select(prompt, state, base, t.text("aa_prompt.place_truck", player=player),
                         t.text("aa_prompt.place_truck_detail"))  # fmt: skip
            return replace(ui, player=player)
        case Deal(player=player):
            n = len(state.player(player).hand)  # type: ignore[union-attr]
            return replace(base, mode=Mode.SETUP, player=player, prompt=t.text("aa_prompt.deal", player=player, n=n),
                           detail=t.text("aa_prompt.deal_detail"))  # fmt: skip
        case RevealPublics():
            total = min(FACE_UP, state.config.public_deck)
            return replace(base, mode=Mode.SETUP, player=None,
                           prompt=t.text("aa_prompt.public", n=len(state.public), total=total))  # fmt: skip
        case ChooseStarter(index=index):
            colours = state.config.colours
            starter = colours[index % len(colours)]
            return replace(base, mode=Mode.SETUP, player=starter, prompt=t.text("aa_prompt.start", player=starter),
                           detail=t.text("aa_prompt.start_detail"), choices=tuple(map(t.player_name, colours)),
                           choice_index=index % len(colours))  # fmt: skip
        case CardDue(kind=kind, player=who):
            return replace(base, mode=Mode.CARD_DUE, player=who, prompt=t.text(_CARD_DUE[kind], player=who))
        case SelectSpace(purpose=SpacePurpose.STAU | SpacePurpose.ROADWORKS_CARD, player=who):
            sign = t.text(f"aa_words.{prompt.purpose.value}")
            text = t.text("aa_prompt.sign_due", player=who, sign=sign)
            return _select(prompt, state, replace(base, player=who), text, t.text("aa_prompt.sign_detail"))
        case Bidding():
            return _auction(prompt, state, t, base)
        case Confirm(command=command):
            return replace(base, mode=Mode.CONFIRM, prompt=_confirm_text(command, state, t),
                           detail=t.text("prompt.confirm_detail"))  # fmt: skip
        case Menu(items=items, index=index):
            labels = tuple(_menu_label(item, state, t) for item in items)
            return replace(base, mode=Mode.MENU, prompt=t.text("prompt.menu"), detail=t.text("prompt.menu_detail"),
                           choices=labels, choice_index=index)  # fmt: skip
        case Choose(purpose=purpose, commands=commands, index=index):
            if purpose is ChoosePurpose.CARGO:
                prompt_text = t.text("aa_prompt.cargo", player=colour, city=state.current.space)
                detail = t.text("aa_prompt.cargo_detail")
            else:
                prompt_text = t.text("aa_prompt.auction_pick", player=colour)
                detail = t.text("aa_prompt.auction_pick_detail")
            labels = tuple(_choice_label(c, state, t) for c in commands)
            return replace(base, mode=Mode.CHOOSE, prompt=prompt_text, detail=detail, choices=labels,
                           choice_index=index)  # fmt: skip
        case SelectSpace(purpose=SpacePurpose.ROADWORKS_ROLL):
            return _select(prompt, state, base, t.text("aa_prompt.roadworks", player=colour),
                           t.text("aa_prompt.roadworks_detail"))  # fmt: skip
        case DieEntry(value=value):
            if value is None:
                text = t.text("aa_prompt.roll", player=colour)
            else:
                text = t.text("aa_prompt.roll_value", player=colour, value=value)
            return replace(base, mode=Mode.ROLL, prompt=text, detail=t.text("aa_prompt.roll_detail"), die=value)
        case SelectSpace(purpose=SpacePurpose.MOVE):
            roll = state.turn.roll or 0
            space = candidate(prompt, state)
            if space is None:
                return replace(base, mode=Mode.MOVE, die=roll, prompt=t.text("aa_prompt.move_none", player=colour,
                               roll=roll), detail=t.text("aa_prompt.move_detail"))  # fmt: skip
            where = named(t, state, space)
            ui = _select(prompt, state, base, t.text("aa_prompt.move", player=colour, roll=roll, space=where),
                         t.text("aa_prompt.move_detail"))  # fmt: skip
            return replace(ui, mode=Mode.MOVE, die=roll)
        case Act():
            turn = state.turn
            must = turn.must_serve if not turn.served else None
            if must:
                text = t.text("aa_prompt.must_serve", player=colour, city=must)
            else:
                text = t.text("aa_prompt.act", player=colour)
            return replace(base, mode=Mode.IDLE, prompt=text, detail=t.text("aa_prompt.act_detail"), die=turn.roll)
    return base


def _select(prompt: Prompt, state: GameState, base: UiModel, text: str, detail: str) -> UiModel:
    candidates = space_candidates(prompt, state)
    return replace(base, mode=Mode.SELECT_SPACE, prompt=text, detail=detail, hints=frozenset(candidates),
                   selected=candidate(prompt, state))  # fmt: skip


def _auction(prompt: Bidding, state: GameState, t: Catalogue, base: UiModel) -> UiModel:
    status = auction_status(state)
    assert status is not None
    bidder = prompt.bidder or status.bidder  # scanned (any order) or named (round_the_table)
    base = replace(base, mode=Mode.AUCTION, player=bidder or base.player, bidder=prompt.bidder, level=prompt.level)
    if prompt.bidder is None:
        if status.bidder is None:
            players = ", ".join(status.still_in)
            return replace(base, prompt=t.text("aa_prompt.auction_any", card=status.card, players=players),
                           detail=t.text("aa_prompt.auction_any_detail"))  # fmt: skip
        return replace(base, prompt=t.text("aa_prompt.auction_bidder", card=status.card, player=bidder),
                       detail=t.text("aa_prompt.auction_bidder_detail"))  # fmt: skip
    if prompt.level is None:
        return replace(base, prompt=t.text("aa_prompt.auction_none", player=bidder))
    allowed = status.allowed_for(prompt.bidder)
    amount = dict(allowed).get(prompt.level, 0)
    labels = tuple(f"{lv}: {dm(amt)}" for lv, amt in allowed)
    levels = [lv for lv, _ in allowed]
    index = levels.index(prompt.level) if prompt.level in levels else 0
    return replace(base, prompt=t.text("aa_prompt.auction_level", player=bidder, level=prompt.level,
                   amount=dm(amount)), detail=t.text("aa_prompt.auction_level_detail"), choices=labels,
                   choice_index=index)  # fmt: skip


def _confirm_text(command: Command, state: GameState, t: Catalogue) -> str:
    match command:
        case OpenAuction(card=card):
            c = state.config.contract(card)
            assert c is not None
            return t.text("aa_prompt.auction_open", card=card, start=c.start, end=c.end)
        case EndTurn(player=player):
            return t.text("aa_prompt.confirm_end", player=player)
    return repr(command)


def _choice_label(command: Command, state: GameState, t: Catalogue) -> str:
    match command:
        case Unload(card=card):
            c = state.config.contract(card)
            assert c is not None
            return t.text("aa_prompt.unload_option", card=card, city=c.end, pay=dm(c.payout))
        case Load(player=player, card=card):
            c = state.config.contract(card)
            assert c is not None
            fits = next((o.fits for o in cargo_options(state, player) if o.card == card and not o.unload), True)
            key = "aa_prompt.load_option" if fits else "aa_prompt.load_option_full"
            return t.text(key, card=card, start=c.start, end=c.end, goods=c.goods)
        case OpenAuction(card=card):
            c = state.config.contract(card)
            assert c is not None
            return f"{card} {c.start}→{c.end} {dm(c.payout)}"
    return repr(command)


def _menu_label(item: MenuItem, state: GameState, t: Catalogue) -> str:
    match item:
        case MenuItem.LANGUAGE:
            return t.text("menu.language")
        case MenuItem.ADVICE:
            return t.text("menu.advice")
        case MenuItem.TRAILER_SMALL | MenuItem.TRAILER_LARGE:
            return t.text(f"aa_menu.{item.value}", price=dm(TRAILERS[ITEM_TRAILERS[item]].price))
        case MenuItem.PAY_DEBT:
            return t.text("aa_menu.pay_debt", amount=dm(state.current.debt))
    return t.text(f"aa_menu.{item.value}")
