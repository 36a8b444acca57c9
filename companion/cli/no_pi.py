"""What a command that drives the box's GPIO says on a machine without it (a laptop, a desktop):
gpiozero finds no pin factory and raises ``BadPinFactory``; the person sees one sentence naming
the option that works there instead of a traceback."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import contextmanager


def is_missing_gpio(exc: BaseException) -> bool:
    """True for gpiozero's "no pin factory" errors (no Raspberry Pi GPIO here, or no lgpio)."""
    try:
        from gpiozero.exc import BadPinFactory
    except ImportError:  # gpiozero itself missing: no GPIO either
        return isinstance(exc, ImportError) and "gpiozero" in str(exc)
    return isinstance(exc, BadPinFactory)


@contextmanager
def explain_missing_gpio(command: str, instead: str) -> Iterator[None]:
    """Run the block; a missing GPIO ends the program with a message (exit status 1), not a traceback.
    ``instead``: what works on this machine, e.g. "At a desk: --input window"."""
    with warnings.catch_warnings(record=True) as noted:  # gpiozero's "falling back from lgpio" on the way
        warnings.simplefilter("always")
        try:
            yield
        except Exception as exc:
            if not is_missing_gpio(exc):
                _replay(noted)
                raise
            failure = exc
        else:
            _replay(noted)
            return
    raise SystemExit(
        f"{command}: this machine has no Raspberry Pi GPIO for the readers, LEDs and buttons "
        f"(gpiozero: {failure}). {instead}"
    ) from None


def _replay(noted: list[warnings.WarningMessage]) -> None:
    for w in noted:
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)


EMULATED = (
    "To try it without a box, use the emulated hardware: COMPANION_HARDWARE=emulated {command} ... "
    "(docs/hardware.md); on the Pi, install rpi-lgpio and run it as a user in the gpio and spi groups."
)
