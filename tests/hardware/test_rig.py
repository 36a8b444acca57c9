"""HardwareRig and the polling thread: devices polled together, closed once, LEDs dark at the end."""

from __future__ import annotations

import queue
import threading

from companion.hardware.config import REFERENCE, load
from companion.hardware.emulated import EmulatedTable
from companion.hardware.factory import build_rig
from companion.hardware.rig import HardwareRig, PollingThread
from companion.intents import Intent, TagPlaced
from companion.ledframe import CityLight, LedFrame


class Counter:
    def __init__(self) -> None:
        self.polls = 0
        self.closed = 0
        self.polled = threading.Event()

    def poll(self, now: float) -> None:
        self.polls += 1
        self.polled.set()

    def close(self) -> None:
        self.closed += 1


def test_rig_polls_shared_devices_once_and_closes_once() -> None:
    device = Counter()
    rig = HardwareRig(readers=device, card_reader=device)  # type: ignore[arg-type]
    rig.poll(0.0)
    assert device.polls == 1
    rig.close()
    rig.close()
    assert device.closed == 1


def test_polling_thread_runs_until_closed() -> None:
    device = Counter()
    with PollingThread(HardwareRig(readers=device), interval_s=0.001):  # type: ignore[arg-type]
        assert device.polled.wait(timeout=10)
    polls = device.polls
    assert device.polls == polls  # stopped


def test_factory_builds_the_reference_box_emulated() -> None:
    config = load(REFERENCE, env={"COMPANION_HARDWARE": "emulated"})
    intents: queue.Queue[Intent] = queue.Queue()
    with build_rig(config, intents.put) as rig:
        rig.poll(0.0)
        assert intents.empty()
        rig.show(LedFrame.build({"Bremen": CityLight.HINT}), 0.0)


def test_closing_the_table_turns_the_leds_off() -> None:
    table = EmulatedTable(["Oss", "Riga"])
    table.show(LedFrame.build({"Oss": CityLight.HINT}, seat=1))
    assert any(table.led_bits())
    table.place_tag("Riga", "DEADBEEF")
    assert table.intents() == [TagPlaced("Riga", "DEADBEEF")]
    chain = table.chain
    table.close()
    table.close()
    assert chain is not None and not any(chain.outputs)
