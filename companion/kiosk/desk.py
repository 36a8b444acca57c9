"""The windowed kiosk at a desk (``companion kiosk --windowed``): played and tried with a mouse.

While a game is played the simulator's table edge (``companion.simulator.edge.TableEdge``) lies under
the game's screen: the markers to drag onto cities, the face-up cards and piles to click (a scan),
the card reader, the five buttons (hold MENU for its long press). On every other screen a bar of the
five buttons does the same for the set-up, the ranking, the PIN, the admin menu and the set-up
wizard (a button held 0.8 s is a long press: the wizard's next step / step before). Mouse events
become the kiosk's intents; nothing here changes the game (the kiosk's machine applies them).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pygame

from companion.display.record import Canvas, FrameRecord
from companion.display.tray import button_row, draw_buttons
from companion.intents import ButtonName, ButtonPressed, Intent
from companion.kiosk.machine import PlayingTable
from companion.simulator.edge import LONG_PRESS_S, TableEdge, tray_height


@dataclass
class ButtonBar:
    """The five buttons in a strip (``buttons``, ``px``: what ``display.tray.draw_buttons`` draws)."""

    rect: pygame.Rect
    buttons: dict[ButtonName, pygame.Rect] = field(default_factory=dict)
    pressed: tuple[ButtonName, float] | None = None

    def __post_init__(self) -> None:
        scale = self.rect.h / 90

        def px(value: float) -> int:
            return max(1, round(value * scale))

        self.px = px
        width = 5 * px(90) + 4 * px(4)
        self.buttons = button_row(self.rect.centerx - width // 2, self.rect.inflate(0, -px(12)), px)


class DeskTable:
    """The mouse's part of a windowed kiosk: ``layout`` splits the window, ``screen_rect`` is where
    the kiosk draws, ``draw`` adds the tray or the bar, ``mouse`` turns events into intents."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.edge: TableEdge | None = None
        self._for: object = None  # the controller the edge was dealt for
        self.bar = ButtonBar(pygame.Rect(0, 0, 0, 0))
        self.screen_rect = pygame.Rect(0, 0, 0, 0)

    def layout(self, size: tuple[int, int], playing: PlayingTable | None) -> pygame.Rect:
        """Where the kiosk's own screen goes; the rest is the tray (a game) or the button bar."""
        w, h = size
        if playing is not None:
            if self._for is not playing.controller:  # a game comes to the table: its pieces dealt
                self.edge = TableEdge(playing.plugin, playing.controller.game, seed=None)
                self._for = playing.controller
                state = playing.controller.state
                for marker in self.edge.table.markers:  # a resumed game: its markers where the engine has them
                    self.edge.table.markers[marker] = self.edge.engine_place(marker, state)
            tray = tray_height(h)
            self.screen_rect = pygame.Rect(0, 0, w, h - tray)
            assert self.edge is not None
            self.edge.layout(pygame.Rect(0, h - tray, w, tray), self.screen_rect)
        else:
            self.edge, self._for = None, None
            bar = max(56, round(h * 0.13))
            self.screen_rect = pygame.Rect(0, 0, w, h - bar)
            if self.bar.rect != pygame.Rect(0, h - bar, w, bar):  # (a button held down stays down)
                self.bar = ButtonBar(pygame.Rect(0, h - bar, w, bar))
        return self.screen_rect

    def draw(self, surface: pygame.Surface, record: FrameRecord, playing: PlayingTable | None) -> FrameRecord:
        """Draw the tray (or the bar) under the kiosk's screen, whose frame is ``record``; return what
        was drawn. The tray names the owner's cities and cards as the screen does (its names)."""
        canvas = Canvas(surface, FrameRecord(surface.get_size()), record.names)
        if playing is not None and self.edge is not None:
            c = playing.controller
            self.edge.draw_tray(canvas, c.state, c.ui)
            self.edge.draw_pawns(surface, record, c.state)
            return canvas.record
        pygame.draw.rect(surface, (12, 14, 18), self.bar.rect)
        draw_buttons(canvas, self.bar, None if self.bar.pressed is None else self.bar.pressed[0])
        return canvas.record

    @property
    def changed(self) -> bool:
        """The tray or the markers on top must be drawn again (a drag under way)."""
        return self.edge is not None and self.edge.changed

    def mouse(
        self, event: pygame.event.Event, record: FrameRecord, playing: PlayingTable | None
    ) -> list[Intent] | None:
        """The intents of a mouse event; None: not the desk's (a touch on the kiosk's own screen)."""
        now = self.clock()
        if playing is not None and self.edge is not None:
            state = playing.controller.state
            if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
                return self.edge.mouse_down(event.pos, now, record, state)
            if event.type == pygame.MOUSEMOTION:
                return self.edge.mouse_move(event.pos)
            if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
                return self.edge.mouse_up(event.pos, now, record)
            return None
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for name, rect in self.bar.buttons.items():
                if rect.collidepoint(event.pos):
                    self.bar.pressed = (name, now)
                    return []
            return None
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.bar.pressed is not None:
            name, at = self.bar.pressed
            self.bar.pressed = None
            return [ButtonPressed(name, long=now - at >= LONG_PRESS_S)]  # held: a long press (the wizard's steps)
        return None

    def cancel_drag(self) -> list[Intent]:
        return [] if self.edge is None else self.edge.cancel_drag()

    def sync(self, playing: PlayingTable | None) -> list[Intent]:
        """What the people's hands do by themselves at the table (lay out and scan the offer's refill)."""
        if playing is None or self.edge is None:
            return []
        c: Any = playing.controller
        return self.edge.sync(c.state, c.ui)
