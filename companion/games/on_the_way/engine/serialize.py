"""JSON in and out: commands of the scripted-play interface and the state view.

The names here are a stable interface (``companion play``): keep them.
"""

from __future__ import annotations

from companion.engine.jsonio import (
    CommandFormatError,
    enum_field,
    int_field,
    optional_int_field,
    optional_text_field,
    require_object,
    text_field,
)
from companion.games.on_the_way.engine.commands import (
    Build,
    Cancel,
    Command,
    Expand,
    Fulfil,
    LayOut,
    Move,
    Pass,
    RevealEvent,
    TakeContract,
    Undo,
)
from companion.games.on_the_way.engine.scoring import score, winners
from companion.games.on_the_way.engine.state import Building, GameState


def command_from_json(data: object) -> Command:
    """Parse one script command, e.g. ``{"player":"red","action":"take_contract","card":"B01"}``."""
    data = require_object(data)
    action = data.get("action")
    if action == "undo":
        return Undo()
    if action == "reveal_event":
        return RevealEvent(text_field(data, "card"))
    if action == "lay_out":
        return LayOut(text_field(data, "card"))
    if action not in ACTIONS:
        known = ", ".join(sorted([*ACTIONS, "lay_out", "reveal_event", "undo"]))
        raise CommandFormatError("action", f"unknown action {action!r}; one of {known}")
    player = text_field(data, "player")
    match action:
        case "take_contract":
            return TakeContract(player, text_field(data, "card"))
        case "move":
            marker = int_field(data, "marker")
            return Move(
                player,
                marker,
                text_field(data, "to"),
                optional_text_field(data, "from"),
                optional_int_field(data, "trucks"),
            )
        case "fulfil":
            return Fulfil(player, text_field(data, "card"))
        case "build":
            return Build(player, text_field(data, "city"), enum_field(data, "building", Building))
        case "expand":
            return Expand(player, text_field(data, "city"))
        case "cancel":
            marker = int_field(data, "marker")
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
        case LayOut(card=card):
            return {"action": "lay_out", "card": card}
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
        # OTW-9: only once the table tracks the face-up offer (a "lay_out" command), so that the
        # output of scripts that never lay out stays as it was.
        **({} if state.offer is None else {"offer": list(state.offer)}),
    }
