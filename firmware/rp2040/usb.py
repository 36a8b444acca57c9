"""The link to the Pi: MicroPython's USB CDC serial (the REPL's stdin/stdout) without blocking.

Ctrl-C stays enabled on purpose: ``mpremote`` interrupts the firmware with it to copy a new version,
and the protocol never carries byte 0x03 (USB has its own CRC, so the host's bytes arrive intact).
Under CPython the tests hand it the master side of a pseudo-terminal.
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
        self.written = 0

    def read(self):  # type: ignore[no-untyped-def]
        """Whatever the host sent (up to ``chunk`` bytes), without waiting."""
        data = bytearray()
        while len(data) < self.chunk and self.poller.poll(0):
            byte = self.inp.read(1)
            if not byte:
                break
            data += byte
        return bytes(data)

    def write(self, data):  # type: ignore[no-untyped-def]
        self.out.write(data)
        self.written += len(data)
