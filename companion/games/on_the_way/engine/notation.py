"""A compact text notation for On The Way positions, as FEN is for chess (style point 15).

Start from the set-up of a config and override what the text names, one line per topic::

    cities  Warsaw=W2 Lviv=0 Kyiv=L1      # W warehouse, L logistics centre, - none; then idle trucks
    red     5000R 2VP B01,X03 1:Poznań:2:B01   # money, VP, held contracts, transports
    blue    1000R                              # marker:city:trucks[:loaded,contracts]
    turn    red used=1 round=3
    time    5 event=E03 strip=B01,B02 jams=Warsaw-Lviv last=3 awaiting offer=B04,B05

Trucks on the board are conserved: the supply is whatever of the 33 is not idle or on the road.
Money is booked in the ledger as a "position" entry so balances still derive from the ledger.
"""

from __future__ import annotations

from companion.engine.errors import DataError
from companion.engine.values import evolve
from companion.games.on_the_way.engine.state import (
    TOTAL_LOGISTICS_CENTRES,
    TOTAL_TRUCKS,
    TOTAL_WAREHOUSES,
    Building,
    GameConfig,
    GameState,
    Transport,
    Turn,
    initial_state,
)

_BUILDING = {"W": Building.WAREHOUSE, "L": Building.LOGISTICS_CENTRE, "-": None}


def position(config: GameConfig, text: str) -> GameState:
    state = initial_state(config)
    board = config.board
    buildings = list(state.buildings)
    idle = list(state.idle)
    players = {p.colour: p for p in state.players}
    ledger = state.ledger
    used: set[str] = set()
    for raw in text.strip().splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        head, *items = line.split()
        if head == "cities":
            for item in items:
                name, _, spec = item.partition("=")
                if name not in board.index:
                    raise DataError(f"position: unknown city {name!r}")
                i = board.index[name]
                if spec and spec[0] in _BUILDING:
                    buildings[i] = _BUILDING[spec[0]]
                    spec = spec[1:]
                idle[i] = int(spec or 0)
        elif head in players:
            p = players[head]
            transports = []
            for item in items:
                if item.endswith("R"):
                    amount = int(item[:-1])
                    ledger = ledger.append(head, amount - p.money, "position", "position")
                    p = evolve(p, money=amount)
                elif item.endswith("VP"):
                    p = evolve(p, vp=int(item[:-2]))
                elif ":" in item:
                    marker, city, trucks, *loaded = item.split(":")
                    if city not in board.index:
                        raise DataError(f"position: unknown city {city!r}")
                    cards = frozenset(loaded[0].split(",")) if loaded else frozenset()
                    transports.append(Transport(int(marker), city, int(trucks), cards))
                else:
                    p = evolve(p, contracts=tuple(item.split(",")))
                    used.update(p.contracts)
            if transports:
                p = evolve(p, transports=tuple(sorted(transports, key=lambda t: t.marker)))
            players[head] = p
        elif head == "turn":
            seat = config.colours.index(items[0])
            opts = dict(i.split("=") for i in items[1:])
            state = evolve(state, turn=Turn(seat, int(opts.get("round", 1)), int(opts.get("used", 0))))
        elif head == "time":
            state = evolve(state, time=int(items[0]))
            for item in items[1:]:
                key, _, value = item.partition("=")
                if key == "event":
                    state = evolve(state, event=value, revealed=(*state.revealed, value))
                elif key == "strip":
                    state = evolve(state, strip=tuple(value.split(",")))
                    used.update(state.strip)
                elif key == "jams":
                    jams = tuple(tuple(sorted(j.split("-"))) for j in value.split(","))
                    state = evolve(state, jams=jams)  # type: ignore[arg-type]
                elif key == "last":
                    state = evolve(state, last_round=int(value))
                elif key == "awaiting":
                    state = evolve(state, awaiting_event=True)
                elif key == "used":
                    used.update(value.split(","))
                elif key == "offer":  # OTW-9: the face-up cards the table has scanned
                    offer = tuple(c for c in value.split(",") if c)
                    for card in offer:
                        if config.contract(card) is None:
                            raise DataError(f"position: unknown contract {card!r} in the offer")
                    state = evolve(state, offer=offer)
        else:
            raise DataError(f"position: cannot read line {raw!r}")
    on_road = sum(t.trucks for p in players.values() for t in p.transports)
    return evolve(
        state,
        players=tuple(players[c] for c in config.colours),
        buildings=tuple(buildings),
        idle=tuple(idle),
        supply_trucks=TOTAL_TRUCKS - sum(idle) - on_road,
        supply_warehouses=TOTAL_WAREHOUSES - buildings.count(Building.WAREHOUSE),
        supply_logistics_centres=TOTAL_LOGISTICS_CENTRES - buildings.count(Building.LOGISTICS_CENTRE),
        used_contracts=frozenset(used),
        ledger=ledger,
    )
