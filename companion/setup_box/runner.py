"""The wizard with its side effects: load or start, step, save after every intent, keep the data set.

    session = WizardSession(state_dir, "on-the-way", name="my 2014 edition")
    for intent in intents:
        session.handle(intent)      # saved before it returns: a power cut loses nothing
    session.leds()                  # the LedFrame to write; session.prompt() for the screen

When the wizard reaches DONE the data set is written (``DataSets.save``: the game's own check); if
that fails the problems go back to the wizard's check step (``SaveFailed``).
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

from companion.games.digitise.model import SaveFailed, Step, WizardState
from companion.ledframe import LedFrame
from companion.setup_box.datasets import DataSet, DataSetError, DataSets
from companion.setup_box.machine import WizardIntent, start, step
from companion.setup_box.store import ProgressStore
from companion.setup_box.view import Prompt, leds, prompt
from companion.setup_box.writer import render


def default_name() -> str:
    return time.strftime("my box %Y-%m-%d")


class WizardSession:
    def __init__(self, state_dir: Path | str, game: str, name: str | None = None, *,
                 candidates: tuple[str, ...] | None = None, fresh: bool = False,
                 seed: WizardState | None = None) -> None:  # fmt: skip
        """Resume the saved progress of ``game``, or start: from ``seed`` (a data set read back, to
        correct it) or from nothing (``fresh`` drops the saved progress)."""
        self.store = ProgressStore(state_dir, game)
        self.datasets = DataSets(state_dir)
        loaded = None if fresh or seed is not None else self.store.load()
        self.resumed = loaded is not None
        self.state: WizardState = loaded or seed or start(game, name or default_name(), candidates)
        self.saved: DataSet | None = None
        if loaded is None:
            self.store.save(self.state)

    def handle(self, intent: WizardIntent) -> WizardState:
        new = step(self.state, intent)
        if new.step is Step.DONE and self.state.step is not Step.DONE:
            try:
                self.saved = self.datasets.save(new.game, new.name, render(new), replace=True)
            except DataSetError as exc:
                new = step(new, SaveFailed(exc.problems or (str(exc),)))
        self.store.save(new)
        self.state = new
        return new

    def prompt(self) -> Prompt:
        return prompt(self.state)

    def leds(self) -> LedFrame:
        """The LEDs by city name (a hardware config whose LED map names the cities)."""
        return leds(self.state)

    def reader_leds(self) -> LedFrame:
        """The same lights named by reader (``channel 7``): for LED maps keyed by reader, before a
        hardware config knows this board's city names."""
        frame = leds(self.state)
        by_city = {city: reader for reader, city in self.state.readers}
        return replace(frame, cities=tuple(sorted((by_city.get(c, c), light) for c, light in frame.cities)))
