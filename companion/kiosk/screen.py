"""The kiosk on the screen: the attract / set-up / admin views, and the table while a game is played.

``KioskScreen`` is the kiosk loop's frontend (``companion.kiosk.app.Frontend``): ``render(view,
playing)`` draws (a game is drawn by its own screen, ``playing.screen``), ``poll()`` turns touches
and keys into intents without blocking. Quitting is not one of them:
window-close and Esc are ignored, leaving goes through the admin menu.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pygame

from companion.display import theme
from companion.display.keys import KEY_BUTTONS
from companion.display.lights import blink_phases
from companion.display.record import Canvas, FrameRecord
from companion.display.stats import draw_balance_chart, draw_player_figures
from companion.display.tray import wrap
from companion.engine.money import format_money
from companion.intents import ButtonName, ButtonPressed, CityTapped
from companion.kiosk.machine import KioskIntent, PlayingTable
from companion.kiosk.view import KioskView, OptionTapped, Screen
from companion.setup_box.screen import hit as wizard_hit
from companion.setup_box.screen import render as render_wizard

LONG_PRESS_S = 0.8  # holding M on a keyboard = MENU long press (admin)


def draw_attract(surface: pygame.Surface, view: KioskView) -> FrameRecord:
    """The attract screen: the sample game replayed by the game's own screen, and over it a panel
    with the title, the how-to page and today's best scores."""
    scene = view.scene
    record: FrameRecord = scene.screen.render(surface, scene.state, scene.ui, scene.leds)
    canvas = Canvas(surface, record)
    w, h = surface.get_size()
    unit = max(12, h // 26)
    if scene.tutorial:  # a picture of the rules: only a slim title band, the map and the prompt speak
        band = pygame.Rect(0, 0, w, int(unit * 1.9))
        veil = pygame.Surface(band.size, pygame.SRCALPHA)
        veil.fill((*theme.BACKGROUND, 235))
        surface.blit(veil, band.topleft)
        canvas.text(view.title, (unit, band.centery), int(unit * 1.2), bold=True, role="title", anchor="midleft",
                    max_width=w - 2 * unit)  # fmt: skip
        return record
    width = int(w * 0.7)
    lines = [part for line in view.lines for part in wrap(canvas, line, unit, width - 2 * unit)]
    panel = pygame.Rect(0, 0, width, int(unit * (3.4 + 1.35 * len(lines))))
    panel.center = (w // 2, h // 2 - unit * 2)
    veil = pygame.Surface(panel.size, pygame.SRCALPHA)
    veil.fill((*theme.BACKGROUND, 225))
    surface.blit(veil, panel.topleft)
    pygame.draw.rect(surface, theme.ACCENT, panel, width=2, border_radius=unit // 2)
    x, y = panel.x + unit, panel.y + unit // 2
    canvas.text(view.title, (panel.centerx, y), int(unit * 1.6), bold=True, role="title", anchor="midtop",
                max_width=panel.w - 2 * unit)  # fmt: skip
    y += int(unit * 2.4)
    for line in lines:
        canvas.text(line, (x, y), unit, role="line", max_width=panel.w - 2 * unit)
        y += int(unit * 1.35)
    if view.notice:
        canvas.text(view.notice, (w // 2, panel.bottom + unit // 2), unit, role="notice", anchor="midtop",
                    colour=theme.REFUSAL, max_width=w - 2 * unit, background=theme.BACKGROUND)  # fmt: skip
    return record


def draw_view(surface: pygame.Surface, view: KioskView) -> FrameRecord:
    """A non-playing kiosk view: title, lines, options (the selected one highlighted), hint, notice."""
    if view.screen is Screen.SETUP_BOX and view.wizard is not None:  # the set-up wizard's own screen
        record: FrameRecord = render_wizard(surface, view.wizard)
        if view.notice:
            Canvas(surface, record).text(view.notice, (surface.get_width() // 2, surface.get_height() - 4),
                                         max(12, surface.get_height() // 26), role="notice", anchor="midbottom",
                                         colour=theme.REFUSAL, background=theme.BACKGROUND)  # fmt: skip
        return record
    if view.screen is Screen.ATTRACT and view.scene is not None:
        return draw_attract(surface, view)
    w, h = surface.get_size()
    record = FrameRecord((w, h))
    canvas = Canvas(surface, record)
    surface.fill(theme.BACKGROUND)
    unit = max(12, h // 24)
    x, y = w // 12, h // 10
    canvas.text(view.title, (w // 2, y), unit * 2, bold=True, role="title", anchor="midtop", max_width=w - 2 * x)
    y += unit * 3 + unit // 2
    for line in view.lines:
        canvas.text(line, (x, y), unit, role="line", max_width=w - 2 * x, colour=theme.TEXT_DIM)
        y += int(unit * 1.5)
    if view.stats is not None:  # the ranking with pictures: the game in figures below the places
        bottom = h - unit * 4 if view.notice else h - unit * 2
        area = pygame.Rect(x // 2, y, w - x, bottom - y)
        figures_h = int(unit * 1.4) * len(view.stats.players) + unit
        chart = pygame.Rect(area.x, area.y, area.w, max(unit * 4, area.h - figures_h - unit // 2))
        draw_balance_chart(canvas, chart, view.stats, unit, language=view.language)
        figures = pygame.Rect(area.x, chart.bottom + unit // 2, area.w, figures_h)
        currency = view.stats.currency
        draw_player_figures(canvas, figures, view.stats, unit, lambda amount: format_money(amount, currency),
                            language=view.language)  # fmt: skip
    if view.options:
        y += unit // 2
        for i, option in enumerate(view.options):
            chosen = i == view.selected
            rect = pygame.Rect(x, y, w - 2 * x, int(unit * 1.8))
            pygame.draw.rect(surface, theme.PANEL_ACTIVE if chosen else theme.PANEL, rect, border_radius=unit // 3)
            if chosen:
                pygame.draw.rect(surface, theme.ACCENT, rect, width=3, border_radius=unit // 3)
            canvas.text(
                ("▶ " if chosen else "  ") + option,
                (rect.x + unit // 2, rect.centery),
                unit,
                bold=chosen,
                role="option",
                anchor="midleft",
                max_width=rect.w - unit,
            )
            record.regions[f"option:{i}"] = (rect.x, rect.y, rect.w, rect.h)
            y += int(unit * 2.1)
    if view.notice:
        canvas.text(view.notice, (w // 2, h - unit * 3), unit, role="notice", anchor="midbottom",
                    colour=theme.REFUSAL, max_width=w - 2 * x)  # fmt: skip
    if view.hint:
        canvas.text(view.hint, (w // 2, h - unit), unit, role="hint", anchor="midbottom",
                    colour=theme.TEXT_FAINT, max_width=w - 2 * x)  # fmt: skip
    return record


class KioskScreen:
    """Fullscreen on the Pi (``surface`` from ``open_fullscreen``), a window or a headless surface in tests."""

    def __init__(self, surface: pygame.Surface, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.surface = surface
        self.clock = clock
        self.record = FrameRecord(surface.get_size())
        self._view: KioskView | None = None
        self._playing: PlayingTable | None = None
        self._menu_down_at: float | None = None
        self._phase: tuple[bool, bool] | None = None
        self.renders = 0

    # -- Frontend --------------------------------------------------------------------------
    def render(self, view: KioskView, playing: PlayingTable | None) -> None:
        self._view, self._playing = view, playing
        self._draw()

    def poll(self) -> list[KioskIntent]:
        out: list[KioskIntent] = []
        for event in pygame.event.get():
            out.extend(self._intents(event))
        if self._animating():
            phase = self._blink_phase()
            if phase != self._phase:
                self._draw()
        return out

    # -- drawing ---------------------------------------------------------------------------
    def _animating(self) -> bool:
        p = self._playing
        return (
            self._view is not None
            and self._view.screen is Screen.PLAYING
            and p is not None
            and p.screen.needs_animation(p.controller.state, p.controller.ui, p.controller.led_frame)
        )

    def _blink_phase(self) -> tuple[bool, bool]:
        return blink_phases(self.clock())

    def _draw(self) -> None:
        view, p = self._view, self._playing
        if view is None:
            return
        if view.screen is Screen.PLAYING and p is not None:
            c = p.controller
            self.record = p.screen.render(self.surface, c.state, c.ui, c.led_frame, now=self.clock())
            self._phase = self._blink_phase()
        else:
            self.record = draw_view(self.surface, view)
        self.renders += 1
        if pygame.display.get_init() and pygame.display.get_surface() is self.surface:
            pygame.display.flip()

    # -- input -----------------------------------------------------------------------------
    def _intents(self, event: pygame.event.Event) -> list[KioskIntent]:
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_m:
                self._menu_down_at = self.clock()
            elif event.key in KEY_BUTTONS:
                return [ButtonPressed(KEY_BUTTONS[event.key])]
        elif event.type == pygame.KEYUP and event.key == pygame.K_m and self._menu_down_at is not None:
            held = self.clock() - self._menu_down_at
            self._menu_down_at = None
            return [ButtonPressed(ButtonName.MENU, long=held >= LONG_PRESS_S)]
        elif event.type in (pygame.MOUSEBUTTONDOWN, pygame.FINGERDOWN):
            pos = self._position(event)
            pygame.mouse.set_visible(event.type == pygame.MOUSEBUTTONDOWN and not event.touch)
            return self._tap(pos)
        elif event.type == pygame.VIDEORESIZE and self._view is not None:
            self._draw()
        # pygame.QUIT and Esc are ignored on purpose: the admin menu is the only way out.
        return []

    def _position(self, event: pygame.event.Event) -> tuple[int, int]:
        if event.type == pygame.FINGERDOWN:
            w, h = self.surface.get_size()
            return int(event.x * w), int(event.y * h)
        return int(event.pos[0]), int(event.pos[1])

    def _tap(self, pos: tuple[int, int]) -> list[KioskIntent]:
        if self._view is not None and self._view.screen is Screen.SETUP_BOX:
            touched = wizard_hit(self.record, pos)
            return [] if touched is None else [touched]  # type: ignore[list-item]
        for name, (x, y, w, h) in self.record.regions.items():
            if name.startswith("option:") and x <= pos[0] < x + w and y <= pos[1] < y + h:
                return [OptionTapped(int(name.split(":")[1]))]
        city = self.record.city_at(pos)
        return [CityTapped(city)] if city is not None else []
