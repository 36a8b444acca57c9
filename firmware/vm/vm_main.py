"""Entry point of the firmware on the MicroPython VM (run by companion.hardware.firmware_vm).

argv: request pipe, answer pipe, start µs, XFER_US, CPU_PERMILLE, mode [, warm-up, sweeps].
mode ``run``: the firmware's own ``main.py`` (bridge.main(), forever, as on the Pico).
mode ``measure``: the real Bridge, steady state: ``warm-up`` sweeps, then ``sweeps`` sweeps with the
link idle (no line due), counting ``gc.mem_alloc()`` and the firmware's Python time; printed on
stderr (stdout is the USB link).
"""

import gc
import sys

import utime
import vmlink


class _ShimLike:
    def value(self, v=None):  # type: ignore[no-untyped-def]
        if v is None:
            return 0
        _enter_like()
        return None


def _enter_like():  # type: ignore[no-untyped-def]
    return utime.ticks_us()


def shim_overhead_ns():  # type: ignore[no-untyped-def]
    """What a shim call (a Python method reaching vmlink.enter) costs beyond a C call
    (``utime.ticks_diff(a, b)``, the cost of ``Pin.value`` on the chip): best of 7 × 2000."""
    pin = _ShimLike()
    diff = utime.ticks_diff
    best_py = best_c = 1 << 40
    for _ in range(7):
        t = utime.ticks_us()
        for _ in range(2000):
            pin.value(0)
        best_py = min(best_py, utime.ticks_diff(utime.ticks_us(), t))
        t = utime.ticks_us()
        for _ in range(2000):
            diff(1, 2)
        best_c = min(best_c, utime.ticks_diff(utime.ticks_us(), t))
    return max(0, (best_py - best_c) * 1000 // 2000)


def measure(warm, sweeps, rp2040_calibrate_us):  # type: ignore[no-untyped-def]
    """``rp2040_calibrate_us`` > 0: charge the firmware's Python time to the virtual clock scaled by
    (that / calibrate.work(5000) on this VM now), timed between the warm-up sweeps."""
    import bridge
    import calibrate

    vmlink.overhead_ns = shim_overhead_ns()
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
        vmlink.enter()
        burst[i] = calibrate.timed(1000) * 5  # µs for work(5000), in short bursts between sweeps
        vmlink.leave()
    burst.sort()
    calibrate_us = burst[0]  # the workload is fixed: anything above its fastest run is other processes
    if rp2040_calibrate_us > 0:
        vmlink.CPU_PERMILLE = rp2040_calibrate_us * 1000 // calibrate_us
    python_each = [0] * sweeps  # preallocated: the measurement itself allocates nothing
    virtual_each = [0] * sweeps
    gc.collect()
    gc.disable()  # mem_alloc then only grows: every byte allocated in the window counts
    before = gc.mem_alloc()
    for i in range(sweeps):
        vmlink.enter()
        start = vmlink.now_us
        python_start = vmlink.python_us
        calls_start = vmlink.calls
        vmlink.leave()
        b.sweep()
        link.feed(port.read(), b.clock())
        link.tick(b.clock())
        vmlink.enter()
        virtual_each[i] = vmlink.now_us - start
        python_each[i] = vmlink.python_us - python_start - (vmlink.calls - calls_start) * vmlink.overhead_ns // 1000
        vmlink.leave()
    allocated = gc.mem_alloc() - before
    # The VM shares this machine's cores: a sweep during which it was descheduled looks slow, and
    # its wall-clock time counts the other processes too. The steady-state sweeps do the same work
    # (but for the one in REVERIFY that re-reads every staying UID), so the fastest is the figure,
    # as the calibration takes its fastest burst: noise only ever adds.
    python_each.sort()
    virtual_each.sort()
    python = python_each[0] * sweeps
    virtual = virtual_each[0] * sweeps
    before = gc.mem_alloc()
    link.send("BEAT", link.session, link.gen)
    beat = gc.mem_alloc() - before
    gc.enable()
    gc.collect()
    vmlink.stderr(
        "MEASURE alloc=%d python_us=%d virtual_us=%d sweeps=%d beat_alloc=%d heap_used=%d tags=%d shim_ns=%d"
        " calibrate_us=%d permille=%d"
        % (
            allocated,
            python,
            virtual,
            sweeps,
            beat,
            gc.mem_alloc(),
            len(link.tags),
            vmlink.overhead_ns,
            calibrate_us,
            vmlink.CPU_PERMILLE,
        )
    )


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
    if args[6] == "measure":
        measure(int(args[7]), int(args[8]), int(args[9]) if len(args) > 9 else 0)
        return
    import bridge

    bridge.main()


main()
