"""AA-7..9: where a truck can go with a roll, found on the space graph.

A move is a path of distinct spaces (a truck does not turn round within one move). It may pass
other trucks but not end on one (AA-8), and never enters the roadworks or the Stau space (AA-10,
AA-11). Rolls 1-5 go exactly that far; a 6 goes 1 to 6 spaces. Early stops: the space before an
occupied space the roll would end on (AA-8), or a city of one of the player's own contracts where he
can then load or unload (AA-9).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion.games.auf_achse.engine.state import TRAILERS, GameState, PlayerState, TrailerSize


@dataclass(frozen=True, slots=True)
class Destination:
    space: str
    path: tuple[str, ...]  # start space first, destination last
    exact: bool  # False: an early stop
    rule: str  # "AA-7" (a full move), "AA-8" (before an occupied space) or "AA-9" (a contract city)

    @property
    def steps(self) -> int:
        return len(self.path) - 1


_PREFERENCE = {"AA-7": 0, "AA-8": 1, "AA-9": 2}  # a full move beats an early stop; AA-8 carries no duty


def destinations(state: GameState, colour: str, roll: int) -> Mapping[str, Destination]:
    """Every space ``colour``'s truck may end on with ``roll``, with one path to it (shortest first).

    Kept on the state: a state never changes, and one roll is asked for three times (the roll's
    check, the player's or bot's choice, the move's check), each a walk over every path."""
    memo: dict[tuple[str, int], Mapping[str, Destination]] | None = state.__dict__.get("_destinations")
    if memo is None:
        memo = {}
        object.__setattr__(state, "_destinations", memo)  # a cache, not a field: never compared or replaced
    found = memo.get((colour, roll))
    if found is None:
        found = memo[(colour, roll)] = _walk(state, colour, roll)  # read-only by contract (Mapping)
    return found


def _walk(state: GameState, colour: str, roll: int) -> dict[str, Destination]:
    player = state.player(colour)
    if player is None or player.space is None:
        return {}
    board = state.board
    neighbours = board.neighbours
    blocked = {s for s in (state.roadworks, state.stau) if s is not None}
    occupied = {p.space for p in state.players if p.colour != colour and p.space is not None}
    # The walk visits every simple path up to ``roll`` spaces (a 6: thousands), and the bots ask for
    # every roll of every candidate: the work per visited space is kept to dictionary lookups. The
    # AA-9 check depends on the city only, so it is asked once per city.
    serves: dict[str, bool] = {}
    found: dict[str, Destination] = {}
    ranks: dict[str, tuple[int, int]] = {}  # space -> (_PREFERENCE of its rule, steps) of the kept path

    def offer(here: str, k: int, exact: bool, rule: str) -> None:
        rank = (_PREFERENCE[rule], k)
        old = ranks.get(here)
        if old is None or rank < old:
            ranks[here] = rank
            found[here] = Destination(here, tuple(path), exact, rule)

    path = [player.space]
    on_path = {player.space}

    def walk(here: str, k: int) -> None:
        if k >= 1 and here not in occupied:
            if roll == 6 or k == roll:
                offer(here, k, True, "AA-7")
            elif k < roll:
                if k == roll - 1 and any(
                    n in occupied and n not in on_path and n not in blocked for n in neighbours[here]
                ):
                    offer(here, k, False, "AA-8")
                serve = serves.get(here)
                if serve is None:
                    serve = serves[here] = board.is_city(here) and can_serve(state, player, here)
                if serve:
                    offer(here, k, False, "AA-9")
        if k == roll:
            return
        for nxt in neighbours[here]:
            if nxt in on_path or nxt in blocked:
                continue
            path.append(nxt)
            on_path.add(nxt)
            walk(nxt, k + 1)
            on_path.discard(nxt)
            path.pop()

    walk(player.space, 0)
    return found


def contracts_at(state: GameState, player: PlayerState, city: str) -> tuple[list[str], list[str]]:
    """(private contracts starting in ``city``, begun contracts ending there)."""
    config = state.config
    loadable = [c for c in player.hand if (card := config.contract(c)) is not None and card.start == city]
    unloadable = [c for c in player.loaded if (card := config.contract(c)) is not None and card.end == city]
    return loadable, unloadable


def buyable_capacity(state: GameState, player: PlayerState) -> int:
    """The most goods room the player could add by buying trailers now (largest first)."""
    money, extra = player.money, 0
    for size in (TrailerSize.LARGE, TrailerSize.SMALL):
        spec = TRAILERS[size]
        for _ in range(state.trailers_available(size)):
            if money < spec.price:
                break
            money -= spec.price
            extra += spec.capacity
    return extra


def can_serve(state: GameState, player: PlayerState, city: str) -> bool:
    """AA-9: could the player load (with trailers he can buy) or unload a contract in ``city`` now?"""
    loadable, unloadable = contracts_at(state, player, city)
    if unloadable:
        return True
    room = player.free + buyable_capacity(state, player)
    return any((card := state.config.contract(c)) is not None and card.goods <= room for c in loadable)


def sign_spaces(state: GameState, sign: str) -> tuple[str, ...]:
    """AA-10, AA-11: where a sign may go: a plain space, not occupied, not excluded (Hamburg–Flensburg),
    not under the other sign."""
    other = state.stau if sign == "roadworks" else state.roadworks
    occupied = {p.space for p in state.players}
    return tuple(
        s.id for s in state.board.spaces if not s.city and s.signs_allowed and s.id not in occupied and s.id != other
    )
