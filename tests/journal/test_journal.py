"""The journal: commit before acknowledge, resume, export, corruption, finished games."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from companion.cli import main
from companion.games.on_the_way.data import REFERENCE_BOARD, load_reference
from companion.games.on_the_way.engine import GameConfig, TakeContract, Undo
from companion.games.on_the_way.engine.serialize import state_to_json
from companion.games.on_the_way.table.controller import TableController
from companion.intents import ButtonName, ButtonPressed, CardScanned
from companion.journal import (
    BROKEN,
    ENDED,
    FINISHED,
    PLAYING,
    CorruptionReport,
    GameSetup,
    JournaledGame,
    JournalRefused,
    JournalStore,
    JournalUnavailable,
    JournalWriteError,
    ResumeError,
    default_state_dir,
)
from companion.ledframe import LedFrame
from companion.table.tags import CardTag, TagDirectory
from tests.journal.conftest import GOLDEN_SETUP, FakeClock, golden_commands

BOARD, DECK = load_reference()
TWO = GameSetup("on-the-way", ("red", "blue"))


def committed(path: Path, game_id: int) -> int:
    """Commands visible to another connection: what a power cut now would keep."""
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("SELECT COUNT(*) FROM commands WHERE game_id=?", (game_id,)).fetchone()[0])
    finally:
        conn.close()


class CheckingLeds:
    """An LED sink that checks, at every acknowledgement, that the journal already holds the command."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.game: JournaledGame | None = None
        self.frames: list[LedFrame] = []

    def show(self, frame: LedFrame, now: float) -> None:
        if self.game is not None:
            assert committed(self.path, self.game.game_id) == len(self.game.log)
        self.frames.append(frame)


def controller(store: JournalStore, game: JournaledGame, leds: CheckingLeds, **kwargs: object) -> TableController:
    config = GameConfig(BOARD, DECK, game.setup.players)
    tags = TagDirectory.simulated(game.setup.players, [c.id for c in DECK.contracts] + [e.id for e in DECK.events])
    leds.game = game
    return TableController(config, tags, leds=leds, game=game, **kwargs)  # type: ignore[arg-type]


def scan(ctl: TableController, card: str) -> None:
    uid = ctl.tags.uid_of(CardTag(card))
    assert uid is not None
    ctl.handle(CardScanned(uid), 0.0)


def end_turn(ctl: TableController) -> None:
    """OK offers "Pass", OK confirms: the seat LED moves on (an acknowledgement on the LEDs)."""
    ctl.handle(ButtonPressed(ButtonName.OK), 0.0)
    ctl.handle(ButtonPressed(ButtonName.OK), 0.0)


# -- append / commit ordering ---------------------------------------------------------------------


def test_every_acknowledged_command_is_committed_first(store: JournalStore, journal_path: Path) -> None:
    game = JournaledGame.start(store, TWO)
    leds = CheckingLeds(journal_path)
    ctl = controller(store, game, leds)
    scan(ctl, "B01")
    assert ctl.state.current.contracts == ("B01",)
    assert committed(journal_path, game.game_id) == 1
    assert "B01" in ctl.ui.message
    end_turn(ctl)
    assert ctl.state.current.colour == "blue"
    assert len(leds.frames) == 2  # the LEDs did acknowledge the pass (and checked the journal when they did)
    assert leds.frames[-1].seat == 1


@pytest.mark.allow_error_logs
def test_a_command_the_journal_cannot_write_is_not_acknowledged(store: JournalStore, journal_path: Path) -> None:
    game = JournaledGame.start(store, TWO)
    leds = CheckingLeds(journal_path)
    ctl = controller(store, game, leds)
    scan(ctl, "B01")
    before, frames, log = ctl.state, len(leds.frames), list(game.log)

    def broken(*args: object, **kwargs: object) -> None:
        raise JournalWriteError("disk full")

    store.append = broken  # type: ignore[method-assign]
    scan(ctl, "B02")
    end_turn(ctl)
    assert ctl.state == before and game.log == log  # taken back exactly: no undo entry, no reversal
    assert len(leds.frames) == frames  # the LEDs never showed it
    assert ctl.ui.refusal is not None and ctl.ui.refusal.rule == "journal"
    assert "B02" not in ctl.ui.message
    assert committed(journal_path, game.game_id) == 1
    del store.append  # the disk is back: the game goes on where it was
    end_turn(ctl)
    assert ctl.state.current.colour == "blue" and leds.frames[-1].seat == 1
    assert committed(journal_path, game.game_id) == 2


@pytest.mark.allow_error_logs
def test_when_the_on_command_callback_raises_nothing_is_acknowledged(store: JournalStore, journal_path: Path) -> None:
    game = JournaledGame.start(store, TWO)
    leds = CheckingLeds(journal_path)

    def refuse(command: object) -> None:
        raise RuntimeError("the recorder is gone")

    ctl = controller(store, game, leds, on_command=refuse)
    frames = len(leds.frames)
    before = ctl.state.current
    scan(ctl, "B01")
    end_turn(ctl)
    assert ctl.state.current.contracts == before.contracts == ()
    assert ctl.state.current.colour == "red"
    assert len(leds.frames) == frames
    assert ctl.ui.refusal is not None and ctl.ui.refusal.rule == "journal"
    # the journal still replays to what the table shows (the command and its undo are both recorded)
    assert JournaledGame.resume(store, game.game_id).state == ctl.state


@pytest.mark.allow_error_logs
def test_direct_push_failure_raises_a_refusal_and_changes_nothing(store: JournalStore) -> None:
    game = JournaledGame.start(store, TWO)
    game.push(TakeContract("red", "B01"))
    state, log = game.state, list(game.log)
    store.close()
    with pytest.raises(JournalRefused) as refused:
        game.push(Undo())
    assert refused.value.rule == "journal"
    assert game.state == state and game.log == log


def test_a_refused_command_is_not_recorded(store: JournalStore) -> None:
    game = JournaledGame.start(store, TWO)
    with pytest.raises(ValueError):
        game.push(TakeContract("blue", "B01"))  # not blue's turn
    assert store.commands(game.game_id) == []


def test_commands_must_follow_each_other(store: JournalStore) -> None:
    game_id = store.create_game(TWO)
    store.append(game_id, 0, {"action": "pass", "player": "red"})
    with pytest.raises(JournalWriteError):
        store.append(game_id, 0, {"action": "pass", "player": "red"})
    with pytest.raises(JournalWriteError):
        store.append(game_id, 5, {"action": "pass", "player": "red"})
    assert len(store.commands(game_id)) == 1


# -- resume ---------------------------------------------------------------------------------------


def test_resume_gives_exactly_the_state_before(journal_path: Path, clock: FakeClock) -> None:
    commands = golden_commands()[:121]
    with JournalStore.open(journal_path, clock=clock) as store:
        game = JournaledGame.start(store, GOLDEN_SETUP)
        for command in commands:
            game.push(command)
        game.push(Undo())  # undos are part of the record
        game.push(commands[-1])
        state, log, depth = game.state, list(game.log), game.depth
    # power cut: a new process opens the same file
    with JournalStore.open(journal_path, clock=clock) as store:
        assert store.report is None
        record = store.unfinished()
        assert record is not None and record.id == game.game_id and record.status == PLAYING
        assert record.progress["round"] == state.turn.round
        resumed = JournaledGame.resume(store, record)
        assert resumed.state == state  # ledger included
        assert resumed.log == log and resumed.depth == depth
        resumed.push(Undo())  # and it goes on being recorded
        assert len(store.commands(record.id)) == len(log) + 1


@pytest.mark.allow_error_logs
def test_a_game_that_no_longer_replays_is_kept_as_broken_and_a_new_game_starts(
    store: JournalStore, tmp_path: Path
) -> None:
    board = tmp_path / "board.toml"
    board.write_bytes(Path(REFERENCE_BOARD).read_bytes())
    setup = GameSetup.with_files("on-the-way", ("red", "blue"), board=board)
    game = JournaledGame.start(store, setup)
    game.push(TakeContract("red", "B01"))
    board.unlink()
    with pytest.raises(ResumeError, match="cannot be resumed"):
        JournaledGame.resume(store, game.game_id)
    record = store.game(game.game_id)
    assert record is not None and record.status == BROKEN and record.commands == 1  # kept, not discarded
    assert store.unfinished() is None
    JournaledGame.start(store, TWO).push(TakeContract("red", "B01"))


# -- export ---------------------------------------------------------------------------------------


def test_export_replays_with_companion_play_to_the_same_final_state(
    store: JournalStore, journal_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    setup = GameSetup("on-the-way", ("red", "blue", "green"), end_at=4, rules={"allow_pass": "true"})
    game = JournaledGame.start(store, setup)
    commands = golden_commands()
    for i, command in enumerate(commands):
        game.push(command)
        if i in (3, 50, 150):
            game.push(Undo())
            game.push(command)
    assert game.finished
    out = tmp_path / "game.jsonl"
    assert main(["export", str(game.game_id), "--journal", str(journal_path), "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert "--end-at 4" in err and "--players red,blue,green" in err and "--rule allow_pass=true" in err
    assert len(out.read_text().splitlines()) == len(commands) + 6
    assert main(["play", *setup.play_args(), "--script", str(out)]) == 0
    results = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert all(r["ok"] for r in results[:-1])
    assert results[-1]["state"] == state_to_json(game.state)


def test_export_of_an_unknown_game_says_so(journal_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", "7", "--journal", str(journal_path)]) == 2
    assert "no game 7" in capsys.readouterr().err


# -- corruption -----------------------------------------------------------------------------------


@pytest.mark.allow_error_logs
def test_garbage_journal_is_moved_aside_reported_and_a_new_game_starts(
    journal_path: Path, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    journal_path.parent.mkdir(parents=True)
    journal_path.write_bytes(b"this is not a database, it was a kick to the power cable" * 100)
    with JournalStore.open(journal_path, clock=clock) as store:
        report = store.report
        assert isinstance(report, CorruptionReport) and report.moved_to is not None
        assert report.moved_to.name.startswith("journal.sqlite.corrupt-")
        assert report.moved_to.read_bytes().startswith(b"this is not a database")  # kept, not discarded
        assert "unreadable" in str(report)
        JournaledGame.start(store, TWO).push(TakeContract("red", "B01"))
    assert any(r.levelname == "ERROR" and "unreadable" in r.getMessage() for r in caplog.records)
    with JournalStore.open(journal_path, clock=clock) as store:
        assert store.report is None and len(store.games()) == 1


@pytest.mark.allow_error_logs
def test_damaged_pages_are_detected_at_open(
    journal_path: Path, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    with JournalStore.open(journal_path, clock=clock) as store:
        game = JournaledGame.start(store, GOLDEN_SETUP)
        for command in golden_commands()[:150]:
            game.push(command)
    data = bytearray(journal_path.read_bytes())
    page = 4096
    for offset in range(page * 2, min(len(data), page * 4)):  # scribble over the b-tree pages
        data[offset] = 0x5A
    journal_path.write_bytes(bytes(data))
    with JournalStore.open(journal_path, clock=clock) as store:
        assert isinstance(store.report, CorruptionReport) and store.report.moved_to is not None
        assert store.games() == []
        JournaledGame.start(store, TWO)


@pytest.mark.allow_error_logs
def test_a_journal_that_cannot_be_moved_still_lets_a_game_start(
    tmp_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "journal.sqlite"
    path.write_bytes(b"garbage" * 1000)
    monkeypatch.setattr(Path, "rename", lambda self, target: (_ for _ in ()).throw(PermissionError("read-only")))
    with pytest.raises(JournalUnavailable, match="could not be moved aside"):
        JournalStore.open(path, clock=clock)
    with JournalStore.open_or_temporary(path, clock=clock) as store:  # the kiosk's way in
        assert store.temporary and store.report is not None
        assert "NOT being saved" in str(store.report) and "could not be moved" in str(store.report)
        JournaledGame.start(store, TWO).push(TakeContract("red", "B01"))
    assert path.read_bytes().startswith(b"garbage")


# -- finished games -------------------------------------------------------------------------------


def test_finished_games_are_listed_kept_and_cleared_by_the_admin(
    store: JournalStore, journal_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = JournaledGame.start(store, GOLDEN_SETUP)
    for command in golden_commands():
        game.push(command)
    assert game.finished
    early = JournaledGame.start(store, TWO)
    early.push(TakeContract("red", "B01"))
    early.end_early()
    playing = JournaledGame.start(store, TWO)
    statuses = {r.id: r.status for r in store.games()}
    assert statuses == {game.game_id: FINISHED, early.game_id: ENDED, playing.game_id: PLAYING}
    finished = store.game(game.game_id)
    assert finished is not None and finished.result is not None and finished.result[0]["place"] == 1
    board = store.leaderboard()
    assert [e.score for e in board] == sorted((e.score for e in board), reverse=True)
    assert {e.game_id for e in board} == {game.game_id}  # games ended early are not on the leaderboard

    assert main(["games", "--journal", str(journal_path)]) == 0
    listing = capsys.readouterr().out
    assert "finished" in listing and "ended" in listing and "playing" in listing

    assert main(["games", "clear", "--journal", str(journal_path)]) == 0
    assert "cleared 2" in capsys.readouterr().out
    assert [r.id for r in store.games()] == [playing.game_id]  # the game being played stays
    assert store.leaderboard() == []


def test_an_undo_after_the_end_reopens_the_game(store: JournalStore) -> None:
    game = JournaledGame.start(store, GOLDEN_SETUP)
    for command in golden_commands():
        game.push(command)
    game.push(Undo())
    record = store.game(game.game_id)
    assert record is not None and record.status == PLAYING and record.result is None
    assert store.leaderboard() == []


def test_state_directory_follows_systemd_then_xdg_then_home() -> None:
    assert default_state_dir({"STATE_DIRECTORY": "/var/lib/companion:/var/lib/other"}) == Path("/var/lib/companion")
    assert default_state_dir({"XDG_STATE_HOME": "/x"}) == Path("/x/companion")
    assert default_state_dir({"COMPANION_STATE_DIR": "/t", "STATE_DIRECTORY": "/s"}) == Path("/t")
    assert default_state_dir({}).parts[-3:] == (".local", "state", "companion")


def test_close_is_safe_twice(journal_path: Path) -> None:
    store = JournalStore.open(journal_path, clock=FakeClock())
    store.close()
    store.close()
