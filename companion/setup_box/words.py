"""The wizard's words: what it says is stored as a key and its values, and put into words when shown.

The machine is pure and its state is saved after every intent (``store``), so what it says must not
depend on the language or the input of the moment: ``said("msg.road_added", n=3, a="Riga", b="Tartu")``
makes a plain string (JSON-safe, saved as it is) that ``Words.show`` turns into the sentence in the
screen's language, with the box's vocabulary (markers, card reader, OK/BACK) or the desk's (a click,
Enter/Esc, Tab). The texts are ``companion/setup_box/messages/<language>.po`` (``wizard.*``); a
``<key>_desk`` entry is the desk's wording. A string that is not a ``said`` one (a game's own check,
an old saved message) is shown as it is. A game's own words (``said_by``: its rulebook facts, card
checks and choice values) come from the game's catalogue (``companion/games/digitise/said.py``).
"""

from __future__ import annotations

import json
from functools import cache

from companion.games.digitise.said import MARK, is_said, said, said_by
from companion.games.digitise.said import MESSAGES as GAME_MESSAGES
from companion.table.messages import Catalogue, plural_form

MESSAGES = "companion.setup_box"  # the package whose ``messages/`` hold the wizard's texts

__all__ = ["MARK", "MESSAGES", "Words", "is_said", "said", "said_by", "words"]


@cache
def words(language: str = "en", desk: bool = False) -> Words:
    return Words(language, desk)


class Words:
    """The wizard's texts in ``language``; ``desk``: the words for a mouse and a keyboard."""

    def __init__(self, language: str = "en", desk: bool = False) -> None:
        self.catalogue = Catalogue(language, MESSAGES)
        self.language = language
        self.desk = desk
        self._games: dict[str, Catalogue] = {}  # a game's package -> its catalogue in this language

    def text(self, key: str, **values: object) -> str:
        """``wizard.<key>`` (its desk wording at a desk) with ``values``; said values are shown too."""
        name = f"wizard.{key}"
        if self.desk and self.catalogue.get(f"{name}_desk") is not None:
            name = f"{name}_desk"
        shown = {k: self.show(v) if isinstance(v, str) else v for k, v in values.items()}
        return self.catalogue.text(name, **shown)

    def counted(self, key: str, n: int, **values: object) -> str:
        """A counted phrase: ``<key>_one``, ``_few`` (Czech, Polish 2–4) or ``_many``."""
        form = plural_form(self.language, n)
        if form == "few" and self.catalogue.get(f"wizard.{key}_few") is None:
            form = "many"
        return self.text(f"{key}_{form}", n=n, **values)

    def field(self, name: str, label: str) -> str:
        """A card field's name as the screen shows it (the game's own label when the catalogue has none)."""
        return self.catalogue.get(f"wizard.field.{name}") or label

    def kind(self, section: str, label: str) -> str:
        return self.catalogue.get(f"wizard.kind.{section}") or label

    def choice(self, package: str, field: str, value: str) -> str:
        """A choice field's value as the screen shows it ("základní" for the tier "basic"): the game's
        ``wizard.choice_<field>_<value>``, or the value as it is."""
        return (self._game(package).get(f"wizard.choice_{field}_{value}") if package else None) or value

    def _game(self, package: str) -> Catalogue:
        if package not in self._games:
            self._games[package] = Catalogue(self.language, package)
        return self._games[package]

    def show(self, text: str) -> str:
        """A stored message in words: a said one translated, anything else as it is."""
        if not is_said(text):
            return text
        key, _, blob = text[len(MARK) :].partition(" ")
        try:
            values = json.loads(blob) if blob else {}
        except ValueError:
            return text[len(MARK) :]
        package = values.pop(GAME_MESSAGES, None)
        if isinstance(package, str):  # a game's own words, from its catalogue
            shown = {k: self.show(v) if isinstance(v, str) else v for k, v in values.items()}
            return self._game(package).text(f"wizard.{key}", **shown)
        if "field" in values:  # a card field: its name in this language
            values["field"] = self.field(str(values["field"]), str(values.pop("label", values["field"])))
        if "kind" in values:
            values["kind"] = self.kind(str(values["kind"]), str(values.pop("kind_label", values["kind"])))
        values.pop("label", None)
        values.pop("kind_label", None)
        return self.text(key, **values)
