"""Whether a window can be seen, checked by every command that opens one (the simulator, the
kiosk's --windowed, the leaderboard) before it runs.

Without a display SDL does not fail: after X11, Wayland and the console's KMS/DRM it falls back to
its "offscreen" driver, and the program runs forever drawing into memory, with nothing to see and
nothing to close. So a program that was not asked to be invisible stops with a message instead.
Invisible on purpose is still possible: ``SDL_VIDEODRIVER=dummy`` (or ``offscreen``) set
explicitly, as the tests do (tests/conftest.py), or the kiosk's ``--headless``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

INVISIBLE_DRIVERS = frozenset({"offscreen", "dummy"})  # SDL drivers that draw into memory only
CONSOLE_DEVICES = (Path("/dev/dri"), Path("/dev/fb0"))  # a KMS/DRM GPU or a framebuffer console

HOW_TO_FIX = (
    "Run it in a desktop session; over ssh use ssh -X, or DISPLAY=:0 for the screen attached to that "
    "machine; on a Pi without a desktop run it from the console (kmsdrm). To run without a window on "
    "purpose (tests, scripts) set SDL_VIDEODRIVER=dummy."
)


def _console_present(devices: tuple[Path, ...]) -> bool:
    for device in devices:
        if device.name == "dri" and device.is_dir() and any(p.name.startswith("card") for p in device.iterdir()):
            return True
        if device.name != "dri" and device.exists():
            return True
    return False


def display_problem_before(
    environ: Mapping[str, str] | None = None,
    *,
    platform: str = sys.platform,
    devices: tuple[Path, ...] = CONSOLE_DEVICES,
) -> str | None:
    """Before SDL starts: None when a display may be reachable (or a driver was asked for by name),
    else what is wrong. Linux only: macOS and Windows always have their own window system."""
    env = os.environ if environ is None else environ
    if env.get("SDL_VIDEODRIVER") or not platform.startswith("linux"):
        return None
    if env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"):
        return None
    if _console_present(devices):
        return None
    return "there is no display here: no $DISPLAY or $WAYLAND_DISPLAY, and no console (/dev/dri, /dev/fb0)."


def display_problem_after(driver: str, environ: Mapping[str, str] | None = None) -> str | None:
    """After ``pygame.display.init()``: a problem when SDL fell back to a driver nobody can see
    without being asked for it (``driver``: ``pygame.display.get_driver()``)."""
    env = os.environ if environ is None else environ
    asked = env.get("SDL_VIDEODRIVER", "").strip().lower()
    if driver.lower() in INVISIBLE_DRIVERS and asked != driver.lower():
        return f'SDL found no display and fell back to its invisible "{driver}" driver.'
    return None


def visible_display_problem(program: str) -> str | None:
    """Start pygame's display and say, with the fix, why nothing would be seen (None: a display is
    there, or invisibility was asked for). Every window command calls this before opening its window;
    ``program`` starts the message ("" when the caller adds its own name)."""
    problem = display_problem_before()
    if problem is None:
        import pygame

        pygame.display.init()
        problem = display_problem_after(pygame.display.get_driver())
        if problem is not None:
            pygame.display.quit()
    if problem is None:
        return None
    return f"{program + ': ' if program else ''}{problem} The window would run invisibly. {HOW_TO_FIX}"


def refuse_invisible(program: str) -> int | None:
    """For a command's entry point: print why no window can be seen and return the exit status (1),
    or None to go on. ``if (code := refuse_invisible("companion leaderboard")) is not None: return code``"""
    problem = visible_display_problem(program)
    if problem is None:
        return None
    print(problem, file=sys.stderr)
    return 1
