"""Every catalogue in every language: the same keys, the same placeholders, the English text as msgid,
the rule ids kept; every key the code asks for exists; the language switch reaches every language."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from companion import games
from companion.kiosk import machine
from companion.kiosk.texts import KIOSK_MESSAGES
from companion.leaderboard.screen import BOARD_MESSAGES
from companion.table.messages import LANGUAGES, Catalogue, plural_form
from companion.table.messages.po import PoFile, parse_po

ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = {  # name -> the folder of its .po files
    "platform": ROOT / "companion/table/messages",
    "kiosk": ROOT / "companion/kiosk/messages",
    "leaderboard": ROOT / "companion/leaderboard/messages",
    "on_the_way": ROOT / "companion/games/on_the_way/messages",
    "auf_achse": ROOT / "companion/games/auf_achse/messages",
    "setup_box": ROOT / "companion/setup_box/messages",
}
PACKAGES = {"platform": None, "kiosk": KIOSK_MESSAGES, "leaderboard": BOARD_MESSAGES,
            "on_the_way": "companion.games.on_the_way",
            "auf_achse": "companion.games.auf_achse", "setup_box": "companion.setup_box"}  # fmt: skip
PLACEHOLDER = re.compile(r"{(\w*)[^{}]*}")
RULE_ID = re.compile(r"\b(?:OTW|AA)-\d+\b")


def read(name: str, language: str) -> PoFile:
    path = CATALOGUES[name] / f"{language}.po"
    return parse_po(path.read_text(encoding="utf-8"), str(path))


def test_the_four_languages() -> None:
    assert LANGUAGES == ("en", "cs", "de", "pl")
    for folder in CATALOGUES.values():
        assert sorted(p.stem for p in folder.glob("*.po")) == sorted(LANGUAGES), folder
        assert not list(folder.glob("*.toml")), "the TOML catalogues are gone"


@pytest.mark.parametrize("name", sorted(CATALOGUES))
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_has_every_key_translated_with_the_same_placeholders(name: str, language: str) -> None:
    english, po = read(name, "en"), read(name, language)
    assert po.header["Language"] == language
    assert list(po.entries) == list(english.entries), "the same keys, in the same order"
    for key, entry in po.entries.items():
        source = english.entries[key]
        assert entry.msgid == source.msgstr, f"{po.path}:{entry.line}: {key}: msgid is not the English text"
        assert entry.msgstr, f"{po.path}:{entry.line}: {key} is not translated"
        assert not entry.fuzzy, f"{po.path}:{entry.line}: {key} is fuzzy"
        assert sorted(PLACEHOLDER.findall(entry.msgstr)) == sorted(PLACEHOLDER.findall(entry.msgid)), (
            f"{po.path}:{entry.line}: {key}: placeholders differ"
        )
        assert ("python-brace-format" in entry.flags) == ("{" in entry.msgid), f"{po.path}:{entry.line}: {key}"
        assert RULE_ID.findall(entry.msgstr) == RULE_ID.findall(entry.msgid), f"{po.path}:{entry.line}: rule ids"
        if language == "en":
            assert entry.msgstr == entry.msgid


@pytest.mark.parametrize("name", sorted(PACKAGES))
def test_a_catalogue_reads_the_same_keys_in_every_language(name: str) -> None:
    english = Catalogue("en", PACKAGES[name]).all_keys()
    for language in LANGUAGES:
        assert Catalogue(language, PACKAGES[name]).all_keys() == english, language


def source_of(*globs: str) -> str:
    return "\n".join(p.read_text(encoding="utf-8") for g in globs for p in sorted(ROOT.glob(g)))


def test_every_key_the_kiosk_uses_exists() -> None:
    source = source_of("companion/kiosk/*.py")
    used = set(re.findall(r'\.text\(\s*"([a-z_]+\.[a-z_]+)"', source))
    assert len(used) > 40, "the kiosk's texts go through its catalogue"
    items = (machine.ADMIN_CLOSE, machine.ADMIN_END, machine.ADMIN_CLEAR, machine.ADMIN_TEST, machine.ADMIN_LEAVE)
    used |= {f"admin.{item}" for item in (*items, machine.ADMIN_LANGUAGE)}  # the admin menu's labels
    used |= {f"admin.confirm_{item}" for item in (machine.ADMIN_END, machine.ADMIN_CLEAR, machine.ADMIN_LEAVE)}
    for language in LANGUAGES:
        assert used <= Catalogue(language, KIOSK_MESSAGES).all_keys(), sorted(used - Catalogue(language).all_keys())


def test_every_key_the_leaderboard_uses_exists() -> None:
    source = source_of("companion/leaderboard/*.py")
    used = set(re.findall(r'\.text\(\s*"([a-z_]+\.[a-z_]+)"', source))
    counted = set(re.findall(r'\.counted\(\s*"([a-z_]+\.[a-z_]+)"', source))
    assert len(used) > 15 and len(counted) >= 4, "the board's words go through its catalogue"
    used |= {f"{stem}_{form}" for stem in counted for form in ("one", "few", "many")}
    for language in LANGUAGES:
        keys = Catalogue(language, BOARD_MESSAGES).all_keys()
        assert used <= keys, (language, sorted(used - keys))


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_score_unit_is_the_same_word_on_the_kiosk_and_on_the_leaderboard(language: str) -> None:
    """The kiosk reads a game's unit from the game's catalogue; the board, which needs no game, from
    its own (keyed by the ``score_label`` the messages carry): the two must agree."""
    from companion.kiosk.machine import score_unit

    board = Catalogue(language, BOARD_MESSAGES)
    shipped = {name: games.get(name) for name in ("on-the-way", "auf-achse")}
    counted = {name: plugin for name, plugin in shipped.items() if plugin.score_label != plugin.currency}
    assert counted, "a game whose score is not money"
    for name, plugin in counted.items():
        package = getattr(plugin, "package", None)
        assert Catalogue("en", package).get("screen.score_unit") == plugin.score_label, name
        assert board.get(f"score_unit.{plugin.score_label}") == score_unit(plugin, language), (name, language)


@pytest.mark.parametrize("game", ["on_the_way", "auf_achse"])
def test_every_key_a_table_uses_exists_in_every_language(game: str) -> None:
    source = source_of("companion/table/*.py", f"companion/games/{game}/table/*.py")
    used = set(re.findall(r'text\(\s*"([a-z_]+\.[a-z_]+)"', source))
    used |= {
        f"words.{w}_{form}" for w in ("trucks", "steps") if game == "on_the_way" for form in ("one", "few", "many")
    }
    assert used
    for language in LANGUAGES:
        keys = Catalogue(language, PACKAGES[game]).all_keys()
        assert used <= keys, (language, sorted(used - keys))


@pytest.mark.parametrize("game", ["on_the_way", "auf_achse"])
def test_every_rule_an_engine_refuses_with_has_a_sentence_in_every_language(game: str) -> None:
    rules = set(re.findall(r'IllegalAction\(\s*"((?:OTW|AA)-\d+)"', source_of(f"companion/games/{game}/engine/*.py")))
    assert rules
    for language in LANGUAGES[1:]:
        own = Catalogue(language, PACKAGES[game])
        assert {r for r in rules if own.refusal(r, "?") != "?"} == rules, language


def test_the_menu_language_toggle_names_the_next_language_in_itself() -> None:
    names = [Catalogue(language).text("language.name") for language in LANGUAGES]
    assert names == ["English", "Čeština", "Deutsch", "Polski"]
    for i, language in enumerate(LANGUAGES):
        assert Catalogue(language).text("menu.language") == names[(i + 1) % len(LANGUAGES)]


@pytest.mark.parametrize(
    ("language", "counts"),
    [
        ("en", {1: "1 truck", 2: "2 trucks", 5: "5 trucks"}),
        ("cs", {1: "1 vozidlo", 3: "3 vozidla", 5: "5 vozidel", 22: "22 vozidel"}),
        ("de", {1: "1 LKW", 4: "4 LKW"}),
        ("pl", {1: "1 ciężarówka", 3: "3 ciężarówki", 5: "5 ciężarówek", 12: "12 ciężarówek", 23: "23 ciężarówki"}),
    ],
)
def test_counted_words_take_the_plural_form_of_their_language(language: str, counts: dict[int, str]) -> None:
    t = Catalogue(language, PACKAGES["on_the_way"])
    assert {n: t.trucks(n) for n in counts} == counts
    assert plural_form(language, 1) == "one"


def test_players_and_colours_are_named_in_every_language() -> None:
    assert [Catalogue(lang).player_name("red") for lang in LANGUAGES] == ["Red", "Červený", "Rot", "Czerwony"]
    assert [Catalogue(lang).colour("white") for lang in LANGUAGES] == ["white", "bílá", "weiß", "biały"]
    assert Catalogue("de").colour("purple") == "purple"  # a colour without a label: as it is


@pytest.mark.parametrize("name", ["on-the-way", "auf-achse"])
def test_the_how_to_pages_come_from_the_po_files_in_every_language(name: str) -> None:
    plugin = games.get(name)
    pages = {language: plugin.messages(language)["kiosk"] for language in LANGUAGES}
    assert all(len(p) == 5 for p in pages.values())
    assert len({p["how_to_1"] for p in pages.values()}) == 4  # four different languages


def test_a_game_without_po_files_still_reads_its_toml_tables() -> None:
    """A game from another distribution may still ship TOML (the test game Race to ten does)."""
    from tests.games.race.plugin import PLUGIN

    assert resources.files(PLUGIN.package).joinpath("messages", "en.toml").is_file()
    assert PLUGIN.messages("en")["kiosk"]["how_to_1"].startswith("PLUS/MINUS")
    assert PLUGIN.messages("pl") == {}  # no Polish: the kiosk shows the English pages


@pytest.mark.parametrize("game", ["on_the_way", "auf_achse"])
def test_the_tables_menu_language_item_cycles_through_the_four_languages(game: str) -> None:
    from tests.table.conftest import Table
    from tests.table_aa.conftest import AATable

    t: Any = Table("red 5000R") if game == "on_the_way" else AATable("red @Hamburg\nblue @Berlin\nturn red")
    seen = []
    for _ in LANGUAGES:
        seen.append(t.ui.language)
        label = Catalogue(t.ui.language).text("menu.language")
        t.press("menu")
        for _ in range(12):
            if t.ui.choice == label:
                break
            t.press("plus")
        assert t.ui.choice == label, (t.ui.language, t.ui.choices)
        t.press("ok")
    assert seen == list(LANGUAGES) and t.ui.language == "en"
