"""A fixed pure-Python workload for the RP2040 speed factor (benchmarks/readers.py): the kind of
code the firmware runs (method calls, attribute access, bytearray indexing, small-int arithmetic and
comparisons), timed on the MicroPython VM. Run as a script: ``calibrate <best µs of 7 × work(5000)>``;
vm_main.py's ``measure`` times it between the warm-up sweeps, in the same process and moment as the
firmware it scales."""

import utime


class Register:
    def __init__(self):  # type: ignore[no-untyped-def]
        self.io = bytearray(16)
        self.count = 0

    def write(self, reg, value):  # type: ignore[no-untyped-def]
        io = self.io
        io[0] = (reg << 1) & 0x7E
        io[1] = value & 0xFF
        self.count += 1

    def read(self, reg):  # type: ignore[no-untyped-def]
        io = self.io
        io[0] = ((reg << 1) & 0x7E) | 0x80
        self.count += 1
        return io[1] ^ reg


CHIP = Register()  # made once: the timed work allocates nothing (no collection inside a timing)


def work(n):  # type: ignore[no-untyped-def]
    chip = CHIP
    total = 0
    for i in range(n):
        chip.write(i & 0x3F, i)
        if chip.read(i & 0x3F) > 0x40:
            total += 1
        total = (total + i * 3) & 0xFFFF
    return total


def timed(n):  # type: ignore[no-untyped-def]
    start = utime.ticks_us()
    work(n)
    return utime.ticks_diff(utime.ticks_us(), start)


if __name__ == "__main__":
    best = 0
    for _ in range(7):
        spent = timed(5000)
        best = spent if best == 0 or spent < best else best
    print("calibrate", best)
