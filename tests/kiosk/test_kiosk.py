"""Kiosk flows through emulated buttons, tags and cards: start, play, end, back to attract; the admin lock."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.games.on_the_way.engine import TakeContract
from companion.games.on_the_way.engine.serialize import command_from_json
from companion.journal import ABANDONED, ENDED, FINISHED, PLAYING, JournaledGame
from companion.kiosk import Screen
from tests.kiosk.conftest import SETTINGS, Box

GOLDEN = Path(__file__).parent.parent / "otw" / "golden" / "three-players-end-at-4.jsonl"
GOLDEN_COMMANDS = [command_from_json(json.loads(line)) for line in GOLDEN.read_text(encoding="utf-8").splitlines()]


def start_golden_game(box: Box) -> None:
    """3 players red, blue, green; the short game ending at 4 (the golden game's set-up)."""
    box.new_game(3, [0, 0, 0], length_steps=2)
    assert box.screen is Screen.PLAYING


def play_opening_at_the_table(box: Box) -> None:
    """The golden game's first 8 commands, as the players make them: cards scanned, a marker moved."""
    for card in ("B20", "B07", "P20", "P27", "P16", "B13"):
        box.scan(card)
    box.place("red", 1, "Bremen")  # a new transport: marker on its start city
    box.press("minus", "minus", "minus")  # down to 1 truck
    box.lift("red", 1, "Bremen")
    box.place("red", 1, "Hamburg")
    box.lift("red", 1, "Hamburg")
    box.place("red", 1, "Hannover")
    game = box.kiosk.game
    assert game is not None
    assert game.log == GOLDEN_COMMANDS[:8], game.log


def test_attract_shows_how_to_start(box: Box) -> None:
    view = box.view
    assert view.screen is Screen.ATTRACT and view.title == "On The Way"
    assert "OK" in view.lines[0]


def test_start_play_end_and_back_to_attract(box: Box) -> None:
    start_golden_game(box)
    game = box.kiosk.game
    assert game is not None
    assert game.setup.players == ("red", "blue", "green") and game.setup.end_at == 4
    assert box.view.table is not None and box.view.table.player == "red"
    play_opening_at_the_table(box)
    for command in GOLDEN_COMMANDS[8:]:  # the rest of the game, straight to the journaled engine
        game.push(command)
    box.later()
    assert box.screen is Screen.RANKING
    ranking = box.view.lines
    assert ranking[0].startswith("1. Blue") and len(ranking) == 3
    record = box.store.game(game.game_id)
    assert record is not None and record.status == FINISHED and record.commands == len(GOLDEN_COMMANDS)
    box.later(30)
    assert box.screen is Screen.RANKING  # the ranking stays a while
    box.later(31)
    assert box.screen is Screen.ATTRACT
    assert "Best scores today" in box.view.lines
    assert any(line.startswith("1. Blue") for line in box.view.lines)


def test_setup_steps_back_and_touch_works_too(box: Box) -> None:
    box.press("ok")
    assert box.screen is Screen.SETUP_PLAYERS and box.view.options == ("2 players", "3 players", "4 players")
    box.tap(1)  # 3 players, by touch
    assert box.screen is Screen.SETUP_COLOURS and box.view.options[:4] == ("Red", "Blue", "Green", "Yellow")
    box.tap(3)  # yellow
    assert box.view.options[:3] == ("Red", "Blue", "Green") and box.view.lines == ("Player 1: Yellow",)
    box.press("back")  # un-pick yellow
    assert box.view.options[:4] == ("Red", "Blue", "Green", "Yellow")
    box.press("back")
    assert box.screen is Screen.SETUP_PLAYERS and box.view.selected == 1
    box.press("back")
    assert box.screen is Screen.ATTRACT
    assert box.store.games() == []  # nothing recorded until the game starts


def test_an_abandoned_setup_returns_to_attract(box: Box) -> None:
    box.press("ok", "plus")
    box.later(SETTINGS.setup_idle_s + 1)
    assert box.screen is Screen.ATTRACT


def test_an_unfinished_game_is_offered_and_resumes_exactly(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    first = Box(path)
    start_golden_game(first)
    play_opening_at_the_table(first)
    game = first.kiosk.game
    assert game is not None
    for command in GOLDEN_COMMANDS[8:100]:
        game.push(command)
    state = game.state
    first.store.close()  # the plug is pulled (the journal needs no goodbye)

    second = Box(path)
    view = second.view
    assert view.screen is Screen.RESUME_OFFER
    assert view.title == "Resume the 14:02 game?"
    assert view.lines[1:] == (f"Round {state.turn.round}",)
    second.press("ok")
    assert second.screen is Screen.PLAYING
    assert second.kiosk.controller is not None and second.kiosk.controller.state == state
    second.close()


def test_declining_the_resume_keeps_the_old_game_and_starts_a_new_one(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    first = Box(path)
    first.new_game(2, [0, 0])
    first.scan("B01")
    first.close()
    second = Box(path)
    assert second.screen is Screen.RESUME_OFFER
    second.press("back")
    assert second.screen is Screen.SETUP_PLAYERS
    assert [r.status for r in second.store.games()] == [ABANDONED]
    assert second.store.games()[0].commands == 1  # kept, listed, exportable
    second.close()


def test_a_corrupt_journal_is_reported_and_a_new_game_still_starts(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "journal.sqlite"
    path.write_bytes(b"\x00garbage" * 512)
    box = Box(path)
    assert box.screen is Screen.ATTRACT
    assert "unreadable" in box.view.notice and "moved to" in box.view.notice
    box.new_game(2, [0, 0])
    assert box.screen is Screen.PLAYING
    box.close()
    caplog.clear()  # the ERROR about the journal was expected


# -- the admin lock ------------------------------------------------------------------------------


def test_players_cannot_reach_the_admin_menu_without_card_or_pin(box: Box) -> None:
    start_golden_game(box)
    for button in ("menu", "back", "ok", "plus", "minus"):
        box.press(button)
        assert box.screen is not Screen.ADMIN
    box.enter_pin("1234")
    assert box.screen is Screen.PLAYING and box.view.notice == "Wrong PIN."
    box.enter_pin("0000")
    box.enter_pin("9999")
    box.press("menu", long=True)  # locked out now: not even the PIN screen
    assert box.screen is Screen.PLAYING and "Too many wrong PINs" in box.view.notice
    box.enter_pin("2468")  # the right PIN does not help during the lockout
    assert box.screen is Screen.PLAYING
    assert not box.kiosk.exit_requested
    box.later(SETTINGS.pin_lockout_s + 1)
    box.enter_pin("2468")
    assert box.screen is Screen.ADMIN


def test_the_pin_opens_the_admin_menu_and_it_locks_itself_again(box: Box) -> None:
    box.enter_pin("2468")
    assert box.screen is Screen.ADMIN
    assert box.view.options == (
        "Close the menu",
        "Clear the records",
        "Hardware test",
        "Language: English",
        "Leave the kiosk",
    )
    box.later(SETTINGS.admin_idle_s + 1)
    assert box.screen is Screen.ATTRACT
    box.press("ok")  # the menu is gone: this starts a new game set-up instead
    assert box.screen is Screen.SETUP_PLAYERS


def test_pin_entry_pauses_the_table(box: Box) -> None:
    start_golden_game(box)
    box.press("menu", long=True)
    assert box.screen is Screen.PIN_ENTRY and box.view.lines == ("0 _ _ _",)
    box.scan("B20")  # not a command while the PIN is being entered
    box.press("plus", "ok", "back", "back")  # a digit, deleted, then cancel
    assert box.screen is Screen.PLAYING
    assert box.kiosk.game is not None and box.kiosk.game.log == []


def test_admin_card_ends_a_game_early(box: Box) -> None:
    start_golden_game(box)
    box.scan("B20")
    box.admin_card()
    assert box.screen is Screen.ADMIN
    assert box.view.options[1] == "End the game early"
    box.press("plus", "ok")
    assert box.screen is Screen.ADMIN_CONFIRM
    box.press("back")  # no
    assert box.screen is Screen.ADMIN
    box.press("ok")
    box.press("ok")  # yes
    assert box.screen is Screen.RANKING
    assert [r.status for r in box.store.games()] == [ENDED]
    box.later(SETTINGS.ranking_s + 1)
    assert box.screen is Screen.ATTRACT
    assert "Best scores today" not in box.view.lines  # a game ended early is not on the leaderboard


def test_admin_closes_back_to_the_game_unchanged(box: Box) -> None:
    start_golden_game(box)
    box.scan("B20")
    before = box.kiosk.controller.state if box.kiosk.controller else None
    box.admin_card()
    box.press("ok")  # Close the menu
    assert box.screen is Screen.PLAYING and box.kiosk.controller is not None
    assert box.kiosk.controller.state == before


def test_admin_clears_the_records_but_not_the_game_being_played(box: Box) -> None:
    box.new_game(2, [0, 0])
    box.admin_card()
    box.press("plus", "ok", "ok")  # End the game early, yes
    assert box.screen is Screen.RANKING
    box.later(SETTINGS.ranking_s + 1)
    box.new_game(2, [1, 1])
    playing = box.kiosk.game
    assert playing is not None and playing.setup.players == ("blue", "green")
    box.admin_card()
    box.press("plus", "plus", "ok")  # Clear the records (after Close, End the game early)
    assert box.screen is Screen.ADMIN_CONFIRM
    box.press("ok")
    assert box.view.notice.startswith("Cleared")
    assert [(r.id, r.status) for r in box.store.games()] == [(playing.game_id, PLAYING)]


def test_leave_the_kiosk_only_through_the_admin_menu(box: Box) -> None:
    box.admin_card()
    box.press("minus", "ok")  # the last item: Leave the kiosk
    assert box.screen is Screen.ADMIN_CONFIRM and not box.kiosk.exit_requested
    box.press("ok")
    assert box.kiosk.exit_requested


def test_hardware_test_echoes_every_intent(box: Box) -> None:
    box.admin_card()
    box.press("plus", "plus", "ok")
    assert box.screen is Screen.HARDWARE_TEST and box.view.led_test
    box.press("menu", long=True)
    box.scan("B01")
    box.admin_card()  # the card reader is tested with the admin card too
    box.place("red", 1, "Berlin")
    lines = box.view.lines
    assert any("menu" in line for line in lines) and any("TagPlaced" in line for line in lines)
    assert sum("CardScanned" in line for line in lines) == 2
    box.press("back", long=True)
    assert box.screen is Screen.ADMIN


def test_a_game_that_cannot_resume_is_kept_and_a_new_game_starts(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "journal.sqlite"
    first = Box(path)
    first.new_game(2, [0, 0])
    game = first.kiosk.game
    assert game is not None
    game.store.conn.execute(
        "INSERT INTO commands(game_id, seq, json, at) VALUES (?, 0, ?, 0)", (game.game_id, '{"action":"fly"}')
    )
    first.close()
    second = Box(path)
    second.press("ok")  # resume
    assert second.screen is Screen.SETUP_PLAYERS and "cannot be resumed" in second.view.notice
    second.press("ok", "ok", "ok", "ok", "ok")
    assert second.screen is Screen.PLAYING
    second.close()
    caplog.clear()


def test_the_kiosk_records_every_command_before_the_table_shows_it(box: Box) -> None:
    start_golden_game(box)
    box.scan("B20")
    game = box.kiosk.game
    assert game is not None
    assert box.store.commands(game.game_id) == [{"player": "red", "action": "take_contract", "card": "B20"}]
    assert isinstance(game, JournaledGame) and game.log == [TakeContract("red", "B20")]


def test_kiosk_without_a_game_is_quiet(tmp_path: Path) -> None:
    box = Box(tmp_path / "j.sqlite")
    # Idle on the attract screen: the loop only wakes for the next how-to page.
    assert box.kiosk.next_deadline(box.now) == box.now + box.kiosk.settings.how_to_s
    box.close()


def test_attract_loops_through_how_to_play_with_the_companion(box: Box) -> None:
    from companion import games
    from companion.kiosk.machine import how_to

    HOW_TO = how_to(games.get("on-the-way"))
    assert len(HOW_TO) == 5
    seen = []
    for _ in range(len(HOW_TO) + 1):
        seen.append(box.view.lines[1])
        deadline = box.kiosk.next_deadline(box.now)
        assert deadline is not None  # the loop sleeps until the next page, no busy wait
        box.later(deadline - box.now)
    assert seen[: len(HOW_TO)] == [f"How to play with the companion: {page}" for page in HOW_TO]
    assert seen[-1] == seen[0]
