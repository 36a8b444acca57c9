"""The kiosk's language: chosen on the attract screen, handed to the table, kept for the ranking, back
to the admin default afterwards; the admin menu switches the default."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from companion.kiosk import Screen
from tests.kiosk.conftest import SETTINGS, Box


@pytest.fixture
def box(tmp_path: Path) -> Iterator[Box]:
    b = Box(tmp_path / "journal.sqlite")
    yield b
    b.close()


def test_plus_minus_on_the_attract_screen_choose_the_language_of_the_setup_and_the_table(box: Box) -> None:
    assert box.kiosk.language == "en" and box.view.lines[-1] == "PLUS/MINUS: language — English"
    box.press("plus")
    assert box.screen is Screen.ATTRACT and box.kiosk.language == "cs"
    assert box.view.lines[0] == "Stiskni OK a začni novou hru"
    box.press("plus", "plus", "minus")  # cs → de → pl → de
    assert box.kiosk.language == "de" and box.view.lines[-1] == "PLUS/MINUS: Sprache — Deutsch"
    box.press("ok")
    assert box.view.title == "Wie viele Spieler?" and box.view.options[0] == "2 Spieler"
    box.press("ok")
    assert box.view.options[:4] == ("Rot", "Blau", "Grün", "Gelb")
    box.press("ok")
    assert box.view.lines == ("Spieler 1: Rot",) and box.view.title == "Farbe von Spieler 2 von 2"
    box.press("plus", "ok")
    assert box.view.title == "Ganzes oder kurzes Spiel?"
    assert box.view.options[1] == "Kurzes Spiel: endet bei 8 auf der Zeitleiste"
    box.press("ok")
    assert box.view.lines[1:] == ("Spieler: Rot, Grün", "Ganzes Spiel")
    box.press("ok")
    assert box.screen is Screen.PLAYING and box.kiosk.controller.language == "de"
    assert box.kiosk.controller.ui.prompt.startswith("Rot: noch 2 Schritte")


def test_the_ranking_speaks_the_tables_language_then_the_default_returns(box: Box) -> None:
    box.press("minus")  # pl
    box.new_game(2, [0, 0])
    assert box.kiosk.controller.language == "pl"
    box.admin_card()
    assert box.view.title == "Administracja" and "Zakończ grę przedwcześnie" in box.view.options
    box.press("plus", "ok", "ok")  # end the game early, yes
    assert box.screen is Screen.RANKING and box.view.title == "Koniec gry — On The Way"
    assert box.view.lines[0].startswith("1. Czerwony — ")
    assert all(" PZ" in line and "VP" not in line for line in box.view.lines)  # the score unit too
    box.later(SETTINGS.ranking_s + 1)
    assert box.screen is Screen.ATTRACT and box.kiosk.language == "en"


def test_the_admin_menu_switches_the_default_language(box: Box) -> None:
    box.admin_card()
    item = box.view.options.index("Language: English")
    box.press(*["plus"] * item, "ok")
    assert box.screen is Screen.ADMIN and box.kiosk.language == "cs"
    assert box.view.options[item] == "Jazyk: čeština" and box.view.title == "Správa"
    box.press("back")
    box.press("ok")  # a new game: the new default
    box.press("ok", "ok", "ok", "ok", "ok")
    assert box.screen is Screen.PLAYING and box.kiosk.controller.language == "cs"


def test_the_admin_default_from_the_settings(tmp_path: Path) -> None:
    box = Box(tmp_path / "journal.sqlite", replace(SETTINGS, language="pl"))
    assert box.view.lines[0] == "Naciśnij OK, by zacząć nową grę"
    box.close()
    with pytest.raises(ValueError, match="no messages for language 'fr'"):
        Box(tmp_path / "other.sqlite", replace(SETTINGS, language="fr"))
