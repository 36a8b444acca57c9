"""Property: a bridge that reboots (power, watchdog, soft reset, USB replug) while markers lie on the
board never moves a marker that did not move, whenever the host's HELLO comes, on a clean or a hostile
wire (issue 19, §3)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.hardware.link_sim import FaultRates, RebootPlan, UnsettledBlindBridge, simulate_reboots
from companion.hardware.serial_peer import REBOOT_KINDS

plans = st.builds(
    RebootPlan,
    kinds=st.lists(st.sampled_from(REBOOT_KINDS), min_size=1, max_size=3).map(tuple),
    gaps_s=st.lists(st.floats(0.0, 0.4), min_size=3, max_size=3).map(tuple),  # short: a boot loop
    off_s=st.floats(0.0, 1.5),
    markers=st.integers(1, 6),
    moved=st.integers(0, 2),
    poll_s=st.sampled_from([0.01, 0.02, 0.05, 0.1]),
    phase_s=st.floats(0.0, 0.1),
    retry_s=st.floats(0.0, 2.0),
    hello_s=st.floats(0.05, 1.0),
    read_errors=st.floats(0.0, 0.3),
    wire=st.none().map(lambda _: FaultRates())
    | st.builds(FaultRates, *(st.floats(0.0, 0.08) for _ in range(6))),  # drops, duplicates, ... both ways
    seed=st.integers(0, 2**32 - 1),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plan=plans)
def test_a_reboot_never_moves_a_marker(plan: RebootPlan) -> None:
    plan = RebootPlan(**{**plan.__dict__, "moved": min(plan.moved, plan.markers)})
    result = simulate_reboots(plan)
    assert result.phantoms == []
    assert result.wrong == []  # a marker that did move is reported, as it moved
    assert result.host_view == result.true_view


def test_the_checker_catches_a_host_that_trusts_an_unsettled_snapshot() -> None:
    """The property can fail: the HELLO after a soft reset is answered before the votes settle, and
    a host that reads the empty snapshot as the table lifts and places every marker (8 for 4)."""
    for kind in REBOOT_KINDS:
        plan = RebootPlan((kind,), (0.0,), off_s=0.3, markers=4, retry_s=0.1)
        assert len(simulate_reboots(plan, host_class=UnsettledBlindBridge).phantoms) == 8
        result = simulate_reboots(plan)
        assert result.phantoms == [] and result.unsettled_seen > 0


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    poll_s=st.sampled_from([0.01, 0.02, 0.05]),
    reboot_after_s=st.floats(0.6, 0.7),
    markers=st.sets(st.integers(0, 15), min_size=1, max_size=6),
)
def test_the_real_firmware_rebooting_moves_no_marker(poll_s: float, reboot_after_s: float, markers: set[int]) -> None:
    """The same property with the firmware itself (firmware/rp2040 on the CPython machine shim and the
    MFRC522 emulator): a soft reset builds a new ``Bridge`` (new link, votes from zero, readers set up
    again through NRSTPD) while the USB port stays; the host says HELLO again at once."""
    from companion.hardware.firmware_host import FirmwareHost
    from companion.hardware.serial_bridge import SerialBridge
    from companion.intents import Intent, TagLifted, TagPlaced

    cities = {ch: f"City{ch}" for ch in range(16)}
    with FirmwareHost(readers=17, card_channel=16, config={"CLOSE": ()}) as fw:
        got: list[Intent] = []
        host = SerialBridge(got.append, fw.url, cities=cities, card_channel=16).open(fw.now)
        for channel in markers:
            fw.place(channel, f"04A1B2C3D4E5{channel:02X}")

        def run(seconds: float) -> None:
            until, next_poll = fw.now + seconds, fw.now
            while fw.now < until:
                fw.step()
                if fw.now >= next_poll:
                    host.poll(fw.now)
                    next_poll = fw.now + poll_s

        run(reboot_after_s)
        assert sorted(g.city for g in got if isinstance(g, TagPlaced)) == sorted(cities[ch] for ch in markers)
        got.clear()
        assert fw.bridge is not None
        fw.bridge = fw.modules["bridge"].Bridge(port=fw.bridge.port)  # soft reset: only the USB link stays
        run(1.5)
        assert [g for g in got if isinstance(g, TagPlaced | TagLifted)] == []
        assert host.stats.unsettled > 0  # the host did ask before the readers settled
        assert host.present() == {cities[ch]: f"04A1B2C3D4E5{ch:02X}" for ch in markers}
        host.close()
