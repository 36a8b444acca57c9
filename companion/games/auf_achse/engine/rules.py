"""The Auf Achse reducer: ``apply(state, command) -> (state, events)``; validate first, then apply.

Validation order (style point 4): game over -> set-up -> awaiting something (a card to scan, a sign
to place) -> a running auction -> whose turn -> the rule. A refused command raises
``IllegalAction`` naming the rule; the state passed in is never changed (it is immutable).
"""

from __future__ import annotations

import random

from companion.engine.errors import IllegalAction
from companion.engine.game import check as check_with
from companion.engine.values import evolve
from companion.games.auf_achse.engine import events as ev
from companion.games.auf_achse.engine.actions import draw_action, take_spare
from companion.games.auf_achse.engine.auction import bid, open_auction, pass_bid
from companion.games.auf_achse.engine.commands import (
    Bid,
    BuyTrailer,
    Command,
    DealContract,
    DrawAction,
    EndTurn,
    Load,
    Move,
    OpenAuction,
    PassBid,
    PayDebt,
    PlaceSign,
    PlaceTruck,
    RevealPublic,
    Roll,
    StartGame,
    TakeSpare,
    Undo,
    Unload,
    action_name,
)
from companion.games.auf_achse.engine.money import dm, pay_bank, player_of, receive, settle_debts, with_player
from companion.games.auf_achse.engine.movement import destinations, sign_spaces
from companion.games.auf_achse.engine.options import StauRemoval
from companion.games.auf_achse.engine.scoring import maybe_finish
from companion.games.auf_achse.engine.state import (
    FACE_UP,
    PRIVATE_CONTRACTS,
    TRAILERS,
    Awaiting,
    GameState,
    Phase,
    PlayerState,
    Sign,
    Stage,
    TrailerSize,
    Turn,
    Waiting,
)

Outcome = tuple[GameState, list[ev.Event]]

# What each kind of wait asks for, and the rule behind it.
_WAITING = {
    Waiting.PUBLIC_CARD: ("AA-21", "turn up (scan) the next public contract"),
    Waiting.ACTION_CARD: ("AA-12", "draw (scan) an action card"),
    Waiting.STAU: ("AA-11", "place the Stau sign"),
    Waiting.ROADWORKS: ("AA-10", "move the roadworks sign"),
    Waiting.SPARE_CONTRACT: ("AA-4", "take (scan) a leftover contract"),
}


def apply(state: GameState, command: Command) -> Outcome:
    """Validate ``command`` against ``state`` and return the new state and what happened."""
    if isinstance(command, Undo):
        raise IllegalAction("AA-6", "undo needs the game history; push it to a Game")
    if state.finished:
        raise IllegalAction("AA-23", "the game is over")
    if state.phase is Phase.SETUP:
        return _setup(state, command)
    if isinstance(command, Bid | PassBid) and state.auction is None:
        raise _no_auction(state, command)
    if state.awaiting is not None:
        return _awaited(state, state.awaiting, command)
    if isinstance(command, RevealPublic | DrawAction | TakeSpare):
        rule = {RevealPublic: "AA-21", DrawAction: "AA-12", TakeSpare: "AA-4"}[type(command)]
        raise IllegalAction(rule, f"no card is due now ({action_name(command)} refused)")
    if state.auction is not None:
        if not isinstance(command, Bid | PassBid):
            raise IllegalAction("AA-19", f"the auction of {state.auction.card} is running; bid or pass first")
        if isinstance(command, Bid):
            return bid(state, state.auction, command)
        return pass_bid(state, state.auction, command)
    if isinstance(command, PlaceTruck | DealContract | StartGame):
        raise IllegalAction("AA-5", "the game has started; set-up commands are over")
    _check_turn(state, command.player)
    match command:
        case Roll():
            return _roll(state, command)
        case Move():
            return _move(state, command)
        case Load():
            return _load(state, command)
        case Unload():
            return _unload(state, command)
        case BuyTrailer():
            return _buy_trailer(state, command)
        case PlaceSign():
            return _place_sign_after_roll(state, command)
        case OpenAuction():
            return open_auction(state, command)
        case PayDebt():
            return _pay_debt(state, command)
        case EndTurn():
            return _end_turn(state)
    raise IllegalAction("AA-6", f"unknown command {command!r}")


def check(state: GameState, command: Command) -> IllegalAction | None:
    """Would ``command`` be accepted now? The refusal (rule and message), or None. Pushes nothing:
    the table asks this before it offers or explains a command (style point 18)."""
    return check_with(apply, state, command)


def _no_auction(state: GameState, command: Bid | PassBid) -> IllegalAction:
    """A bid or pass with no auction running: if it belongs to the auction just closed, say so (AA-19)."""
    last = state.last_auction
    if last is None:
        return IllegalAction("AA-19", "no auction is running")
    winner = last.leader or last.opener
    colour = command.player
    if colour in last.passed:
        how = " automatically (no level he may bid was left)" if colour in last.auto_passed else ""
        return IllegalAction(
            "AA-19", f"{colour} has already passed{how} in the auction of {last.card}; {winner} won it"
        )
    return IllegalAction("AA-19", f"the auction of {last.card} is over: {winner} won it")


def _check_named(state: GameState, colour: str | None, due: str | None, rule: str, what: str) -> None:
    """An optional ``player`` on a table command: checked when given (the table knows who scanned)."""
    if colour is None:
        return
    if state.config.seat_of(colour) is None:
        raise IllegalAction("AA-1", f"there is no {colour} player in this game")
    if due is not None and colour != due:
        raise IllegalAction(rule, f"{what} is {due}'s to do, not {colour}'s")


def _check_turn(state: GameState, colour: str) -> None:
    if state.config.seat_of(colour) is None:
        raise IllegalAction("AA-1", f"there is no {colour} player in this game")
    if state.current.colour != colour:
        raise IllegalAction("AA-6", f"it is {state.current.colour}'s turn, not {colour}'s")


def _known_player(state: GameState, colour: str) -> PlayerState:
    p = state.player(colour)
    if p is None:
        raise IllegalAction("AA-1", f"there is no {colour} player in this game")
    return p


# -- set-up (AA-2..5) ------------------------------------------------------------------------


def _setup(state: GameState, command: Command) -> Outcome:
    match command:
        case PlaceTruck():
            return _place_truck(state, command)
        case DealContract():
            return _deal(state, command)
        case RevealPublic():
            _check_named(state, command.player, None, "AA-4", "turning up a public contract")
            return _reveal_public(state, command)
        case StartGame():
            return _start(state, command)
    raise IllegalAction("AA-5", f"set-up is not finished: {_setup_missing(state) or 'start the game'} first")


def _place_truck(state: GameState, cmd: PlaceTruck) -> Outcome:
    p = _known_player(state, cmd.player)
    space = state.board.index.get(cmd.space)
    if space is None:
        raise IllegalAction("AA-2", f"there is no space {cmd.space} on this board")
    if space.city:
        raise IllegalAction("AA-2", f"{cmd.space} is a city; trucks start on a plain space")
    other = state.occupant(cmd.space)
    if other is not None and other != cmd.player:
        raise IllegalAction("AA-2", f"{other}'s truck already stands on {cmd.space}")
    state = with_player(state, cmd.player, evolve(p, space=cmd.space))
    return state, [ev.TruckPlaced(cmd.player, cmd.space)]


def _new_contract(state: GameState, card_id: str) -> None:
    if state.config.contract(card_id) is None:
        raise IllegalAction("AA-4", f"there is no contract card {card_id} in this game's deck")
    if card_id in state.seen:
        raise IllegalAction("AA-4", f"contract {card_id} has already been scanned")


def _deal(state: GameState, cmd: DealContract) -> Outcome:
    p = _known_player(state, cmd.player)
    _new_contract(state, cmd.card)
    if len(p.hand) >= PRIVATE_CONTRACTS:
        raise IllegalAction("AA-4", f"{cmd.player} already has {PRIVATE_CONTRACTS} private contracts")
    state = with_player(state, cmd.player, evolve(p, hand=(*p.hand, cmd.card)))
    return evolve(state, seen=state.seen | {cmd.card}), [ev.ContractDealt(cmd.player, cmd.card)]


def _reveal_public(state: GameState, cmd: RevealPublic) -> Outcome:
    _new_contract(state, cmd.card)
    if len(state.public) >= FACE_UP:
        raise IllegalAction("AA-4", f"{FACE_UP} public contracts already lie face up")
    if state.public_hidden <= 0:
        raise IllegalAction("AA-21", "the public contract deck is empty")
    state = evolve(
        state,
        public=(*state.public, cmd.card),
        public_hidden=state.public_hidden - 1,
        seen=state.seen | {cmd.card},
        awaiting=None,
    )
    return state, [ev.PublicRevealed(cmd.card, state.public_hidden)]


def _setup_missing(state: GameState) -> str | None:
    unplaced = [p.colour for p in state.players if p.space is None]
    if unplaced:
        return f"place the truck of {', '.join(unplaced)} (AA-2)"
    short = [p.colour for p in state.players if len(p.hand) < PRIVATE_CONTRACTS]
    if short:
        return f"deal {PRIVATE_CONTRACTS} private contracts to {', '.join(short)} (AA-4)"
    if len(state.public) < min(FACE_UP, state.config.public_deck):
        return f"turn up {FACE_UP} public contracts, {len(state.public)} so far (AA-4)"
    return None


def _start(state: GameState, cmd: StartGame) -> Outcome:
    missing = _setup_missing(state)
    if missing is not None:
        raise IllegalAction("AA-5", f"set-up is not finished: {missing}")
    first = cmd.player or state.config.colours[0]
    seat = state.config.seat_of(first)
    if seat is None:
        raise IllegalAction("AA-5", f"there is no {first} player in this game")
    state = evolve(state, phase=Phase.PLAY, turn=Turn(seat, 1))
    events: list[ev.Event] = [ev.GameStarted(first), ev.TurnStarted(first, 1)]
    return state, events


# -- awaited input -----------------------------------------------------------------------------


def _awaited(state: GameState, awaiting: Awaiting, command: Command) -> Outcome:
    rule, what = _WAITING[awaiting.kind]
    who = awaiting.player or "the table"
    match awaiting.kind, command:
        case Waiting.PUBLIC_CARD, RevealPublic():
            what = f"turning up the next public contract after the auction ({awaiting.player} opened it)"
            _check_named(state, command.player, awaiting.player, rule, what)
            return _reveal_public(state, command)
        case Waiting.ACTION_CARD, DrawAction():
            what = f"drawing the action card ({awaiting.player} ended on the warning triangle)"
            _check_named(state, command.player, awaiting.player, rule, what)
            state, events = draw_action(state, command)
            return maybe_finish(state, events), events
        case ((Waiting.STAU | Waiting.ROADWORKS), PlaceSign()) if command.player == awaiting.player:
            wanted = Sign.STAU if awaiting.kind is Waiting.STAU else Sign.ROADWORKS
            if command.sign is not wanted:
                raise IllegalAction(rule, f"the action card asks for the {wanted.value} sign, not {command.sign}")
            state, events = _place_sign(state, command)
            return evolve(state, awaiting=None), events
        case Waiting.SPARE_CONTRACT, TakeSpare() if command.player == awaiting.player:
            return take_spare(state, command)
    raise IllegalAction(rule, f"first {who} must {what}")


# -- roll and move (AA-7..12) -------------------------------------------------------------------


def roll_value(state: GameState) -> int:
    """The companion's die: reproducible from the seed and the number of rolls made so far."""
    return random.Random(f"{state.config.seed}:{state.rolls}").randint(1, 6)


def _roll(state: GameState, cmd: Roll) -> Outcome:
    if state.turn.stage is not Stage.ROLL:
        raise IllegalAction("AA-6", f"{cmd.player} has already rolled this turn ({state.turn.roll})")
    if cmd.value is None:
        value = roll_value(state)
        state = evolve(state, rolls=state.rolls + 1)
    elif 1 <= cmd.value <= 6:
        value = cmd.value
    else:
        raise IllegalAction("AA-7", f"a die shows 1 to 6, not {cmd.value}")
    events: list[ev.Event] = [ev.Rolled(cmd.player, value, cmd.value is None)]
    turn = evolve(state.turn, stage=Stage.MOVE, roll=value, roadworks_allowed=value == 1)
    state = evolve(state, turn=turn)
    if not destinations(state, cmd.player, value):
        space = state.current.space
        assert space is not None
        events.append(ev.TruckStuck(cmd.player, space))
        state = evolve(state, turn=evolve(turn, stage=Stage.ACT))
    return state, events


def _move(state: GameState, cmd: Move) -> Outcome:
    turn = state.turn
    if turn.stage is Stage.ROLL:
        raise IllegalAction("AA-6", f"{cmd.player} must roll before moving")
    if turn.stage is Stage.ACT:
        raise IllegalAction("AA-7", f"{cmd.player} has already moved this turn")
    assert turn.roll is not None
    dest = destinations(state, cmd.player, turn.roll).get(cmd.to)
    if dest is None:
        raise IllegalAction(*why_not(state, cmd.player, turn.roll, cmd.to))
    p = state.current
    state = with_player(state, cmd.player, evolve(p, space=cmd.to))
    on_city = state.board.is_city(cmd.to)
    turn = evolve(
        turn,
        stage=Stage.ACT,
        exact_city=dest.exact and on_city,
        must_serve=cmd.to if dest.rule == "AA-9" else None,
        served=False,
    )
    state = evolve(state, turn=turn)
    events: list[ev.Event] = [ev.TruckMoved(cmd.player, dest.path, dest.steps, dest.exact, dest.rule)]
    if state.board.space(cmd.to).triangle:
        state = evolve(state, awaiting=Awaiting(Waiting.ACTION_CARD, cmd.player))
        events.append(ev.ActionCardDue(cmd.player))
    return state, events


def why_not(state: GameState, colour: str, roll: int, to: str) -> tuple[str, str]:
    """(rule, message) saying why ``to`` is not a legal destination for ``roll``."""
    board = state.board
    if to not in board.index:
        return "AA-7", f"there is no space {to} on this board"
    if to == state.roadworks:
        return "AA-10", f"{to} is closed by the roadworks sign"
    if to == state.stau:
        return "AA-11", f"{to} is closed by the Stau sign"
    other = state.occupant(to)
    if other is not None and other != colour:
        return "AA-8", f"{other}'s truck stands on {to}; a move may pass a truck but not end on it"
    p = player_of(state, colour)
    assert p.space is not None
    dist = board.distances_from(p.space).get(to)
    far = "cannot be reached" if dist is None else f"is {dist} spaces away at the least"
    wanted = "1 to 6 spaces" if roll == 6 else f"exactly {roll} spaces"
    return "AA-7", f"{to} {far}; a roll of {roll} moves {wanted} without turning or entering a blocked space"


# -- contracts (AA-13..16) ----------------------------------------------------------------------


def _need_moved(state: GameState, what: str) -> None:
    if state.turn.stage is not Stage.ACT:
        raise IllegalAction("AA-6", f"{state.current.colour} must roll and move before {what}")


def _load(state: GameState, cmd: Load) -> Outcome:
    _need_moved(state, "loading")
    p = state.current
    if cmd.card not in p.hand:
        held = "is already loaded" if cmd.card in p.loaded else "is not one of his private contracts"
        raise IllegalAction("AA-14", f"{cmd.player} cannot load {cmd.card}: it {held}")
    card = state.config.contract(cmd.card)
    assert card is not None
    if p.space != card.start:
        raise IllegalAction("AA-14", f"{card} loads in {card.start}; {cmd.player}'s truck is on {p.space}")
    if card.goods > p.free:
        raise IllegalAction(
            "AA-15",
            f"{card.id} has {card.goods} goods; {cmd.player} has room for {p.free} (a contract loads whole)",
        )
    load = list(p.load)
    left = card.goods
    for i, capacity in enumerate(p.vehicle_capacities()):  # the truck first, then the trailers
        put = min(left, capacity - load[i])
        load[i] += put
        left -= put
    p = evolve(p, hand=tuple(c for c in p.hand if c != card.id), loaded=(*p.loaded, card.id), load=tuple(load))
    state = with_player(state, cmd.player, p)
    state = evolve(state, turn=_served(state.turn, card.start))
    return state, [ev.ContractLoaded(cmd.player, card.id, card.goods, p.load)]


def _served(turn: Turn, city: str) -> Turn:
    return evolve(turn, served=True) if turn.must_serve == city else turn


def _unload(state: GameState, cmd: Unload) -> Outcome:
    _need_moved(state, "unloading")
    p = state.current
    if cmd.card not in p.loaded:
        held = "has not been loaded" if cmd.card in p.hand else "is not his"
        raise IllegalAction("AA-16", f"{cmd.player} cannot unload {cmd.card}: it {held}")
    card = state.config.contract(cmd.card)
    assert card is not None
    if p.space != card.end:
        raise IllegalAction("AA-16", f"{card} unloads in {card.end}; {cmd.player}'s truck is on {p.space}")
    load = list(p.load)
    left = card.goods
    for i in reversed(range(len(load))):  # AA-16: the trailers are unloaded first (the newest first)
        take = min(left, load[i])
        load[i] -= take
        left -= take
    p = evolve(
        p,
        loaded=tuple(c for c in p.loaded if c != card.id),
        load=tuple(load),
        delivered=(*p.delivered, card.id),
    )
    state = with_player(state, cmd.player, p)
    state = evolve(state, turn=_served(state.turn, card.end))
    events: list[ev.Event] = [ev.ContractDelivered(cmd.player, card.id, card.end, card.payout, p.load)]
    state = receive(
        state, events, cmd.player, card.payout, f"contract {card.id} {card.start}→{card.end}", "AA-16", card.id
    )
    return maybe_finish(state, events), events


# -- trailers, signs, debts (AA-10, AA-17, AA-22) ----------------------------------------------------


def _buy_trailer(state: GameState, cmd: BuyTrailer) -> Outcome:
    size = TrailerSize(cmd.size)
    spec = TRAILERS[size]
    if state.trailers_available(size) < 1:
        raise IllegalAction("AA-17", f"every {size.value} trailer card has been bought")
    p = state.current
    if p.money < spec.price:
        raise IllegalAction("AA-17", f"{cmd.player} has {dm(p.money)}; a {size.value} trailer costs {dm(spec.price)}")
    left = tuple((s, n - 1 if s is size else n) for s, n in state.trailers_left)
    state = with_player(state, cmd.player, evolve(p, trailers=(*p.trailers, size), load=(*p.load, 0)))
    state = evolve(state, trailers_left=left)
    events: list[ev.Event] = [ev.TrailerBought(cmd.player, size.value, spec.capacity)]
    state = pay_bank(state, events, cmd.player, spec.price, f"{size.value} trailer", "AA-17")
    return state, events


def _place_sign_after_roll(state: GameState, cmd: PlaceSign) -> Outcome:
    if Sign(cmd.sign) is Sign.STAU:
        raise IllegalAction("AA-11", "the Stau sign comes only with an action card")
    if state.turn.stage is not Stage.ACT or not state.turn.roadworks_allowed:
        why = "must move first" if state.turn.stage is not Stage.ACT else "did not roll a 1 (or has placed it)"
        raise IllegalAction("AA-10", f"{cmd.player} may not place the roadworks sign now: he {why}")
    state, events = _place_sign(state, cmd)
    return evolve(state, turn=evolve(state.turn, roadworks_allowed=False)), events


def _place_sign(state: GameState, cmd: PlaceSign) -> Outcome:
    sign = Sign(cmd.sign)
    rule = "AA-10" if sign is Sign.ROADWORKS else "AA-11"
    space = state.board.index.get(cmd.space)
    if space is None:
        raise IllegalAction(rule, f"there is no space {cmd.space} on this board")
    if cmd.space not in sign_spaces(state, sign.value):
        if space.city:
            why = "is a city"
        elif state.occupant(cmd.space) is not None:
            why = f"is occupied by {state.occupant(cmd.space)}'s truck"
        elif not space.signs_allowed:
            why = "may never be closed (the road to Flensburg)"
        else:
            why = "already has the other sign"
        raise IllegalAction(rule, f"the {sign.value} sign cannot go on {cmd.space}: it {why}")
    if sign is Sign.ROADWORKS:
        moved_from = state.roadworks
        state = evolve(state, roadworks=cmd.space)
    else:
        moved_from = state.stau
        state = evolve(state, stau=cmd.space, stau_by=cmd.player, stau_round=state.turn.round)
    return state, [ev.SignPlaced(sign.value, cmd.space, moved_from)]


def _pay_debt(state: GameState, cmd: PayDebt) -> Outcome:
    p = state.current
    if not p.debts:
        raise IllegalAction("AA-22", f"{cmd.player} owes nothing")
    if p.money <= 0:
        raise IllegalAction("AA-22", f"{cmd.player} has no money to pay his {dm(p.debt)} of debts with")
    events: list[ev.Event] = []
    return settle_debts(state, events, cmd.player), events


# -- the end of a turn -------------------------------------------------------------------------


def _end_turn(state: GameState) -> Outcome:
    turn = state.turn
    colour = state.current.colour
    if turn.stage is not Stage.ACT:
        raise IllegalAction("AA-6", f"{colour} must roll and move before ending the turn")
    if turn.must_serve is not None and not turn.served:
        raise IllegalAction(
            "AA-9", f"{colour} stopped early in {turn.must_serve}: he must load or unload a contract there first"
        )
    events: list[ev.Event] = [ev.TurnEnded(colour)]
    n = state.config.player_count
    seat, rnd = turn.seat, turn.round
    while True:
        seat = (seat + 1) % n
        if seat == 0:
            rnd += 1
        state = _stau_expiry(state, seat, rnd, events)
        p = state.players[seat]
        if p.miss_turns > 0:
            state = with_player(state, p.colour, evolve(p, miss_turns=p.miss_turns - 1))
            events.append(ev.TurnMissed(p.colour, p.miss_turns - 1))
            continue
        break
    state = evolve(state, turn=Turn(seat, rnd), last_auction=None)
    events.append(ev.TurnStarted(state.current.colour, rnd))
    return state, events


def _stau_expiry(state: GameState, seat: int, rnd: int, events: list[ev.Event]) -> GameState:
    """AA-11: the Stau sign lasts one round (house rule stau_removal says which moment ends it)."""
    if state.stau is None:
        return state
    if state.config.rules.stau_removal is StauRemoval.PLACER_NEXT_TURN:
        due = state.players[seat].colour == state.stau_by
    else:
        due = seat == 0 and rnd > state.stau_round
    if not due:
        return state
    events.append(ev.SignRemoved(Sign.STAU.value, state.stau))
    return evolve(state, stau=None, stau_by=None)
