"""The wizard's window: pygame events to wizard intents, and the loop that draws the screen.

On the box the touch screen gives taps and drags; at a desk the mouse does, and the keyboard stands
in for the five buttons: Enter = OK, Esc = BACK, + and - = PLUS and MINUS, Tab = MENU (with Shift: a
long press). F2 (or /) starts typing a name or a card text; Enter sends it, Esc drops it. The
"Leave" button, Ctrl+Q and the window's close button end it (the progress is kept: it resumes).
The screen speaks ``$COMPANION_LANGUAGE`` (en, cs, de, pl; the kiosk's setting) and, in a window, a
desk's words (clicks and keys).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import pygame

from companion.display.record import FrameRecord
from companion.games.digitise.model import NameTyped, Step, WizardState
from companion.intents import ButtonName, ButtonPressed, CityTapped
from companion.setup_box.machine import WizardIntent
from companion.setup_box.screen import LeaveTapped, drag, hit
from companion.table.messages import LANGUAGES

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

    def intents(
        self, event: pygame.event.Event, record: FrameRecord, state: WizardState
    ) -> list[WizardIntent | LeaveTapped]:
        if event.type == pygame.QUIT or (
            event.type == pygame.KEYDOWN and event.key == pygame.K_q and event.mod & pygame.KMOD_CTRL
        ):
            return [LeaveTapped()]
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

    def _key(self, event: pygame.event.Event) -> list[WizardIntent | LeaveTapped]:
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
    language: str | None = None,
    desk: bool | None = None,
) -> None:  # pragma: no cover - an interactive window; the parts are tested
    """Draw the wizard and feed it the window's and ``other_intents`` (the readers, the buttons)
    until it is left (the "Leave" button, Ctrl+Q, the close button; or ``frames`` frames, for a smoke
    test). ``desk``: a desk's words (default: a window is a desk, the box's full screen is not)."""
    from companion.setup_box.screen import render

    language = language or screen_language()
    desk = not fullscreen if desk is None else desk

    pygame.display.init()
    pygame.font.init()
    surface = pygame.display.set_mode(size, pygame.FULLSCREEN if fullscreen else 0)
    pygame.display.set_caption("companion setup-box")
    pygame.key.start_text_input()
    window = WindowInput()
    ticker = pygame.time.Clock()
    now = clock or (lambda: pygame.time.get_ticks() / 1000)
    record = render(surface, state(), now=now(), typing=window.typing, language=language, desk=desk)
    count = 0
    try:
        while frames is None or count < frames:
            count += 1
            for event in pygame.event.get():
                for intent in window.intents(event, record, state()):
                    if isinstance(intent, LeaveTapped):
                        return  # the progress is saved after every intent: nothing to do
                    handle(intent)
            for sensed in other_intents():
                handle(sensed)
            tick(now())
            record = render(surface, state(), now=now(), typing=window.typing, language=language, desk=desk)
            pygame.display.flip()
            ticker.tick(20)
    finally:
        pygame.display.quit()


def screen_language() -> str:
    """The wizard's language outside the kiosk: ``$COMPANION_LANGUAGE`` if it is one the box speaks."""
    wanted = os.environ.get("COMPANION_LANGUAGE", "en").strip()
    return wanted if wanted in LANGUAGES else "en"
