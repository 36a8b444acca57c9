"""The wizard with its side effects: load or start, step, save after every intent, keep the data set.

    session = WizardSession(state_dir, "on-the-way", name="my 2014 edition")
    for intent in intents:
        session.handle(intent)      # saved before it returns: a power cut loses nothing
    session.leds()                  # the LedFrame to write; session.prompt() for the screen

When the wizard reaches DONE the data set is written (``DataSets.save``: the game's own check); if
that fails the problems go back to the wizard's check step (``SaveFailed``). A box with problems left
(a small one, one not finished yet) is kept as a draft instead: its files as far as they go, in
``STATE/setup-box/drafts/<game>/<name>/`` with ``PROBLEMS.txt``; it is not played, and the wizard
resumes from it (long BACK goes back to the check).
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

from companion.games.digitise.model import SaveFailed, Step, WizardState
from companion.ledframe import LedFrame
from companion.setup_box.datasets import DataSet, DataSetError, DataSets, slug
from companion.setup_box.machine import WizardIntent, start, step
from companion.setup_box.store import ProgressStore, atomic_write
from companion.setup_box.view import Prompt, leds, prompt
from companion.setup_box.words import words
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
        self.draft: Path | None = None  # the folder of the draft kept last (DONE with problems left)
        if loaded is None:
            self.store.save(self.state)

    def handle(self, intent: WizardIntent) -> WizardState:
        new = step(self.state, intent)
        if new.step is Step.DONE and self.state.step is not Step.DONE and new.draft:
            self.draft = self.keep_draft(new)
        elif new.step is Step.DONE and self.state.step is not Step.DONE:
            try:
                self.saved = self.datasets.save(new.game, new.name, render(new), replace=True)
            except DataSetError as exc:
                new = step(new, SaveFailed(exc.problems or (str(exc),)))
        self.store.save(new)
        self.state = new
        return new

    def keep_draft(self, state: WizardState) -> Path | None:
        """The box as far as it goes, files written one by one atomically, and its problems in
        ``PROBLEMS.txt``. None if the files cannot be made yet (the progress file still has it all)."""
        folder = self.store.path.parent / "drafts" / state.game / slug(state.name)
        try:
            files = render(state)
        except (KeyError, TypeError, ValueError):  # a box too early to write: the progress keeps it
            return None
        shown = words("en")
        files["PROBLEMS.txt"] = "".join(f"- {shown.show(p)}\n" for p in state.problems)
        for name, text in files.items():
            atomic_write(folder / name, text.encode("utf-8"))
        return folder

    def prompt(self, language: str = "en", *, desk: bool = False) -> Prompt:
        return prompt(self.state, language=language, desk=desk)

    def leds(self) -> LedFrame:
        """The LEDs by city name (a hardware config whose LED map names the cities)."""
        return leds(self.state)

    def reader_leds(self) -> LedFrame:
        """The same lights named by reader (``channel 7``): for LED maps keyed by reader, before a
        hardware config knows this board's city names."""
        frame = leds(self.state)
        by_city = {city: reader for reader, city in self.state.readers}
        return replace(frame, cities=tuple(sorted((by_city.get(c, c), light) for c, light in frame.cities)))
