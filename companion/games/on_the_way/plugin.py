"""On The Way (Raben) as a plug-in of the platform: ``companion.games.get("on-the-way")``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from companion.games.base import PluginBase
from companion.games.protocol import CheckReport, DataRole, Standing
from companion.games.setup import GameSetup

_DATA = Path(__file__).with_name("data")


class OnTheWay(PluginBase):
    name = "on-the-way"
    title = "On The Way"
    currency = "R"
    colours = ("red", "blue", "green", "yellow")
    player_counts = (2, 3, 4)
    lengths = (None, 8, 5)  # the full game, and short games ending at 8 or 5 on the time track (--end-at)
    score_label = "VP"
    package = "companion.games.on_the_way"
    table_class = "companion.games.on_the_way.table.controller:TableController"
    setup_profile_factory = "companion.games.on_the_way.setup_profile:on_the_way"
    data_roles = (
        DataRole("board", "board (cities, roads, set-up)", _DATA / "on-the-way.board.toml"),
        DataRole("contracts", "contract cards", _DATA / "on-the-way.contracts.toml"),
        DataRole("events", "event cards", _DATA / "on-the-way.events.toml"),
    )

    def check_files(self, paths: Sequence[Path]) -> CheckReport:
        from companion.games.on_the_way.data import inspect_files

        result = inspect_files(list(paths) or [role.reference for role in self.data_roles])
        return CheckReport(tuple(str(p) for p in result.problems), result.summary())

    def neighbours(self, setup: GameSetup | None = None) -> dict[str, frozenset[str]]:
        board = self.config(setup or GameSetup(self.name, self.colours[:2])).board
        return {city: frozenset(near) for city, near in board.neighbours.items()}

    def card_ids(self, setup: GameSetup | None = None) -> tuple[str, ...]:
        deck = self.config(setup or GameSetup(self.name, self.colours[:2])).deck
        return tuple(c.id for c in deck.contracts) + tuple(e.id for e in deck.events)

    def read_config(self, setup: GameSetup) -> Any:
        from companion.engine.errors import DataError
        from companion.games.on_the_way.data import contract_shortfalls, load_board, load_deck
        from companion.games.on_the_way.engine import GameConfig, HouseRules

        files = {role.field: role.reference for role in self.data_roles}
        board = load_board(setup.board or files["board"])
        contracts = setup.contracts or files["contracts"]
        deck = load_deck(contracts, setup.events or files["events"], board=board)
        shortfalls = contract_shortfalls(deck.contracts, len(setup.players))
        if shortfalls:  # OTW-4 would leave a tier without a card: every take_contract of it refused
            raise DataError(f"{contracts}: " + "; ".join(shortfalls))
        return GameConfig(board, deck, setup.players, HouseRules.from_mapping(dict(setup.rules)), setup.end_at)

    def sample_game(self, setup: GameSetup, seed: int, max_commands: int = 400) -> list[object]:
        """The engine's own playout policy (it takes contracts, moves and fulfils, and reveals events)."""
        import random

        from companion.games.on_the_way.engine.playout import play_out
        from companion.games.on_the_way.engine.state import initial_state

        return list(play_out(initial_state(self.config(setup)), random.Random(seed), max_commands).commands)

    # -- what a player may see and do ----------------------------------------------------------

    def view_for(self, state: Any, player: str | None) -> dict[str, object]:
        return self.state_to_json(state)  # On The Way has no secrets: every card is face up

    def legal(self, state: Any, player: str | None) -> dict[str, object]:
        """The base answer plus, per transport, the cities it can reach in one action (the LED hints)."""
        from companion.games.on_the_way.engine.queries import reachable_from_marker

        answer = super().legal(state, player)
        colour: str | None = player or (None if state.finished else state.current.colour)
        answer["player"] = colour
        p = None if colour is None else state.player(colour)
        destinations: dict[str, list[str]] = {}
        if colour is not None and p is not None:
            destinations = {str(t.marker): sorted(reachable_from_marker(state, colour, t.marker)) for t in p.transports}
        answer["destinations"] = destinations
        return answer

    def tutorial_moments(self) -> tuple[Any, ...]:
        """Lift a marker (the lit cities), scan a contract card, the bank pays a delivery (OTW-22)."""
        from companion.games.on_the_way.engine import Fulfil, Move, TakeContract
        from companion.games.tutorial import Moment
        from companion.intents import CardScanned, TagLifted
        from companion.table.tags import CardTag, MarkerTag

        def lift(state: Any, tags: Any, command: Any) -> list[Any]:
            transport = state.player(command.player).transport(command.marker)
            uid = tags.uid_of(MarkerTag(command.player, command.marker))
            return [] if transport is None or uid is None else [TagLifted(transport.city, uid)]

        def scan(state: Any, tags: Any, command: Any) -> list[Any]:
            uid = tags.uid_of(CardTag(command.card))
            return [] if uid is None else [CardScanned(uid)]

        def lifting(state: Any, command: Any) -> bool:
            return isinstance(command, Move) and state.player(command.player).transport(command.marker) is not None

        return (
            Moment("tutorial.lift", lifting, intents=lift),
            Moment("tutorial.scan", lambda s, c: isinstance(c, TakeContract), intents=scan),
            Moment("tutorial.pay", lambda s, c: isinstance(c, Fulfil), push=True),
        )

    # -- bots and advice (companion/games/on_the_way/bots, docs/bots.md) ------------------------------
    bot_levels = ("easy", "medium", "hard")

    def bot_command(self, state: Any, colour: str, level: str, seed: int, *, seen: Sequence[Any] = ()) -> object | None:
        """The bot's command when it is his to act: his turn, or the event card he must reveal (OTW-28).
        The states of ``seen`` in this turn keep the hard bot from stepping back to one of them."""
        from companion.games.on_the_way.bots import choose
        from companion.games.on_the_way.bots.advisor import same_turn

        if state.finished or state.current.colour != colour:
            return None
        return choose(state, colour, level, seed, earlier=same_turn(seen, state))

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
        from companion.games.on_the_way.bots import advise
        from companion.games.on_the_way.bots.advisor import turn_so_far

        earlier = turn_so_far(*history) if history is not None else ()
        return [
            a.to_json()
            for a in advise(state, player, budget_s=budget_s, seed=seed, earlier=earlier, opponents=opponents)
        ]

    # -- progress and result --------------------------------------------------------------------
    def progress(self, state: Any) -> dict[str, object]:
        return {"round": state.turn.round, "time": state.time, "player": state.current.colour}

    def standings(self, state: Any) -> tuple[Standing, ...]:
        from companion.games.on_the_way.engine.scoring import ranking

        return tuple(Standing(s.place, s.colour, s.score, s.money, (("vp", s.vp_tokens),)) for s in ranking(state))


PLUGIN = OnTheWay()
