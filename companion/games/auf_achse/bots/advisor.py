"""The Auf Achse advisor: the best commands for the player who must decide now, each with a chance.

    advice = advise(state, "red", budget_s=1.0, seed=7)
    advice[0].command, advice[0].win_rate, advice[0].sentence

It advises the decisions the search knows (``search.candidates``): where to move after the roll (AA-7),
whether to open an auction and on which public contract (AA-18), how high to bid or whether to pass
(AA-19), and which contract to load or unload (AA-14..16). Read-only and deterministic given the seed.

- **Only what the player can know**: the other players' private contracts are dealt afresh in every
  playout from the cards the player has not seen (``determinize``), the die and the cards to come are
  the playouts' own. A card to draw is never named: the advisor asks for it to be drawn and scanned.
- **The chance**: ``win_rate`` is the share of paired playouts (``Effort.horizon`` commands, then the
  position) in which the player has won or leads; the pick's share comes from fresh playouts (no
  winner's curse). It is a lead share a few turns ahead, not a chance of winning the whole game.
  ``chance`` maps it to whole games against the opponents at the table (``chances.py``), where a map
  was fitted for them; else it is None and the table tells the lead share as what it is.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from companion.engine.errors import IllegalAction
from companion.engine.stats import wilson
from companion.games.advice import Advice as AdviceBase
from companion.games.advice import Place, Words, counted, in_english, said
from companion.games.auf_achse.bots import chances
from companion.games.auf_achse.bots.policy import easy_command
from companion.games.auf_achse.bots.search import HORIZON, Z, candidates, clearly_better, compare, play_out_all
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
    RevealPublic,
    Roll,
    TakeSpare,
    Unload,
)
from companion.games.auf_achse.engine.queries import AuctionStatus, auction_status, cargo_options
from companion.games.auf_achse.engine.serialize import command_to_json
from companion.games.auf_achse.engine.state import GameState, Phase, Stage
from companion.games.calibration import chance, rivals

DEFAULT_BUDGET_S = 1.0
PLAYOUTS_PER_S = 24  # paired playouts per candidate for one second of a Pi 4 (hard's effort, docs)
MAX_OPTIONS = 6
TOP = 3
CARDS = (DealContract, RevealPublic, DrawAction, TakeSpare)


@dataclass(frozen=True, slots=True)
class Advice(AdviceBase):
    command: Command

    def command_json(self) -> dict[str, object]:
        return command_to_json(self.command)


def deciding(state: GameState) -> str | None:
    """Who must decide now: the first bidder still to answer in an auction, the player a card or a sign
    is awaited from, else the player on turn (None once the game is over)."""
    if state.finished:
        return None
    status = auction_status(state)
    if status is not None and state.awaiting is None:
        for colour in status.may_act:
            if not (colour == status.opener and status.leader is None):
                return colour
    if state.awaiting is not None:
        return state.awaiting.player or state.current.colour
    return state.current.colour


def options_for(state: GameState, colour: str, plan: Command) -> list[Command]:
    """The plan and the alternatives worth comparing: the search's, and in the act stage every
    contract that can be loaded or unloaded now."""
    found = candidates(state, colour, plan, MAX_OPTIONS)
    if state.phase is Phase.PLAY and state.turn.stage is Stage.ACT and state.current.colour == colour:
        for option in cargo_options(state, colour):
            command: Command = Unload(colour, option.card) if option.unload else Load(colour, option.card)
            if (option.unload or option.fits) and command not in found:
                found.append(command)
    return found


def advise(
    state: GameState,
    player: str | None = None,
    *,
    budget_s: float = DEFAULT_BUDGET_S,
    seed: int = 0,
    progress: Callable[[float], None] | None = None,
    opponents: Mapping[str, str] | None = None,
) -> tuple[Advice, ...]:
    """Up to three commands for ``player`` (default: whoever must decide now), best first.
    ``progress`` is told the share of the search done (0..1) after every playout. ``opponents``:
    colour -> the level of a seat the box plays (the others are people); they set ``chance``, never
    the advice."""
    if state.finished:
        raise IllegalAction("AA-23", "the game is over")
    colour = player if player is not None else deciding(state)
    if colour is None or state.player(colour) is None:
        raise IllegalAction("AA-6", f"there is no {colour} player in this game")
    if state.phase is Phase.SETUP:
        raise IllegalAction("AA-2", "the advice starts once the game has started (AA-2..5 are the set-up)")
    rng = random.Random(f"advise:{seed}")
    plan = easy_command(state, colour, rng)
    if plan is None:
        raise IllegalAction("AA-6", f"nothing is {colour}'s to decide now")
    if isinstance(plan, CARDS):
        raise IllegalAction("AA-4", "draw the card and scan it: the advice never names a card that is not open")
    options = options_for(state, colour, plan)
    playouts = max(2, round(PLAYOUTS_PER_S * budget_s))
    seeds = [rng.getrandbits(32) for _ in range(playouts)]
    total = playouts * (len(options) + (len(options) > 1))  # each candidate's, and the pick's fresh ones
    done = [0]

    def playout_done() -> None:
        done[0] += 1
        if progress is not None:
            progress(done[0] / total)

    results, _ = play_out_all(state, colour, options, seeds, HORIZON, playout_done)
    scored = compare(options, [[v for v, _ in row] for row in results])
    # The plan (options[0]) is the default, left only for a candidate clearly better playout by playout
    # (the bots' test, ``search``): ranking by the bare means made a follower lose 6 of 6 games.
    best = max(range(len(options)), key=lambda i: (scored[i].gain - Z * scored[i].error, -i))
    pick = best if clearly_better(scored[best]) else 0
    order = [pick, *sorted((i for i in range(len(options)) if i != pick), key=lambda i: (-scored[i].score, i))]
    leads = {i: sum(lead for _, lead in results[i]) for i in order[:TOP]}
    if len(options) > 1:  # the pick's share from fresh playouts: the best of noisy means flatters it
        fresh = [rng.getrandbits(32) for _ in range(playouts)]
        again, _ = play_out_all(state, colour, [options[pick]], fresh, HORIZON, playout_done)
        leads[pick] = sum(lead for _, lead in again[0])
    against = rivals((p.colour for p in state.players), colour, opponents)
    out = []
    for i in order[:TOP]:
        low, high = wilson(leads[i], playouts)
        told = words(state, options[i])
        share = leads[i] / playouts
        # Fitted on the pick's fresh share only: the others' (the ranking's) have no chance to tell.
        won = chance(share, playouts, against, chances.MAPS) if i == pick else None
        out.append(Advice(options[i], share, low, high, playouts, in_english(told, PACKAGE), told, won))
    return tuple(out)


PACKAGE = "companion.games.auf_achse"  # the catalogue of the advice's words (advice.*)


def sentence(state: GameState, command: Command) -> str:
    """What to do at the table, in one English sentence (the ``advise`` JSON's field)."""
    return in_english(words(state, command), PACKAGE)


def words(state: GameState, command: Command) -> Words:
    """What to do at the table, to be told in a language (``Advice.said``)."""
    config = state.config

    def contract(card_id: str) -> Words | str:
        card = config.contract(card_id)
        if card is None:
            return card_id
        return said("advice.contract", card=str(card), goods=counted("advice.goods", card.goods), payout=card.payout)

    def auction() -> tuple[AuctionStatus | None, dict[str, object]]:
        status = auction_status(state)
        return status, ({} if status is None else {"contract": contract(status.card)})

    match command:
        case Roll():
            return said("advice.roll")
        case Move(to=to):
            key = "advice.drive_city" if to in config.board.cities else "advice.drive"
            return said(key, to=Place(to, config.board))
        case OpenAuction(card=card):
            return said("advice.open_auction", contract=contract(card))
        case Bid(level=level):
            status, on = auction()
            amount = dict(status.allowed_for(command.player)).get(level) if status is not None else None
            costs = {} if amount is None else {"amount": amount}
            key = "advice.bid" + ("_costs" if costs else "") + ("_on" if on else "")
            return said(key, level=level, **costs, **on)
        case PassBid():
            _, on = auction()
            return said("advice.pass_bid_on" if on else "advice.pass_bid", **on)
        case Load(card=card):
            return said("advice.load", contract=contract(card))
        case Unload(card=card):
            return said("advice.unload", contract=contract(card))
        case BuyTrailer(size=size):
            return said(f"advice.buy_trailer_{size.value}")
        case PlaceSign(sign=sign, space=space):
            return said(f"advice.place_{sign.value}", space=Place(space, config.board))
        case PayDebt():
            return said("advice.pay_debt")
        case EndTurn():
            return said("advice.end_turn")
    return said("advice.command", command=str(command))
