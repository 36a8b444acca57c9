"""The RP2040 firmware's real main loop under CPython (machine/time shim on the MFRC522 emulator),
linked to the host's real SerialBridge over a pseudo-terminal, end to end (issue #10, §1)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.hardware.debounce import UNKNOWN as HOST_UNKNOWN
from companion.hardware.debounce import DebounceSettings, TagVote
from companion.hardware.firmware_host import FirmwareHost, firmware_modules
from companion.hardware.leds import LedMap, render_bits
from companion.hardware.rf_groups import colour_groups
from companion.hardware.serial_bridge import SerialBridge
from companion.intents import CardScanned, DeviceFault, Intent, TagLifted, TagPlaced
from companion.ledframe import CityLight, LedFrame

CITIES = {ch: f"City{ch}" for ch in range(16)}
CARD = 16
NTAG, CLASSIC = "04A1B2C3D4E5F6", "DEADBEEF"
MAP = LedMap.sequential(CITIES.values())
with firmware_modules(readers=1, card_channel=0) as _firmware:  # once: hypothesis runs the vote test often
    FIRMWARE_VOTE = _firmware["vote"]


class Link:
    """Firmware and host on one virtual clock: a firmware step, then a host poll when one is due."""

    def __init__(self, fw: FirmwareHost, host: SerialBridge, got: list[Intent]) -> None:
        self.fw, self.host, self.got = fw, host, got
        self.next_poll = 0.0

    def run(self, seconds: float) -> list[Intent]:
        until = self.fw.now + seconds
        while self.fw.now < until:
            self.fw.step()
            if self.fw.now >= self.next_poll:
                self.host.poll(self.fw.now)
                self.next_poll = self.fw.now + 0.05  # the Pi polls at 20 Hz
        out, self.got[:] = list(self.got), []
        return out


@pytest.fixture
def link() -> Iterator[Link]:
    # 17 readers in 3 banks; a path of close readers 0-1-2-...-15 and the card reader beside 15
    close = tuple((ch, ch + 1) for ch in range(16))
    config = {"GROUPS": colour_groups(list(range(17)), None, close), "LED_BITS": MAP.size}
    with FirmwareHost(readers=17, card_channel=CARD, config=config) as fw:
        got: list[Intent] = []
        host = SerialBridge(got.append, fw.url, cities=CITIES, card_channel=CARD, led_map=MAP).open(fw.now)
        try:
            yield Link(fw, host, got)
        finally:
            host.close()


def test_tags_placed_and_lifted_become_intents_on_the_host(link: Link) -> None:
    link.fw.place(0, NTAG)  # on the board before the link is up
    assert link.run(0.5) == [TagPlaced("City0", NTAG)]
    assert link.host.linked and link.host.stats.firmware == "rp2040/2.0"
    link.fw.place(9, CLASSIC)
    link.fw.place(10, "04112233445566")  # its close neighbour: the RF groups keep them apart
    assert sorted(link.run(0.5), key=repr) == sorted(
        [TagPlaced("City9", CLASSIC), TagPlaced("City10", "04112233445566")], key=repr
    )
    link.fw.lift(0)
    assert link.run(0.5) == [TagLifted("City0", NTAG)]
    assert link.host.present() == {"City9": CLASSIC, "City10": "04112233445566"}
    assert link.fw.bus.rf_overlaps == 0
    assert link.host.stats.bad_checksum == link.host.stats.garbage == 0


def test_card_presentations_are_scanned_once_each(link: Link) -> None:
    link.run(0.3)
    events: list[Intent] = []
    for uid in ("04C0FFEE123456", "04C0FFEE123456", CLASSIC):
        link.fw.place(CARD, uid)
        events += link.run(0.6)  # held over the reader for a while: still one scan
        link.fw.lift(CARD)
        events += link.run(0.3)
    assert events == [CardScanned("04C0FFEE123456"), CardScanned("04C0FFEE123456"), CardScanned(CLASSIC)]


def test_led_frames_from_the_host_reach_the_firmware_led_driver(link: Link) -> None:
    link.run(0.3)
    frame = LedFrame.build({"City3": CityLight.HINT, "City12": CityLight.HINT}, seat=1)
    link.host.show(frame, link.fw.now)
    link.run(0.2)
    assert link.fw.led_bits(MAP.size) == render_bits(frame, MAP, link.fw.now)
    assert any(link.fw.led_bits(MAP.size))


def test_wedged_reader_is_reported_and_only_its_bank_is_reset(link: Link) -> None:
    link.fw.place(12, NTAG)
    link.run(0.5)
    link.fw.bus.chips[12].wedged = True  # hangs; only NRSTPD of bank 1 (channels 8..15) cures it
    events = link.run(1.0)
    assert DeviceFault("bridge reader 12 (City12)", "not answering (version register 0x00)") in events
    events = link.run(5.5)  # RETRY_MS = 5 s: bank 1 is pulsed, the reader answers again
    assert DeviceFault("bridge reader 12 (City12)", "answering again", recovered=True) in events
    assert link.host.present() == {"City12": NTAG}  # the tag never left: no lift, no re-place
    assert not [e for e in events if isinstance(e, TagPlaced | TagLifted)]
    resets = {ch: chip.hard_resets for ch, chip in link.fw.bus.chips.items()}
    assert {ch for ch, n in resets.items() if n} == set(range(8, 16))


def test_a_reader_that_stays_dead_does_not_keep_its_bank_down(link: Link) -> None:
    """Its bank-mates keep their tags through its bank's resets (each waits the 50 ms start-up the
    emulator is deaf for), and the resets back off: 5 s, then 10 s, then 20 s..."""
    link.fw.place(9, NTAG)  # bank 1 (channels 8..15), as reader 12
    link.run(0.5)
    link.fw.bus.chips[12].dead = True  # MISO stuck low: no NRSTPD pulse cures it
    events = link.run(30.0)
    assert [e for e in events if isinstance(e, DeviceFault)] == [
        DeviceFault("bridge reader 12 (City12)", "not answering (version register 0x00)")
    ]
    assert link.host.present() == {"City9": NTAG}
    assert not [e for e in events if isinstance(e, TagPlaced | TagLifted)]
    assert link.fw.bus.chips[9].hard_resets == 2  # at ~5.5 s and ~15.5 s; the next is due at ~35.5 s
    assert link.fw.bridge is not None and link.fw.bridge.readers[9].faulted is False


def test_firmware_survives_a_host_that_reconnects(link: Link) -> None:
    link.fw.place(5, NTAG)
    link.run(0.5)
    link.host.close()
    got: list[Intent] = []
    link.fw.lift(5)
    link.fw.place(6, CLASSIC)
    link.run(0.5)
    link.host = SerialBridge(got.append, link.fw.url, cities=CITIES, card_channel=CARD).open(link.fw.now)
    link.got = got
    assert link.run(0.5) == [TagPlaced("City6", CLASSIC)]  # a fresh host learns today's board


@given(
    st.lists(st.sampled_from(["A", "B", None, "U"]), max_size=60),
    st.sampled_from([(4, 5, 3), (2, 3, 3), (1, 1, 1), (3, 5, 2)]),
)
def test_firmware_debounce_is_the_hosts(samples: list[str | None], knm: tuple[int, int, int]) -> None:
    """firmware/rp2040/vote.py re-implements debounce.TagVote for MicroPython: same answers always."""
    ours = FIRMWARE_VOTE.TagVote(*knm)
    host = TagVote(DebounceSettings(*knm))
    for sample in samples:
        placed, lifted = ours.add(FIRMWARE_VOTE.UNKNOWN if sample == "U" else sample)
        change = host.add(HOST_UNKNOWN if sample == "U" else sample)
        assert (placed, lifted) == (change.placed, change.lifted)
        assert ours.current == host.current


def test_flash_writes_a_config_the_firmware_runs_with(tmp_path: Path) -> None:
    """``companion hardware flash`` files: the generated bridge_config colours the reference box RF-safely."""
    import tomllib

    from companion.cli.hardware import firmware_files, flash_commands
    from companion.hardware.config import REFERENCE, load
    from companion.hardware.rf_groups import check_groups

    board_file = Path(__file__).parents[2] / "companion/games/on_the_way/data/on-the-way.board.toml"
    board = tomllib.loads(board_file.read_text("utf-8"))
    adjacency: dict[str, set[str]] = {}
    for road in board["roads"]:
        a, b = road["between"]
        adjacency.setdefault(a, set()).add(b)
        adjacency.setdefault(b, set()).add(a)
    config = load(REFERENCE, env={})
    files = firmware_files(config, adjacency)
    assert {"main.py", "bridge.py", "mfrc522_core.py", "serial_protocol.py", "bridge_config.py"} <= set(files)
    namespace: dict[str, object] = {}
    exec(compile(files["bridge_config.py"], "bridge_config.py", "exec"), namespace)
    assert namespace["READERS"] == 45 and namespace["CARD_CHANNEL"] == 44
    groups = namespace["GROUPS"]
    assert isinstance(groups, list) and sorted(ch for g in groups for ch in g) == list(range(45))
    by_channel = {ch: city for ch, city in config.readers.items()}
    assert check_groups([[by_channel.get(ch, "card") for ch in g] for g in groups], adjacency) == []
    commands = flash_commands("auto", tmp_path, files)
    assert commands[0][:4] == ["mpremote", "connect", "auto", "cp"] and commands[0][-1] == ":"
    assert commands[1] == ["mpremote", "connect", "auto", "reset"]


def test_hardware_test_proves_the_link_to_the_firmware() -> None:
    import io
    import queue

    from companion.cli.hardware import link_check
    from companion.hardware.emulated import config_for
    from companion.hardware.rig import HardwareRig

    with FirmwareHost(readers=3, card_channel=2) as fw:
        intents: queue.Queue[Intent] = queue.Queue()
        bridge = SerialBridge(intents.put, fw.url, cities={0: "A", 1: "B"}, card_channel=2).open(fw.now)
        rig = HardwareRig(readers=bridge, card_reader=bridge)
        out = io.StringIO()

        def sleep(dt: float) -> None:
            until = fw.now + dt
            while fw.now < until:
                fw.step()

        assert link_check(rig, intents, config_for(["A", "B"]), out=out, clock=lambda: fw.now, sleep=sleep) is True
        bridge.close()
    assert "linked, firmware rp2040/2.0, 3 readers" in out.getvalue()


def test_hardware_test_says_no_link_when_the_firmware_does_not_answer() -> None:
    import io
    import queue

    from companion.cli.hardware import link_check
    from companion.hardware.emulated import config_for
    from companion.hardware.rig import HardwareRig

    with FirmwareHost(readers=3, card_channel=2) as fw:  # flashed, but its main loop never runs
        intents: queue.Queue[Intent] = queue.Queue()
        bridge = SerialBridge(intents.put, fw.url, cities={0: "A", 1: "B"}, card_channel=2).open(fw.now)
        out = io.StringIO()
        ok = link_check(
            HardwareRig(readers=bridge),
            intents,
            config_for(["A"]),
            out=out,
            clock=lambda: fw.now,
            sleep=fw.bus.sleep,
            timeout_s=3.0,
        )
        bridge.close()
    assert ok is False and "NO LINK" in out.getvalue()
    assert bridge.stats.hellos >= 3  # HELLO retried every second


def test_without_groups_the_bridge_polls_one_reader_at_a_time() -> None:
    """ "No groups" must never mean every antenna on together (issue #19 §5): readers whose antennas
    all couple (0.5: a tag hears the neighbour's frames while its own field is on) are never on at
    once, and each reads its own tag. (At >= 0.8 a neighbour's field alone powers a tag: no
    schedule helps there, only the antenna plan.)"""
    with FirmwareHost(readers=4, card_channel=3, config={"GROUPS": None}) as fw:
        for a in range(4):
            for b in range(a + 1, 4):
                fw.bus.couple(a, b, 0.5)
        for channel in range(3):
            fw.place(channel, f"04A1B2C3D4E5{channel:02X}")
        assert fw.bridge is not None
        assert fw.bridge.groups == [[r] for r in fw.bridge.readers]
        fw.run(1.0)
        assert fw.bus.rf_overlaps == 0
        assert fw.bridge.link.tags == {ch: f"04A1B2C3D4E5{ch:02X}" for ch in range(3)}


def test_an_led_frame_is_bounded_by_the_chain_before_use() -> None:
    with FirmwareHost(readers=1, card_channel=0, config={"LED_BITS": 16}, pty=False) as fw:
        leds = fw.modules["hw"].LedChain(fw.cfg)
        assert leds.show(10_000_000, b"\xff") is False  # refused, counted, nothing shifted or latched
        assert leds.refused == 1 and not any(fw.led_bits(16))
        assert leds.show(12, b"\xff\xff") is True  # shorter than the chain: bits 12.. stay dark
        assert fw.led_bits(16) == (True,) * 12 + (False,) * 4
        assert leds.show(-1, b"") is False and leds.refused == 2


def test_the_leds_stay_dark_from_power_up_until_the_first_frame() -> None:
    """The 74HC595s power up with random bits (the shim: all lit): OE is enabled only after zeros
    were shifted in and latched."""
    with FirmwareHost(readers=3, card_channel=2) as fw:
        fw.run(0.5)
        assert fw.pins[fw.cfg.PINS["led_oe"]] == 0  # enabled...
        assert not fw.lit_while_booting and not any(fw.led_bits(int(fw.cfg.LED_BITS)))  # ...and dark
