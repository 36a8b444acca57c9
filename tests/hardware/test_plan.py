"""``companion hardware plan`` (issue 19 §5): antennas planned from the printed board's geometry.

The emulator's coupling (``loop_field``: the field of a circular loop through the tag) is independent
of the planner's distance rules (multiples of the coil size); these tests hold one against the other,
and show on the emulated table that grouping by board adjacency ghost-reads where the plan does not.
"""

from __future__ import annotations

import json
import math
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import games
from companion.cli import main
from companion.cli.hardware import NoRfGroups, firmware_files
from companion.hardware.config import REFERENCE, RfSettings, load, parse
from companion.hardware.emulated import EmulatedTable, config_for
from companion.hardware.emulated_mfrc522 import HEAR_COUPLING, POWER_COUPLING
from companion.hardware.errors import ConfigError
from companion.hardware.loop_field import axial_field, coupling
from companion.hardware.plan import Plan, adjacency_conflicts, make_plan
from companion.hardware.plan_inputs import (
    CLOSE_FACTOR,
    POWER_FACTOR,
    STOCK,
    Position,
    antenna_kind,
    board_cities,
    board_size,
    measured_positions,
    positions,
)
from companion.hardware.plan_output import hardware_toml, template_svg, to_json
from companion.hardware.rf_groups import check_groups, colour_groups
from companion.intents import Intent, TagPlaced

BOARD = Path(__file__).parents[2] / "companion/games/on_the_way/data/on-the-way.board.toml"
REFERENCE_SIZE = (600.0, 450.0)


def reference_plan(antenna: str = "stock", size: tuple[float, float] = REFERENCE_SIZE) -> Plan:
    where = positions(board_cities(BOARD), size)
    near = games.get("on-the-way").neighbours(None)
    return make_plan(where, antenna_kind(antenna), size, leds=112, adjacency=near)


# --- the field model -----------------------------------------------------------------------------
def biot_savart_bz(radius: float, r: float, z: float, segments: int = 4000) -> float:
    """B_z of the same loop by summing dl x R / |R|³ / 4π over its segments: an independent check."""
    total = 0.0
    for i in range(segments):
        phi = 2 * math.pi * (i + 0.5) / segments
        dlx, dly = -math.sin(phi) * radius * 2 * math.pi / segments, math.cos(phi) * radius * 2 * math.pi / segments
        rx, ry, rz = r - radius * math.cos(phi), -radius * math.sin(phi), z
        total += (dlx * ry - dly * rx) / (rx * rx + ry * ry + rz * rz) ** 1.5
    return total / (4 * math.pi)


@pytest.mark.parametrize(("r", "z"), [(0.0, 3.0), (0.0, 50.0), (10.0, 3.0), (25.0, 3.0), (60.0, 5.0)])
def test_the_loop_field_matches_biot_savart(r: float, z: float) -> None:
    assert axial_field(20.0, r, z) == pytest.approx(biot_savart_bz(20.0, r, z), rel=2e-3)
    if r == 0:  # on the axis: a² / (2 (a² + z²)^{3/2}), Finkenzeller §4.1.1.1
        assert axial_field(20.0, 0.0, z) == pytest.approx(400 / (2 * (400 + z * z) ** 1.5), rel=1e-9)


@pytest.mark.parametrize("coil", [15.0, 20.0, 25.0, 40.0])
def test_the_planners_rules_cover_the_field_model(coil: float) -> None:
    """Beyond POWER_FACTOR coil sizes no neighbour powers a tag; beyond CLOSE_FACTOR none is heard."""
    for step in range(40):
        d = POWER_FACTOR * coil + step * coil / 10
        assert coupling(d, coil) < POWER_COUPLING, d
        if d >= CLOSE_FACTOR * coil:
            assert coupling(d, coil) < HEAR_COUPLING, d


def test_the_closest_reference_cities_power_each_others_tags() -> None:
    """Vienna and Bratislava are 1.6 cm apart at 60 x 45 cm: a stock antenna's field alone powers the
    neighbour's tag (coupling ≥ 1), which no grouping can fix."""
    plan = reference_plan()
    a, b, d = plan.too_close[0]
    assert {a, b} == {"Vienna", "Bratislava"} and d == pytest.approx(15.7, abs=0.1)
    assert coupling(d, STOCK.coil_mm) >= POWER_COUPLING
    assert {"Vienna", "Bratislava"} <= {r.name for r in plan.cannot_hold}


# --- the plan of the reference board -------------------------------------------------------------
def test_reference_board_positions_and_close_non_neighbours() -> None:
    """The board file's x, y are fractions of the printed map: at 60 x 45 cm, 56 pairs of cities closer
    than 8 cm are not neighbours on the board (the issue's count)."""
    where = positions(board_cities(BOARD), REFERENCE_SIZE)
    assert where["Antwerp"] == Position(0.048 * 600, 0.516 * 450, "board")
    near = games.get("on-the-way").neighbours(None)
    names = sorted(where)
    close = [
        (a, b)
        for i, a in enumerate(names)
        for b in names[i + 1 :]
        if math.dist((where[a].x_mm, where[a].y_mm), (where[b].x_mm, where[b].y_mm)) < 80 and b not in near[a]
    ]
    assert len(close) == 56


@pytest.mark.parametrize("antenna", ["stock", "mini", "coil:20", "coil:15"])
def test_plan_groups_are_rf_safe_and_respect_the_bank_cap(antenna: str) -> None:
    plan = reference_plan(antenna)
    names = sorted(plan.channels)
    assert sorted(n for g in plan.groups for n in g) == names  # every reader exactly once
    near: dict[str, set[str]] = {}
    for a, b, d in plan.close:
        assert d < plan.antenna.close_mm
        near.setdefault(a, set()).add(b)
        near.setdefault(b, set()).add(a)
    assert check_groups(plan.groups, near) == []
    banks = {r.name: r.bank for r in plan.rooms} | {"card": 44 // 8}
    for group in plan.groups:
        for bank in set(banks.values()):
            assert sum(1 for n in group if banks[n] == bank) <= plan.per_bank
    for room in plan.rooms:  # the fit check is the room against the antenna's minimum
        assert room.fits == (room.room_mm >= plan.antenna.min_room_mm)
    assert plan.sweep_ms == pytest.approx(len(plan.groups) * 6.1 + len(names) * 0.49)


def test_plan_power_budget_uses_the_datasheet_current() -> None:
    """100 mA per antenna on (MFRC522 DS §4 IDD(TVDD) max), 16.5 mA per running chip: a bank's regulator
    carries its worst group, the supply the worst group plus every chip and LED, with margin."""
    plan = reference_plan("coil:15")
    power = plan.power
    for bank, ma in power.bank_ma.items():
        on = max(sum(1 for n in g if plan.channels[n] // 8 == bank) for g in plan.groups)
        chips = sum(1 for ch in plan.channels.values() if ch // 8 == bank)
        assert ma == pytest.approx(on * 100 + chips * 16.5 + 5)
        assert power.regulator_ma[bank] >= ma * 1.25
    worst = max(len(g) for g in plan.groups) * 0.1 + 45 * 0.0165 + 6 * 0.005 + 112 * 0.003
    assert power.supply_worst_a == pytest.approx(worst)
    assert power.supply_a >= worst * 1.3


def test_adjacency_grouping_puts_close_cities_together_on_the_reference_board() -> None:
    plan = reference_plan("coil:15", (805.0, 604.0))  # printed large enough for every 15 mm coil
    assert not plan.cannot_hold
    near = games.get("on-the-way").neighbours(None)
    assert adjacency_conflicts(plan, near)  # close on the print, yet coloured together from the roads


# --- the emulated table: adjacency-only grouping fails, the geometric plan does not ---------------
def _run_table(
    cities: list[str], where: dict[str, tuple[float, float]], coil: float, tagged: dict[str, str], **config: object
) -> tuple[list[Intent], int]:
    adjacency = config.pop("adjacency")
    base = config_for(cities, card_reader=False)
    base = replace(base, rf=RfSettings(**config))  # type: ignore[arg-type]
    with EmulatedTable(config=base, adjacency=adjacency) as table:  # type: ignore[arg-type]
        table.place_antennas(where, coil)
        for city, uid in tagged.items():
            table.place_tag(city, uid, settle=False)
        table.step(10)
        return table.intents(), table.bus.rf_overlaps


def test_adjacency_only_grouping_ghost_reads_and_the_geometric_plan_does_not() -> None:
    """A road A-B-C where A and C lie 30 mm apart on the print (B far away): the board colours A and C
    together; their 15 mm coils couple (0.1 ≤ coupling < 1), so with both on, C's frames knock A's tag
    back to IDLE and the marker is never read. The plan keeps them apart: every tag is seen by its own
    reader only."""
    cities = ["A", "B", "C"]
    where_mm = {"A": (50.0, 50.0), "B": (65.0, 150.0), "C": (80.0, 50.0)}
    roads = {"A": {"B"}, "B": {"A", "C"}, "C": {"B"}}
    coil = 15.0
    assert HEAR_COUPLING <= coupling(30.0, coil) < POWER_COUPLING
    uid = "04A1B2C3D4E5F6"
    intents, overlaps = _run_table(cities, where_mm, coil, {"A": uid}, adjacency=roads)
    assert overlaps > 0 and intents != [TagPlaced("A", uid)]  # C's frames knock A's tag back: missed
    plan = make_plan({n: Position(x, y, "measured") for n, (x, y) in where_mm.items()}, antenna_kind("coil:15"),
                     (200.0, 200.0), channels={n: i for i, n in enumerate(cities)})  # fmt: skip
    assert [(a, b) for a, b, _ in plan.close] == [("A", "C")]
    groups = tuple(tuple(g) for g in plan.groups if g != ["card"])
    intents, overlaps = _run_table(
        cities, where_mm, coil, {"A": uid}, adjacency=roads, close=(("A", "C"),), groups=groups
    )
    assert overlaps == 0 and intents == [TagPlaced("A", uid)]


def test_the_reference_board_with_adjacency_groups_ghost_reads_and_the_plan_does_not() -> None:
    """The reference board at 60 x 45 cm with 25 mm coils under the 18 cities that can hold one, every
    pair coupled from its distance, a tag on each city that lies close to a non-neighbour: groups
    coloured from the board's roads put such pairs on together (a tag missed or ghost-read, coupled
    antennas on at once); the plan's groups read every tag on its own reader only."""
    near = games.get("on-the-way").neighbours(None)
    fits = {r.name for r in reference_plan("coil:25").rooms if r.fits}
    assert len(fits) == 18
    where = {n: p for n, p in positions(board_cities(BOARD), REFERENCE_SIZE).items() if n in fits}
    plan = make_plan(where, antenna_kind("coil:25"), REFERENCE_SIZE, adjacency=near)
    roads = {n: {m for m in v if m in fits} for n, v in near.items() if n in fits}
    coupled = [
        (a, b) for a, b in adjacency_conflicts(plan, roads)
        if coupling(math.dist((where[a].x_mm, where[a].y_mm), (where[b].x_mm, where[b].y_mm)), 25.0) >= HEAR_COUPLING
    ]  # fmt: skip
    assert sorted(coupled) == [("Białystok", "Lublin"), ("Iași", "Vinnytsia"), ("Linz", "Prague")]
    mm = {n: (p.x_mm, p.y_mm) for n, p in where.items()}
    cities = [r.name for r in sorted(plan.rooms, key=lambda r: r.channel)]
    tagged = {a: f"04A1B2C3D4E5{i:02X}" for i, (a, _) in enumerate(coupled)}
    intents, overlaps = _run_table(cities, mm, 25.0, tagged, adjacency=roads)
    placed = sorted((i.city, i.uid) for i in intents if isinstance(i, TagPlaced))
    assert overlaps > 0 and placed != sorted(tagged.items())
    groups = tuple(tuple(g) for g in ([n for n in g if n != "card"] for g in plan.groups) if g)
    close = tuple((a, b) for a, b, _ in plan.close)
    intents, overlaps = _run_table(cities, mm, 25.0, tagged, adjacency=roads, close=close, groups=groups)
    assert overlaps == 0
    assert sorted((i.city, i.uid) for i in intents if isinstance(i, TagPlaced)) == sorted(tagged.items())


@settings(max_examples=12, deadline=None)
@given(
    coil=st.sampled_from([15.0, 20.0, 25.0, 40.0]),
    spots=st.lists(st.tuples(st.integers(0, 9), st.integers(0, 5)), min_size=3, max_size=6, unique=True),
    stretch=st.floats(1.0, 2.5),
    tagged=st.sets(st.integers(0, 5), min_size=1, max_size=3),
)
def test_the_plan_never_ghost_reads_on_a_board_where_every_city_fits(
    coil: float, spots: list[tuple[int, int]], stretch: float, tagged: set[int]
) -> None:
    """Any small board whose cities all hold the antenna (spacing ≥ the plan's minimum), couplings from
    the field model: with the plan's groups every tag is read by its own reader only."""
    pitch = POWER_FACTOR * coil * stretch  # grid spots this far apart: every city fits
    where = {f"C{i}": Position(x * pitch, y * pitch, "measured") for i, (x, y) in enumerate(spots)}
    size = (10 * pitch, 6 * pitch)
    plan = make_plan(where, antenna_kind(f"coil:{coil:g}"), size, channels={n: i for i, n in enumerate(where)})
    assert not plan.cannot_hold
    cities = list(where)
    truth = {cities[i % len(cities)]: f"04A1B2C3D4E5{i:02X}" for i in tagged}
    groups = tuple(tuple(g) for g in ([n for n in g if n != "card"] for g in plan.groups) if g)
    close = tuple((a, b) for a, b, _ in plan.close)
    mm = {n: (p.x_mm, p.y_mm) for n, p in where.items()}
    intents, overlaps = _run_table(cities, mm, coil, truth, adjacency=None, close=close, groups=groups)
    assert overlaps == 0
    assert sorted((i.city, i.uid) for i in intents if isinstance(i, TagPlaced)) == sorted(truth.items())


# --- positions the builder measured --------------------------------------------------------------
def test_measured_positions_override_the_board_and_the_plan_says_so(tmp_path: Path) -> None:
    measured = tmp_path / "print.toml"
    measured.write_text('[positions]\n"Vienna" = [250.0, 320.0]\ncard = [620.0, 30.0]\n', encoding="utf-8")
    cities = board_cities(BOARD)
    given = measured_positions(measured, set(cities), REFERENCE_SIZE)
    where = positions(cities, REFERENCE_SIZE, given)
    assert where["Vienna"] == Position(250.0, 320.0, "measured")
    plan = make_plan(where, STOCK, REFERENCE_SIZE)
    assert plan.position_sources == {"board": 43, "measured": 1}
    assert plan.card_position == Position(620.0, 30.0, "measured")
    vienna = next(r for r in plan.rooms if r.name == "Vienna")
    assert vienna.nearest != "Bratislava" or vienna.room_mm > 15.7


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ('[positions]\n"Atlantis" = [1, 2]\n', 2, "no city 'Atlantis'"),
        ('[positions]\n"Vienna" = [900, 20]\n', 2, "outside the 600 x 450 mm board"),
        ('[positions]\n"Vienna" = [1]\n', 2, "two numbers"),
        ('[positions]\n"Vienna" = ["a", 3]\n', 2, "two numbers"),
        ('[positions]\n"Vienna" = [nan, 3]\n', 2, "two numbers"),
        ("[positons]\n", 1, "unknown table"),
    ],
)
def test_bad_measured_positions_name_file_line_and_field(tmp_path: Path, text: str, line: int, words: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        measured_positions(path, set(board_cities(BOARD)), REFERENCE_SIZE)
    assert caught.value.path == str(path) and caught.value.line == line and words in caught.value.problem


@pytest.mark.parametrize("bad", ["0x450", "600", "600x", "-5x3", "99999x10", "axb"])
def test_bad_board_sizes_are_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="board size"):
        board_size(bad)


@pytest.mark.parametrize("bad", ["huge", "coil:", "coil:2", "coil:500", "coil:-3"])
def test_bad_antenna_kinds_are_refused(bad: str) -> None:
    with pytest.raises(ValueError):
        antenna_kind(bad)


# --- what the plan writes -------------------------------------------------------------------------
def test_plan_toml_loads_and_flash_writes_its_groups(tmp_path: Path) -> None:
    box = tmp_path / "box.toml"
    shutil.copy(REFERENCE, box)
    with pytest.raises(NoRfGroups):
        firmware_files(load(box, env={}))  # no groups and no adjacency: refused, never "all on"
    args = ["hardware", "plan", "--board-size", "805x604", "--antenna", "coil:15", "--config", str(box)]
    assert main([*args, "--write-config", "--svg", str(tmp_path / "t.svg")]) == 0
    config = load(box, env={})
    assert config.rf.guard_s == pytest.approx(0.0051)  # the rest of [rf] is kept
    namespace: dict[str, object] = {}
    exec(compile(firmware_files(config)["bridge_config.py"], "bridge_config.py", "exec"), namespace)
    groups = namespace["GROUPS"]
    assert isinstance(groups, list) and sorted(ch for g in groups for ch in g) == list(range(45))
    named = [[config.readers.get(ch, "card") for ch in g] for g in groups]
    assert check_groups(named, None, config.rf.close) == []
    assert sorted(map(sorted, named)) == sorted(map(sorted, config.rf.groups))
    assert (tmp_path / "t.svg").read_text(encoding="utf-8").startswith("<?xml")


def test_plan_json_and_template(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hardware", "plan", "--board-size", "600x450", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["board_size_mm"] == [600.0, 450.0] and data["positions"] == {"board": 44}
    assert "Vienna" in data["cannot_hold"] and data["fit_by_kind"]["stock"] == data["cannot_hold"]
    assert data["group_count"] == len(data["groups"]) and data["sweep_ms"] > data["group_count"] * 5.1
    assert data["power"]["antenna_ma_max"] == 100.0 and data["power"]["supply_a"] >= data["power"]["supply_worst_a"]
    assert parse(data["hardware_toml"], "plan.toml", env={}).rf.groups
    plan = reference_plan()
    svg = template_svg(plan)
    assert 'width="640mm" height="490mm" viewBox="-20 -20 640 490"' in svg  # 1 user unit = 1 mm
    assert svg.count("<circle") == 44 and 'r="20"' in svg
    assert to_json(plan)["hardware_toml"] == hardware_toml(plan)


def test_plan_refuses_bad_input_with_a_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hardware", "plan", "--board-size", "0x450"]) == 2
    assert "board size" in capsys.readouterr().err
    missing = tmp_path / "box.toml"
    missing.write_text('[readers]\n0 = "Vienna"\n', encoding="utf-8")
    assert main(["hardware", "plan", "--board-size", "600x450", "--config", str(missing)]) == 2
    assert "no reader for" in capsys.readouterr().err


def test_flash_without_groups_is_refused_or_one_at_a_time(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = load(REFERENCE, env={})
    out = tmp_path / "fw"
    assert main(["hardware", "flash", "--config", str(REFERENCE), "--dry-run", "--output", str(out)]) == 2
    assert "Refused" in capsys.readouterr().err and not (out / "bridge_config.py").exists()
    files = firmware_files(config, one_at_a_time=True)
    namespace: dict[str, object] = {}
    exec(compile(files["bridge_config.py"], "bridge_config.py", "exec"), namespace)
    assert namespace["GROUPS"] == [[ch] for ch in range(45)]
    unsafe = replace(config, rf=RfSettings(rf_safe=False))
    exec(compile(firmware_files(unsafe)["bridge_config.py"], "bridge_config.py", "exec"), namespace)
    assert namespace["GROUPS"] == [[ch] for ch in range(45)]  # rf_safe = false no longer means "all on"


# --- [rf] groups in the hardware file ------------------------------------------------------------
@pytest.mark.parametrize(
    ("groups", "words"),
    [
        ('[["A"], ["B"]]', "readers in no group"),
        ('[["A", "B", "C"], ["A"]]', "group 1 and group 2"),
        ('[["A", "C"], ["B"]]', "are close"),
        ('[["A", "Zzz"], ["B", "C"]]', "has no reader"),
        ("[[1, 2]]", "list of reader names"),
    ],
)
def test_rf_groups_in_the_file_are_checked(groups: str, words: str) -> None:
    text = f'[readers]\n0 = "A"\n1 = "B"\n2 = "C"\n[rf]\nclose = [["A", "C"]]\ngroups = {groups}\n'
    with pytest.raises(ConfigError) as caught:
        parse(text, "box.toml", env={})
    assert caught.value.field == "[rf] groups" and caught.value.line == 7 and words in caught.value.problem


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 11), st.integers(0, 11)), max_size=30),
    st.integers(1, 4),
    st.integers(2, 6),
    st.integers(0, 6),
)
def test_colouring_respects_closeness_and_the_caps(
    edges: list[tuple[int, int]], per_bank: int, bank: int, max_on: int
) -> None:
    names = [f"R{i}" for i in range(12)]
    near: dict[str, set[str]] = {}
    for a, b in edges:
        near.setdefault(f"R{a}", set()).add(f"R{b}")
    bank_of = {n: i // bank for i, n in enumerate(names)}
    groups = colour_groups(names, near, (), bank_of, per_bank, max_on)
    assert sorted(n for g in groups for n in g) == sorted(names)
    assert check_groups(groups, near) == []
    for group in groups:
        assert max_on == 0 or len(group) <= max_on
        for b in set(bank_of.values()):
            assert sum(1 for n in group if bank_of[n] == b) <= per_bank


def test_planned_groups_are_used_as_written_and_adjacency_only_without_them() -> None:
    """The plan's groups come from the distances on the print, what crosstalk follows: the board's
    neighbours (a stand-in for distance) do not change them; without a plan they colour the readers."""
    from companion.hardware.spi_readers import rf_scan_groups

    text = '[readers]\n0 = "A"\n1 = "B"\n2 = "C"\n[rf]\nclose = [["A", "C"]]\n'
    planned = parse(text + 'groups = [["A", "B"], ["C"]]\n', "box.toml", env={})
    assert rf_scan_groups(planned) == rf_scan_groups(planned, {"A": {"B"}, "B": {"A"}}) == [[0, 1], [2]]
    unplanned = parse(text, "box.toml", env={})
    groups = rf_scan_groups(unplanned, {"A": {"B"}, "B": {"A"}})
    assert groups is not None and sorted(ch for g in groups for ch in g) == [0, 1, 2]
    assert all(not ({0, 1} <= set(g) or {0, 2} <= set(g)) for g in groups)


def test_write_config_makes_a_new_file_that_loads(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "new.toml"
    args = ["hardware", "plan", "--board-size", "805x604", "--antenna", "coil:15"]
    assert main([*args, "--write-config", str(target)]) == 0
    config = load(target, env={})
    assert len(config.readers) == 44 and config.card_channel == 44 and config.rf.groups
    capsys.readouterr()
    assert main([*args, "--write-config"]) == 2  # no file and no --config: nothing written anywhere
    assert "--write-config needs a file" in capsys.readouterr().err


def test_plan_reads_a_digitised_data_set(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--dataset``: the board of a data set digitised on this box, not the reference board."""
    from companion.setup_box.datasets import DataSets

    data = BOARD.parent
    texts = {p.name: p.read_text(encoding="utf-8") for p in data.glob("on-the-way.*.toml")}
    board = texts["on-the-way.board.toml"]
    vienna = board.index('name = "Vienna"')
    texts["on-the-way.board.toml"] = board[:vienna] + board[vienna:].replace("x = 0.461", "x = 0.300", 1)
    assert texts["on-the-way.board.toml"] != board
    DataSets(tmp_path).save("on-the-way", "my print", texts)
    args = ["hardware", "plan", "--board-size", "600x450", "--state-dir", str(tmp_path), "--json"]
    assert main([*args, "--dataset", "my print"]) == 0
    cities = {c["name"]: c for c in json.loads(capsys.readouterr().out)["cities"]}
    assert cities["Vienna"]["x_mm"] == pytest.approx(180.0)


@pytest.mark.parametrize(
    ("text", "line", "field"),
    [
        ('[[cities]]\nname = "A"\nx = 0.5\ny = 0.5\n\n[[cities]]\nname = "B"\nx = 1.5\ny = 0.2\n', 8, "[[cities]] B x"),
        ('[[cities]]\nname = "A"\nx = 0.5\ny = 0.5\n[[cities]]\nname = "A"\nx = 0.1\ny = 0.2\n', 5, "[[cities]] A"),
        ("[[cities]]\nx = 0.5\ny = 0.5\n", 1, "[[cities]] #1 name"),
        ("[board]\nname = 'x'\n", None, "[[cities]]"),
        ("[[cities]\n", 1, "TOML syntax"),
    ],
)
def test_bad_board_files_name_file_line_and_field(tmp_path: Path, text: str, line: int | None, field: str) -> None:
    path = tmp_path / "board.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        board_cities(path)
    assert (caught.value.path, caught.value.line, caught.value.field) == (str(path), line, field)


def test_write_config_into_an_existing_file_keeps_its_readers(tmp_path: Path) -> None:
    """``--write-config box.toml`` without ``--config``: the plan uses that file's channels and rewrites
    only ``[rf]``; a calibrated ``[readers]`` is never replaced by the plan's own numbering."""
    box = tmp_path / "box.toml"
    text = REFERENCE.read_text(encoding="utf-8")
    before = load(REFERENCE, env={}).readers
    swapped = text.replace(f'0 = "{before[0]}"', '0 = "SWAP"').replace(f'1 = "{before[1]}"', f'1 = "{before[0]}"')
    box.write_text(swapped.replace('0 = "SWAP"', f'0 = "{before[1]}"'), encoding="utf-8")
    readers = load(box, env={}).readers
    assert readers[0] == before[1] and readers[1] == before[0]
    args = ["hardware", "plan", "--board-size", "805x604", "--antenna", "coil:15"]
    assert main([*args, "--write-config", str(box)]) == 0
    config = load(box, env={})
    assert config.readers == readers and config.rf.groups
