"""The wizard's window: pygame events to wizard intents, and the loop that draws the screen.

On the box the touch screen gives taps and drags; at a desk the mouse does, and the keyboard stands
in for the five buttons: Enter = OK, Esc = BACK, + and - = PLUS and MINUS, Tab = MENU (with Shift: a
long press). F2 (or /) starts typing a name or a card text; Enter sends it, Esc drops it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import pygame

from companion.display.record import FrameRecord
from companion.games.digitise.model import NameTyped, Step, WizardState
from companion.intents import ButtonName, ButtonPressed, CityTapped
from companion.setup_box.machine import WizardIntent
from companion.setup_box.screen import drag, hit

KEYS = {
    pygame.K_RETURN: ButtonName.OK,
    pygame.K_KP_ENTER: ButtonName.OK,
    pygame.K_ESCAPE: ButtonName.BACK,
    pygame.K_PLUS: ButtonName.PLUS,
    pygame.K_EQUALS: ButtonName.PLUS,
    pygame.K_KP_PLUS: ButtonName.PLUS,
    pygame.K_MINUS: ButtonName.MINUS,
    pygame.K_KP_MINUS: ButtonName.MINUS,
    pygame.K_TAB: ButtonName.MENU,
}
DRAG_SLOP = 6  # pixels a touch may wander and still be a tap


@dataclass
class WindowInput:
    """Turns pygame events into intents, given the last frame drawn (its record) and the state."""

    typing: str | None = None  # the text being typed, shown on the screen
    dragging: str | None = None
    down: tuple[int, int] | None = None

    def intents(self, event: pygame.event.Event, record: FrameRecord, state: WizardState) -> list[WizardIntent]:
        if event.type == pygame.KEYDOWN:
            return self._key(event)
        if event.type == pygame.TEXTINPUT and self.typing is not None:
            self.typing += event.text
            return []
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.down = event.pos
            city = record.city_at(event.pos)
            if state.step is Step.LAYOUT and city is not None:
                self.dragging = city
                return []
            found = hit(record, event.pos)
            return [found] if found is not None else []
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.dragging is not None:
            city, start, self.dragging, self.down = self.dragging, self.down, None, None
            if start is not None and max(abs(event.pos[0] - start[0]), abs(event.pos[1] - start[1])) > DRAG_SLOP:
                return [drag(record, city, event.pos)]
            return [CityTapped(city)]
        return []

    def _key(self, event: pygame.event.Event) -> list[WizardIntent]:
        if self.typing is not None:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                text, self.typing = self.typing, None
                return [NameTyped(text)] if text.strip() else []
            if event.key == pygame.K_ESCAPE:
                self.typing = None
            elif event.key == pygame.K_BACKSPACE:
                self.typing = self.typing[:-1]
            return []
        if event.key in (pygame.K_F2, pygame.K_SLASH):
            self.typing = ""
            return []
        button = KEYS.get(event.key)
        if button is None:
            return []
        return [ButtonPressed(button, bool(event.mod & pygame.KMOD_SHIFT))]


def run_window(
    handle: Callable[[WizardIntent], WizardState],
    state: Callable[[], WizardState],
    *,
    size: tuple[int, int] = (800, 480),
    fullscreen: bool = False,
    other_intents: Callable[[], Iterable[WizardIntent]] = lambda: (),
    tick: Callable[[float], None] = lambda now: None,
    clock: Callable[[], float] | None = None,
    frames: int | None = None,
) -> None:  # pragma: no cover - an interactive window; the parts are tested
    """Draw the wizard and feed it the window's and ``other_intents`` (the readers, the buttons)
    until the window is closed (or ``frames`` frames, for a smoke test)."""
    from companion.setup_box.screen import render

    pygame.display.init()
    pygame.font.init()
    surface = pygame.display.set_mode(size, pygame.FULLSCREEN if fullscreen else 0)
    pygame.display.set_caption("companion setup-box")
    pygame.key.start_text_input()
    window = WindowInput()
    ticker = pygame.time.Clock()
    now = clock or (lambda: pygame.time.get_ticks() / 1000)
    record = render(surface, state(), now=now(), typing=window.typing)
    count = 0
    try:
        while frames is None or count < frames:
            count += 1
            for event in pygame.event.get():
                if event.type == pygame.QUIT:
                    return
                for intent in window.intents(event, record, state()):
                    handle(intent)
            for intent in other_intents():
                handle(intent)
            tick(now())
            record = render(surface, state(), now=now(), typing=window.typing)
            pygame.display.flip()
            ticker.tick(20)
    finally:
        pygame.display.quit()
