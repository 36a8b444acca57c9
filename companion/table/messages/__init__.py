"""The message catalogue of the table: one TOML file per language, the same keys in each."""

from __future__ import annotations

import logging
import tomllib
from functools import cache
from importlib import resources

log = logging.getLogger(__name__)

LANGUAGES = ("en", "cs")


@cache
def _load(language: str) -> dict[str, dict[str, str]]:
    text = resources.files(__package__).joinpath(f"{language}.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


class Catalogue:
    """``Catalogue("cs").text("prompt.put_back", colour="red", n=1, city="Warsaw")``."""

    def __init__(self, language: str = "en") -> None:
        if language not in LANGUAGES:
            raise ValueError(f"no messages for language {language!r}; available: {', '.join(LANGUAGES)}")
        self.language = language
        self._table = _load(language)

    def text(self, key: str, **params: object) -> str:
        """The message ``key`` with ``params`` filled in; a ``player`` is shown by its name ("Red")."""
        section, _, name = key.partition(".")
        template = self._table.get(section, {}).get(name)
        if template is None:
            log.warning("message %s missing in %s; using English", key, self.language)
            template = _load("en")[section][name]
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
