"""The told chance (issue 22, "Calibrated"): the playouts' win rate mapped to whole games against the
table's opponents (companion/games/calibration.py; each game's maps in bots/chances.py, fitted by
benchmarks/calibrate.py)."""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from companion.games import calibration as cal
from companion.games.calibration import Logistic, chance, rivals, sigmoid
from companion.games.on_the_way.bots import advise, chances
from companion.games.on_the_way.engine.state import initial_state
from tests.benchmark_module import load_benchmark
from tests.bots.helpers import config_for, laid_out

KINDS = ("easy", "medium", "hard", "casual", cal.PERSON)


def _calibrate_benchmark() -> Any:
    return load_benchmark("calibrate")


Row = _calibrate_benchmark().AdviceRow  # players, opponent kind, win rate, playouts, score[, game, elapsed]


def _drawn(truth: dict[str, Logistic], games: int, seed: int, rates: list[float] | None = None) -> list[Any]:
    """Advices whose outcomes are drawn from known maps (``truth`` per opponent kind), on win rates of
    200 playouts: what the fitter must find, told nothing but the draws."""
    rng = random.Random(seed)
    out = []
    for kind, m in truth.items():
        for _ in range(games):
            rate = rng.choice(rates) if rates else rng.randrange(201) / 200
            won = rng.random() < sigmoid(m.logit(cal.smoothed(rate, 200)))
            out.append(Row(2, kind, rate, 200, 1.0 if won else 0.0))
    return out


@pytest.mark.parametrize(("a", "b"), [(1.4, 1.8), (-0.3, 0.7), (0.0, 1.0)])
def test_the_fit_finds_the_map_that_made_the_outcomes(a: float, b: float) -> None:
    found = _calibrate_benchmark().fit(_drawn({"easy": Logistic(a, b)}, 6000, seed=int(10 * a + b)))
    assert abs(found.a - a) < 0.2 and abs(found.b - b) < 0.2, found


def test_a_shared_slope_fit_finds_each_opponents_offset() -> None:
    # Two kinds of opponent drawn from maps with one slope and their own offsets: the joint fit
    # (calibrate.py --shared-slope) finds both offsets and the slope.
    truth = {"easy": Logistic(2.0, 1.3), "medium": Logistic(-0.5, 1.3)}
    found = _calibrate_benchmark().fit_kinds(_drawn(truth, 5000, seed=11))
    for kind, m in truth.items():
        assert abs(found[kind].a - m.a) < 0.25 and abs(found[kind].b - m.b) < 0.15, found


def test_the_fit_converges_where_nearly_every_game_is_won_from_extreme_win_rates() -> None:
    # A follower against easy often wins from a win rate near 0: Newton's full step overshot to maps
    # like a = 900, b = 31 500 (review). The damped fit stays near the truth.
    truth = Logistic(2.8, 0.55)
    found = _calibrate_benchmark().fit(_drawn({"easy": truth}, 3000, seed=5, rates=[0, 0.005, 0.01, 0.5, 0.9, 1.0]))
    assert abs(found.a - truth.a) < 0.4 and abs(found.b - truth.b) < 0.15, found


def test_the_fit_of_a_player_who_always_wins_stays_finite() -> None:
    found = _calibrate_benchmark().fit([Row(2, "easy", r / 10, 100, 1.0) for r in range(11)])
    told = chance(0.5, 100, ["easy"], {(2, "easy"): found})
    assert math.isfinite(found.a) and math.isfinite(found.b) and told is not None and told > 0.9


def test_a_fit_never_lets_the_chance_fall_as_the_win_rate_rises() -> None:
    # Outcomes that fall with the win rate (noise in a small run): the map is flat at the share won.
    advices = [Row(2, "medium", r / 20, 100, 1.0 if r < 10 else 0.0) for r in range(21)] * 5
    found = _calibrate_benchmark().fit(advices)
    assert found.b == 0.0
    told = [chance(r / 10, 100, ["medium"], {(2, "medium"): found}) for r in range(11)]
    assert all(t is not None and abs(t - 50.5 / 106) < 0.001 for t in told), told


def test_a_malformed_pairs_line_names_its_file_and_line(tmp_path: Path) -> None:
    pairs = tmp_path / "pairs.jsonl"
    good = {"kind": "advice", "seed": 1, "scale": 1.0, "game": 0, "pairing": 0, "players": 2, "chance": 0.4}
    good |= {"playouts": 90, "score": 1.0, "finished": True}
    pairs.write_text(json.dumps(good) + "\n" + json.dumps({**good, "chance": "high"}) + "\n", encoding="utf-8")
    with pytest.raises(SystemExit, match=r"pairs.jsonl:2: not an advice line"):
        _calibrate_benchmark().read([pairs])


def test_a_check_on_games_without_a_fitted_map_reports_the_win_rate() -> None:
    # Fitted on 2 players, checked on 3: no map there, the told chance is the win rate (no crash).
    lines = _calibrate_benchmark().check([Row(3, "easy", 0.4, 100, 1.0)] * 60, {(2, "easy"): Logistic(1.0, 1.0)})
    assert any(line.startswith("3 players vs easy, chance: predicted 40.0 %") for line in lines), lines


# Maps of every slope the fits can give (flat ones too): a chance needs a map for each opponent.
SAMPLE = {(n, kind): Logistic(0.5 * n - kind.count("a"), (0.0, 0.6, 1.9)[n - 2]) for n in (2, 3, 4) for kind in KINDS}


@given(
    rate=st.floats(0.0, 1.0),
    more=st.floats(0.0, 1.0),
    playouts=st.integers(0, 5000),
    kinds=st.lists(st.sampled_from(KINDS), min_size=1, max_size=3),
    shipped=st.booleans(),
    elapsed=st.floats(0.0, 1.0),
)
def test_the_chance_is_a_probability_that_never_falls_as_the_win_rate_rises(
    rate: float, more: float, playouts: int, kinds: list[str], shipped: bool, elapsed: float
) -> None:
    maps = {**SAMPLE, **chances.MAPS} if shipped else SAMPLE
    low, high = sorted((rate, more))
    told_low = chance(low, playouts, kinds, maps, elapsed)
    told_high = chance(high, playouts, kinds, maps, elapsed)
    assert told_low is not None and told_high is not None
    assert 0.0 <= told_low <= told_high <= 1.0


@given(rate=st.floats(0.0, 1.0), playouts=st.integers(0, 5000))
def test_without_a_map_there_is_no_chance_to_tell(rate: float, playouts: int) -> None:
    maps = {(2, "easy"): Logistic(1.0, 2.0)}
    assert chance(rate, playouts, ["medium"], maps) is None  # no map for this kind
    assert chance(rate, playouts, ["easy", "easy"], maps) is None  # no 3-player map
    assert chance(rate, playouts, [], maps) is None
    assert chance(rate, playouts, ["easy"], maps) is not None


def test_the_rivals_are_the_other_seats_a_bot_by_its_level_a_person_otherwise() -> None:
    seats = ("red", "blue", "green", "yellow")
    assert rivals(seats, "blue", {"red": "easy", "blue": "hard"}) == ["easy", cal.PERSON, cal.PERSON]
    assert rivals(seats[:2], "red", None) == [cal.PERSON]
    # Several opponents: their maps averaged on the logit scale, between each alone.
    maps = {(3, "casual"): Logistic(1.0, 1.5), (3, "easy"): Logistic(2.0, 1.5)}
    mixed = chance(0.4, 100, ["easy", "casual"], maps)
    alone = [chance(0.4, 100, [kind, kind], maps) for kind in ("casual", "easy")]
    assert mixed is not None and alone[0] is not None and alone[1] is not None and alone[0] < mixed < alone[1]


def test_a_person_is_told_the_chance_against_hard_the_win_rates_own_model() -> None:
    # calibration.py: a person counts as the level about as strong as the advice, in On The Way hard
    # (the follower beats medium 83 % of 2-player games, hard 50 %), whose decisions are the advisor's
    # own: the playouts' model, the identity (unless a map is fitted for hard).
    for players in (2, 3, 4):
        assert chances.MAPS[players, cal.PERSON] == chances.MAPS[players, "hard"]
    told = chance(0.3, 400, [cal.PERSON], chances.MAPS)
    assert told is not None and abs(told - cal.smoothed(0.3, 400)) < 1e-9


@given(st.floats(0.0, 1.0), st.integers(0, 2000))
def test_two_people_are_never_both_told_they_are_the_favourite(rate: float, playouts: int) -> None:
    # The same position seen from both seats of a 2-person game: the playouts give one seat the rate
    # and the other its complement, and the chances told must not add up to more than one (a person
    # counted as medium was told ~80 % at the opening, his opponent the same).
    mine = chance(rate, playouts, [cal.PERSON], chances.MAPS)
    theirs = chance(1.0 - rate, playouts, [cal.PERSON], chances.MAPS)
    assert mine is not None and theirs is not None and mine + theirs <= 1.0 + 1e-9


def test_the_shipped_maps_rank_the_opponents_as_their_games_did() -> None:
    # Fitted on whole games (docs/bots.md): at the same win rate of its playouts the follower beat easy
    # and the casual baseline more often than medium, in every phase of the game (counted by game, also
    # from low win rates: chances.py). A fit that lost that order would be noise: the seventeenth
    # session's first two-player fit by phase did, at low win rates, until one slope per phase. Checked
    # over the win rates most advices have (20-80 %) and below.
    maps = chances.FITTED
    assert (2, "easy") in maps and (2, "medium") in maps and (2, "casual") in maps
    for players in (2, 3, 4):
        kinds = {kind for (n, kind) in maps if n == players}
        for weaker in sorted(kinds & {"easy", "casual"}):
            if "medium" not in kinds:
                continue
            for rate, elapsed in itertools.product((0.05, 0.2, 0.4, 0.6, 0.8), (0.0, 0.3, 0.5, 0.7, 0.99)):
                weak = chance(rate, 200, [weaker] * (players - 1), maps, elapsed)
                medium = chance(rate, 200, ["medium"] * (players - 1), maps, elapsed)
                assert weak is not None and medium is not None and weak > medium, (players, weaker, rate, elapsed)


def test_every_table_of_two_to_four_players_is_told_a_chance() -> None:
    # Maps fitted for 2, 3 and 4 players (chances.py, docs/bots.md): whoever sits at the table (bot
    # levels, people), the advice tells a chance, not the playouts' win rate.
    from itertools import combinations_with_replacement

    for players in (2, 3, 4):
        for seated in combinations_with_replacement(("easy", "medium", "hard", cal.PERSON), players - 1):
            for elapsed in (0.0, 0.6):  # early and late in the game (two-player maps are by phase)
                assert chance(0.4, 200, list(seated), chances.MAPS, elapsed) is not None, (players, seated)
    state = laid_out(initial_state(config_for(3)), "B01", "B02", "B03", "B04")  # OTW-9: 4 face up
    pick = advise(state, "red", budget_s=0.05, seed=4, opponents={"blue": "easy"})[0]  # green: a person
    both = [chance(pick.win_rate, pick.playouts, [kind, kind], chances.MAPS) for kind in ("hard", "easy")]
    assert pick.chance is not None and both[0] is not None and both[1] is not None
    assert both[0] < pick.chance < both[1]  # a person counts as hard, the bot as easy: in between


def test_the_opponents_set_the_picks_chance_never_the_advice(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chances, "MAPS", {(2, "easy"): Logistic(2.0, 1.0), (2, "medium"): Logistic(-1.0, 1.0)})
    state = laid_out(initial_state(config_for(2)), "B01", "B02", "B03")
    against_easy = advise(state, "red", budget_s=0.05, seed=4, opponents={"blue": "easy"})
    against_medium = advise(state, "red", budget_s=0.05, seed=4, opponents={"blue": "medium"})
    assert [a.command for a in against_easy] == [a.command for a in against_medium]
    assert [a.win_rate for a in against_easy] == [a.win_rate for a in against_medium]
    easy, medium = against_easy[0], against_medium[0]
    assert easy.chance is not None and medium.chance is not None and easy.chance > medium.chance
    assert easy.told_chance == easy.chance and easy.to_json()["chance"] == round(easy.chance, 3)
    # The others are ranking means, not what the maps were fitted on: no chance, the JSON leaves it out.
    assert all(a.chance is None and "chance" not in a.to_json() for a in (*against_easy[1:], *against_medium[1:]))
    against_people = advise(state, "red", budget_s=0.05, seed=4)  # a person: no map for one here
    assert all(a.chance is None and a.told_chance == a.win_rate for a in against_people)


def test_a_pairs_file_that_cannot_be_read_is_named(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match=r"missing.jsonl: cannot read it"):
        _calibrate_benchmark().read([tmp_path / "missing.jsonl"])
    (tmp_path / "list.jsonl").write_text("[1, 2]\n", encoding="utf-8")
    with pytest.raises(SystemExit, match=r"list.jsonl:1: not an advice line"):
        _calibrate_benchmark().read([tmp_path / "list.jsonl"])


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=8,
)
ADVICE_KEYS = ("kind", "seed", "scale", "game", "pairing", "players", "chance", "playouts", "score", "finished")
GOOD = {"kind": "advice", "seed": 1, "scale": 1.0, "game": 0, "pairing": 0, "players": 2, "chance": 0.4}
GOOD |= {"playouts": 90, "score": 1.0, "finished": True}


@example(rows=[{**GOOD, "players": math.inf}])  # json writes Infinity: int() overflows
@example(rows=[{**GOOD, "chance": 1e308 * 10}])
@given(
    rows=st.lists(
        st.one_of(JSON, st.fixed_dictionaries({k: JSON for k in ADVICE_KEYS}).map(lambda d: {**d, "kind": "advice"})),
        max_size=5,
    )
)
def test_any_json_line_is_read_or_named_with_its_line(rows: list[object]) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        pairs = Path(tmp) / "pairs.jsonl"
        pairs.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
        try:
            read = _calibrate_benchmark().read([pairs])
        except SystemExit as refusal:
            assert re.match(r".*pairs\.jsonl:\d+: not an advice line", str(refusal))
        else:
            assert all(2 <= r.players <= 4 and 0 <= r.rate <= 1 and r.playouts >= 0 and 0 <= r.score <= 1 for r in read)


def test_a_game_weighs_as_one_however_many_advices_it_had() -> None:
    # Advices of one game share its outcome: a fit that counted them one by one would let one long
    # game outweigh many short ones. Game "long" (40 advices, lost) against ten games of 1 advice (won).
    fit = _calibrate_benchmark().fit
    rows = [Row(2, "easy", 0.5, 100, 0.0, "long")] * 40 + [Row(2, "easy", 0.5, 100, 1.0, f"g{i}") for i in range(10)]
    told = chance(0.5, 100, ["easy"], {(2, "easy"): fit(rows)})
    assert told is not None and told > 0.75  # 10 of 11 games won, not 10 of 50 advices
    unweighted = [r._replace(game="") for r in rows]
    told = chance(0.5, 100, ["easy"], {(2, "easy"): fit(unweighted)})
    assert told is not None and told < 0.3  # counted one by one: 10 of 50


def test_a_deciles_interval_is_as_wide_as_its_games_not_its_advices() -> None:
    # The share won in a decile, its games drawn again: one game is one outcome however many advices it
    # had (a decile of 70 advices from 6 games is as sure as 6 games); the interval holds the share won.
    calibrate = _calibrate_benchmark()
    ten = [(f"g{i}", 1.0 if i < 5 else 0.0) for i in range(10)]
    low, high = calibrate.games_resampled(ten)
    assert low < 0.3 and high > 0.7  # 5 of 10 games: far from sure
    assert calibrate.games_resampled([g for g in ten for _ in range(20)]) == (low, high)  # 200 advices: no surer
    lost = calibrate.games_resampled([("long", 0.0)] * 70)
    assert lost == (0.0, 0.0)  # one game, lost: all its draws lost
    hundred = [(f"g{i}", 1.0 if i < 50 else 0.0) for i in range(100)]
    low100, high100 = calibrate.games_resampled(hundred)
    assert low < low100 < 0.5 < high100 < high  # more games: narrower
    lines = calibrate.check([Row(2, "easy", 0.5, 100, score, game) for game, score in ten], {})
    assert any("chance decile 50-60 %, games resampled: won" in line and "inside" in line for line in lines), lines


def test_the_advices_of_one_game_are_one_game_and_no_other(tmp_path: Path) -> None:
    # The fit weighs each game as one by the game each advice names: the same game of the same run
    # shares it; another game, pairing, seed, player count, budget scale or file does not.
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    others: list[dict[str, object]] = [{"game": 1}, {"pairing": 1}, {"seed": 2}, {"players": 3}, {"scale": 0.5}]
    first.write_text("".join(json.dumps({**GOOD, **o}) + "\n" for o in [{}, {}, *others]), encoding="utf-8")
    second.write_text(json.dumps(GOOD) + "\n", encoding="utf-8")
    rows = _calibrate_benchmark().read([first, second])
    assert len(rows) == 8 and rows[0].game == rows[1].game
    assert len({r.game for r in rows}) == 7


def test_a_stand_in_plays_as_its_fitted_kind_and_the_identity_never_hides_a_fit() -> None:
    fitted = {(2, "medium"): Logistic(0.7, 1.1), (3, "medium"): Logistic(0.2, 0.9), (2, "hard"): Logistic(0.1, 1.2)}
    maps = cal.with_stand_ins(fitted, {cal.PERSON: "medium"}, identity=("hard",))
    assert maps[2, cal.PERSON] == fitted[2, "medium"] and maps[3, cal.PERSON] == fitted[3, "medium"]
    assert (4, cal.PERSON) not in maps  # no medium fit for 4 players: no stand-in either
    assert maps[2, "hard"] == fitted[2, "hard"] and maps[3, "hard"] == maps[4, "hard"] == cal.IDENTITY
    assert {k: m for k, m in maps.items() if k in fitted} == fitted
    # a stand-in for a kind that is the identity where unfitted takes its map at every player count
    as_hard = cal.with_stand_ins(fitted, {cal.PERSON: "hard"}, identity=("hard",))
    assert as_hard[2, cal.PERSON] == fitted[2, "hard"]
    assert as_hard[3, cal.PERSON] == as_hard[4, cal.PERSON] == cal.IDENTITY


def test_a_map_by_phase_reads_the_line_of_the_games_phase() -> None:
    early, late = Logistic(2.0, 1.0), Logistic(-1.0, 0.5)
    m = cal.ByPhase((0.5,), (early, late))
    maps = {(2, "medium"): m}
    assert m.line(0.0) == early and m.line(0.49) == early and m.line(0.5) == late and m.line(1.3) == late
    assert chance(0.5, 10**6, ["medium"], maps, elapsed=0.1) == pytest.approx(sigmoid(2.0), abs=1e-3)
    assert chance(0.5, 10**6, ["medium"], maps, elapsed=0.9) == pytest.approx(sigmoid(-1.0), abs=1e-3)
    # A one-line map tells the same at every phase.
    plain = {(2, "medium"): early}
    assert chance(0.3, 100, ["medium"], plain, 0.0) == chance(0.3, 100, ["medium"], plain, 1.0)


@pytest.mark.parametrize(("cuts", "lines"), [((0.5,), 1), ((0.6, 0.3), 3), ((0.5, 0.5), 3), ((), 2)])
def test_a_map_by_phase_refuses_cuts_that_do_not_split_the_game(cuts: tuple[float, ...], lines: int) -> None:
    with pytest.raises(ValueError, match="rising cuts and one line more"):
        cal.ByPhase(cuts, (Logistic(0.0, 1.0),) * lines)


@given(
    rate=st.floats(0.0, 1.0),
    more=st.floats(0.0, 1.0),
    elapsed=st.floats(-1.0, 2.0),
    playouts=st.integers(0, 5000),
)
def test_a_map_by_phase_is_a_probability_that_never_falls_as_the_win_rate_rises(
    rate: float, more: float, elapsed: float, playouts: int
) -> None:
    maps = {(2, "medium"): cal.ByPhase((0.3, 0.7), (Logistic(1.4, 0.7), Logistic(0.5, 0.8), Logistic(-2.0, 0.0)))}
    low, high = sorted((rate, more))
    told_low = chance(low, playouts, ["medium"], maps, elapsed)
    told_high = chance(high, playouts, ["medium"], maps, elapsed)
    assert told_low is not None and told_high is not None
    assert 0.0 <= told_low <= told_high <= 1.0


def test_the_fit_by_phase_finds_each_phases_line() -> None:
    # Outcomes drawn from a different line early and late (the two-player shape, docs/bots.md): the fit
    # with --phases 2 finds both; one line for the whole game cannot.
    truth = cal.ByPhase((0.5,), (Logistic(1.5, 0.7), Logistic(0.0, 1.4)))
    rng = random.Random(7)
    advices = []
    for game in range(8000):
        rate, elapsed = rng.randrange(201) / 200, rng.random()
        won = rng.random() < sigmoid(truth.logit(cal.smoothed(rate, 200), elapsed))
        advices.append(Row(2, "medium", rate, 200, 1.0 if won else 0.0, f"g{game}", elapsed))
    calibrate = _calibrate_benchmark()
    (found, n, games) = calibrate.fit_all(advices, phases=2)[2, "medium"]
    assert isinstance(found, cal.ByPhase) and found.cuts == (0.5,) and (n, games) == (8000, 8000)
    for got, want in zip(found.lines, truth.lines, strict=True):
        assert abs(got.a - want.a) < 0.25 and abs(got.b - want.b) < 0.2, found
    (whole, *_) = calibrate.fit_all(advices)[2, "medium"]
    assert isinstance(whole, Logistic)
    early = [a for a in advices if a.elapsed < 0.5]
    assert calibrate.brier_of(early, {(2, "medium"): found}) < calibrate.brier_of(early, {(2, "medium"): whole})


def test_a_fit_by_phase_needs_the_time_of_every_advice() -> None:
    advices = [Row(2, "easy", 0.5, 100, 1.0, "seed 1 game 0", None)] * 3
    with pytest.raises(SystemExit, match=r"seed 1 game 0: an advice without \"time\""):
        _calibrate_benchmark().fit_all(advices, phases=2)


def test_a_pairs_line_tells_how_much_of_the_game_was_gone(tmp_path: Path) -> None:
    line = {
        "kind": "advice", "seed": 1, "scale": 1.0, "pairing": 1, "game": 0, "advice": 3, "players": 2,
        "chance": 0.5, "told": 0.9, "playouts": 20, "round": 9, "score": 1.0, "finished": True, "capped": False,
    }  # fmt: skip
    path = tmp_path / "p.jsonl"
    path.write_text("\n".join(json.dumps(line | extra) for extra in ({"time": 7}, {"time": 20}, {})), encoding="utf-8")
    assert [a.elapsed for a in _calibrate_benchmark().read([path])] == [0.5, 1.0, None]  # 2 players: OTW-31's 14
    # A short game (--end-at 2, a quick run) ends its time track at 2: 1 is half of it.
    path.write_text(json.dumps(line | {"time": 1, "time_end": 2}), encoding="utf-8")
    assert [a.elapsed for a in _calibrate_benchmark().read([path])] == [0.5]
    for bad in ({"time": -1}, {"time": 3, "time_end": 0}, {"time": "late"}):  # named, never read as a default
        path.write_text(json.dumps(line | bad), encoding="utf-8")
        with pytest.raises(SystemExit, match=r"p.jsonl:1: not an advice line"):
            _calibrate_benchmark().read([path])


def test_an_advice_on_a_cut_is_fitted_in_the_phase_whose_line_tells_it() -> None:
    # 7 of 14 on the time track is exactly half the game: the fit must put it in the phase the table
    # reads it from (calibration.phase_index), or that phase's line is fitted on the wrong advices.
    rates = [r / 10 for r in range(1, 10)]
    advices = [Row(2, "easy", r, 100, 0.0, f"early {i}", 0.0) for i, r in enumerate(rates * 20)]
    advices += [Row(2, "easy", r, 100, 1.0, f"on the cut {i}", 0.5) for i, r in enumerate(rates * 20)]
    (found, *_) = _calibrate_benchmark().fit_all(advices, phases=2)[2, "easy"]
    maps = {(2, "easy"): found}
    on_cut, early = chance(0.5, 100, ["easy"], maps, 0.5), chance(0.5, 100, ["easy"], maps, 0.0)
    assert on_cut is not None and early is not None and on_cut > 0.9 and early < 0.1, found


def test_a_map_by_phase_refuses_to_check_an_advice_without_time() -> None:
    maps = {(2, "easy"): cal.ByPhase((0.5,), (Logistic(1.0, 1.0), Logistic(-1.0, 1.0)))}
    with pytest.raises(SystemExit, match=r"old file game 3: an advice without \"time\""):
        _calibrate_benchmark().check([Row(2, "easy", 0.4, 100, 1.0, "old file game 3", None)], maps)


def test_the_advisor_tells_the_chance_of_the_games_phase(monkeypatch: pytest.MonkeyPatch) -> None:
    # One position with the time track early or late (OTW-28): the chance is read from the phase's line
    # (flat lines, so the playouts' win rate does not matter).
    flat = cal.ByPhase((0.5,), (Logistic(2.0, 0.0), Logistic(-2.0, 0.0)))
    monkeypatch.setattr(chances, "MAPS", {(2, "easy"): flat})
    state = laid_out(initial_state(config_for(2)), "B01", "B02", "B03")
    early = advise(state, "red", budget_s=0.05, seed=4, opponents={"blue": "easy"})
    late = advise(dataclasses.replace(state, time=10), "red", budget_s=0.05, seed=4, opponents={"blue": "easy"})
    assert early[0].chance == pytest.approx(sigmoid(2.0)) and late[0].chance == pytest.approx(sigmoid(-2.0))
    # A short game (--end-at 4, OTW-31): 3 on its time track is late in it, though early in a full game.
    short = laid_out(initial_state(config_for(2, end_at=4)), "B01", "B02", "B03")
    near_end = advise(dataclasses.replace(short, time=3), "red", budget_s=0.05, seed=4, opponents={"blue": "easy"})
    assert near_end[0].chance == pytest.approx(sigmoid(-2.0))
