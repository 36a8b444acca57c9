"""Seats played by the box: ``red,blue:bot-hard`` parsed, and one function that asks the right bot.

The same mechanism drives a bot in scripted play, in the simulator and at the kiosk's table: the bot
is asked whenever it may be its turn and answers with a command (pushed like a person's) or None.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from companion.engine.game import Game
from companion.games.protocol import GamePlugin

BotPlayer = Callable[[Any], object | None]  # state -> the command a bot plays now, or None


def parse_seats(players: str) -> tuple[tuple[str, ...], dict[str, str]]:
    """``"red,blue:bot-hard"`` -> the colours in seat order and the bot seats (colour -> level);
    ``bot`` alone is the medium level. ValueError names a bad seat."""
    colours: list[str] = []
    bots: dict[str, str] = {}
    for item in (s.strip() for s in players.split(",")):
        if not item:
            raise ValueError(f"--players {players!r}: an empty seat (a seat is COLOUR or COLOUR:bot)")
        colour, sep, kind = (part.strip() for part in item.partition(":"))
        if not colour:
            raise ValueError(f"--players: {item!r}: the seat has no colour (COLOUR or COLOUR:bot)")
        if sep:
            if kind != "bot" and not kind.startswith("bot-"):
                raise ValueError(f"--players: {item!r}: a seat is COLOUR or COLOUR:bot[-easy|-medium|-hard]")
            bots[colour] = kind.removeprefix("bot").removeprefix("-") or "medium"
        colours.append(colour)
    return tuple(colours), bots


def check_seats(plugin: GamePlugin, colours: tuple[str, ...]) -> None:
    """ValueError unless ``colours`` are as many seats as the game seats, each a colour of its box
    (spelt as the game spells it: "red", not "Red"), none twice."""
    counts = sorted(plugin.player_counts)
    if len(colours) not in counts:
        allowed = f"{counts[0]}-{counts[-1]}" if counts == list(range(counts[0], counts[-1] + 1)) else str(counts)
        raise ValueError(f"--players: {plugin.title} is played by {allowed} players, not {len(colours)}")
    for colour in colours:
        if colour not in plugin.colours:
            near = [c for c in plugin.colours if c.lower() == colour.lower()]
            hint = f" (did you mean {near[0]!r}?)" if near else ""
            raise ValueError(f"--players: {colour!r} is not a colour of {plugin.title} "
                             f"({', '.join(plugin.colours)}){hint}")  # fmt: skip
    if len(set(colours)) != len(colours):
        raise ValueError(f"--players: player colours must differ: {', '.join(colours)}")


def check_bots(plugin: GamePlugin, bots: Mapping[str, str]) -> None:
    """ValueError unless the game has bots at every level asked for."""
    for colour, level in bots.items():
        if level not in plugin.bot_levels:
            known = ", ".join(plugin.bot_levels) or "none: it has no bot players yet"
            raise ValueError(f"{colour}:bot-{level}: {plugin.title} bot levels are {known}")


MEMORY = 64  # states a bot seat remembers: more than the steps of one turn (OTW-12) and the reveals in it


class BotSeats:
    """The seats the box plays (colour -> level): called with the state, it answers the command a bot
    plays now, or None. ``seats`` tells a table whose turn is the box's. Each seat remembers the last
    ``MEMORY`` states it answered in (``bot_command``'s ``seen``), as a player remembers the turn. A
    box that resumes a game passes its ``recent`` states (every seat's, the game's undo stack), which
    start each seat's memory: the game's ``bot_command`` finds the seat's turn in them (On The Way:
    ``same_turn``). Without them a bot could retrace a step of the turn it resumes (the hard bot never
    steps back to a position of its turn, ``no_circles``)."""

    def __init__(self, plugin: GamePlugin, bots: Mapping[str, str], seed: int, recent: Sequence[Any] = ()) -> None:
        self._plugin = plugin
        self._levels = dict(bots)
        self.levels: Mapping[str, str] = MappingProxyType(self._levels)  # what the advice's chance is against
        self._seed = seed
        # Each seat's memory: the game's recent states (the bot's own turn is found in them by the game's
        # bot_command, e.g. On The Way's same_turn: the states since the turn began).
        self._seen: dict[str, deque[Any]] = {colour: deque(recent, maxlen=MEMORY) for colour in self._levels}
        self.seats = frozenset(self._levels)

    def __call__(self, state: Any) -> object | None:
        for colour, level in self._levels.items():
            seen = self._seen[colour]
            command = self._plugin.bot_command(state, colour, level, self._seed, seen=tuple(seen))
            if command is not None:
                if not seen or seen[-1] is not state:  # a table asks again as pieces move: once is enough
                    seen.append(state)
                return command
        return None


def bot_player(
    plugin: GamePlugin, bots: Mapping[str, str], seed: int, game: Game[Any] | None = None
) -> BotSeats | None:
    """The one object a table or a script asks; None when no seat is a bot. ``game``: the game the seats
    play; a resumed one's recent states start every seat's memory (``BotSeats``)."""
    return BotSeats(plugin, bots, seed, game.recent(MEMORY) if game is not None else ()) if bots else None
