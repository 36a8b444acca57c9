"""Entry point of the firmware on the MicroPython VM (run by companion.hardware.firmware_vm).

argv: request pipe, answer pipe, start µs, XFER_US, CPU_PERMILLE, mode [, warm-up, sweeps].
mode ``run``: the firmware's own ``main.py`` (bridge.main(), forever, as on the Pico).
mode ``measure``: the real Bridge, steady state: ``warm-up`` sweeps, then ``sweeps`` sweeps with the
link idle (no line due), counting ``gc.mem_alloc()`` and the firmware's Python time; printed on
stderr (stdout is the USB link). Mode ``standins`` (argument: tags): the sweep scripts alone on C
stand-ins for the hardware (see :func:`standins`).
"""

import gc
import sys

import utime
import vmlink


def _calls(kind, n, pin, spi, clock, view, addr=0):  # type: ignore[no-untyped-def]
    """``n`` calls of the kind's function, each with the call shape the firmware uses (a method of a
    local object, an attribute of a module, a subscript store), in a loop; µs by the wall clock."""
    t = utime.ticks_us()
    if kind == vmlink.PIN:
        for _ in range(n):
            pin.value(0)
    elif kind == vmlink.SPI:
        for _ in range(n):
            spi.write_readinto(view, view)
    elif kind == vmlink.TICKS:
        for _ in range(n):
            clock.ticks_us()
    elif kind == vmlink.MEM:
        for _ in range(n):
            pin[addr] = 0
    else:
        for _ in range(n):
            clock.ticks_diff(1, 2)
    return utime.ticks_diff(utime.ticks_us(), t)


class _CPin:
    """Stand-ins made of C calls of the same shape: what the calls cost on the chip (in C)."""

    def __init__(self):  # type: ignore[no-untyped-def]
        self.value = [].count  # a C method of one argument
        self.write_readinto = {}.get  # a C method of two arguments (a miss: allocates nothing)


def _shim_calls(kind, n, pin, spi, clock, view, addr=0):  # type: ignore[no-untyped-def]
    """µs that ``n`` calls of the REAL shim function of ``kind`` (no I/O: ``vmlink.dry``) add to
    ``vmlink.python_us``, the firmware's account, with the same loop around them."""
    vmlink.enter(4)
    before = vmlink.python_us
    vmlink.leave()
    _calls(kind, n, pin, spi, clock, view, addr)
    vmlink.enter(4)
    spent = vmlink.python_us - before
    vmlink.leave()
    return spent


_best_shim = [1 << 40] * 6  # per kind, the fastest loop seen so far (µs for 2000 calls)
_best_c = [1 << 40] * 6


def shim_overhead_ns(reps):  # type: ignore[no-untyped-def]
    """Per kind of shim call (Pin.value, SPI.write_readinto, ticks_us, ticks_diff/ticks_add, a
    ``mem32`` store), what one adds to the firmware's Python account beyond the C call it stands for
    on the chip: (shim loop's account - C loop's time) / n, each the fastest of every run so far
    (``reps`` more now; noise only adds, and the fastest makes the smallest correction: the
    pessimistic side). Measured on the shim's own functions (their I/O off) and on C calls of the
    same shape, in the process the firmware runs, between its warm-up sweeps. Sleeps and the
    watchdog (once per step) count as the ticks kind."""
    import time

    import machine

    n = 2000
    view = memoryview(bytearray(5))
    shim = (machine.Pin(99, machine.Pin.OUT), machine.SPI(0, baudrate=4000000), time)
    c = _CPin()
    c_mem = bytearray(1)  # a subscript store in C
    vmlink.dry = True
    try:
        for kind in (vmlink.PIN, vmlink.SPI, vmlink.TICKS, vmlink.TICK_MATH, vmlink.MEM):
            mem = kind == vmlink.MEM
            for _ in range(reps):
                spent = _shim_calls(kind, n, machine.mem32 if mem else shim[0], shim[1], shim[2], view, vmlink.SIO_XOR)
                _best_shim[kind] = min(_best_shim[kind], spent)
                _best_c[kind] = min(_best_c[kind], _calls(kind, n, c_mem if mem else c, c, utime, view, 0))
            vmlink.overhead_ns[kind] = max(0, (_best_shim[kind] - _best_c[kind]) * 1000 // n)
        vmlink.overhead_ns[vmlink.OTHER] = vmlink.overhead_ns[vmlink.TICKS]
    finally:
        vmlink.dry = False


def measure(warm, sweeps, rp2040_calibrate_us):  # type: ignore[no-untyped-def]
    """``rp2040_calibrate_us`` > 0: charge the firmware's Python time to the virtual clock scaled by
    (that / calibrate.work(5000) on this VM now), timed between the warm-up sweeps."""
    import bridge
    import calibrate

    shim_overhead_ns(7)
    b = bridge.Bridge()
    link = b.link
    far = 1 << 29  # no heartbeat or snapshot due in the window: an idle link
    link.beat_ms = link.snapshot_ms = far
    link.next_beat_ms = link.next_snap_ms = far
    port = b.port
    burst = [0] * warm
    for i in range(warm):
        b.sweep()
        link.feed(port.read(), b.clock())
        link.tick(b.clock())
        vmlink.enter(4)
        burst[i] = calibrate.timed(1000) * 5  # µs for work(5000), in short bursts between sweeps
        vmlink.leave()
        shim_overhead_ns(1)
    burst.sort()
    calibrate_us = burst[0]  # the workload is fixed: anything above its fastest run is other processes
    if rp2040_calibrate_us > 0:
        vmlink.CPU_PERMILLE = rp2040_calibrate_us * 1000 // calibrate_us
    python_each = [0] * sweeps  # preallocated: the measurement itself allocates nothing
    virtual_each = [0] * sweeps
    calls_each = [0] * sweeps
    xfers_each = [0] * sweeps
    gc.collect()
    gc.disable()  # mem_alloc then only grows: every byte allocated in the window counts
    before = gc.mem_alloc()
    for i in range(sweeps):
        vmlink.enter(4)
        start = vmlink.now_us
        python_start = vmlink.python_us
        excluded_start = vmlink.excluded_ns
        calls_start = vmlink.calls
        xfers_start = vmlink.xfers
        vmlink.leave()
        b.sweep()
        link.feed(port.read(), b.clock())
        link.tick(b.clock())
        vmlink.enter(4)
        virtual_each[i] = vmlink.now_us - start
        python_each[i] = vmlink.python_us - python_start - (vmlink.excluded_ns - excluded_start) // 1000
        calls_each[i] = vmlink.calls - calls_start
        xfers_each[i] = vmlink.xfers - xfers_start
        vmlink.leave()
    allocated = gc.mem_alloc() - before
    # The VM shares this machine's cores: a sweep during which it was descheduled looks slow, and
    # its wall-clock time counts the other processes too. The steady-state sweeps do the same work
    # (but for the one in REVERIFY that re-reads every staying UID), so the fastest is the figure,
    # as the calibration takes its fastest burst: noise only ever adds.
    python_each.sort()
    virtual_each.sort()
    calls_each.sort()
    xfers_each.sort()
    python = python_each[0] * sweeps
    virtual = virtual_each[0] * sweeps
    before = gc.mem_alloc()
    link.send("BEAT", link.session, link.gen)
    beat = gc.mem_alloc() - before
    gc.enable()
    gc.collect()
    vmlink.stderr(
        "MEASURE alloc=%d python_us=%d virtual_us=%d sweeps=%d beat_alloc=%d heap_used=%d tags=%d"
        " shim_pin_ns=%d shim_spi_ns=%d shim_ticks_ns=%d shim_tick_math_ns=%d shim_mem_ns=%d shim_calls=%d xfers=%d"
        " calibrate_us=%d permille=%d"
        % (
            allocated,
            python,
            virtual,
            sweeps,
            beat,
            gc.mem_alloc(),
            len(link.tags),
            vmlink.overhead_ns[vmlink.PIN],
            vmlink.overhead_ns[vmlink.SPI],
            vmlink.overhead_ns[vmlink.TICKS],
            vmlink.overhead_ns[vmlink.TICK_MATH],
            vmlink.overhead_ns[vmlink.MEM],
            calls_each[sweeps // 2],
            xfers_each[sweeps // 2],
            calibrate_us,
            vmlink.CPU_PERMILLE,
        )
    )


class _StandinSpi:
    def __init__(self):  # type: ignore[no-untyped-def]
        self.write_readinto = {}.get  # a C method of two arguments, as the shim's kind SPI is measured against


class _StandinReader:
    def __init__(self, channel, scripts, tag):  # type: ignore[no-untyped-def]
        self.channel = channel
        self.slot = scripts.Slot()
        self.slot.ref[7] = scripts.VALID  # the stand-in transfer leaves the look all zero: it matches
        self.slot.ref[8] = 1 if tag else 0


def standins(tags):  # type: ignore[no-untyped-def]
    """A cross-check of the RP2040 estimate's per-call charge, not the estimate: the real sweep
    scripts (``scripts.GroupScript.wake``/``look``) of the build's groups with C stand-ins for the
    hardware (a dict store for each ``mem32`` store, ``{}.get`` for ``SPI.write_readinto``, the VM's
    own ``utime`` clock) and no guard or answer waits, every look matching its reference (the first
    ``tags`` city readers a staying tag's, the others an empty one's). The fastest of 300 sweeps in
    µs on this VM: the scripted steady sweep's own Python without any shim call."""
    import bridge_config as cfg
    import hw
    import scripts

    scripts.time = utime  # C clock calls, not the shim's
    scripts.core.GUARD_US = 0
    scripts.LOOK_US = 0
    bus = hw.ReaderBus(cfg)
    bus.mem32 = {hw.SIO_GPIO_OUT_SET: 0, hw.SIO_GPIO_OUT_CLR: 0, hw.SIO_GPIO_OUT_XOR: 0}
    bus.spi = _StandinSpi()
    groups = cfg.GROUPS if cfg.GROUPS is not None else [[ch] for ch in range(cfg.READERS)]
    ordered = [ch for group in groups for ch in group if ch != cfg.CARD_CHANNEL]
    tagged = ordered[:tags]
    runs = []
    for group in groups:
        readers = [_StandinReader(ch, scripts, ch in tagged) for ch in group]
        runs.append(scripts.GroupScript(bus, readers))
    best = 1 << 30
    for _ in range(300):
        t = utime.ticks_us()
        for run in runs:
            run.wake()
            run.look()
        spent = utime.ticks_diff(utime.ticks_us(), t)
        best = spent if spent < best else best
    vmlink.stderr("STANDINS us=%d" % best)  # noqa: UP031


def selftest():  # type: ignore[no-untyped-def]
    """The shim's clock, checked from inside the VM (started 10 µs before a wrap)."""
    import time

    before = time.ticks_us()
    time.sleep_us(20)
    after = time.ticks_us()
    if after < before and time.ticks_diff(after, before) == 20:
        vmlink.stderr("wrapped")
    try:
        time.ticks_diff(before + 25, before)  # a deadline built with +, past the wrap
    except OverflowError:
        vmlink.stderr("ticks_diff(2**30+5)")
        vmlink.stderr("OverflowError")
    if time.ticks_add(before, 20) == after:
        vmlink.stderr("ticks_add")
        vmlink.stderr("ok")


def main():  # type: ignore[no-untyped-def]
    args = sys.argv
    vmlink.open_link(args[1], args[2], int(args[3]), int(args[4]), int(args[5]))
    if args[6] == "selftest":
        selftest()
        return
    if args[6] == "standins":
        standins(int(args[7]))
        return
    if args[6] == "measure":
        measure(int(args[7]), int(args[8]), int(args[9]) if len(args) > 9 else 0)
        return
    import bridge

    bridge.main()


main()
