"""Auf Achse's things around the board in the simulator: trucks, bank cards, the decks, the tray."""

from companion.games.auf_achse.simulator.props import AASimTable, AufAchseSimProps, props

__all__ = ["AASimTable", "AufAchseSimProps", "props"]
