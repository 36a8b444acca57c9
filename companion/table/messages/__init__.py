"""The message catalogues: one gettext ``.po`` file per language, the same keys in each.

The platform's texts (any game: unknown tags, device faults, undo, player names, colours) live here;
each game keeps its own beside its code (``companion/games/<game>/messages/<language>.po``), the
kiosk its own (``companion/kiosk/messages``), and a ``Catalogue`` for one of them reads both, its
texts over the platform's. An entry's ``msgctxt`` is the key (``prompt.turn``), its ``msgid`` the
English text and its ``msgstr`` the translation (``po.py`` reads them; ``docs/translating.md``).

A game from another distribution that still ships ``messages/<language>.toml`` tables is read too.
"""

from __future__ import annotations

import logging
import re
import tomllib
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable

from companion.table.messages.po import PoError, parse_po, tables_of

log = logging.getLogger(__name__)

LANGUAGES = ("en", "cs", "de", "pl")  # the order of the table's MENU language toggle
Tables = dict[str, dict[str, str]]
PLATFORM = "companion.table.messages"  # this package: the platform's own catalogue

__all__ = ["LANGUAGES", "Catalogue", "PoError", "chosen_language", "plural_form", "read_tables"]


def chosen_language(given: str | None) -> str:
    """A window's language: ``given`` (its ``--language``), else ``$COMPANION_LANGUAGE`` (the kiosk's
    setting), else English. ValueError names where a language the box does not speak came from."""
    import os

    language = (given or os.environ.get("COMPANION_LANGUAGE", "") or "en").strip().lower()
    if language not in LANGUAGES:
        source = "--language" if given else "$COMPANION_LANGUAGE"
        raise ValueError(f"{source} {language!r} is not a language of the box; available: {', '.join(LANGUAGES)}")
    return language


def plural_form(language: str, n: int) -> str:
    """Which form a counted word takes: ``one``, ``few`` (Czech and Polish 2–4) or ``many``."""
    if n == 1:
        return "one"
    if language == "cs" and 2 <= n <= 4:
        return "few"
    if language == "pl" and 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return "few"
    return "many"


def _read(folder: Traversable, language: str) -> Tables | None:
    po = folder.joinpath(f"{language}.po")
    if po.is_file():
        return tables_of(parse_po(po.read_text(encoding="utf-8"), str(po)), english=language == "en")
    legacy = folder.joinpath(f"{language}.toml")
    if legacy.is_file():
        return tomllib.loads(legacy.read_text(encoding="utf-8"))
    return None


@cache
def read_tables(package: str, language: str) -> Tables:
    """The tables of ``package``'s ``messages/`` in ``language`` (the platform's own: this package);
    ``{}`` when that language has no file."""
    folder = resources.files(package) if package == PLATFORM else resources.files(package).joinpath("messages")
    return _read(folder, language) or {}


@cache
def _load(language: str, package: str | None = None) -> Tables:
    """The platform's tables, with those of ``package`` (a game's or the kiosk's, holding ``messages/``) over them."""
    tables = {section: dict(table) for section, table in read_tables(PLATFORM, language).items()}
    if package is not None:
        for section, table in read_tables(package, language).items():
            tables[section] = {**tables.get(section, {}), **table}
    return tables


@cache
def _reason_patterns(package: str | None) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """The English ``ledger.*`` templates as patterns, longest first ("debt to the bank" before "debt")."""
    english = _load("en", package).get("ledger", {})
    patterns = []
    for key, template in english.items():
        parts = re.split(r"\{(\w+)\}", template)  # text, name, text, name, ..., text
        regex = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)" for i, p in enumerate(parts))
        patterns.append((key, re.compile(regex)))
    return tuple(sorted(patterns, key=lambda kp: -len(english[kp[0]])))


def next_language(language: str, step: int = 1) -> str:
    """The language ``step`` places after ``language`` in ``LANGUAGES``, round the list (the MENU toggle,
    the kiosk's PLUS/MINUS)."""
    return LANGUAGES[(LANGUAGES.index(language) + step) % len(LANGUAGES)]


class Catalogue:
    """``Catalogue("cs", "companion.games.on_the_way").text("prompt.put_back", colour="red", n=1, city="Brno")``."""

    def __init__(self, language: str = "en", game: str | None = None) -> None:
        if language not in LANGUAGES:
            raise ValueError(f"no messages for language {language!r}; available: {', '.join(LANGUAGES)}")
        self.language = language
        self.game = game
        self._table = _load(language, game)

    def text(self, key: str, **params: object) -> str:
        """The message ``key`` with ``params`` filled in; a ``player`` is shown by its name ("Red"), a
        ``colour`` by its label in this language ("red", "červená")."""
        template = self.get(key)
        if template is None:
            log.warning("message %s missing in %s; using English", key, self.language)
            section, _, name = key.partition(".")
            template = _load("en", self.game)[section][name]
        if isinstance(params.get("player"), str):
            params["player"] = self.player_name(str(params["player"]))
        if isinstance(params.get("colour"), str):  # a seat's colour as a label in this language ("červená")
            params["colour"] = self.colour(str(params["colour"]))
        return template.format(**params)

    def get(self, key: str) -> str | None:
        """The template of ``key`` as it is (no placeholders filled), or None if this catalogue has none."""
        section, _, name = key.partition(".")
        return self._table.get(section, {}).get(name)

    def refusal(self, rule: str, english: str) -> str:
        """The sentence shown for a refused action: the engine's own (English) sentence, or in another
        language that rule's sentence from the ``refusals`` section (the English one if it has none)."""
        if self.language == "en":
            return english
        return self._table.get("refusals", {}).get(rule, english)

    def reason(self, reason: str) -> str:
        """A ledger entry's reason, booked by the engine in English ("starting money", "contract B01
        Bremen→Poznań, event X03", "debt, to blue"), in this language: each comma-separated part that
        matches one of the English ``ledger.*`` templates is told with that template's translation;
        a part that matches none (a name, a number) stays as booked."""
        if self.language == "en":
            return reason
        return ", ".join(self._reason_part(part) for part in reason.split(", "))

    def _reason_part(self, part: str) -> str:
        for key, pattern in _reason_patterns(self.game):
            found = pattern.fullmatch(part)
            if found is not None:
                return self.text(f"ledger.{key}", **found.groupdict())
        return part

    def player_name(self, colour: str) -> str:
        """How a seat is called on screen: its colour as a name ("Red", "Červený")."""
        return self._table.get("player_names", {}).get(colour) or colour.capitalize()

    def colour(self, colour: str) -> str:
        """A colour as a label ("red", "červená"); a colour without one is shown as it is."""
        return self._table.get("colours", {}).get(colour) or colour

    def trucks(self, n: int) -> str:
        return self._counted("trucks", n)

    def steps(self, n: int) -> str:
        return self._counted("steps", n)

    def _counted(self, word: str, n: int) -> str:
        return self.counted(f"words.{word}", n)

    def counted(self, stem: str, n: int, **params: object) -> str:
        """The text of ``n`` things in the form ``n`` takes: ``stem`` + ``_one``/``_few``/``_many``
        (a catalogue without a ``_few`` form uses ``_many``); ``params`` fill its other placeholders."""
        form = plural_form(self.language, n)
        key = f"{stem}_{form}"
        if form == "few" and self.get(key) is None:
            key = f"{stem}_many"
        return self.text(key, n=n, **params)

    def all_keys(self) -> set[str]:
        return {f"{s}.{k}" for s, table in self._table.items() for k in table}
