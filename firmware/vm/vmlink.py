"""The MicroPython VM's side of the emulated hardware (runs INSIDE the real MicroPython unix VM).

The firmware imports ``machine`` and ``time``; on the VM those are this directory's ``machine.py``
and ``time.py``, which behave like the RP2040 port and reach the emulated hardware through this
module: one request pipe to the CPython host (``companion.hardware.firmware_vm``) and one answer
pipe. The host runs the MFRC522 emulators, the 74HC595 chain and the test's SerialBridge; the
firmware's USB link is the VM's own stdin/stdout, a pseudo-terminal the host's SerialBridge opens.

Virtual time: ``now_us`` (never wraps here) advances by every sleep, by each SPI transaction's bits
at its baud rate plus ``XFER_US`` (the C cost of one transaction on the chip), and, when
``CPU_PERMILLE`` > 0, by the firmware's own Python time on the VM scaled to the RP2040 (the
benchmark's estimate). Every message carries ``now_us`` so the host's emulators share the clock.

Messages VM → host: a 12-byte header (kind, a, b lo, b hi, now_us as 8 bytes little-endian), then a
payload of ``b`` bytes for SPI. Kinds: X = SPI0 transaction (the host answers ``b`` bytes), W = SPI
write on bus ``a`` (LEDs), P = pin ``a`` set to ``b``, F = watchdog fed, S = sync (the host answers
9 bytes: a command and a 64-bit argument: 0 go on, 1 raise OSError in the firmware, 2 jump the clock
forward by the argument; ``a`` = 1 for a time.sleep_ms), R = machine.reset(), D = the watchdog expired.

Nothing here allocates after :func:`open_link` (the firmware's steady state is measured with
``gc.mem_alloc`` around it): preallocated header and answer buffers, small ints only.
"""

import sys

import utime  # the VM's real clock (``time`` is our shim)

XFER_US = 0
CPU_PERMILLE = 0
now_us = 0
req = None
rsp = None
head = bytearray(12)
answer = bytearray(9)
shim_us = 0  # real µs spent inside the shim (pipes, the host's emulators): not the firmware's time
python_us = 0  # real µs of firmware Python between shim calls (with the shim calls' own entry/exit)
_left_at = 0
calls = 0  # shim calls (each one a C call on the chip)
xfers = 0  # SPI0 transactions (register accesses of the readers)
# What one shim call of each kind adds to ``python_us`` beyond the C call it stands for on the chip
# (the Python call into the shim and back, before ``enter`` reads the clock and after ``leave``
# does), in ns; vm_main.py measures them on these very functions. Kinds:
PIN = 0  # machine.Pin.value
SPI = 1  # machine.SPI.write_readinto / write
TICKS = 2  # time.ticks_us / ticks_ms
TICK_MATH = 3  # time.ticks_diff / ticks_add (pure Python here, C on the chip)
OTHER = 4  # sleeps, the watchdog
MEM = 5  # machine.mem32[SIO GPIO register] = mask
overhead_ns = [0, 0, 0, 0, 0, 0]
carry_ns = 0  # RP2040 ns of firmware Python not on the virtual clock yet (negative: shim cost to take off)
excluded_ns = 0  # the sum of overhead_ns over every shim call made: subtracted from python_us
dry = False  # while vm_main measures overhead_ns: shim calls do no I/O
wdt_timeout_us = 0
wdt_fed_at = 0


def open_link(req_path, rsp_path, start_us, xfer_us, cpu_permille):  # type: ignore[no-untyped-def]
    global req, rsp, now_us, XFER_US, CPU_PERMILLE, _left_at
    req = open(req_path, "wb")  # noqa: SIM115
    rsp = open(rsp_path, "rb")  # noqa: SIM115
    now_us = start_us
    XFER_US = xfer_us
    CPU_PERMILLE = cpu_permille
    _left_at = utime.ticks_us()


def enter(kind):  # type: ignore[no-untyped-def]
    """A shim call of ``kind`` begins: the firmware's Python time since the last one is counted
    (and, for the RP2040 estimate, charged to the virtual clock, less the shim call's own cost)."""
    global python_us, now_us, _left_at, calls, excluded_ns, carry_ns
    t = utime.ticks_us()
    spent = utime.ticks_diff(t, _left_at)
    python_us += spent
    calls += 1
    shim = overhead_ns[kind]
    excluded_ns += shim
    if CPU_PERMILLE:
        # RP2040 ns of this stretch: its VM time less the shim call's own cost, scaled. Carried, not
        # clipped or rounded per stretch: a stretch shorter than the clock's 1 us reads 0 or 1, and
        # only the sum over many is right (as for python_us); a clip at 0 would bias it upwards,
        # a floor to whole us per stretch downwards.
        carry_ns += (spent * 1000 - shim) * CPU_PERMILLE // 1000
        if carry_ns >= 1000:
            now_us += carry_ns // 1000
            carry_ns %= 1000
    _left_at = t


def leave():  # type: ignore[no-untyped-def]
    global shim_us, _left_at
    t = utime.ticks_us()
    shim_us += utime.ticks_diff(t, _left_at)
    _left_at = t


def _check_watchdog():  # type: ignore[no-untyped-def]
    if wdt_timeout_us and now_us - wdt_fed_at > wdt_timeout_us:
        send(ord("D"), 0, 0)
        raise SystemExit(3)


def send(kind, a, b):  # type: ignore[no-untyped-def]
    head[0] = kind
    head[1] = a
    head[2] = b & 0xFF
    head[3] = (b >> 8) & 0xFF
    t = now_us
    for i in range(8):
        head[4 + i] = t & 0xFF
        t >>= 8
    req.write(head)


def spi_transaction(buf, baudrate):  # type: ignore[no-untyped-def]
    """SPI0 write_readinto: ``buf`` goes out, the answer comes back into it."""
    global now_us, xfers
    if dry:
        return
    xfers += 1
    n = len(buf)
    now_us += n * 8000000 // baudrate + XFER_US
    _check_watchdog()
    send(ord("X"), 0, n)
    req.write(buf)
    if rsp.readinto(buf) != n:
        raise OSError(5)


def spi_write(bus, buf, baudrate):  # type: ignore[no-untyped-def]
    global now_us
    if dry:
        return
    now_us += len(buf) * 8000000 // baudrate + XFER_US
    send(ord("W"), bus, len(buf))
    req.write(buf)


gpio_out = 0  # the GPIO output levels the firmware set through SIO stores
SIO_SET = 0xD0000014  # RP2040 datasheet §2.3.1.7
SIO_CLR = 0xD0000018
SIO_XOR = 0xD000001C


def gpio_store(addr, mask):  # type: ignore[no-untyped-def]
    """A store to SIO GPIO_OUT_SET/CLR/XOR: every GPIO whose level changes goes to the host as a pin
    message (as Pin.value does)."""
    global gpio_out
    if addr == SIO_SET:
        new = gpio_out | mask
    elif addr == SIO_CLR:
        new = gpio_out & ~mask
    elif addr == SIO_XOR:
        new = gpio_out ^ mask
    else:
        raise ValueError("mem32: only SIO GPIO_OUT_SET/CLR/XOR are emulated")
    if dry:
        return
    changed = new ^ gpio_out
    gpio_out = new
    number = 0
    while changed:
        if changed & 1:
            send(80, number, (new >> number) & 1)  # ord("P")
        changed >>= 1
        number += 1


def pin(number, value):  # type: ignore[no-untyped-def]
    global gpio_out
    if dry:
        return
    gpio_out = (gpio_out | (1 << number)) if value else (gpio_out & ~(1 << number))
    send(ord("P"), number, value)


def sleep_us(us, between_steps=0):  # type: ignore[no-untyped-def]
    global now_us
    if dry:
        return
    if us > 0:
        now_us += us
    _check_watchdog()
    send(ord("S"), between_steps, 0)
    if rsp.readinto(answer) != 9:
        raise OSError(5)
    command = answer[0]
    if command == 1:
        raise OSError(5)  # injected: the host asked for a failure inside the firmware's main loop
    if command == 2:  # the soak skips ahead: steps that would have run meanwhile fed the watchdog
        global wdt_fed_at
        jump = 0
        for i in range(8):
            jump |= answer[1 + i] << (8 * i)
        now_us += jump
        wdt_fed_at += jump


def feed():  # type: ignore[no-untyped-def]
    global wdt_fed_at
    wdt_fed_at = now_us
    send(ord("F"), 0, 0)


def reset():  # type: ignore[no-untyped-def]
    send(ord("R"), 0, 0)
    raise SystemExit(0)


def stderr(text):  # type: ignore[no-untyped-def]
    sys.stderr.write(text + "\n")
