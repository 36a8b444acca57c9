"""JSON in and out: commands of the scripted-play interface, the full state and per-player views.

The names here are a stable interface (``companion play --game auf-achse``): keep them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine.jsonio import (
    CommandFormatError,
    enum_field,
    int_field,
    optional_int_field,
    require_object,
    text_field,
)
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
)
from companion.games.auf_achse.engine.queries import auction_status
from companion.games.auf_achse.engine.scoring import ranking
from companion.games.auf_achse.engine.state import GameState, PlayerState, Sign, TrailerSize

TABLE_ACTIONS = ("reveal_public", "draw_action", "start", "undo")
PLAYER_ACTIONS = (
    "place_truck",
    "deal_contract",
    "roll",
    "move",
    "load",
    "unload",
    "buy_trailer",
    "place_sign",
    "take_spare",
    "pay_debt",
    "end_turn",
    "open_auction",
    "bid",
    "pass_bid",
)


def command_from_json(data: object) -> Command:
    """Parse one script command, e.g. ``{"player": "red", "action": "move", "to": "Hamburg"}``."""
    data = require_object(data)
    action = data.get("action")
    match action:
        case "undo":
            return Undo()
        case "reveal_public":
            return RevealPublic(text_field(data, "card"), _optional_player(data))
        case "draw_action":
            return DrawAction(text_field(data, "card"), _optional_player(data))
        case "start":
            return StartGame(None if data.get("player") is None else text_field(data, "player"))
    if action not in PLAYER_ACTIONS:
        known = ", ".join(sorted([*PLAYER_ACTIONS, *TABLE_ACTIONS]))
        raise CommandFormatError("action", f"unknown action {action!r}; one of {known}")
    player = text_field(data, "player")
    match action:
        case "place_truck":
            return PlaceTruck(player, text_field(data, "space"))
        case "deal_contract":
            return DealContract(player, text_field(data, "card"))
        case "roll":
            return Roll(player, optional_int_field(data, "value"))
        case "move":
            return Move(player, text_field(data, "to"))
        case "load":
            return Load(player, text_field(data, "card"))
        case "unload":
            return Unload(player, text_field(data, "card"))
        case "buy_trailer":
            return BuyTrailer(player, enum_field(data, "size", TrailerSize))
        case "place_sign":
            return PlaceSign(player, enum_field(data, "sign", Sign), text_field(data, "space"))
        case "take_spare":
            return TakeSpare(player, text_field(data, "card"))
        case "pay_debt":
            return PayDebt(player)
        case "end_turn":
            return EndTurn(player)
        case "open_auction":
            return OpenAuction(player, text_field(data, "card"))
        case "bid":
            return Bid(player, int_field(data, "level"))
        case _:
            return PassBid(player)


def _optional_player(data: Mapping[str, Any]) -> str | None:
    """``player`` of a table command: optional (the table may know who scanned), null = absent."""
    return None if data.get("player") is None else text_field(data, "player")


def command_to_json(command: Command) -> dict[str, object]:
    """The inverse of ``command_from_json``."""
    match command:
        case Undo():
            return {"action": "undo"}
        case RevealPublic(card=card, player=None):
            return {"action": "reveal_public", "card": card}
        case RevealPublic(card=card, player=p):
            return {"player": p, "action": "reveal_public", "card": card}
        case DrawAction(card=card, player=None):
            return {"action": "draw_action", "card": card}
        case DrawAction(card=card, player=p):
            return {"player": p, "action": "draw_action", "card": card}
        case StartGame(player=p):
            return {"action": "start"} if p is None else {"action": "start", "player": p}
        case PlaceTruck(player=p, space=space):
            return {"player": p, "action": "place_truck", "space": space}
        case DealContract(player=p, card=card):
            return {"player": p, "action": "deal_contract", "card": card}
        case Roll(player=p, value=value):
            return {"player": p, "action": "roll"} if value is None else {"player": p, "action": "roll", "value": value}
        case Move(player=p, to=to):
            return {"player": p, "action": "move", "to": to}
        case Load(player=p, card=card):
            return {"player": p, "action": "load", "card": card}
        case Unload(player=p, card=card):
            return {"player": p, "action": "unload", "card": card}
        case BuyTrailer(player=p, size=size):
            return {"player": p, "action": "buy_trailer", "size": TrailerSize(size).value}
        case PlaceSign(player=p, sign=sign, space=space):
            return {"player": p, "action": "place_sign", "sign": Sign(sign).value, "space": space}
        case TakeSpare(player=p, card=card):
            return {"player": p, "action": "take_spare", "card": card}
        case PayDebt(player=p):
            return {"player": p, "action": "pay_debt"}
        case EndTurn(player=p):
            return {"player": p, "action": "end_turn"}
        case OpenAuction(player=p, card=card):
            return {"player": p, "action": "open_auction", "card": card}
        case Bid(player=p, level=level):
            return {"player": p, "action": "bid", "level": level}
        case PassBid(player=p):
            return {"player": p, "action": "pass_bid"}
    raise TypeError(f"not an Auf Achse command: {command!r}")


def _player_json(p: PlayerState, private: bool) -> dict[str, object]:
    out: dict[str, object] = {
        "colour": p.colour,
        "space": p.space,
        "money": p.money,
        "debts": [{"to": d.creditor or "bank", "amount": d.amount} for d in p.debts],
        "hand": list(p.hand) if private else len(p.hand),
        "loaded": list(p.loaded),
        "load": list(p.load),
        "capacity": p.capacity,
        "trailers": [t.value for t in p.trailers],
        "miss_turns": p.miss_turns,
        "delivered": list(p.delivered),
    }
    return out


def _common(state: GameState) -> dict[str, object]:
    t = state.turn
    status = auction_status(state)
    auction: dict[str, object] | None = None
    if status is not None:
        auction = {
            "card": status.card,
            "opener": status.opener,
            "bidder": status.bidder,
            "level": status.level,
            "amount": status.amount,
            "leader": status.leader,
            "allowed": [{"level": lv, "amount": amt} for lv, amt in status.allowed],
            "passed": list(status.passed),
            "still_in": list(status.still_in),
            "bids": {c: [{"level": lv, "amount": amt} for lv, amt in levels] for c, levels in status.bids},
        }
    return {
        "phase": state.phase.value,
        "public": list(state.public),
        "public_hidden": state.public_hidden,
        "spare_left": state.spare_left,
        "trailers_left": {s.value: n for s, n in state.trailers_left},
        "signs": {"roadworks": state.roadworks, "stau": state.stau},
        "turn": {
            "player": state.current.colour,
            "round": t.round,
            "stage": t.stage.value,
            "roll": t.roll,
            "exact_city": t.exact_city,
            "auctioned": t.auctioned,
            "must_serve": t.must_serve if not t.served else None,
            "roadworks_allowed": t.roadworks_allowed,
        },
        "auction": auction,
        "awaiting": None
        if state.awaiting is None
        else {"kind": state.awaiting.kind.value, "player": state.awaiting.player},
        "rolls": state.rolls,
        "finished": state.finished,
        "end_reason": state.end_reason,
        "ranking": [
            {"place": s.place, "player": s.player, "money": s.money, "debt": s.debt, "worth": s.worth}
            for s in ranking(state)
        ]
        if state.finished
        else [],
    }


def state_to_json(state: GameState) -> dict[str, object]:
    """The full state for ``companion play`` (a referee's view: every hand is shown)."""
    return {"players": [_player_json(p, private=True) for p in state.players], **_common(state)}


def view_for(state: GameState, viewer: str | None) -> dict[str, object]:
    """What ``viewer`` may see; None is the shared screen. Private contracts (the hand) show only
    to their owner, as a count to everyone else; begun contracts lie open on the table (AA-14)."""
    return {"players": [_player_json(p, private=p.colour == viewer) for p in state.players], **_common(state)}
