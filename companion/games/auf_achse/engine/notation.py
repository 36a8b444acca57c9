"""A compact text notation for Auf Achse positions, as FEN is for chess (style point 15).

Starts from a game in play (set-up done, the first seat on turn, nothing face up) and overrides
what the text names, one line per topic::

    red     @Hamburg 9000DM hand=C01,C02 loaded=C03 trailers=small debt=bank:500,blue:300 miss=1 done=C07
    blue    @Bremen-Hamburg#2
    public  C10,C11,C12,C13 hidden=8 spare=10
    signs   roadworks=Kassel-Hanover#1 stau=Bremen-Hamburg#1:blue
    turn    red stage=act roll=3 round=2 exact auctioned serve=Hamburg roadworks

``load=`` may give the goods per vehicle; by default the begun contracts' goods fill the truck first.
Comments are whole lines starting with ``#`` (space ids contain ``#``).
Money goes into the ledger as a "position" entry, so balances still derive from the ledger.
"""

from __future__ import annotations

from companion.engine.errors import DataError
from companion.engine.values import evolve
from companion.games.auf_achse.engine.state import (
    Debt,
    GameConfig,
    GameState,
    Phase,
    Stage,
    TrailerSize,
    Turn,
    initial_state,
)


def position(config: GameConfig, text: str) -> GameState:
    state = evolve(initial_state(config), phase=Phase.PLAY, turn=Turn(0, 1))
    players = {p.colour: p for p in state.players}
    ledger = state.ledger
    bank_paid = state.bank_paid
    seen: set[str] = set()
    trailers_taken: list[TrailerSize] = []
    for raw in text.strip().splitlines():
        line = raw.split("#", 1)[0].strip() if raw.lstrip().startswith("#") else raw.strip()
        if not line:
            continue
        head, *items = line.split()
        if head in players:
            p = players[head]
            explicit_load: tuple[int, ...] | None = None
            for item in items:
                key, _, value = item.partition("=")
                if item.startswith("@"):
                    space = item[1:]
                    if space not in config.board.index:
                        raise DataError(f"position: unknown space {space!r}")
                    p = evolve(p, space=space)
                elif item.endswith("DM"):
                    amount = int(item[:-2])
                    ledger = ledger.append(head, amount - p.money, "position", "position")
                    bank_paid += amount - p.money
                    p = evolve(p, money=amount)
                elif key == "hand":
                    p = evolve(p, hand=tuple(value.split(",")))
                elif key == "loaded":
                    p = evolve(p, loaded=tuple(value.split(",")))
                elif key == "done":
                    p = evolve(p, delivered=tuple(value.split(",")))
                elif key == "trailers":
                    sizes = tuple(TrailerSize(s) for s in value.split(","))
                    trailers_taken.extend(sizes)
                    p = evolve(p, trailers=sizes)
                elif key == "load":
                    explicit_load = tuple(int(n) for n in value.split(","))
                elif key == "debt":
                    debts = []
                    for d in value.split(","):
                        who, _, amt = d.partition(":")
                        debts.append(Debt(None if who == "bank" else who, int(amt)))
                    p = evolve(p, debts=tuple(debts))
                elif key == "miss":
                    p = evolve(p, miss_turns=int(value))
                else:
                    raise DataError(f"position: cannot read {item!r} of {head}")
            seen.update(p.hand + p.loaded + p.delivered)
            if explicit_load is None:
                goods = sum(_goods(config, c) for c in p.loaded)
                load: list[int] = []
                for capacity in p.vehicle_capacities():
                    put = min(goods, capacity)
                    load.append(put)
                    goods -= put
                explicit_load = tuple(load)
            p = evolve(p, load=explicit_load)
            players[head] = p
        elif head == "public":
            cards = tuple(c for c in items[0].split(",") if c) if items and "=" not in items[0] else ()
            state = evolve(state, public=cards)
            seen.update(cards)
            hidden = config.public_deck - len(cards)
            for item in items:
                key, _, value = item.partition("=")
                if key == "hidden":
                    hidden = int(value)
                elif key == "spare":
                    state = evolve(state, spare_left=int(value))
            state = evolve(state, public_hidden=hidden)
        elif head == "signs":
            for item in items:
                key, _, value = item.partition("=")
                if key == "roadworks":
                    state = evolve(state, roadworks=value)
                elif key == "stau":
                    space, _, by = value.partition(":")
                    state = evolve(state, stau=space, stau_by=by or None, stau_round=state.turn.round)
        elif head == "turn":
            seat = config.colours.index(items[0])
            opts = dict(i.partition("=")[::2] for i in items[1:])
            roll = int(opts["roll"]) if opts.get("roll") else None
            stage = Stage(opts["stage"]) if opts.get("stage") else (Stage.MOVE if roll else Stage.ROLL)
            state = evolve(
                state,
                turn=Turn(
                    seat,
                    int(opts.get("round") or 1),
                    stage,
                    roll,
                    exact_city="exact" in opts,
                    auctioned="auctioned" in opts,
                    must_serve=opts.get("serve") or None,
                    roadworks_allowed="roadworks" in opts,
                ),
            )
        else:
            raise DataError(f"position: cannot read line {raw!r}")
    for colour, p in players.items():
        if p.space is None:
            raise DataError(f"position: {colour}'s truck needs a space (@space)")
    left = tuple((size, n - trailers_taken.count(size)) for size, n in state.trailers_left)
    return evolve(
        state,
        players=tuple(players[c] for c in config.colours),
        seen=frozenset(seen),
        trailers_left=left,
        ledger=ledger,
        bank_paid=bank_paid,
    )


def _goods(config: GameConfig, card_id: str) -> int:
    card = config.contract(card_id)
    if card is None:
        raise DataError(f"position: unknown contract {card_id!r}")
    return card.goods
