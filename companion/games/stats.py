"""A played game's statistics (``companion.engine.stats``) through its plug-in: from a ``Game`` in
memory (the kiosk at the end of a game) or by replaying a recorded command log (``export --stats``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from companion.engine.game import Game
from companion.engine.stats import GameStats, game_stats
from companion.games.protocol import GamePlugin
from companion.games.setup import GameSetup


def _round(plugin: GamePlugin, state: Any) -> int:
    value = plugin.progress(state).get("round")
    return value if isinstance(value, int) else 0


def stats_of_states(plugin: GamePlugin, states: Iterable[Any]) -> GameStats:
    states = list(states)
    final = states[-1]
    return game_stats(
        game=plugin.name,
        title=plugin.title,
        currency=plugin.currency,
        colours=final.config.colours,
        history=[(_round(plugin, s), s.ledger) for s in states],
        standings=[s.to_json() for s in plugin.standings(final)],
    )


def stats_of_game(plugin: GamePlugin, game: Game[Any]) -> GameStats:
    return stats_of_states(plugin, game._states)


def stats_of_record(plugin: GamePlugin, setup: GameSetup, commands: Iterable[object]) -> GameStats:
    """Replay a recorded log (JSON commands) and take the statistics; raises what a bad log raises."""
    game = plugin.new_game(setup)
    states = [game.state]
    for data in commands:
        game.push(plugin.command_from_json(data))
        states.append(game.state)
    return stats_of_states(plugin, states)
