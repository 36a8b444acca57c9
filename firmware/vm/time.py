"""``time`` as the RP2040 port has it, for the firmware on the MicroPython VM (see vmlink.py).

ticks wrap at 2**30 (MICROPY_PY_TIME_TICKS_PERIOD on the RP2040, whose small ints are 31-bit) and
``ticks_diff``/``ticks_add`` fail loudly on a value that is not a tick: the unix VM is 64-bit, so its
own ticks would not wrap for centuries and its small ints would hide a long-int deadline.
Formulas: MicroPython extmod/modtime.c (time_ticks_diff, time_ticks_add).
"""

import vmlink

PERIOD = 1 << 30
MASK = PERIOD - 1
HALF = PERIOD // 2


def _check(t):  # type: ignore[no-untyped-def]
    if not 0 <= t < PERIOD:
        raise OverflowError("not a tick: a small int in [0, 2**30) on the RP2040")


def ticks_us():  # type: ignore[no-untyped-def]
    vmlink.enter(2)  # vmlink.TICKS
    t = vmlink.now_us & MASK
    vmlink.leave()
    return t


def ticks_ms():  # type: ignore[no-untyped-def]
    vmlink.enter(2)
    t = (vmlink.now_us // 1000) & MASK
    vmlink.leave()
    return t


def ticks_cpu():  # type: ignore[no-untyped-def]
    return ticks_us()


def ticks_diff(end, start):  # type: ignore[no-untyped-def]
    vmlink.enter(3)  # vmlink.TICK_MATH: C on the chip, so its Python here is the shim's time
    _check(end)
    _check(start)
    diff = ((end - start + HALF) & MASK) - HALF
    vmlink.leave()
    return diff


def ticks_add(ticks, delta):  # type: ignore[no-untyped-def]
    vmlink.enter(3)
    _check(ticks)
    if not -HALF <= delta < HALF:
        raise OverflowError("ticks interval overflow")
    vmlink.leave()
    return (ticks + delta) & MASK


def sleep_us(us):  # type: ignore[no-untyped-def]
    vmlink.enter(4)  # vmlink.OTHER
    vmlink.sleep_us(us)
    vmlink.leave()


def sleep_ms(ms):  # type: ignore[no-untyped-def]
    vmlink.enter(4)  # vmlink.OTHER
    vmlink.sleep_us(ms * 1000, 1)
    vmlink.leave()


def sleep(seconds):  # type: ignore[no-untyped-def]
    sleep_ms(int(seconds * 1000))


def time():  # type: ignore[no-untyped-def]
    return vmlink.now_us // 1000000
