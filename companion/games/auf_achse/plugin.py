"""Auf Achse (W. Kramer, 1987) as a plug-in of the platform: ``companion.games.get("auf-achse")``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from companion.games.base import PluginBase
from companion.games.protocol import CheckReport, DataRole, Standing
from companion.games.setup import GameSetup

_DATA = Path(__file__).with_name("data")


class AufAchse(PluginBase):
    name = "auf-achse"
    title = "Auf Achse"
    currency = "DM"
    colours = ("red", "blue", "green", "yellow", "black", "white")
    player_counts = (2, 3, 4, 5, 6)  # AA-1
    lengths = (None,)  # the game ends when the public contracts run out (AA-23): no short game
    score_label = "DM"
    package = "companion.games.auf_achse"
    table_class = "companion.games.auf_achse.table.controller:AATableController"
    setup_profile_factory = "companion.games.auf_achse.setup_profile:auf_achse"
    data_roles = (
        DataRole("board", "board (cities, roads and their spaces)", _DATA / "auf-achse.board.toml"),
        DataRole("contracts", "contract cards", _DATA / "auf-achse.contracts.toml"),
        DataRole("events", "action cards", _DATA / "auf-achse.actions.toml"),
    )

    def check_files(self, paths: Sequence[Path]) -> CheckReport:
        from companion.games.auf_achse.data import inspect_aa_files

        problems, summary = inspect_aa_files(list(paths) or [role.reference for role in self.data_roles])
        return CheckReport(tuple(str(p) for p in problems), summary)

    def neighbours(self, setup: GameSetup | None = None) -> dict[str, frozenset[str]]:
        """Cities are next to each other when a road of plain spaces (through junctions) joins them."""
        board = self.config(setup or GameSetup(self.name, self.colours[:2])).board
        near: dict[str, frozenset[str]] = {}
        for city in board.cities:
            found: set[str] = set()
            seen, stack = {city}, [city]
            while stack:
                for nxt in board.neighbours[stack.pop()]:
                    if nxt in seen:
                        continue
                    seen.add(nxt)
                    if board.is_city(nxt):
                        found.add(nxt)
                    else:
                        stack.append(nxt)
            near[city] = frozenset(found)
        return near

    def card_ids(self, setup: GameSetup | None = None) -> tuple[str, ...]:
        deck = self.config(setup or GameSetup(self.name, self.colours[:2])).deck
        return tuple(c.id for c in deck.contracts) + tuple(a.id for a in deck.actions)

    def read_config(self, setup: GameSetup) -> Any:
        from companion.games.auf_achse.data import load_aa_board, load_aa_deck
        from companion.games.auf_achse.engine import GameConfig, HouseRules

        files = {role.field: role.reference for role in self.data_roles}
        board = load_aa_board(setup.board or files["board"])
        deck = load_aa_deck(setup.contracts or files["contracts"], setup.events or files["events"], board=board)
        seed = setup.seed if setup.seed is not None else 0  # the companion's die (AA-7)
        return GameConfig(board, deck, setup.players, HouseRules.from_mapping(dict(setup.rules)), seed)

    # -- what a player may see and do ----------------------------------------------------------

    def view_for(self, state: Any, player: str | None) -> dict[str, object]:
        from companion.games.auf_achse.engine.serialize import view_for

        return view_for(state, player)

    def legal(self, state: Any, player: str | None) -> dict[str, object]:
        """The base answer plus where ``player``'s truck may end its move now (AA-7..9)."""
        from companion.games.auf_achse.engine.queries import legal_destinations

        answer = super().legal(state, player)
        colour = player or (None if state.finished else state.current.colour)
        answer["player"] = colour
        answer["destinations"] = [] if colour is None else sorted(legal_destinations(state, colour))
        return answer

    def tutorial_moments(self) -> tuple[Any, ...]:
        """The rolled die lights where the truck may stop (AA-7), an auction (AA-19), a delivery paid (AA-16)."""
        from companion.games.auf_achse.engine import Move, OpenAuction, Unload
        from companion.games.tutorial import Moment

        return (
            Moment("tutorial.move", lambda s, c: isinstance(c, Move)),
            Moment("tutorial.auction", lambda s, c: isinstance(c, OpenAuction), push=True),
            Moment("tutorial.pay", lambda s, c: isinstance(c, Unload), push=True),
        )

    # -- bots (companion/games/auf_achse/bots, docs/bots-auf-achse.md) -----------------------------
    bot_levels = ("easy", "medium", "hard")

    def bot_command(self, state: Any, colour: str, level: str, seed: int, *, seen: Sequence[Any] = ()) -> object | None:
        """The bot's command when something is his to do: his turn, a set-up step of his, a card he must
        turn up, or an open auction he is still in (AA-19: any order, whoever's turn it is); else None.
        (``seen`` is not needed: a step of Auf Achse is one die roll's whole move.)"""
        from companion.games.auf_achse.bots import choose

        if level not in self.bot_levels:
            raise ValueError(f"{colour}:bot-{level}: {self.title} bot levels are {', '.join(self.bot_levels)}")
        return choose(state, colour, level, seed)

    def advise(
        self,
        state: Any,
        player: str | None,
        *,
        budget_s: float,
        seed: int,
        history: Any = None,
        opponents: Mapping[str, str] | None = None,
    ) -> list[dict[str, object]]:
        from companion.games.auf_achse.bots.advisor import advise

        return [a.to_json() for a in advise(state, player, budget_s=budget_s, seed=seed, opponents=opponents)]

    # -- progress and result --------------------------------------------------------------------
    def progress(self, state: Any) -> dict[str, object]:
        return {"round": state.turn.round, "phase": state.phase.value, "player": state.current.colour}

    def standings(self, state: Any) -> tuple[Standing, ...]:
        from companion.games.auf_achse.engine.scoring import ranking

        return tuple(
            Standing(s.place, s.player, s.worth, s.money, (("debt", s.debt), ("delivered", s.delivered)))
            for s in ranking(state)
        )


PLUGIN = AufAchse()
