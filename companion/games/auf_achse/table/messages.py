"""Auf Achse events as the table's message line (one sentence from the catalogue per event).

Private contract ids never appear: a dealt or spare contract is told as "who", not "which".
"""

from __future__ import annotations

from companion.games.auf_achse.engine import events as ev
from companion.games.auf_achse.engine.money import dm
from companion.games.auf_achse.engine.state import GameState
from companion.table.messages import Catalogue
from companion.table.messages.spaces import named


def event_message(t: Catalogue, state: GameState, event: object) -> str | None:
    """The sentence for ``event``, or None if the table says nothing about it."""
    match event:
        case ev.TruckPlaced(player=p, space=space):
            return t.text("aa_message.truck_placed", player=p, space=named(t, state, space))
        case ev.ContractDealt(player=p):  # the card is secret: the shared screen says only who
            n = len(state.player(p).hand)  # type: ignore[union-attr]
            return t.text("aa_message.dealt", player=p, n=n)
        case ev.PublicRevealed(card=card):
            c = state.config.contract(card)
            assert c is not None
            return t.text("aa_message.revealed", card=card, start=c.start, end=c.end)
        case ev.GameStarted(first=p):
            return t.text("aa_message.started", player=p)
        case ev.Rolled(player=p, value=v, by_companion=by):
            key = "aa_message.rolled_by_companion" if by else "aa_message.rolled"
            return t.text(key, player=p, value=v)
        case ev.TruckStuck(player=p, space=space):
            return t.text("aa_message.stuck", player=p, space=named(t, state, space))
        case ev.TruckMoved(player=p, path=path, steps=steps):
            return t.text("aa_message.moved", player=p, space=named(t, state, path[-1]), steps=steps)
        case ev.ContractLoaded(player=p, card=card, goods=goods):
            return t.text("aa_message.loaded", player=p, card=card, goods=goods)
        case ev.ContractDelivered(player=p, card=card, city=city, payout=pay):
            return t.text("aa_message.delivered", player=p, card=card, city=city, pay=dm(pay))
        case ev.TrailerBought(player=p, size=size):
            return t.text("aa_message.trailer", player=p, size=t.text(f"aa_words.{size}"))
        case ev.SignPlaced(sign=sign, space=space):
            return t.text("aa_message.sign", sign=t.text(f"aa_words.{sign}"), space=named(t, state, space))
        case ev.ActionCardDrawn(card=card):
            action = state.config.action(card)
            return t.text("aa_message.action", card=card, text=action.text if action else "")
        case ev.SpareContractTaken(player=p):
            return t.text("aa_message.spare", player=p)
        case ev.AuctionOpened(opener=p, card=card):
            return t.text("aa_message.opened", player=p, card=card)
        case ev.BidMade(player=p, level=level, amount=amount):
            return t.text("aa_message.bid", player=p, level=level, amount=dm(amount))
        case ev.BidPassed(player=p, automatic=auto):
            return t.text("aa_message.passed_auto" if auto else "aa_message.passed", player=p)
        case ev.AuctionWon(player=p, card=card, level=level, amount=amount):
            key = "aa_message.won_free" if level is None else "aa_message.won"
            return t.text(key, player=p, card=card, amount=dm(amount))
        case ev.TurnMissed(player=p):
            return t.text("aa_message.missed", player=p)
        case ev.DebtIncurred(player=p, creditor=creditor, amount=amount):
            who = creditor or t.text("aa_words.bank")
            return t.text("aa_message.debt", player=p, amount=dm(amount), creditor=who)
    return None
