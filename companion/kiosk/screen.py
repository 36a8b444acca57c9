"""The kiosk on the screen: the attract / set-up / admin views, and the table while a game is played.

``KioskScreen`` is the kiosk loop's frontend (``companion.kiosk.app.Frontend``): ``render(view,
playing)`` draws (a game is drawn by its own screen, ``playing.screen``), ``poll()`` turns touches
and keys into intents without blocking. On the box's full screen quitting is not one of them:
window-close, Ctrl+Q and Esc are ignored, leaving goes through the admin menu. A window
(``companion kiosk --windowed``) is someone trying the kiosk at a desk: its close button and Ctrl+Q
end the kiosk (``closed``), as any window does. Both repaint when they are uncovered.
"""

from __future__ import annotations

import contextlib
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
from companion.engine.stats import GameStats
from companion.intents import ButtonName, ButtonPressed, CityTapped
from companion.kiosk.desk import DeskTable
from companion.kiosk.machine import KioskIntent, PlayingTable
from companion.kiosk.view import AttractCard, KioskView, OptionTapped, Screen, ScreenTapped
from companion.setup_box.screen import hit as wizard_hit
from companion.setup_box.screen import render as render_wizard
from companion.setup_box.window import WindowInput

LONG_PRESS_S = 0.8  # holding M on a keyboard = MENU long press (admin)


BAND = 0.13  # the attract band's share of the screen height (the replay keeps the rest)


def draw_attract(surface: pygame.Surface, view: KioskView) -> FrameRecord:
    """The attract screen: the sample game full width, drawn by the game's own screen (its prompt
    line carries the caption, the how-to page or the rules-in-pictures caption), and under it a band
    of fixed size: the call to play, the game shown with today's best, the language key. Nothing
    covers the map and nothing moves when the words change."""
    scene, card = view.scene, view.attract
    w, h = surface.get_size()
    band = pygame.Rect(0, h - max(52, round(h * BAND)), w, max(52, round(h * BAND)))
    game = surface.subsurface(pygame.Rect(0, 0, w, band.top))
    record: FrameRecord = scene.screen.render(game, scene.state, scene.ui, scene.leds)
    record.size = (w, h)
    record.regions["replay"] = (0, 0, w, band.top)
    record.regions["attract"] = (band.x, band.y, band.w, band.h)
    canvas = Canvas(surface, record)
    pygame.draw.rect(surface, theme.BACKGROUND, band)
    pygame.draw.line(surface, theme.ACCENT, band.topleft, band.topright, max(2, band.h // 24))
    if card is not None:
        _draw_band(canvas, band, card)
        if card.how_to:
            _draw_how_to(canvas, card.how_to)
    record.regions["start"] = (0, 0, w, h)  # a touch anywhere starts a game
    if view.notice:
        unit = max(12, band.h // 4)
        canvas.text(view.notice, (w // 2, band.top - unit // 2), unit, role="notice", anchor="midbottom",
                    colour=theme.REFUSAL, max_width=w - 2 * unit, background=theme.BACKGROUND)  # fmt: skip
    return record


def _draw_how_to(canvas: Canvas, text: str) -> None:
    """The how-to page under the replay's caption, in the game's prompt area: wrapped to the room
    there (smaller type before it is ever shortened), so a long page in any language stays whole."""
    region = canvas.record.regions.get("prompt")
    caption = next((t for t in canvas.record.texts if t.role == "prompt"), None)
    if region is None or caption is None:
        return
    rx, ry, rw, rh = region
    x, top = caption.rect[0], caption.rect[1] + caption.rect[3] + 2
    width, room = rx + rw - x - 8, ry + rh - top - 4
    pygame.draw.rect(canvas.surface, theme.PANEL, (x, top, width, room))  # the caption's detail line, if any
    size = max(12, round(caption.rect[3] * 0.7))
    lines = wrap(canvas, text, size, width)
    while size > 11 and len(lines) * round(size * 1.25) > room:
        size -= 1
        lines = wrap(canvas, text, size, width)
    fit = max(1, room // round(size * 1.25))
    if len(lines) > fit:  # still too long: the last line that fits ends with "…" (and is recorded as cut)
        lines = [*lines[: fit - 1], " ".join(lines[fit - 1 :])]
    panel = next((b.id for b in canvas.record.boxes if b.role == "prompt"), None)
    with canvas.inside(panel) if panel is not None else contextlib.nullcontext():  # the prompt panel holds it
        for line in lines:
            top = canvas.text(line, (x, top), size, colour=theme.TEXT_DIM, role="how_to", max_width=width).bottom + 1


def _fitting(canvas: Canvas, text: str, size: int, width: int, *, bold: bool = False, smallest: int = 12) -> int:
    """The largest font size up to ``size`` at which ``text`` fits ``width`` (at least ``smallest``)."""
    while size > smallest and canvas.measure(text, size, bold=bold)[0] > width:
        size -= 1
    return size


def _draw_band(canvas: Canvas, band: pygame.Rect, card: AttractCard) -> None:
    pad = max(6, band.h // 8)
    call = pygame.Rect(band.x + pad, band.y + pad, round(band.w * 0.42), band.h - 2 * pad)
    pygame.draw.rect(canvas.surface, theme.ACCENT, call, border_radius=call.h // 3)
    size = _fitting(canvas, card.call, round(call.h * 0.5), call.w - 2 * pad, bold=True)
    canvas.text(card.call, call.center, size, bold=True, colour=theme.BACKGROUND, role="call", anchor="center",
                max_width=call.w - 2 * pad)  # fmt: skip
    canvas.record.regions["call"] = (call.x, call.y, call.w, call.h)
    x = call.right + 2 * pad
    width = band.right - pad - x
    big, small = round(band.h * 0.3), max(12, round(band.h * 0.22))
    title = canvas.text(card.game, (x, call.y), big, bold=True, role="game", max_width=width // 2)
    room = width - title.w - pad
    smallest = max(12, round(big * 0.6))  # the top three in smaller type, or fewer of them: never a cut name
    best, size = card.best[-1], smallest
    for line in card.best:
        size = _fitting(canvas, line, round(big * 0.8), room, smallest=smallest)
        if canvas.measure(line, size)[0] <= room:
            best = line
            break
    canvas.text(best, (title.right + pad, title.centery), size, colour=theme.TEXT, role="best", anchor="midleft",
                max_width=room)  # fmt: skip
    canvas.text(card.language, (x, call.bottom), small, colour=theme.TEXT_DIM, role="language", anchor="bottomleft",
                max_width=width)  # fmt: skip


def draw_view(
    surface: pygame.Surface, view: KioskView, *, desk: bool = False, typing: str | None = None
) -> FrameRecord:
    """A non-playing kiosk view: title, lines, options (the selected one highlighted), hint, notice.
    ``desk``: a window at a desk (the set-up wizard names clicks and keys, not markers and buttons)."""
    if view.screen is Screen.SETUP_BOX and view.wizard is not None:  # the set-up wizard's own screen
        record: FrameRecord = render_wizard(surface, view.wizard, language=view.language, desk=desk, typing=typing)
        if view.notice:  # over the bottom of the map, clear of the panel's instructions and keys
            x, y, w, h = record.regions["map"]
            canvas = Canvas(surface, record)
            size = max(12, surface.get_height() // 30)
            bottom = y + h - 4
            for line in reversed(wrap(canvas, view.notice, size, w - 8)[:3]):
                bottom = canvas.text(line, (x + w // 2, bottom), size, role="notice", anchor="midbottom",
                                     colour=theme.REFUSAL, background=theme.BACKGROUND,
                                     max_width=w - 8).top  # fmt: skip
        return record
    if view.screen is Screen.ATTRACT and view.scene is not None:
        return draw_attract(surface, view)
    w, h = surface.get_size()
    record = FrameRecord((w, h))
    canvas = Canvas(surface, record)
    surface.fill(theme.BACKGROUND)
    unit = max(12, h // 24)
    x, y = w // 12, h // 10
    width = w - 2 * x
    size = _fitting(canvas, view.title, unit * 2, width, bold=True, smallest=round(unit * 1.3))
    canvas.text(view.title, (w // 2, y), size, bold=True, role="title", anchor="midtop", max_width=width)
    y += unit * 3 + unit // 2
    floor = _draw_footer(canvas, view, unit, x)  # from the bottom up: nothing above may reach it
    for line in (part for text in view.lines for part in wrap(canvas, text, unit, width)):
        canvas.text(line, (x, y), unit, role="line", max_width=width, colour=theme.TEXT_DIM)
        y += int(unit * 1.5)
    if view.stats is not None:  # the ranking with pictures: the game in figures below the places
        _draw_ranking_stats(canvas, view.stats, pygame.Rect(x // 2, y, w - x, floor - y), unit, view.language)
    if view.options:
        _draw_options(canvas, view, pygame.Rect(x, y + unit // 2, width, floor - y - unit // 2), unit)
    return record


def _draw_ranking_stats(canvas: Canvas, stats: GameStats, area: pygame.Rect, unit: int, language: str) -> None:
    """The balance chart over the figures per player, inside ``area`` (above the hint and notice). The
    figures come first: where the chart would be under three lines high (4 players and a notice at
    800x480) it is left out and the figures take the room, in smaller type if they must."""
    rows = len(stats.players)

    def figures_height(u: int) -> int:
        return int(u * 1.4) * rows + u

    size = unit
    chart_h = area.h - figures_height(unit) - unit // 2
    if chart_h < unit * 3:
        chart_h = 0
        while size > 12 and figures_height(size) > area.h:
            size -= 1
    top = area.y
    if chart_h:
        draw_balance_chart(canvas, pygame.Rect(area.x, top, area.w, chart_h), stats, unit, language=language)
        top += chart_h + unit // 2
    figures = pygame.Rect(area.x, top, area.w, figures_height(size))
    draw_player_figures(canvas, figures, stats, size, lambda amount: format_money(amount, stats.currency),
                        language=language)  # fmt: skip


def _draw_footer(canvas: Canvas, view: KioskView, unit: int, x: int) -> int:
    """The hint (what the buttons do) at the bottom and the notice over it, each wrapped to at most
    two lines in smaller type before anything is cut; returns the top of what was drawn."""
    w, h = canvas.surface.get_size()
    width = w - 2 * x
    bottom = h - unit // 2
    for text, role, colour in ((view.hint, "hint", theme.TEXT_FAINT), (view.notice, "notice", theme.REFUSAL)):
        if not text:
            continue
        size = _fitting(canvas, text, unit, width, smallest=max(12, round(unit * 0.8)))
        lines = wrap(canvas, text, size, width)[:2] if canvas.measure(text, size)[0] > width else [text]
        for line in reversed(lines):
            bottom = canvas.text(line, (w // 2, bottom), size, role=role, anchor="midbottom", colour=colour,
                                 max_width=width).top  # fmt: skip
        bottom -= unit // 3
    return bottom


def _draw_options(canvas: Canvas, view: KioskView, area: pygame.Rect, unit: int) -> None:
    """The options as buttons in ``area``; more than fit page around the selected one, with the
    position shown ("▲▼ 4–9 / 12"); PLUS/MINUS move through all of them."""
    pitch, height = int(unit * 2.1), int(unit * 1.8)
    count = len(view.options)
    fit = max(1, (area.h + pitch - height) // pitch)
    first, shown = 0, count
    if count > fit:
        shown = max(1, fit - 1)  # one row for the position
        selected = view.selected or 0
        first = max(0, min(count - shown, selected - shown // 2))
    y = area.y
    for i in range(first, first + shown):
        option, chosen = view.options[i], i == view.selected
        rect = pygame.Rect(area.x, y, area.w, height)
        pygame.draw.rect(canvas.surface, theme.PANEL_ACTIVE if chosen else theme.PANEL, rect, border_radius=unit // 3)
        if chosen:
            pygame.draw.rect(canvas.surface, theme.ACCENT, rect, width=3, border_radius=unit // 3)
        text = ("▶ " if chosen else "  ") + option
        size = _fitting(canvas, text, unit, rect.w - unit, bold=chosen, smallest=max(12, round(unit * 0.75)))
        canvas.text(text, (rect.x + unit // 2, rect.centery), size, bold=chosen, role="option", anchor="midleft",
                    max_width=rect.w - unit)  # fmt: skip
        canvas.record.regions[f"option:{i}"] = (rect.x, rect.y, rect.w, rect.h)
        y += pitch
    if shown < count:
        marks = ("▲ " if first > 0 else "") + ("▼ " if first + shown < count else "")
        canvas.text(f"{marks}{first + 1}–{first + shown} / {count}", (area.centerx, y + height // 2), unit,
                    role="position", anchor="center", colour=theme.TEXT_DIM, max_width=area.w)  # fmt: skip


class KioskScreen:
    """Fullscreen on the Pi (``surface`` from ``open_fullscreen``), a window or a headless surface in tests."""

    def __init__(
        self, surface: pygame.Surface, *, clock: Callable[[], float] = time.monotonic, closable: bool | None = None
    ) -> None:
        """``closable``: the window's close button and Ctrl+Q end the kiosk (default: a window can be
        closed, the full screen cannot)."""
        self.surface = surface
        self.clock = clock
        if closable is None:
            closable = pygame.display.get_surface() is surface and not surface.get_flags() & pygame.FULLSCREEN
        self.closable = closable
        self.closed = False  # the window was closed: the loop ends
        # A window at a desk is played with a mouse: the table's edge under a game, buttons elsewhere.
        self.desk = DeskTable(clock) if closable else None
        self.wizard_keys = WindowInput()  # the set-up wizard at a desk: its keys, typing, dragging cities
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
            if self.desk is not None and event.type in (
                pygame.MOUSEBUTTONDOWN,
                pygame.MOUSEMOTION,
                pygame.MOUSEBUTTONUP,
            ):
                by_mouse = self.desk.mouse(event, self.record, self._table())
                if by_mouse is not None:
                    out.extend(by_mouse)
                    if event.type != pygame.MOUSEMOTION:
                        self._draw()  # a button pressed or let go, a card taken from the tray
                    continue
            if self._wizard_at_desk() and not self._quits(event):  # the wizard's own window input
                assert self._view is not None
                typing = self.wizard_keys.typing
                wizard = self.wizard_keys.intents(event, self.record, self._view.wizard)
                out.extend(wizard)  # type: ignore[arg-type]
                if wizard or typing != self.wizard_keys.typing:
                    self._draw()
                continue
            if self.desk is not None and event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
                out.extend(self.desk.cancel_drag())  # a marker in hand goes back where it was
                continue
            out.extend(self._intents(event))
        if self.desk is not None:
            out.extend(self.desk.sync(self._table()))
            if self.desk.changed:
                self._draw()  # a marker dragged across the board
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

    def _wizard_at_desk(self) -> bool:
        view = self._view
        return (
            self.desk is not None and view is not None and view.screen is Screen.SETUP_BOX and view.wizard is not None
        )

    @staticmethod
    def _quits(event: pygame.event.Event) -> bool:
        return event.type == pygame.QUIT or (
            event.type == pygame.KEYDOWN and event.key == pygame.K_q and bool(event.mod & pygame.KMOD_CTRL)
        )

    def _table(self) -> PlayingTable | None:
        """The game at the table while the screen shows it."""
        view = self._view
        return self._playing if view is not None and view.screen is Screen.PLAYING else None

    def _draw(self) -> None:
        view, p = self._view, self._playing
        if view is None:
            return
        surface = self.surface
        if self.desk is not None:  # the kiosk's screen above, the table's edge or the buttons below
            surface = self.surface.subsurface(self.desk.layout(self.surface.get_size(), self._table()))
        if view.screen is Screen.PLAYING and p is not None:
            c = p.controller
            self.record = p.screen.render(surface, c.state, c.ui, c.led_frame, now=self.clock())
            self._phase = self._blink_phase()
        else:
            typing = self.wizard_keys.typing if self._wizard_at_desk() else None
            self.record = draw_view(surface, view, desk=self.closable, typing=typing)
        if self.desk is not None:
            self.desk.draw(self.surface, self.record, self._table())
        self.renders += 1
        if pygame.display.get_init() and pygame.display.get_surface() is self.surface:
            pygame.display.flip()

    # -- input -----------------------------------------------------------------------------
    def _intents(self, event: pygame.event.Event) -> list[KioskIntent]:
        if self._quits(event):
            self.closed = self.closed or self.closable  # the box's full screen is left through the admin menu
            return []
        if event.type in (pygame.WINDOWEXPOSED, pygame.WINDOWSHOWN, pygame.WINDOWRESTORED, pygame.VIDEOEXPOSE):
            self._draw()  # uncovered: paint it again
            return []
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
        # Esc is ignored on purpose: it is no button of the box.
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
        if self._view is not None and self._view.screen is Screen.ATTRACT:
            return [ScreenTapped()]  # a touch anywhere on the attract screen starts a game
        for name, (x, y, w, h) in self.record.regions.items():
            if name.startswith("option:") and x <= pos[0] < x + w and y <= pos[1] < y + h:
                return [OptionTapped(int(name.split(":")[1]))]
        city = self.record.city_at(pos)
        return [CityTapped(city)] if city is not None else []
