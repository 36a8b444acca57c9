"""The link to the Pi: MicroPython's USB CDC serial (the REPL's stdin/stdout) without blocking.

Ctrl-C stays enabled on purpose: ``mpremote`` interrupts the firmware with it to copy a new version,
and the protocol never carries byte 0x03 (USB has its own CRC, so the host's bytes arrive intact).
Under CPython the tests hand it the master side of a pseudo-terminal; on the MicroPython VM its
stdin/stdout are that pseudo-terminal.

A read with nothing waiting allocates nothing: ``poll.ipoll`` (MicroPython's allocation-free poll)
and a preallocated one-byte buffer; only bytes that did arrive become a new ``bytes``.
"""

import select
import sys


class UsbPort:
    def __init__(self, stream_in=None, stream_out=None, chunk=512):  # type: ignore[no-untyped-def]
        self.inp = stream_in if stream_in is not None else sys.stdin.buffer
        self.out = stream_out if stream_out is not None else sys.stdout.buffer
        self.chunk = chunk
        self.poller = select.poll()
        self.poller.register(sys.stdin if stream_in is None else stream_in, select.POLLIN)
        self.ipoll = getattr(self.poller, "ipoll", None)  # MicroPython only
        self.buf = bytearray(chunk)
        self.one = bytearray(1)
        self.written = 0

    def ready(self):  # type: ignore[no-untyped-def]
        if self.ipoll is None:
            return bool(self.poller.poll(0))
        for _event in self.ipoll(0):
            return True
        return False

    def read(self):  # type: ignore[no-untyped-def]
        """Whatever the host sent (up to ``chunk`` bytes), without waiting."""
        n = 0
        while n < self.chunk and self.ready():
            if not self.inp.readinto(self.one):
                break
            self.buf[n] = self.one[0]
            n += 1
        if n == 0:
            return b""
        return bytes(self.buf[:n])

    def write(self, data):  # type: ignore[no-untyped-def]
        self.out.write(data)
        self.written += len(data)
