"""Issue 20, part 3: what a broker delivers never stops the board; places agree with the tables;
a result id cannot repeat when a box's journal is replaced."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest

from companion.journal import JournalStore
from companion.leaderboard import BoardModel
from companion.leaderboard.model import RankEntry, ranked
from companion.leaderboard.screen import SIZE, BoardView, default_fonts, render

GAME = {"game": "on-the-way", "title": "On The Way", "score_label": "VP", "currency": "R"}


def result(table: str, n: str, rows: list[tuple[int, str, int, int]], title: str = "On The Way") -> tuple[str, bytes]:
    standings = [{"place": p, "colour": c, "score": s, "money": m, "money_text": f"{m} R"} for p, c, s, m in rows]
    data = {"v": 1, "kind": "result", "id": f"{table}/{n}", "table": table, **GAME, "title": title,
            "finished_at": 1764547200.0, "standings": standings}  # fmt: skip
    return f"companion/v1/results/{table}/{n}", json.dumps(data).encode()


def test_a_retained_message_with_nul_zero_width_or_bidi_text_is_dropped_and_the_board_draws() -> None:
    model = BoardModel()
    model.apply(*result("A", "1", [(1, "red", 5, 10)]), 0.0)
    for evil in ("a\x00b", "\u200b", "x\u202ey", "\ud800", "\u2066"):
        assert not model.apply(*result("B", "2", [(1, "red", 5, 10)], title=evil), 0.0)
    assert set(model.results) == {"A/1"} and model.rejected["text"] == 5
    pygame.font.init()
    surface = pygame.Surface(SIZE)
    render(surface, model, BoardView(event="x\x00\u202e", broker="\u200b"), default_fonts())  # never raises


def test_board_places_agree_with_each_tables_ranking() -> None:
    def entry(result_id: str, colour: str, place: int, score: int) -> RankEntry:
        return RankEntry(result_id.split("/")[0], result_id, colour, place, score, "", 0.0)

    # Table A broke a tie by money (red 1st, blue 2nd with the same VP); table B's green has those VP too;
    # table C kept a tie (both 1st).
    entries = sorted(
        [
            entry("A/1", "red", 1, 10),
            entry("A/1", "blue", 2, 10),
            entry("B/1", "green", 1, 10),
            entry("C/1", "red", 1, 7),
            entry("C/1", "blue", 1, 7),
            entry("C/1", "green", 3, 2),
        ],
        key=lambda e: (-e.score, e.place, e.result_id, e.colour),
    )
    places = {(e.result_id, e.colour): e.rank for e in ranked(entries)}
    assert places[("A/1", "red")] == places[("B/1", "green")] == 1  # equal VP at different tables: shared
    assert places[("A/1", "blue")] == 3  # never level with the player its own table ranked above it
    assert places[("C/1", "red")] == places[("C/1", "blue")] == 4  # a tie its table kept is kept
    assert places[("C/1", "green")] == 6


def test_a_replaced_journal_gets_a_new_id(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    with JournalStore.open(path) as first:
        old = first.journal_id
    with JournalStore.open(path) as again:
        assert again.journal_id == old  # the same journal keeps its id
    path.rename(tmp_path / "moved-aside.sqlite")
    with JournalStore.open(path) as fresh:
        assert fresh.journal_id is not None and fresh.journal_id != old


def test_a_result_number_carries_the_journal_id(tmp_path: Path) -> None:
    from companion.leaderboard import Publisher
    from companion.leaderboard.errors import BadMessage

    with Publisher("mqtt://127.0.0.1:1", "A", tmp_path / "o.sqlite", journal_id="3f9a2b7c01de") as box:
        assert box._number(7) == "3f9a2b7c01de-7"  # the next journal's game 7 is another result
    with Publisher("mqtt://127.0.0.1:1", "A", tmp_path / "p.sqlite") as plain:
        assert plain._number(7) == "7"
    with pytest.raises(BadMessage):
        Publisher("mqtt://127.0.0.1:1", "A", tmp_path / "q.sqlite", journal_id="a/b")


@pytest.mark.parametrize("root", ["", "/", "a/+/b", "a/#", "$SYS", "a//b", "a/b\x00", "x" * 200, "a\u202e"])
def test_a_topic_root_that_cannot_root_the_topics_is_refused(root: str) -> None:
    from companion.leaderboard.errors import BadTopicRoot
    from companion.leaderboard.topics import check_topic_root

    with pytest.raises(BadTopicRoot):
        check_topic_root(root)
    assert check_topic_root("event-7/companion/v1/") == "event-7/companion/v1"
