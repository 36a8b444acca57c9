"""Reader sweeps, end-to-end latency, host CPU and the hostile-link test, on the emulators.

Every figure is printed on its own line as ``<name>: <number> <unit>``. Nothing here runs on real
hardware: times are *estimates* from counted SPI transactions and the costs below, on the emulated
bus clock (which also advances by every sleep the code does, so overlapping receive timers and the
RF guard time are accounted for).

Assumed costs (guesses, not measured on the devices):

* ``RP2040_XFER_S`` (40 us): one register transaction of the MicroPython firmware on a 125 MHz
  RP2040, all in: the Python calls down to ``machine.SPI.write_readinto``, the two strobe pin writes,
  the buffer allocations, and the reader's share of the sweep logic (sample, vote). The bits
  themselves are added at the firmware's SPI clock (4 MHz).
* ``PI4_XFER_S`` (25 us): one ``spidev.xfer2()`` from Python on a Pi 4 (ioctl + Python), and
  ``PI4_GPIO_S`` (10 us) per decoder address-line write through gpiozero/lgpio.
* ``PI4_PER_X86`` (4): how much slower a Pi 4 runs the host's Python than the machine running this
  benchmark, to turn measured host CPU time into a Pi 4 estimate.

The firmware on the real MicroPython VM (``companion.hardware.firmware_vm``; issue #19):

* ``firmware vm: bytes allocated per sweep``: ``gc.mem_alloc()`` before/after steady-state sweeps
  (the link idle: no line due; a BEAT line's own allocation is printed apart), 45 readers, 8 tags.
* ``firmware vm: python time per sweep``: the firmware's Python time on this machine's VM, the
  fastest steady-state sweep. Counted: every stretch of Python between two calls into the
  ``machine``/``time`` shim (the bridge loop, ``mfrc522_core.Chip``, vote, link: all of it). Not
  counted: the time inside the shim and the emulators behind it, and, per shim call, what the call
  costs in Python beyond the C call it stands for on the Pico (``Pin.value``,
  ``SPI.write_readinto``, ``ticks_us``, ``ticks_diff``/``ticks_add`` are C there): vm_main.py measures
  that per kind on the shim's own functions (I/O off) against C calls of the same shape
  (``[].count(0)``, ``{}.get(a, b)``, ``bytearray[i] = v``, ``utime.ticks_us()``,
  ``utime.ticks_diff(1, 2)``), the fastest 2000-call loops at start and between the warm-up sweeps,
  in the same process (about 0.2 us a call on this machine; ``shim_*_ns`` in the VM's MEASURE
  line). Before issue #19's second pass ``ticks_diff``/``ticks_add`` (pure Python in the shim)
  counted as firmware time and the other calls' cost was estimated from a stand-in.
* ``firmware vm: transactions per reader per sweep``: SPI0 register transactions of a steady-state
  sweep / 45, with 8 tags (8 per empty reader: antenna on, Transceive, FIFO flush, WUPA, ComIrq
  clear, StartSend, one look that also reads Status2 and the ATQA, antenna off; 6 per staying tag,
  whose Transceive waits for StartSend again after its complete ATQA: no Transceive, no flush;
  firmware/rp2040/scripts.py).
* ``rp2040 estimate rf-safe sweep``: the VM's virtual clock with every stretch of firmware Python
  time (less the shim calls' own cost, as above; carried from stretch to stretch, not clipped or
  rounded per stretch) multiplied by ``rp2040_factor`` (sleeps and SPI
  bits pass as on the chip, overlapping as they would) plus ``RP2040_XFER_C_US`` of C per
  transaction, the fastest steady-state sweep (the VM's wall clock also counts this machine's
  other processes: noise only adds). The factor:
  ``firmware/vm/calibrate.py`` (a fixed pure-Python workload of the firmware's kind: method calls,
  attribute access, bytearray stores, small-int arithmetic; no C calls, so no shim cost to remove)
  timed in the same VM process between the warm-up sweeps (fastest burst, as for the sweeps),
  against its RP2040 time
* ``firmware vm: sweep scripts alone on C stand-ins`` (a cross-check of the estimate's per-call
  charge, not the estimate): vm_main.py ``standins`` runs the real ``scripts.GroupScript`` loops of
  the build's groups with C stand-ins for the hardware (a dict store per ``mem32`` store,
  ``{}.get`` per ``SPI.write_readinto``, the VM's C clock), no waits, every look matching its
  reference; the fastest of 300 sweeps. ``rp2040 cross-check``: that × the factor. The estimate
  charges the same loops several times this through the shim.
* ``wrap soak, longest step``: the firmware across many ``ticks_us`` wraps (the clock jumped to
  just before each wrap between two steps), longest step between watchdog feeds; simulated hours.

Run: ``.venv/bin/python benchmarks/readers.py`` (a few minutes); ``--quick``: every section on
small counts (seconds), as ``tests/test_benchmarks.py`` does, so a moved file or a changed interface
breaks a test.
"""

from __future__ import annotations

import argparse
import logging
import random
import re
import statistics
import time
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import cast

from companion.hardware.chip_select import DecoderChipSelect
from companion.hardware.config import REFERENCE, load
from companion.hardware.emulated import EmulatedTable
from companion.hardware.emulated_mfrc522 import EmulatedSpiBus, EmulatedTag, installed
from companion.hardware.firmware_host import FirmwareHost
from companion.hardware.firmware_vm import (
    RP2040_XFER_C_US,
    TICKS_PERIOD,
    FirmwareVM,
    wrap_soak,
)
from companion.hardware.link_sim import FAULTS, FaultRates, simulate
from companion.hardware.mfrc522_driver import Mfrc522Driver
from companion.hardware.serial_bridge import SerialBridge
from companion.hardware.spi_readers import rf_scan_groups
from companion.intents import Intent, TagPlaced

RP2040_XFER_S = 40e-6
PI4_XFER_S = 25e-6
PI4_GPIO_S = 10e-6
PI4_PER_X86 = 4.0
BOARD = Path(__file__).parents[1] / "companion" / "games" / "on_the_way" / "data" / "on-the-way.board.toml"
PYB_PYSTONE_300_US = 162_376  # misc_pystone, 300 loops, PYBv1.0 (micropython/micropython PR #4858)
RP2040_PER_PYBOARD = 19.8 / 13.0  # RP2040 @125 MHz vs pyboard v1.1 (scruss.com, Parallel MicroPython Benchmarking)
PYSTONE_PER_CALIBRATE = 0.499  # misc_pystone(300) / calibrate.py on this machine's unix VM (measured once)
NTAG, CLASSIC = "04A1B2C3D4E5F6", "DEADBEEF"


def figure(name: str, value: float, unit: str, digits: int = 1) -> None:
    print(f"{name}: {value:.{digits}f} {unit}")


def board_adjacency() -> dict[str, set[str]]:
    """Neighbouring cities = cities joined by a road on the reference board (the caller's job)."""
    board = tomllib.loads(BOARD.read_text(encoding="utf-8"))
    adjacency: dict[str, set[str]] = {}
    for road in board["roads"]:
        a, b = road["between"]
        adjacency.setdefault(a, set()).add(b)
        adjacency.setdefault(b, set()).add(a)
    return adjacency


def tag_channels(count: int, total: int = 44) -> list[int]:
    return list(range(total)) if count >= total else [i * (total // count) for i in range(count)]


# --- the bridge ---------------------------------------------------------------------------------
class _NoPort:
    def read(self) -> bytes:
        return b""

    def write(self, data: bytes) -> None:
        pass


def bridge_sweep(groups: list[list[int]], tags: int, n: int = 80) -> tuple[float, float]:
    """(ms per RF-safe sweep, transactions per sweep) of the firmware, steady state, over ``n`` sweeps
    (80: two full re-verify rounds, REVERIFY = 40)."""
    with FirmwareHost(config={"GROUPS": groups, "LED_BITS": 104}, pty=False, xfer_overhead_s=RP2040_XFER_S) as fw:
        bridge = fw.modules["bridge"].Bridge(port=_NoPort())
        for i, channel in enumerate(tag_channels(tags)):
            fw.place(channel, f"04A1B2C3D4E5{i:02X}")
        for _ in range(15):
            bridge.sweep()
        assert len(bridge.link.tags) == tags
        start, xfers = fw.bus.now, fw.bus.transfers
        for _ in range(n):
            bridge.sweep()
        return (fw.bus.now - start) / n * 1000, (fw.bus.transfers - xfers) / n


def rp2040_calibrate_us() -> int:
    """calibrate.py's work(5000) on a 125 MHz RP2040, from the published figures (module docstring)."""
    return round(PYB_PYSTONE_300_US * RP2040_PER_PYBOARD / PYSTONE_PER_CALIBRATE)


def vm_measure(groups: list[list[int]], tags: int, sweeps: int, rp2040: bool = False) -> dict[str, int]:
    """The firmware's steady state on the MicroPython VM (vm_main.py ``measure``), 44 + 1 readers;
    ``rp2040``: its virtual clock charged with the Python time scaled to the RP2040 and
    ``RP2040_XFER_C_US`` of C per transaction."""
    config = {"GROUPS": groups, "LED_BITS": 104}
    mode = ("measure", str(max(21, sweeps // 2)), str(sweeps), str(rp2040_calibrate_us() if rp2040 else 0))
    xfer_us = RP2040_XFER_C_US if rp2040 else 30
    with FirmwareVM(config=config, mode=mode, xfer_us=xfer_us) as vm:
        for i, channel in enumerate(tag_channels(tags)):
            vm.place(channel, f"04A1B2C3D4E5{i:02X}")
        code = vm.run_to_exit()
        text = vm.stderr.decode()
    found = re.search(r"MEASURE (.*)", text)
    if code != 0 or found is None:
        raise RuntimeError(f"the firmware on the VM failed: {text[-2000:]}")
    fields = dict(item.split("=") for item in found.group(1).split())
    return {key: int(value) for key, value in fields.items()}


def vm_standins(groups: list[list[int]], tags: int) -> int:
    """vm_main.py ``standins``: µs of the fastest steady scripted sweep with C stand-ins for the
    hardware on this VM (the scripts' own Python with no shim call: what the estimate's per-call
    charge is checked against)."""
    with FirmwareVM(config={"GROUPS": groups, "LED_BITS": 104}, mode=("standins", str(tags))) as vm:
        code = vm.run_to_exit()
        text = vm.stderr.decode()
    found = re.search(r"STANDINS us=(\d+)", text)
    if code != 0 or found is None:
        raise RuntimeError(f"the sweep scripts on stand-ins failed: {text[-2000:]}")
    return int(found.group(1))


def firmware_on_the_vm(groups: list[list[int]], quick: bool) -> None:
    sweeps = 45 if quick else 120  # past REVERIFY (40): the staying tags' UIDs are re-read in the window
    m = vm_measure(groups, 8, sweeps)
    figure("firmware vm: bytes allocated per sweep, 45 readers, 8 tags", m["alloc"] / m["sweeps"], "bytes")
    figure("firmware vm: python time per sweep, 45 readers, 8 tags", m["python_us"] / m["sweeps"] / 1000, "ms", 2)
    figure("firmware vm: transactions per reader per sweep, 45 readers, 8 tags", m["xfers"] / 45, "transactions", 1)
    shim_ns = (m["shim_pin_ns"] + m["shim_spi_ns"]) / 2
    figure("firmware vm: shim cost excluded per Pin.value / SPI call", shim_ns, "ns", 0)
    figure("firmware vm: bytes allocated per BEAT line sent", m["beat_alloc"], "bytes", 0)
    figure("firmware vm: heap in use after set-up, 45 readers", m["heap_used"] / 1024, "KiB")
    m = vm_measure(groups, 44, sweeps, rp2040=True)
    factor = m["permille"] / 1000
    figure("rp2040 estimate rf-safe sweep, 44+1 readers, 44 tags", m["virtual_us"] / m["sweeps"] / 1000, "ms")
    figure("rp2040 estimate, python time per sweep, 44 tags", m["python_us"] / m["sweeps"] / 1000 * factor, "ms")
    figure("rp2040 factor (calibrate.py: RP2040 estimate / this VM, same process)", factor, "x", 0)
    figure("firmware vm: calibrate.py work(5000), fastest between sweeps", m["calibrate_us"] / 1000, "ms", 2)
    standin_us = vm_standins(groups, 44)
    figure("firmware vm: sweep scripts alone on C stand-ins, 44 tags (a cross-check)", standin_us, "us", 0)
    figure("rp2040 cross-check: sweep scripts on C stand-ins x factor, 44 tags", standin_us * factor / 1000, "ms")
    wraps = 1 if quick else 40  # --quick: one wrap, a smoke run (tests/firmware test the wraps themselves)
    with FirmwareVM(config={"GROUPS": groups, "LED_BITS": 104}, start_us=TICKS_PERIOD - 1_000_000) as vm:
        for i, channel in enumerate(tag_channels(8)):
            vm.place(channel, f"04A1B2C3D4E5{i:02X}")
        longest_ms, simulated_s, _ = wrap_soak(vm, wraps)
        steps = sorted(vm.soak_steps)
    figure("wrap soak, longest step", longest_ms, "ms")
    figure("wrap soak, median step", steps[len(steps) // 2] / 1000, "ms")  # the longest re-reads 8 UIDs
    figure("wrap soak, simulated time", simulated_s / 3600, "h", 2)
    figure("wrap soak, ticks_us wraps", wraps, "wraps", 0)


def placement_latency(groups: list[list[int]], host_poll_s: float, samples: int = 200) -> list[float]:
    """Placement → TagPlaced on the host (ms): firmware main loop + pty + SerialBridge + debounce.

    Each tag lands at a random moment (inside a sweep, not between two); the host sees the TAG line
    at its next poll on a ``host_poll_s`` grid of random phase (the Pi's loop does not wait for us)."""
    cities = {ch: f"C{ch}" for ch in range(44)}
    latencies: list[float] = []
    rnd = random.Random(1)
    with FirmwareHost(config={"GROUPS": groups, "LED_BITS": 104}, xfer_overhead_s=RP2040_XFER_S) as fw:
        got: list[Intent] = []
        host = SerialBridge(got.append, fw.url, cities=cities, card_channel=44).open(fw.now)

        def run_until(done: Callable[[], bool], limit: float) -> None:
            until = fw.now + limit
            while not done() and fw.now < until:
                fw.step()
                host.poll(fw.now)

        run_until(lambda: False, 1.0)
        phase = rnd.uniform(0, host_poll_s)
        for i in range(samples):
            channel = rnd.randrange(44)
            uid = f"04A1B2C3D4E6{i % 256:02X}"
            placed_at = fw.now + rnd.uniform(0.0, 0.06)
            fw.at(placed_at, lambda channel=channel, uid=uid: fw.place(channel, uid))
            got.clear()
            sent_before = len(fw.sent)
            run_until(lambda: any(isinstance(g, TagPlaced) for g in got), 2.0)
            assert [g for g in got if isinstance(g, TagPlaced)] == [TagPlaced(cities[channel], uid)]
            written = next(t for t, data in fw.sent[sent_before:] if f" {channel} {uid}*".encode() in data)
            seen = written + (phase - written) % host_poll_s  # the host's next poll after the write
            latencies.append((seen - placed_at) * 1000)
            fw.lift(channel)
            run_until(lambda: False, 0.3)
        host.close()
    return latencies


def host_cpu_bridge(groups: list[list[int]], host_poll_s: float, seconds: float = 5.0) -> float:
    """Measured CPU time of SerialBridge.poll per second of table time, with tags coming and going."""
    cities = {ch: f"C{ch}" for ch in range(44)}
    with FirmwareHost(config={"GROUPS": groups, "LED_BITS": 104}, xfer_overhead_s=RP2040_XFER_S) as fw:
        got: list[Intent] = []
        host = SerialBridge(got.append, fw.url, cities=cities, card_channel=44).open(fw.now)
        for channel in tag_channels(8):
            fw.place(channel, f"04A1B2C3D4E5{channel:02X}")
        cpu = 0.0
        next_poll = 0.0
        start = fw.now
        while fw.now < start + seconds:
            fw.step()
            if fw.now >= next_poll:
                t = time.process_time()
                host.poll(fw.now)
                cpu += time.process_time() - t
                next_poll = fw.now + host_poll_s
        host.close()
    return cpu / seconds


# --- the Pi 4 direct path -----------------------------------------------------------------------
def direct_sweep(speed_hz: int, tags: int, adjacency: dict[str, set[str]], n: int = 20) -> tuple[float, float, float]:
    """(ms per RF-safe sweep on a Pi 4, transfers per sweep, GPIO writes per sweep), 44 + 1 readers,
    the mean of ``n`` sweeps."""
    config = load(REFERENCE, env={})
    cities = [config.readers[ch] for ch in sorted(config.readers)]
    from dataclasses import replace

    config = replace(config, backend="emulated", spi=replace(config.spi, speed_hz=speed_hz))
    with EmulatedTable(config=config, xfer_overhead_s=PI4_XFER_S, adjacency=adjacency) as table:
        table.readers.lib.spi.max_speed_hz = speed_hz
        for i, channel in enumerate(tag_channels(tags)):
            table.place_tag(cities[channel], f"04A1B2C3D4E5{i:02X}", settle=False)
        table.step(12)
        bus, cs = table.bus, cast(DecoderChipSelect, table.readers.chip_select)  # the reference: a decoder
        start, xfers, writes = bus.now, bus.transfers, cs.line_writes
        for _ in range(n):
            table.readers.poll(table.now)
        gpio = (cs.line_writes - writes) / n
        return ((bus.now - start) / n + gpio * PI4_GPIO_S) * 1000, (bus.transfers - xfers) / n, gpio


def single_reader(speed_hz: int) -> dict[str, float]:
    """Register transfers of one reader: mfrc522 0.0.7's own path vs ours."""
    out: dict[str, float] = {}
    bus = EmulatedSpiBus(0, xfer_overhead_s=PI4_XFER_S)
    chip = bus.add_chip(0)
    with installed(bus):
        from mfrc522 import MFRC522, SimpleMFRC522

        simple = SimpleMFRC522.__new__(SimpleMFRC522)
        simple.READER = MFRC522(bus=0, device=0, spd=speed_hz)
        bus.reset_counters()
        simple.read_id_no_block()
        out["library empty poll"] = bus.transfers
        driver = Mfrc522Driver(simple.READER, clock=bus.clock, sleep=bus.sleep, antenna_idle=False)
        assert driver.init()
        bus.reset_counters()
        driver.antenna(True)
        driver.start_wakeup()
        driver.finish()
        driver.antenna(False)
        out["ours empty poll (field on, WUPA, look, field off)"] = bus.transfers
        for uid, label in ((CLASSIC, "4-byte"), (NTAG, "7-byte")):
            chip.tags.clear()
            chip.place(EmulatedTag.from_hex(uid))
            bus.reset_counters()
            driver.antenna(True)
            bus.sleep(0.0051)
            driver.start_wakeup()
            driver.finish()
            assert driver.read_uid().uid == bytes.fromhex(uid)
            driver.antenna(False)
            out[f"ours tag change, {label} UID read"] = bus.transfers
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="every section on small counts (for the test suite)")
    quick = parser.parse_args().quick
    logging.disable(logging.WARNING)  # the reference TOML knows two markers: every test tag is "unknown"
    adjacency = board_adjacency()
    config = load(REFERENCE, env={})
    groups = rf_scan_groups(config, adjacency)
    assert groups is not None
    figure("rf groups, reference board (roads + card reader)", len(groups), "groups", 0)

    firmware_on_the_vm(groups, quick)

    # --quick: fewer sweeps of each kind (a smoke run of every section, not a measurement)
    for tags in (8, 44):
        ms, xfers = bridge_sweep(groups, tags, n=41 if quick else 80)
        figure(f"bridge rf-safe sweep (cpython shim), 44+1 readers, {tags} tags", ms, "ms")
        figure(f"bridge rf-safe sweep, {tags} tags, transactions", xfers, "per sweep", 0)
    for speed in (1_000_000, 8_000_000):
        for tags in (8, 44):
            ms, xfers, gpio = direct_sweep(speed, tags, adjacency, n=4 if quick else 20)
            figure(f"pi4 direct rf-safe sweep, 44+1 readers, {tags} tags, {speed // 1_000_000} MHz", ms, "ms")
            if speed == 1_000_000:
                figure(f"pi4 direct rf-safe sweep, {tags} tags, transfers", xfers, "per sweep", 0)

    for poll_s in (0.02, 0.05):
        lat = sorted(placement_latency(groups, poll_s, samples=5 if quick else 200))
        p99 = lat[min(len(lat) - 1, round(0.99 * (len(lat) - 1)))]
        figure(f"placement to TagPlaced, bridge, host poll {poll_s * 1000:.0f} ms, max", lat[-1], "ms", 0)
        figure(f"placement to TagPlaced, bridge, host poll {poll_s * 1000:.0f} ms, p99", p99, "ms", 0)
        figure(
            f"placement to TagPlaced, bridge, host poll {poll_s * 1000:.0f} ms, median", statistics.median(lat), "ms", 0
        )

    cpu = host_cpu_bridge(groups, 0.02, seconds=1.0 if quick else 5.0)
    figure("host cpu, bridge (SerialBridge.poll at 50 Hz), this machine", cpu * 100, "%", 2)
    figure("host cpu, bridge, pi4 estimate", cpu * 100 * PI4_PER_X86, "%", 2)
    ms, xfers, gpio = direct_sweep(1_000_000, 8, adjacency, n=4 if quick else 20)
    direct_cpu = (xfers * PI4_XFER_S + gpio * PI4_GPIO_S) * 20  # 20 sweeps per second; waits sleep
    figure("host cpu, direct spi at 20 Hz, pi4 estimate (transfers + gpio only)", direct_cpu * 100, "%", 1)

    runs, phantoms, lines = (10 if quick else 300), 0, dict.fromkeys(FAULTS, 0)
    failures = 0
    for seed in range(runs):
        rnd = random.Random(seed)
        rates = FaultRates(*(rnd.uniform(0.0, 0.15) for _ in FAULTS))
        result = simulate(seed, rates)
        phantoms += len(result.phantoms)
        failures += result.host_view != result.true_view or result.cards_host != result.cards_true
        for name in FAULTS:
            lines[name] += result.injected[name]
    figure("link property test, hostile runs", runs, "runs", 0)
    for name in FAULTS:
        figure(f"link property test, lines hit by {name}", lines[name], "lines", 0)
    figure("link property test, phantom intents", phantoms, "intents", 0)
    figure("link property test, runs not converged after one snapshot period", failures, "runs", 0)

    for label, value in single_reader(1_000_000).items():
        figure(f"single reader, {label}", value, "transfers", 0)

    # The serial link (issue 19 §3, §7): the "seen" light and the reboot property, in their own module.
    from link_bench import main as link_bench_main  # benchmarks/ is this script's directory

    link_bench_main(quick=quick)


if __name__ == "__main__":
    main()
