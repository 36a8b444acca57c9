"""One piece of advice, the same for every game: a command, its estimated chance and one sentence.

Each game's advisor subclasses it to spell its command in JSON (``command_json``); the JSON fields are
the ``advise`` query's answer in scripted play (docs/scripted-play.md) and must not change: its
``sentence`` is English. The same sentence as :class:`Words` (``said``) is told at the table in the
table's language, from the game's catalogue (its ``advice.*`` keys).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companion.table.messages import Catalogue


@dataclass(frozen=True, slots=True)
class Words:
    """A sentence or a part of one, to be told in a language: a catalogue ``key`` and its ``params``.
    A parameter is a value shown as it is (a city, a card id, an amount already written as money) or
    Words itself (a clause, told first). ``count`` makes it a counted text: ``key`` is the stem of
    ``_one``/``_few``/``_many`` keys and ``count`` fills ``{n}`` ("1 truck", "3 vozidla")."""

    key: str
    params: Mapping[str, object] = field(default_factory=dict)  # values, Words, or anything with tell(t)
    count: int | None = None

    def tell(self, t: Catalogue) -> str:
        # A parameter that can tell itself (Words, a board space named in the language) is told first.
        values = {name: value.tell(t) if hasattr(value, "tell") else value for name, value in self.params.items()}
        if self.count is not None:
            return t.counted(self.key, self.count, **values)
        return t.text(self.key, **values)


@dataclass(frozen=True, slots=True)
class Place:
    """A board space in a sentence, named as a person names it in the language it is told in ("the
    1st space from Hamburg towards Flensburg"), never by its id (``companion.table.messages.spaces``).
    A game's advisor (pure: it imports only its engine) puts it in its Words; the telling finds the name."""

    space: str
    board: Any  # the game's board: its cities and junctions split a road space's id

    def tell(self, t: Catalogue) -> str:
        from companion.table.messages.spaces import places, space_name

        return space_name(t, self.space, places(self.board))


def said(key: str, **params: object) -> Words:
    return Words(key, params)


def counted(stem: str, n: int, **params: object) -> Words:
    return Words(stem, params, n)


def in_english(words: Words, package: str) -> str:
    """``words`` told from the English catalogue of the game in ``package`` (the JSON's ``sentence``)."""
    from companion.table.messages import Catalogue

    return words.tell(Catalogue("en", package))


@dataclass(frozen=True, slots=True)
class Advice:
    command: Any  # the game's command, as a person would issue it
    win_rate: float  # the estimated chance (each game's docs say of what: winning, or leading)
    low: float  # 95 % Wilson interval of win_rate
    high: float
    playouts: int
    sentence: str  # what to do at the table, in one sentence (English: the JSON's field)
    said: Words | None = None  # the same sentence to tell in the table's language (None: English only)
    # The chance to win against the table's opponents (win_rate recalibrated on whole games, where the
    # game's advisor has a map for them); None: the advisor has none, win_rate is what it knows.
    chance: float | None = None

    @property
    def told_chance(self) -> float:
        """The chance a person is told: ``chance`` where there is one, else ``win_rate``."""
        return self.win_rate if self.chance is None else self.chance

    def told(self, t: Catalogue) -> str:
        """The sentence in ``t``'s language (the English ``sentence`` when the advisor gave no words)."""
        return self.sentence if self.said is None else self.said.tell(t)

    def command_json(self) -> dict[str, object]:
        raise NotImplementedError

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "command": self.command_json(),
            "win_rate": round(self.win_rate, 3),
            "low": round(self.low, 3),
            "high": round(self.high, 3),
            "playouts": self.playouts,
            "sentence": self.sentence,
        }
        if self.chance is not None:
            out["chance"] = round(self.chance, 3)
        return out
