"""The message catalogue of the table: one TOML file per language, the same keys in each.

The platform's texts (any game: unknown tags, device faults, undo, player names) live here; each
game keeps its own texts beside its code (``companion/games/<game>/messages/<language>.toml``) and a
``Catalogue`` for a game reads both, the game's tables over the platform's.
"""

from __future__ import annotations

import logging
import tomllib
from functools import cache
from importlib import resources

log = logging.getLogger(__name__)

LANGUAGES = ("en", "cs")


@cache
def _load(language: str, package: str | None = None) -> dict[str, dict[str, str]]:
    """The platform's tables, with those of ``package`` (a game's package, holding ``messages/``) over them."""
    text = resources.files(__package__).joinpath(f"{language}.toml").read_text(encoding="utf-8")
    tables: dict[str, dict[str, str]] = tomllib.loads(text)
    if package is not None:
        own = resources.files(package).joinpath("messages", f"{language}.toml").read_text(encoding="utf-8")
        for section, table in tomllib.loads(own).items():
            tables[section] = {**tables.get(section, {}), **table}
    return tables


class Catalogue:
    """``Catalogue("cs", "companion.games.on_the_way").text("prompt.put_back", colour="red", n=1, city="Brno")``."""

    def __init__(self, language: str = "en", game: str | None = None) -> None:
        if language not in LANGUAGES:
            raise ValueError(f"no messages for language {language!r}; available: {', '.join(LANGUAGES)}")
        self.language = language
        self.game = game
        self._table = _load(language, game)

    def text(self, key: str, **params: object) -> str:
        """The message ``key`` with ``params`` filled in; a ``player`` is shown by its name ("Red")."""
        section, _, name = key.partition(".")
        template = self._table.get(section, {}).get(name)
        if template is None:
            log.warning("message %s missing in %s; using English", key, self.language)
            template = _load("en", self.game)[section][name]
        if isinstance(params.get("player"), str):
            params["player"] = self.player_name(str(params["player"]))
        return template.format(**params)

    def refusal(self, rule: str, english: str) -> str:
        """The sentence shown for a refused action: the engine's own (English) sentence, or in another
        language that rule's sentence from the ``[refusals]`` table (the English one if it has none)."""
        if self.language == "en":
            return english
        return self._table.get("refusals", {}).get(rule, english)

    def player_name(self, colour: str) -> str:
        """How a seat is called on screen: its colour as a name ("Red", "Červený")."""
        return self._table.get("player_names", {}).get(colour) or colour.capitalize()

    def trucks(self, n: int) -> str:
        return self.text("words.trucks_one") if n == 1 else self.text("words.trucks_many", n=n)

    def steps(self, n: int) -> str:
        return self.text("words.steps_one") if n == 1 else self.text("words.steps_many", n=n)

    def all_keys(self) -> set[str]:
        return {f"{s}.{k}" for s, table in self._table.items() for k in table}
