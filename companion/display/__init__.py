"""The screen: a pure function of (engine state, UI model, LED frame, size) -> drawn surface.

    from companion.display import render
    frame = render(surface, state, ui, leds)      # draws into ``surface``, returns what it drew

``companion.simulator.window`` plays a whole game in a window with emulated table hardware.
"""

from __future__ import annotations

from companion.display.record import DrawnText, FrameRecord
from companion.games.on_the_way.screen.render import needs_animation, render, render_to_surface

__all__ = ["DrawnText", "FrameRecord", "needs_animation", "render", "render_to_surface"]
