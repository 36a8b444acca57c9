"""Telling a Pico at the MicroPython REPL from one running the bridge firmware, by what it prints.

The firmware prints only protocol lines (four hex digits first). A Pico whose ``main.py`` raised, or
that ``mpremote`` left behind, prints MicroPython's own text instead: a traceback, the banner
(``MicroPython v1.24.1 on 2024-11-29; Raspberry Pi Pico with RP2040``), ``raw REPL; CTRL-B to exit``
and the ``>>> `` prompt, which waits for input without a newline (MicroPython's ``pyexec.c``).

:data:`RESTART_FIRMWARE` restarts the firmware from any of those states: Ctrl-C twice stops whatever
runs at the prompt (paste mode, a half-typed line), Ctrl-B leaves the raw REPL (a soft reset there does
not run ``main.py``), Ctrl-D soft-resets, which runs ``main.py`` in a fresh VM with a clean heap, as at
power-up. ``import main`` would run the firmware inside the heap and module state the crash left, and
does nothing once ``main`` has been imported.
"""

from __future__ import annotations

PROMPT = b">>> "
REPL_SIGNS = (b"MicroPython v", b">>>", b"raw REPL; CTRL-B to exit")
RESTART_FIRMWARE = b"\x03\x03\x02\x04"  # Ctrl-C, Ctrl-C, Ctrl-B, Ctrl-D


class ReplWatch:
    """Reads the lines that are not protocol lines; ``why`` is the last exception the REPL printed."""

    def __init__(self) -> None:
        self.why = ""

    @staticmethod
    def prompt_waiting(partial: bytes | bytearray) -> bool:
        """Is this unfinished line (no newline yet) the REPL's prompt?"""
        return partial.startswith(PROMPT) or partial.startswith(b"\r" + PROMPT)

    def at_repl(self, raw: bytes) -> bool | None:
        """True: MicroPython's REPL printed this (restart the firmware); None: its traceback, nothing to
        count; False: not the REPL's (garbage on the line)."""
        text = raw.strip(b"\r\n\x04")
        if any(text.startswith(sign) for sign in REPL_SIGNS):
            return True
        if text.startswith(b"Traceback (most recent call last)"):
            self.why = ""
            return None
        if text[:4].isalpha() and b"Error" in text[:40]:
            self.why = text[:80].decode("ascii", "replace")  # e.g. "OSError: [Errno 5] EIO"
        return False
