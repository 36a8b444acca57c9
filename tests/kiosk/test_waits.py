"""A prompt that waits for something can be left: MENU → Advice at the kiosk asks for the face-up
offer (OTW-9); BACK says "no advice now" and the table plays on as before."""

from __future__ import annotations

from companion.games.on_the_way.table.prompts import MENU, MenuItem
from companion.kiosk import Screen
from companion.table.ui import Mode
from tests.kiosk.conftest import Box
from tests.kiosk.test_kiosk import start_golden_game


def ask_advice(box: Box) -> None:
    box.press("menu", *["plus"] * MENU.index(MenuItem.ADVICE), "ok")


def test_back_leaves_the_wait_for_the_offer_that_advice_asked_for(box: Box) -> None:
    start_golden_game(box)
    game = box.kiosk.game
    assert game is not None
    ask_advice(box)
    ui = box.kiosk.playing.controller.ui  # type: ignore[union-attr]
    assert ui.mode is Mode.CARD_DUE and "BACK: no advice now" in ui.detail  # the way out is on the screen
    box.scan("B07")  # one card laid out: a partly collected offer can be left too
    assert box.kiosk.playing.controller.ui.mode is Mode.CARD_DUE  # type: ignore[union-attr]
    played = list(game.log)
    box.press("back")
    ui = box.kiosk.playing.controller.ui  # type: ignore[union-attr]
    assert ui.mode is not Mode.CARD_DUE and ui.message.startswith("No advice now")
    assert game.log == played  # BACK left the wait: it undid nothing
    box.scan("B20")  # a contract scanned now is taken, not laid out
    assert game.log[-1].card == "B20" and type(game.log[-1]).__name__ == "TakeContract"  # type: ignore[attr-defined]
    assert box.screen is Screen.PLAYING


def test_without_a_wait_back_still_undoes(box: Box) -> None:
    start_golden_game(box)
    game = box.kiosk.game
    assert game is not None
    box.scan("B20")
    assert len(game.log) == 1
    box.press("back")
    assert type(game.log[-1]).__name__ == "UndoCommand"  # BACK takes the last action of the turn back, as before
