"""AA-12: action cards, drawn after ending a move on a warning triangle, and what they do."""

from __future__ import annotations

from companion.engine.errors import IllegalAction
from companion.engine.values import evolve
from companion.games.auf_achse.engine import events as ev
from companion.games.auf_achse.engine.cards import Effect
from companion.games.auf_achse.engine.commands import DrawAction, TakeSpare
from companion.games.auf_achse.engine.money import pay_bank, player_of, receive, transfer, with_player
from companion.games.auf_achse.engine.movement import sign_spaces
from companion.games.auf_achse.engine.state import Awaiting, GameState, Waiting

Outcome = tuple[GameState, list[ev.Event]]


def draw_action(state: GameState, cmd: DrawAction) -> Outcome:
    awaiting = state.awaiting
    assert awaiting is not None and awaiting.kind is Waiting.ACTION_CARD and awaiting.player is not None
    card = state.config.action(cmd.card)
    if card is None:
        raise IllegalAction("AA-12", f"there is no action card {cmd.card} in this game's deck")
    used = state.actions_used
    reshuffled = False
    if cmd.card in used:
        if len(used) < len(state.config.deck.actions):
            raise IllegalAction(
                "AA-12", f"action card {cmd.card} has been used since the last shuffle; scan the next card of the deck"
            )
        used, reshuffled = (), True  # the deck ran out: the used cards are the new deck
    colour = awaiting.player
    events: list[ev.Event] = [ev.ActionCardDrawn(colour, card.id, card.effect.value, reshuffled)]
    state = evolve(state, awaiting=None, actions_used=(*used, card.id))
    why = f"action card {card.id}"
    match card.effect:
        case Effect.PAY:
            state = pay_bank(state, events, colour, card.amount, why, "AA-12", card.id)
        case Effect.RECEIVE:
            state = receive(state, events, colour, card.amount, why, "AA-12", card.id)
        case Effect.PAY_PER_GOOD:
            goods = player_of(state, colour).goods
            if goods:
                state = pay_bank(state, events, colour, card.amount * goods, f"{why}, {goods} goods", "AA-12", card.id)
        case Effect.RECEIVE_FROM_EACH:
            for other in state.config.colours:
                if other != colour:
                    state = transfer(state, events, other, colour, card.amount, why, "AA-12", card.id)
        case Effect.PAY_EACH:
            for other in state.config.colours:
                if other != colour:
                    state = transfer(state, events, colour, other, card.amount, why, "AA-12", card.id)
        case Effect.MISS_TURNS:
            p = player_of(state, colour)
            state = with_player(state, colour, evolve(p, miss_turns=p.miss_turns + card.turns))
            events.append(ev.MissTurns(colour, card.turns))
        case Effect.STAU:
            if sign_spaces(state, "stau"):  # no free plain space: the card does nothing
                state = evolve(state, awaiting=Awaiting(Waiting.STAU, colour))
        case Effect.ROADWORKS:
            if sign_spaces(state, "roadworks"):
                state = evolve(state, awaiting=Awaiting(Waiting.ROADWORKS, colour))
        case Effect.SPARE_CONTRACT:
            if state.spare_left > 0:
                state = evolve(state, awaiting=Awaiting(Waiting.SPARE_CONTRACT, colour))
    return state, events


def take_spare(state: GameState, cmd: TakeSpare) -> Outcome:
    card = state.config.contract(cmd.card)
    if card is None:
        raise IllegalAction("AA-4", f"there is no contract card {cmd.card} in this game's deck")
    if cmd.card in state.seen:
        raise IllegalAction("AA-4", f"contract {cmd.card} is already in play; scan one of the leftover contracts")
    p = player_of(state, cmd.player)
    state = with_player(state, cmd.player, evolve(p, hand=(*p.hand, card.id)))
    state = evolve(state, awaiting=None, seen=state.seen | {card.id}, spare_left=state.spare_left - 1)
    return state, [ev.SpareContractTaken(cmd.player, card.id)]
