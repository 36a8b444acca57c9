"""SPI cost of polling MFRC522 readers: our driver vs mfrc522 0.0.7's own path, on the emulator.

Counts register transfers (one ``spidev.xfer2`` call each) per empty poll and per tag change, then
estimates a 40-reader sweep on a Pi 4 at 1 MHz and 8 MHz. The emulator's bus clock advances by each
transfer's bit time plus an assumed fixed cost per ``xfer2`` call (Python + ioctl), and by the
driver's waits, so overlapping receive timers are accounted for; decoder GPIO writes are added.

Run: ``.venv/bin/python benchmarks/readers.py``
"""

from __future__ import annotations

import statistics

from companion.hardware.emulated import EmulatedTable
from companion.hardware.emulated_mfrc522 import EmulatedSpiBus, EmulatedTag, installed
from companion.hardware.mfrc522_driver import Mfrc522Driver

XFER_OVERHEAD_S = 25e-6  # assumed cost of one spidev.xfer2() call from Python on a Pi 4
GPIO_WRITE_S = 10e-6  # assumed cost of one gpiozero DigitalOutputDevice.value write (lgpio) on a Pi 4
NTAG, CLASSIC = "04A1B2C3D4E5F6", "DEADBEEF"


def single_reader(speed_hz: int) -> dict[str, float]:
    out: dict[str, float] = {}
    bus = EmulatedSpiBus(0)
    chip = bus.add_chip(0)
    with installed(bus):
        from mfrc522 import MFRC522, SimpleMFRC522

        simple = SimpleMFRC522.__new__(SimpleMFRC522)
        simple.READER = MFRC522(bus=0, device=0, spd=speed_hz)
        bus.reset_counters()
        simple.read_id_no_block()
        out["library: empty poll"] = bus.transfers
        chip.place(EmulatedTag.from_hex(CLASSIC))
        counts = []
        for _ in range(6):
            bus.reset_counters()
            simple.read_id_no_block()
            counts.append(bus.transfers)
        out["library: tag present, per poll (mean; misses every other REQA)"] = statistics.mean(counts)
        chip.tags.clear()
        chip.place(EmulatedTag.from_hex(NTAG))
        bus.reset_counters()
        got = simple.read_id_no_block()
        out["library: 7-byte tag read (returns a wrong id from the cascade tag)"] = bus.transfers
        assert got != int(NTAG, 16)

        chip.tags.clear()
        driver = Mfrc522Driver(simple.READER, clock=bus.clock, sleep=bus.sleep)
        driver.init()
        bus.reset_counters()
        driver.start_wakeup()
        driver.finish()
        out["ours: empty poll"] = bus.transfers
        for uid, label in ((CLASSIC, "4-byte"), (NTAG, "7-byte")):
            chip.tags.clear()
            chip.place(EmulatedTag.from_hex(uid))
            bus.reset_counters()
            driver.start_wakeup()
            driver.finish()
            result = driver.read_uid()
            assert result.uid == bytes.fromhex(uid)
            out[f"ours: tag change, {label} UID read"] = bus.transfers
        bus.reset_counters()
        driver.start_wakeup()
        driver.finish()
        driver.halt()
        out["ours: tag present, unchanged (WUPA + HLTA)"] = bus.transfers
    return out


def sweep(speed_hz: int, tags: int, overhead: float) -> tuple[float, float, int, int]:
    """(ms per sweep, transfers per sweep, GPIO writes per sweep) for 40 readers + card reader."""
    cities = [f"C{i}" for i in range(40)]
    with EmulatedTable(cities, xfer_overhead_s=overhead) as table:
        table.readers.speed_hz = speed_hz
        table.readers.lib.spi.max_speed_hz = speed_hz
        for i in range(tags):
            table.place_tag(cities[i * 5], f"04A1B2C3D4E5{i:02X}", settle=False)
        table.step(12)  # settle and get past the first UID reads
        bus, cs = table.bus, table.readers.chip_select
        n = 20
        start, xfers, writes = bus.now, bus.transfers, cs.line_writes
        for _ in range(n):
            table.readers.poll(table.now)
        spi_s = (bus.now - start) / n
        gpio = (cs.line_writes - writes) / n
        return (
            (spi_s + gpio * (GPIO_WRITE_S if overhead else 0)) * 1000,
            (bus.transfers - xfers) / n,
            int(gpio),
            table.readers.stats.uid_reads,
        )


def main() -> None:
    print("Register transfers (one xfer2 each), single reader, emulated MFRC522:")
    for label, value in single_reader(1_000_000).items():
        print(f"  {label:66s} {value:7.1f}")
    print()
    print(
        "40 city readers + 1 card reader, one sweep (mean of 20), Pi 4 estimate with "
        f"{XFER_OVERHEAD_S * 1e6:.0f} us per xfer2 and {GPIO_WRITE_S * 1e6:.0f} us per decoder GPIO write:"
    )
    for speed in (1_000_000, 8_000_000):
        for tags in (0, 8):
            ms, xfers, gpio, _ = sweep(speed, tags, XFER_OVERHEAD_S)
            raw_ms, *_ = sweep(speed, tags, 0.0)
            print(
                f"  {speed / 1e6:.0f} MHz, {tags} tags on the board: {xfers:6.1f} transfers, "
                f"{gpio:3d} GPIO writes, {ms:6.2f} ms per sweep ({ms / 41:.2f} ms per reader); "
                f"bus time alone {raw_ms:5.2f} ms"
            )
    lib = single_reader(1_000_000)["library: empty poll"]
    for speed in (1_000_000, 8_000_000):
        per = lib * (XFER_OVERHEAD_S + 16 / speed)
        print(
            f"  library read_id_no_block, 41 empty readers at {speed / 1e6:.0f} MHz: "
            f"~{41 * per * 1000:.0f} ms per sweep"
        )


if __name__ == "__main__":
    main()
