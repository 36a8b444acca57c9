"""Payments: every one is a ledger entry (the bank is the implicit counterparty); a payment between
players is two entries. A player who cannot pay owes the rest (AA-22)."""

from __future__ import annotations

from companion.engine.money import format_money
from companion.engine.values import evolve
from companion.games.auf_achse.engine import events as ev
from companion.games.auf_achse.engine.state import Debt, GameState, PlayerState


def dm(amount: int) -> str:
    """5000 -> '5 000 DM' (the one formatter, ``companion.engine.money``)."""
    return format_money(amount, "DM")


def with_player(state: GameState, colour: str, player: PlayerState) -> GameState:
    seat = state.config.seat_of(colour)
    assert seat is not None
    players = state.players
    return evolve(state, players=(*players[:seat], player, *players[seat + 1 :]))


def player_of(state: GameState, colour: str) -> PlayerState:
    p = state.player(colour)
    assert p is not None
    return p


def _book(
    state: GameState,
    events: list[ev.Event],
    colour: str,
    amount: int,
    reason: str,
    rule: str,
    card: str | None,
    bank: bool,
) -> GameState:
    """One ledger entry; ``bank`` True when the bank is the other side (tracked for conservation)."""
    if amount == 0:
        return state
    ledger = state.ledger.append(colour, amount, reason, rule, card)
    assert ledger.last is not None
    events.append(ev.MoneyBooked(ledger.last))
    p = player_of(state, colour)
    state = with_player(state, colour, evolve(p, money=p.money + amount))
    return evolve(state, ledger=ledger, bank_paid=state.bank_paid + (amount if bank else 0))


def _owe(state: GameState, events: list[ev.Event], colour: str, creditor: str | None, amount: int) -> GameState:
    p = player_of(state, colour)
    events.append(ev.DebtIncurred(colour, creditor, amount))
    return with_player(state, colour, evolve(p, debts=(*p.debts, Debt(creditor, amount))))


def receive(
    state: GameState, events: list[ev.Event], colour: str, amount: int, reason: str, rule: str, card: str | None = None
) -> GameState:
    """The bank pays ``colour``; with auto_settle_debts the income first pays his debts (AA-22)."""
    state = _book(state, events, colour, amount, reason, rule, card, bank=True)
    if state.config.rules.auto_settle_debts:
        state = settle_debts(state, events, colour)
    return state


def pay_bank(
    state: GameState, events: list[ev.Event], colour: str, amount: int, reason: str, rule: str, card: str | None = None
) -> GameState:
    """``colour`` pays the bank what he can; the rest becomes a debt to the bank (AA-22)."""
    paid = min(amount, player_of(state, colour).money)
    state = _book(state, events, colour, -paid, reason, rule, card, bank=True)
    if paid < amount:
        state = _owe(state, events, colour, None, amount - paid)
    return state


def transfer(
    state: GameState,
    events: list[ev.Event],
    payer: str,
    payee: str,
    amount: int,
    reason: str,
    rule: str,
    card: str | None = None,
) -> GameState:
    """``payer`` pays ``payee`` what he can (two entries); the rest is a debt to ``payee`` (AA-22)."""
    paid = min(amount, player_of(state, payer).money)
    if paid:
        state = _book(state, events, payer, -paid, f"{reason}, to {payee}", rule, card, bank=False)
        state = _book(state, events, payee, paid, f"{reason}, from {payer}", rule, card, bank=False)
        if state.config.rules.auto_settle_debts:
            state = settle_debts(state, events, payee)
    if paid < amount:
        state = _owe(state, events, payer, payee, amount - paid)
    return state


def settle_debts(state: GameState, events: list[ev.Event], colour: str) -> GameState:
    """AA-22: pay debts, oldest first, from the money ``colour`` holds now.

    The oldest debt is read afresh from the state each time round: paying a creditor settles the
    creditor's own debts too, which may pay ``colour`` and change ``colour``'s debts meanwhile.
    """
    while True:
        p = player_of(state, colour)
        if not p.debts or p.money <= 0:
            return state
        debt = p.debts[0]
        paid = min(p.money, debt.amount)
        rest = debt.amount - paid
        remaining = ((Debt(debt.creditor, rest),) if rest else ()) + p.debts[1:]
        state = with_player(state, colour, evolve(p, debts=remaining))
        events.append(ev.DebtSettled(colour, debt.creditor, paid))
        if debt.creditor is None:
            state = _book(state, events, colour, -paid, "debt to the bank", "AA-22", None, bank=True)
        else:
            state = _book(state, events, colour, -paid, f"debt, to {debt.creditor}", "AA-22", None, bank=False)
            state = _book(state, events, debt.creditor, paid, f"debt, from {colour}", "AA-22", None, bank=False)
            if state.config.rules.auto_settle_debts:
                state = settle_debts(state, events, debt.creditor)
