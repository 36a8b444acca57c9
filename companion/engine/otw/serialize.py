"""JSON in and out: commands of the scripted-play interface and the state view.

The names here are a stable interface (``companion play``): keep them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine.errors import GameError
from companion.engine.otw.commands import (
    Build,
    Cancel,
    Command,
    Expand,
    Fulfil,
    Move,
    Pass,
    RevealEvent,
    TakeContract,
    Undo,
)
from companion.engine.otw.scoring import score, winners
from companion.engine.otw.state import Building, GameState


class CommandFormatError(GameError, ValueError):
    """A script line is not a valid command; ``field`` names what is wrong."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message

    def to_json(self) -> dict[str, str]:
        return {"rule": "input", "field": self.field, "message": self.message}


def _str(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value:
        raise CommandFormatError(key, f"field {key!r} must be a non-empty string, not {value!r}")
    return value


def _int(data: Mapping[str, Any], key: str, optional: bool = False) -> int | None:
    value = data.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise CommandFormatError(key, f"field {key!r} must be a whole number, not {value!r}")
    return value


def _opt_str(data: Mapping[str, Any], key: str) -> str | None:
    return None if data.get(key) is None else _str(data, key)


def command_from_json(data: object) -> Command:
    """Parse one script command, e.g. ``{"player":"red","action":"take_contract","card":"B01"}``."""
    if not isinstance(data, Mapping):
        raise CommandFormatError("action", "a command must be a JSON object")
    action = data.get("action")
    if action == "undo":
        return Undo()
    if action == "reveal_event":
        return RevealEvent(_str(data, "card"))
    if action not in ACTIONS:
        known = ", ".join(sorted([*ACTIONS, "reveal_event", "undo"]))
        raise CommandFormatError("action", f"unknown action {action!r}; one of {known}")
    player = _str(data, "player")
    match action:
        case "take_contract":
            return TakeContract(player, _str(data, "card"))
        case "move":
            marker = _int(data, "marker")
            assert marker is not None
            return Move(player, marker, _str(data, "to"), _opt_str(data, "from"), _int(data, "trucks", optional=True))
        case "fulfil":
            return Fulfil(player, _str(data, "card"))
        case "build":
            building = _str(data, "building")
            try:
                kind = Building(building)
            except ValueError:
                raise CommandFormatError(
                    "building", f"building must be warehouse or logistics_centre, not {building!r}"
                ) from None
            return Build(player, _str(data, "city"), kind)
        case "expand":
            return Expand(player, _str(data, "city"))
        case "cancel":
            marker = _int(data, "marker")
            assert marker is not None
            return Cancel(player, marker)
        case _:
            return Pass(player)


ACTIONS = ("take_contract", "move", "fulfil", "build", "expand", "cancel", "pass")


def command_to_json(command: Command) -> dict[str, object]:
    """The inverse of ``command_from_json`` (used by journals and exports)."""
    match command:
        case Undo():
            return {"action": "undo"}
        case RevealEvent(card=card):
            return {"action": "reveal_event", "card": card}
        case TakeContract(player=p, card=card):
            return {"player": p, "action": "take_contract", "card": card}
        case Move(player=p, marker=m, to=to, origin=origin, trucks=trucks):
            out: dict[str, object] = {"player": p, "action": "move", "marker": m, "to": to}
            if origin is not None:
                out["from"] = origin
            if trucks is not None:
                out["trucks"] = trucks
            return out
        case Fulfil(player=p, card=card):
            return {"player": p, "action": "fulfil", "card": card}
        case Build(player=p, city=city, building=b):
            return {"player": p, "action": "build", "city": city, "building": Building(b).value}
        case Expand(player=p, city=city):
            return {"player": p, "action": "expand", "city": city}
        case Cancel(player=p, marker=m):
            return {"player": p, "action": "cancel", "marker": m}
        case Pass(player=p):
            return {"player": p, "action": "pass"}
    raise TypeError(f"not an On The Way command: {command!r}")


def state_to_json(state: GameState) -> dict[str, object]:
    config = state.config
    return {
        "players": [
            {
                "colour": p.colour,
                "money": p.money,
                "vp": p.vp,
                "score": score(p),
                "contracts": list(p.contracts),
                "transports": [{"marker": t.marker, "city": t.city, "trucks": t.trucks} for t in p.transports],
            }
            for p in state.players
        ],
        "cities": {
            name: {"building": None if b is None else b.value, "idle": idle}
            for name, b, idle in zip(config.board.names, state.buildings, state.idle, strict=True)
        },
        "supply": {
            "trucks": state.supply_trucks,
            "warehouses": state.supply_warehouses,
            "logistics_centres": state.supply_logistics_centres,
        },
        "time": state.time,
        "event": state.event,
        "strip": list(state.strip),
        "jams": [list(j) for j in state.jams],
        "turn": {"player": state.current.colour, "steps_left": state.steps_left, "round": state.turn.round},
        "awaiting": "event" if state.awaiting_event else None,
        "finished": state.finished,
        "winners": list(winners(state)) if state.finished else [],
    }
