"""The board's model: messages in, rankings and live tables out; bad messages dropped and counted."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.leaderboard.model import BoardModel
from companion.leaderboard.topics import TableOnline, decode, encode, online_topic, result_topic
from tests.leaderboard.helpers import AA, ROOT, edit, live, result


def test_a_result_is_decoded_back_to_what_was_encoded() -> None:
    topic, payload = result("A", 7, "red 12 340, blue 9 120")
    message = decode(ROOT, topic, payload)
    assert message.id == "A/7" and message.standings[0].colour == "red"  # type: ignore[union-attr]
    assert encode(message) == payload  # type: ignore[arg-type]


def test_rankings_per_game_best_score_first_across_tables() -> None:
    model = BoardModel()
    for topic, payload in (result("A", 1, "red 12 340, blue 9 120"), result("B", 1, "green 15 10, yellow 3 0"),
                           result("A", 2, "red 800 800, blue 900 900", AA)):  # fmt: skip
        assert model.apply(topic, payload, 1.0)
    otw, aa = model.rankings()
    assert otw.game.title == "On The Way" and otw.games_played == 2
    assert [(e.table, e.colour, e.score) for e in otw.entries] == [("B", "green", 15), ("A", "red", 12),
                                                                  ("A", "blue", 9), ("B", "yellow", 3)]  # fmt: skip
    assert [e.score for e in aa.entries] == [900, 800] and aa.game.score_label == "DM"


def test_the_same_result_twice_is_one_result() -> None:
    model = BoardModel()
    topic, payload = result("A", 1, "red 12 340, blue 9 120")
    assert model.apply(topic, payload, 1.0)
    version = model.version
    assert not model.apply(topic, payload, 2.0)  # redelivered after an outage / retained copy
    assert (len(model.results), model.duplicates, model.version) == (1, 1, version)
    assert model.arrived_at["A/1"] == 1.0


def test_an_empty_retained_payload_withdraws_a_result() -> None:
    model = BoardModel()
    topic, payload = result("A", 1, "red 12 340")
    model.apply(topic, payload, 1.0)
    assert model.apply(topic, b"", 2.0) and model.results == {}


def test_live_state_is_whole_and_older_states_are_ignored() -> None:
    model = BoardModel()
    assert model.apply(*live("A", 5, "red 3 10, blue 1 5"), 1.0)
    assert not model.apply(*live("A", 4, "red 2 10, blue 1 5"), 2.0)  # reordered: older than held
    assert model.stale == 1 and model.tables["A"].seq == 5
    assert model.apply(*live("A", 1, None, session="s2"), 3.0)  # a new outbox file: its seq restarts
    assert model.tables["A"].game is None
    assert model.apply(online_topic(ROOT, "A"), encode(TableOnline("A", False)), 4.0)
    (table,) = model.live_tables()
    assert (table.table, table.online, table.state.game) == ("A", False, None)  # type: ignore[union-attr]


GOOD_TOPIC, GOOD = result("A", 1, "red 12 340, blue 9 120")
BAD_MESSAGES = [
    (GOOD_TOPIC, b"{not json", "json"),
    (GOOD_TOPIC, b"\xff\xfe", "json"),
    (GOOD_TOPIC, b"[1, 2]", "json"),
    (GOOD_TOPIC, edit(GOOD, v=2), "version"),
    (GOOD_TOPIC, edit(GOOD, kind="live"), "field"),
    (GOOD_TOPIC, edit(GOOD, standings=[]), "field"),
    (
        GOOD_TOPIC,
        edit(GOOD, standings=[{"place": 1, "colour": "red", "score": "12", "money": 1, "money_text": "1"}]),
        "field",
    ),
    (
        GOOD_TOPIC,
        edit(GOOD, standings=[{"place": 0, "colour": "red", "score": 1, "money": 1, "money_text": "1"}]),
        "field",
    ),
    (GOOD_TOPIC, edit(GOOD, finished_at=float("nan")), "json"),  # NaN is not JSON: json.dumps writes NaN
    (GOOD_TOPIC, edit(GOOD, title="x" * 500), "field"),
    (GOOD_TOPIC, edit(GOOD, id="B/1"), "topic"),
    (result_topic(ROOT, "B", "1"), GOOD, "topic"),
    (f"{ROOT}/results/A", GOOD, "topic"),
    (f"{ROOT}/tables/A/live", b"", "empty"),
    (f"{ROOT}/tables/A/live", edit(live("A", 1, "red 1 1")[1], seq="x"), "field"),
    (f"{ROOT}/tables/A/online", b'{"v":1,"kind":"online","table":"A","online":"yes"}', "field"),
    (f"{ROOT}/somewhere/else", b"{}", "topic"),
    (GOOD_TOPIC, b"{" * 100_000, "size"),
]


def test_bad_messages_are_dropped_and_counted_by_reason() -> None:
    model = BoardModel()
    for topic, payload, _ in BAD_MESSAGES:
        assert not model.apply(topic, payload, 1.0), (topic, payload[:80])
    expected: dict[str, int] = {}
    for _, _, reason in BAD_MESSAGES:
        expected[reason] = expected.get(reason, 0) + 1
    assert dict(model.rejected) == expected
    assert model.results == {} and model.tables == {} and model.version == 0
    assert model.apply(GOOD_TOPIC, GOOD, 2.0)  # and the board goes on


@settings(max_examples=300, deadline=None)
@given(
    level=st.sampled_from(["results/A/1", "tables/A/live", "tables/A/online", "results/A", "x"]),
    payload=st.one_of(
        st.binary(max_size=200),
        st.recursive(
            st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
            lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=6),
            max_leaves=20,
        ).map(lambda v: json.dumps(v).encode()),
        st.fixed_dictionaries(
            {
                "v": st.just(1),
                "kind": st.sampled_from(["result", "live", "online"]),
                "table": st.just("A"),
                "id": st.just("A/1"),
                "standings": st.lists(
                    st.dictionaries(
                        st.sampled_from(["place", "colour", "score", "money", "money_text"]),
                        st.integers() | st.text(max_size=3),
                    ),
                    max_size=3,
                ),
            }
        ).map(lambda v: json.dumps(v).encode()),
    ),
)
def test_no_message_crashes_the_board(level: str, payload: bytes) -> None:
    model = BoardModel()
    model.apply(f"{ROOT}/{level}", payload, 1.0)  # never raises
    model.rankings()
    model.live_tables()
