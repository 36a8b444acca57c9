"""The message catalogue: every language has every key, and every key the code uses exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.table.messages import LANGUAGES, Catalogue


def test_every_language_has_the_same_keys() -> None:
    english = Catalogue("en").all_keys()
    for language in LANGUAGES:
        assert Catalogue(language).all_keys() == english, language


def test_every_key_used_by_the_table_exists() -> None:
    source = "\n".join(p.read_text(encoding="utf-8") for p in Path("companion/table").glob("*.py"))
    used = set(re.findall(r'text\(\s*"([a-z_]+\.[a-z_]+)"', source))
    assert used, "the controller should use the catalogue"
    assert used <= Catalogue("en").all_keys()


def test_placeholders_match_between_languages() -> None:
    en, cs = Catalogue("en"), Catalogue("cs")
    for key in en.all_keys():
        section, name = key.split(".")
        pattern = re.compile(r"{(\w+)}")
        assert set(pattern.findall(en._table[section][name])) == set(pattern.findall(cs._table[section][name])), key


def test_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="no messages for language 'de'"):
        Catalogue("de")


def test_players_are_named_by_their_colour_in_every_language() -> None:
    assert Catalogue("en").text("prompt.event_due", player="red").startswith("Red:")
    assert Catalogue("cs").text("prompt.event_due", player="red").startswith("Červený:")
    assert Catalogue("en").player_name("purple") == "Purple"  # a colour without a name: capitalised


def test_refusals_keep_the_engine_sentence_in_english_and_the_rule_sentence_in_czech() -> None:
    english = "Warsaw has 1 truck idle; a 2-truck transport needs 2 to transship"
    assert Catalogue("en").refusal("OTW-18", english) == english
    assert Catalogue("cs").refusal("OTW-18", english).startswith("Překládka jen přes město")
    assert Catalogue("cs").refusal("XYZ-1", english) == english  # no Czech sentence: the English one


def test_every_rule_the_engines_refuse_with_has_a_czech_sentence() -> None:
    source = "\n".join(p.read_text(encoding="utf-8") for p in Path("companion/games").glob("*/engine/*.py"))
    rules = set(re.findall(r'IllegalAction\(\s*"((?:OTW|AA)-\d+)"', source))
    assert rules, "the engines refuse citing rule ids"
    czech = Catalogue("cs")._table["refusals"]
    assert rules <= set(czech), sorted(rules - set(czech))
