"""RF-safe grouped scanning (issue #10, §2): coupled antennas ghost-read with the old always-on sweep,
never with the grouped one."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.hardware.config import RfSettings, parse
from companion.hardware.emulated import EmulatedTable, config_for
from companion.hardware.emulated_mfrc522 import POWER_COUPLING
from companion.hardware.errors import ConfigError
from companion.hardware.rf_groups import check_groups, colour_groups
from companion.hardware.spi_readers import rf_scan_groups
from companion.intents import TagPlaced

NTAG = "04A1B2C3D4E5F6"
ROW = ["A", "B", "C", "D"]
ROW_ADJACENCY = {"A": {"B"}, "B": {"A", "C"}, "C": {"B", "D"}, "D": {"C"}}


def coupled_table(*, rf_safe: bool, guard_s: float = 0.0051) -> EmulatedTable:
    config = replace(config_for(ROW), rf=RfSettings(rf_safe=rf_safe, guard_s=guard_s, close=(("card", "D"),)))
    table = EmulatedTable(config=config, adjacency=ROW_ADJACENCY)
    for a, b in (("A", "B"), ("B", "C"), ("C", "D"), ("D", "card")):
        table.couple(a, b, 0.5)
    return table


def test_old_always_on_sweep_ghost_reads_a_neighbours_tag() -> None:
    with coupled_table(rf_safe=False) as table:
        table.place_tag("B", NTAG)
        table.step(10)
        ghosts = [i for i in table.intents() if isinstance(i, TagPlaced) and i.city != "B"]
        assert ghosts, "the emulator should show the crosstalk the RF-safe sweep exists for"
        assert table.bus.rf_overlaps > 0


def test_grouped_sweep_sees_each_tag_only_on_its_own_reader() -> None:
    with coupled_table(rf_safe=True) as table:
        assert table.readers.stats.groups == 2  # a path colours in two
        table.place_tag("B", NTAG)
        table.place_tag("D", "DEADBEEF")
        table.step(10)
        assert table.intents() == [TagPlaced("B", NTAG), TagPlaced("D", "DEADBEEF")]
        assert table.bus.rf_overlaps == 0


def test_guard_time_shorter_than_iso_allows_misses_slow_tags() -> None:
    """Tags may take 5 ms in a field before they answer: a 1 ms guard never sees them."""
    with coupled_table(rf_safe=True, guard_s=0.001) as table:
        table.place_tag("B", NTAG)
        table.step(10)
        assert table.intents() == []


def test_config_rf_table() -> None:
    base = '[readers]\n0 = "A"\n1 = "B"\n[card_reader]\nchannel = 2\n'
    config = parse(base + '[rf]\nguard_ms = 6\nclose = [["card", "A"]]\n')
    assert config.rf == RfSettings(rf_safe=True, guard_s=0.006, close=(("card", "A"),))
    assert rf_scan_groups(config) == [[0, 1], [2]]  # A and the card reader apart, B anywhere
    assert rf_scan_groups(replace(config, rf=RfSettings(rf_safe=False))) is None
    for bad, field in (('close = [["card", "Zzz"]]', "close"), ("guard_ms = 1", "guard_ms")):
        try:
            parse(base + "[rf]\n" + bad + "\n", "box.toml")
        except ConfigError as exc:
            assert exc.field == f"[rf] {field}"
        else:
            raise AssertionError(f"{bad} accepted")


@given(
    st.lists(st.tuples(st.integers(0, 8), st.integers(0, 8)), max_size=20),
    st.lists(st.tuples(st.integers(0, 8), st.integers(0, 8)), max_size=3),
)
def test_colouring_never_puts_close_readers_together(
    edges: list[tuple[int, int]], close: list[tuple[int, int]]
) -> None:
    names = [f"R{i}" for i in range(9)]
    adjacency: dict[str, set[str]] = {}
    for a, b in edges:
        adjacency.setdefault(f"R{a}", set()).add(f"R{b}")
    pairs = tuple((f"R{a}", f"R{b}") for a, b in close)
    groups = colour_groups(names, adjacency, pairs)
    assert sorted(n for g in groups for n in g) == sorted(names)
    assert check_groups(groups, adjacency, pairs) == []


@settings(max_examples=25, deadline=None)
@given(
    grid=st.tuples(st.integers(2, 3), st.integers(2, 3)),
    tagged=st.sets(st.integers(0, 8), min_size=1, max_size=4),
    strength=st.floats(0.0, 3.0),
)
def test_grouped_sweep_never_ghost_reads(grid: tuple[int, int], tagged: set[int], strength: float) -> None:
    """Any grid of readers, every neighbour pair coupled with any strength, tags anywhere: no two coupled
    antennas are ever on together, and below ``POWER_COUPLING`` no reader reports a tag that is not on
    it. At or above it a neighbour's field alone powers the tag and grouping cannot make the reads
    right (see the next test): the plan's fit check refuses such spacings."""
    rows, cols = grid
    names = [f"R{r}{c}" for r in range(rows) for c in range(cols)]
    adjacency = {
        f"R{r}{c}": {
            f"R{r + dr}{c + dc}"
            for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
            if 0 <= r + dr < rows and 0 <= c + dc < cols
        }
        for r in range(rows)
        for c in range(cols)
    }
    with EmulatedTable(config=config_for(names, card_reader=False), adjacency=adjacency) as table:
        for a, near in adjacency.items():
            for b in near:
                if a < b:
                    table.couple(a, b, strength)
        truth = {names[i % len(names)]: f"04A1B2C3D4E5{i:02X}" for i in tagged}
        for city, uid in truth.items():
            table.place_tag(city, uid, settle=False)
        table.step(8)
        placed = {(i.city, i.uid) for i in table.intents() if isinstance(i, TagPlaced)}
        assert table.bus.rf_overlaps == 0
        if strength < POWER_COUPLING:
            assert placed == set(truth.items())


@pytest.mark.parametrize("strength", [POWER_COUPLING, 2.0])
def test_a_neighbour_that_powers_the_tag_ghost_reads_whatever_the_groups(strength: float) -> None:
    """Coupling ≥ 1: reader B, alone in its group, powers the tag lying on A and reads it (a ghost) —
    why ``companion hardware plan`` says such a city cannot hold the antenna."""
    with EmulatedTable(config=config_for(["A", "B"], card_reader=False), adjacency={"A": {"B"}}) as table:
        table.couple("A", "B", strength)
        assert table.readers.stats.groups == 2
        table.place_tag("A", NTAG)
        table.step(10)
        assert TagPlaced("B", NTAG) in table.intents() and table.bus.rf_overlaps == 0


def test_a_neighbours_frames_knock_a_tag_back_to_idle() -> None:
    """ISO/IEC 14443-3 §6.3: a READY tag that receives a WUPA it cannot take goes back to IDLE; with
    both antennas on, reader B's WUPA does that to the tag that reader A just woke."""
    from companion.hardware.emulated_mfrc522 import EmulatedSpiBus, EmulatedTag, TagState
    from companion.hardware.mfrc522_core import Chip

    bus = EmulatedSpiBus(0)
    a, b = bus.add_chip(0), bus.add_chip(1)
    bus.couple(0, 1, 0.5)
    chips = [
        Chip(lambda d, ch=ch: bus.xfer(ch, list(d), 1_000_000), lambda: round(bus.now * 1e6),
             lambda us: bus.sleep(us / 1e6), antenna_idle=True)
        for ch in (0, 1)
    ]  # fmt: skip
    for chip in chips:
        assert chip.init()
    tag = EmulatedTag.from_hex(NTAG)
    a.place(tag)
    bus.sleep(0.01)
    chips[0].start_wakeup()
    assert chips[0].finish()[0] == 0 and tag.state is TagState.READY
    chips[1].start_wakeup()  # B's frame reaches A's tag
    assert tag.state is TagState.IDLE
    assert chips[0].read_uid()[0] is None  # A lost its tag in the middle of reading it
    assert b.tags == []
