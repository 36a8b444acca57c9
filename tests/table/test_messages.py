"""The message catalogues: the platform's and each game's. Every language has every key, every key
the code uses exists, placeholders agree between languages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.table.messages import LANGUAGES, Catalogue

GAME_PACKAGES = {
    "on_the_way": "companion.games.on_the_way",
    "auf_achse": "companion.games.auf_achse",
}
CATALOGUES = [None, *GAME_PACKAGES.values()]


@pytest.mark.parametrize("game", CATALOGUES)
def test_every_language_has_the_same_keys(game: str | None) -> None:
    english = Catalogue("en", game).all_keys()
    for language in LANGUAGES:
        assert Catalogue(language, game).all_keys() == english, language


@pytest.mark.parametrize("folder", sorted(GAME_PACKAGES))
def test_every_key_used_by_a_table_exists(folder: str) -> None:
    files = [*Path("companion/table").glob("*.py"), *Path(f"companion/games/{folder}/table").glob("*.py")]
    source = "\n".join(p.read_text(encoding="utf-8") for p in files)
    used = set(re.findall(r'text\(\s*"([a-z_]+\.[a-z_]+)"', source))
    assert used, "the controller should use the catalogue"
    assert used <= Catalogue("en", GAME_PACKAGES[folder]).all_keys(), used - Catalogue("en").all_keys()


@pytest.mark.parametrize("game", CATALOGUES)
def test_placeholders_match_between_languages(game: str | None) -> None:
    en, cs = Catalogue("en", game), Catalogue("cs", game)
    pattern = re.compile(r"{(\w+)}")
    for key in en.all_keys():
        section, name = key.split(".")
        assert set(pattern.findall(en._table[section][name])) == set(pattern.findall(cs._table[section][name])), key


def test_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="no messages for language 'fr'"):
        Catalogue("fr")


def test_players_are_named_by_their_colour_in_every_language() -> None:
    otw = GAME_PACKAGES["on_the_way"]
    assert Catalogue("en", otw).text("prompt.event_due", player="red").startswith("Red:")
    assert Catalogue("cs", otw).text("prompt.event_due", player="red").startswith("Červený:")
    assert Catalogue("en").player_name("purple") == "Purple"  # a colour without a name: capitalised


def test_a_game_catalogue_does_not_see_another_games_texts() -> None:
    assert not any(k.startswith("aa_") for k in Catalogue("en", GAME_PACKAGES["on_the_way"]).all_keys())
    assert "prompt.event_due" not in Catalogue("en", GAME_PACKAGES["auf_achse"]).all_keys()


def test_refusals_keep_the_engine_sentence_in_english_and_the_rule_sentence_in_czech() -> None:
    english = "Warsaw has 1 truck idle; a 2-truck transport needs 2 to transship"
    otw = GAME_PACKAGES["on_the_way"]
    assert Catalogue("en", otw).refusal("OTW-18", english) == english
    assert Catalogue("cs", otw).refusal("OTW-18", english).startswith("Překládka jen přes město")
    assert Catalogue("cs", otw).refusal("XYZ-1", english) == english  # no Czech sentence: the English one


@pytest.mark.parametrize("folder", sorted(GAME_PACKAGES))
def test_every_rule_an_engine_refuses_with_has_a_czech_sentence(folder: str) -> None:
    source = "\n".join(p.read_text(encoding="utf-8") for p in Path(f"companion/games/{folder}/engine").glob("*.py"))
    rules = set(re.findall(r'IllegalAction\(\s*"((?:OTW|AA)-\d+)"', source))
    assert rules, "the engines refuse citing rule ids"
    czech = Catalogue("cs", GAME_PACKAGES[folder])._table["refusals"]
    assert rules <= set(czech), sorted(rules - set(czech))
