"""A fixed pure-Python workload for the RP2040 speed factor (benchmarks/readers.py): the kind of
code the firmware runs (method calls, attribute access, bytearray indexing, small-int arithmetic and
comparisons), timed on the MicroPython VM. Printed on stdout: ``calibrate <best µs of 7 runs>``."""

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


def work(n):  # type: ignore[no-untyped-def]
    chip = Register()
    total = 0
    for i in range(n):
        chip.write(i & 0x3F, i)
        if chip.read(i & 0x3F) > 0x40:
            total += 1
        total = (total + i * 3) & 0xFFFF
    return total


best = 0
for _ in range(7):
    start = utime.ticks_us()
    work(5000)
    spent = utime.ticks_diff(utime.ticks_us(), start)
    best = spent if best == 0 or spent < best else best
print("calibrate", best)
