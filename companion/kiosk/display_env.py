"""The kiosk's console display: checks and settings the display integration calls (nothing drawn here).

On the Pi the kiosk runs from systemd on the console, without a desktop: pygame-ce talks to the GPU
through SDL's ``kmsdrm`` video driver (needs the ``video`` and ``render`` groups for /dev/dri and
``input`` for the touchscreen and keyboard). Some pygame-ce wheels are built without kmsdrm; then
the kiosk says so at start (``check_video_driver``) and the documented alternative is running it
inside ``cage``, a one-window Wayland kiosk compositor (docs/pi-install.md).

What the display integration does at start, in this order::

    env = kiosk_environment(os.environ); os.environ.update(env)     # before pygame.display.init()
    check = check_video_driver(env["SDL_VIDEODRIVER"]);  exit with check.message unless check.ok
    screen = open_fullscreen(pygame)                                 # fullscreen, cursor hidden
    disable_console_blanking()                                       # best effort; consoleblank=0 is the real fix
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)

CAGE_HINT = (
    "Run the kiosk inside cage instead (apt install cage; see docs/pi-install.md, "
    '"Display without kmsdrm"), or install a pygame-ce built with KMSDRM support.'
)


# SDL 2's video drivers (SDL_video.c's bootstrap list) that can show the kiosk; anything else is a typo.
VIDEO_DRIVERS = ("kmsdrm", "wayland", "x11", "dummy", "offscreen", "evdev", "directfb", "rpi", "vivante")


def kiosk_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """SDL settings for the kiosk: an explicit ``SDL_VIDEODRIVER`` wins (if SDL has such a driver: a
    typo is logged and ignored); under cage, wayland; else kmsdrm."""
    env: dict[str, str] = {
        "SDL_VIDEO_ALLOW_SCREENSAVER": "0",  # never let SDL blank the screen at a convention
        "PYGAME_HIDE_SUPPORT_PROMPT": "1",
    }
    asked = environ.get("SDL_VIDEODRIVER", "").strip()
    if asked and asked not in VIDEO_DRIVERS:
        log.warning("SDL_VIDEODRIVER=%r is not a video driver of SDL (%s): using the default", asked[:40],
                    ", ".join(VIDEO_DRIVERS))  # fmt: skip
    if asked in VIDEO_DRIVERS:
        env["SDL_VIDEODRIVER"] = asked
    elif environ.get("WAYLAND_DISPLAY"):
        env["SDL_VIDEODRIVER"] = "wayland"  # inside cage
    else:
        env["SDL_VIDEODRIVER"] = "kmsdrm"  # the console, no desktop
    return env


@dataclass(frozen=True, slots=True)
class DisplayCheck:
    ok: bool
    driver: str  # the driver asked for
    message: str


def _pygame_probe(driver: str) -> str:
    """Initialise pygame's display with ``driver`` and return the driver SDL actually opened."""
    os.environ["SDL_VIDEODRIVER"] = driver
    import pygame

    pygame.display.init()
    try:
        return str(pygame.display.get_driver())
    finally:
        pygame.display.quit()


def check_video_driver(driver: str, probe: Callable[[str], str] = _pygame_probe) -> DisplayCheck:
    """Can the display open with ``driver``? A clear message either way (logged as an error if not)."""
    try:
        opened = probe(driver)
    except Exception as exc:
        message = f"the display cannot start with SDL_VIDEODRIVER={driver}: {exc}."
        if driver == "kmsdrm":
            message += " This pygame-ce may lack the kmsdrm driver, or /dev/dri is not accessible. " + CAGE_HINT
        log.error("%s", message)
        return DisplayCheck(False, driver, message)
    if opened != driver:
        hint = CAGE_HINT if driver == "kmsdrm" else ""
        message = f"SDL opened the {opened!r} video driver, not {driver!r}. {hint}"
        log.error("%s", message)
        return DisplayCheck(False, driver, message.strip())
    return DisplayCheck(True, driver, f"display: SDL video driver {driver}")


def open_fullscreen(pygame: Any) -> Any:
    """The kiosk window: the whole screen at its native size, no mouse cursor (touch still works)."""
    surface = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
    pygame.mouse.set_visible(False)
    return surface


def disable_console_blanking(tty: str = "/dev/tty1") -> bool:
    """Ask the console not to blank (``setterm --blank 0 --powerdown 0``); best effort, False if not allowed.

    The reliable setting is ``consoleblank=0`` on the kernel command line (docs/pi-install.md).
    """
    try:
        with open(tty, "w", encoding="ascii") as console:
            console.write("\033[9;0]\033[14;0]")
    except OSError as exc:
        log.info("cannot switch console blanking off on %s: %s", tty, exc)
        return False
    return True
