"""The traced roads' distances (OTW-12 in roads, Auf Achse in steps) against Floyd–Warshall, an
independent all-pairs algorithm; and the wizard's layout, remembered, equals a fresh one."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.digitise.graph import road_distance, step_distance
from companion.games.digitise.model import RoadEntry
from companion.setup_box import layout

CITIES = [f"c{i}" for i in range(7)]


def floyd_warshall(roads: list[RoadEntry], by_steps: bool) -> dict[tuple[str, str], float]:
    inf = float("inf")
    d = {(a, b): (0.0 if a == b else inf) for a in CITIES for b in CITIES}
    for r in roads:
        w = float((r.spaces or 0) + 1 if by_steps else 1)
        d[r.a, r.b] = d[r.b, r.a] = min(d[r.a, r.b], w)
    for k in CITIES:
        for a in CITIES:
            for b in CITIES:
                d[a, b] = min(d[a, b], d[a, k] + d[k, b])
    return d


roads_strategy = st.lists(
    st.builds(RoadEntry, st.sampled_from(CITIES), st.sampled_from(CITIES), st.integers(0, 5) | st.none()),
    max_size=14,
)


@settings(max_examples=60, deadline=None)
@given(roads_strategy, roads_strategy)
def test_distances_match_an_independent_all_pairs_reference(first: list[RoadEntry], second: list[RoadEntry]) -> None:
    # Two different road sets asked about in turn: the remembered distances of one never answer for
    # the other, and a list (not a tuple) is answered as well.
    for roads in (tuple(first), tuple(second), tuple(first), list(second)):
        for by_steps, distance in ((False, road_distance), (True, step_distance)):
            reference = floyd_warshall(list(roads), by_steps)
            for a in CITIES:
                for b in CITIES:
                    want = reference[a, b]
                    got = distance(roads, a, b)
                    assert got == (None if want == float("inf") else int(want)), (a, b, by_steps, roads)


def test_a_remembered_layout_is_the_fresh_one_and_a_private_copy() -> None:
    cities = [f"c{i}" for i in range(12)]
    roads = [(cities[i], cities[(i * 5 + 1) % 12]) for i in range(12)]
    first = layout.stress_layout(cities, roads, {"c3": (0.2, 0.8)})
    first["c0"] = (9.0, 9.0)  # the caller's dict is its own
    again = layout.stress_layout(cities, iter(roads), {"c3": (0.2, 0.8)})
    fresh = layout._layout.__wrapped__(tuple(cities), tuple(roads), (("c3", (0.2, 0.8)),), 120)
    assert again == fresh and again["c0"] != (9.0, 9.0)
    assert again["c3"] == (0.2, 0.8)
    assert layout.stress_layout(cities, roads) != again  # another pin is another layout
