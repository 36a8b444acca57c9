"""The simulator: the whole table in a window, with the same table controller as on the Pi.

One window for every game, composed from the game's parts (``GamePlugin``): its table controller,
its screen, and its simulator props (the pieces, piles and tray around the board, ``SimProps``).

Emulated hardware: a marker dragged onto a city is a tag placed on that city's reader (``TagPlaced``),
dragging it off is ``TagLifted``; clicking a card in the tray scans it (``CardScanned``); keys and
on-screen buttons are the five buttons. City LEDs are the rings the screen draws on the map.

The loop blocks in ``pygame.event.wait`` until an input arrives, a placement settles or a ring
blinks, so an idle simulator costs next to no CPU. Tests drive it without a clock of their own:

    sim = Simulator(games.get("on-the-way"), game, clock=fake_clock)   # SDL_VIDEODRIVER=dummy
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=sim.marker_pos(m), button=1))
    sim.pump()                                         # handles the queued events, ticks, redraws
"""

from __future__ import annotations

import logging
import math
import queue
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import pygame

from companion.display import theme
from companion.display.keys import KEY_BUTTONS
from companion.display.lights import blink_phases
from companion.display.record import Canvas, FrameRecord
from companion.display.tokens import marker as draw_marker
from companion.display.waiting import wait_for_events
from companion.engine.game import Game
from companion.games.protocol import GamePlugin
from companion.games.seats import bot_player
from companion.intents import ButtonName, ButtonPressed, CardScanned, CityTapped, Intent, TagLifted, TagPlaced
from companion.simulator.readers import POLL_S, EmulatedReaders
from companion.table.session import TableSession
from companion.table.tags import MarkerTag

log = logging.getLogger(__name__)

LONG_PRESS_S = 0.8
DRAG_THRESHOLD_PX = 6
DEFAULT_SIZE = (1280, 800)


@dataclass
class _Drag:
    marker: MarkerTag
    origin: str | None  # the city it was lifted from; None: from the tray
    start: tuple[int, int]
    pos: tuple[int, int]
    lifted: bool = False  # TagLifted sent (the drag moved far enough)


@dataclass
class _Press:
    target: str  # "button:ok", "card:B01", "pile", "events", "city:Warsaw"
    pos: tuple[int, int]
    at: float


class Simulator:
    """``Simulator(plugin, game)``: ``game`` (a ``Game`` from ``plugin.new_game``) in a window."""

    def __init__(
        self,
        plugin: GamePlugin,
        game: Game[Any],
        *,
        size: tuple[int, int] = DEFAULT_SIZE,
        seed: int | None = None,
        clock: Callable[[], float] = time.monotonic,
        settle_s: float = 0.35,
        language: str = "en",
        emulated_readers: bool = False,
        bots: Mapping[str, str] | None = None,
    ) -> None:
        pygame.display.init()  # no audio: the simulator makes no sound
        pygame.font.init()
        self.plugin = plugin
        self.props = plugin.simulator(game, seed)
        self.game_screen = plugin.screen()
        self.config: Any = game.state.config
        self.clock = clock
        # The same path as the Pi: every input is an intent on one queue, one loop applies them
        # (TableSession). No rig: the window itself is the hardware.
        self.tags = self.props.tags
        self._readers_at = frozenset(self.props.reader_cities)
        intents: queue.Queue[Intent] = queue.Queue()
        self.readers: EmulatedReaders | None = None
        options: dict[str, Any] = {"language": language, "settle_s": settle_s, "on_admin": self._on_admin}
        bot = bot_player(plugin, bots or {}, seed or 0)
        if bot is not None:  # seats the box plays: you move their pieces as the screen and the rings show
            options["bot"] = bot
        if emulated_readers:  # opt-in: through the MFRC522 emulators and the 595 chain (docs/simulator.md)
            self.readers = EmulatedReaders(self.props.reader_cities, intents.put, plugin.neighbours())
            options["leds"] = self.readers.rig
        controller = plugin.table(game, self.tags, **options)
        self.session = TableSession(controller, None if self.readers is None else self.readers.rig, intents)
        self.table = self.props.deal(seed)
        self.running = True
        self.notice = ""
        self.record = FrameRecord((0, 0))
        self.renders = 0  # full screen renders, for the benchmark and the redraw tests
        self._drag: _Drag | None = None
        self._press: _Press | None = None
        self._menu_key_at: float | None = None
        self._dirty = True  # the screen must be rendered again (the model changed)
        self._recompose = True  # only the tray / the markers on top changed
        self._seen: tuple[object, ...] = ()
        self._phase: tuple[bool, bool] | None = None
        self._frames: dict[tuple[bool, bool] | None, tuple[pygame.Surface, FrameRecord]] = {}
        self.window = pygame.display.set_mode(size, pygame.RESIZABLE)
        pygame.display.set_caption(f"companion — {self.title} simulator")
        self._layout(size)

    @property
    def title(self) -> str:
        return self.props.title

    def _tray_target(self, pos: tuple[int, int]) -> str | None:
        """What a click in the tray (outside the buttons and markers) presses: "card:<id>", "uid:<uid>" or None."""
        return self.props.tray_target(pos, self.tray, self.table, self.controller.state)

    def _draw_tray(self, canvas: Canvas, pressed: ButtonName | None) -> None:
        c = self.controller
        self.props.draw_tray(canvas, self.tray, self.table, c.state, c.ui, pressed=pressed,
                             dragging=self._drag_marker())  # fmt: skip

    @property
    def controller(self) -> Any:
        """The game's table controller (a ``GameTable``: TableController or AATableController)."""
        return self.session.controller

    # -- geometry (also what tests and scripts aim at) -------------------------------------
    def _layout(self, size: tuple[int, int]) -> None:
        w, h = size
        tray_h = max(110, round(h * 0.19))
        self.screen_rect = pygame.Rect(0, 0, w, h - tray_h)
        self.screen = pygame.Surface(self.screen_rect.size)
        self.tray_rect = pygame.Rect(0, h - tray_h, w, tray_h)
        self.tray: Any = self.props.compute_tray(self.tray_rect)  # the game's tray layout
        self._dirty = True

    def city_pos(self, city: str) -> tuple[int, int]:
        x, y, _ = self.record.cities[city]
        return x, y

    def marker_pos(self, marker: MarkerTag) -> tuple[int, int]:
        """Where to grab a marker: its tray slot, its pawn, or the transport token it stands for."""
        city = self.table.markers[marker]
        if city is None:
            return self.tray.slots[marker].center
        box = self.record.transports.get((marker.colour, marker.number))
        if box is not None and self._matches_engine(marker):
            return pygame.Rect(box).center
        return self._pawn_centre(marker, city)

    def card_pos(self, card: str) -> tuple[int, int]:
        return self.tray.offer[self.table.offer.index(card)].center

    def button_pos(self, button: ButtonName) -> tuple[int, int]:
        return self.tray.buttons[button].center

    # -- the loop ------------------------------------------------------------------------
    def run(self) -> int:
        """Play until the window closes. Blocks on events; wakes only for settling and blinking."""
        while self.running:
            self.draw()
            timeout = self._timeout_ms()
            active = self._drag is not None or self._press is not None or self._menu_key_at is not None
            for event in wait_for_events(None if timeout is None else timeout / 1000, active=active):
                self.handle_event(event)
            self._step()
            self._sync()
        self.session.close()
        if self.readers is not None:
            self.readers.close()
        pygame.display.quit()
        return 0

    def pump(self) -> None:
        """Handle every queued pygame event, let placements settle, redraw if anything changed."""
        for event in pygame.event.get():
            self.handle_event(event)
        self._step()
        self._sync()
        self.draw()

    def _timeout_ms(self) -> int | None:
        """How long the loop may sleep: until a placement settles or a ring blinks; None: until input."""
        now = self.clock()
        waits: list[float] = []
        deadline = self.controller.next_deadline()
        if deadline is not None:
            waits.append(deadline - now)
        c = self.controller
        if self.game_screen.needs_animation(c.state, c.ui, c.led_frame):
            period = 0.5 / theme.FAST_BLINK_HZ
            waits.append(period - math.fmod(now, period))
        if self.readers is not None:
            waits.append(POLL_S)  # the emulated readers are swept 20 times a second
        if not waits:
            return None  # nothing will change until an input arrives
        return max(0, math.ceil(min(waits) * 1000))

    # -- input ---------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> None:
        now = self.clock()
        if event.type == pygame.QUIT:
            self.running = False
        elif event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
            self._layout(self.window.get_size())
        elif event.type in (pygame.WINDOWEXPOSED, pygame.WINDOWSHOWN):
            self._dirty = True
        elif event.type == pygame.KEYDOWN:
            self._key_down(event, now)
        elif event.type == pygame.KEYUP:
            if event.key == pygame.K_m and self._menu_key_at is not None:
                long = now - self._menu_key_at >= LONG_PRESS_S
                self._menu_key_at = None
                self.send(ButtonPressed(ButtonName.MENU, long=long))
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self._mouse_down(event.pos, now)
        elif event.type == pygame.MOUSEMOTION:
            self._mouse_move(event.pos)
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self._mouse_up(event.pos, now)

    def send(self, intent: Intent) -> None:
        """Queue one intent, as the hardware layer does (or hand it to the emulated readers), and step."""
        log.debug("intent %r", intent)
        if self.readers is None or not self.readers.drive(intent, self.clock()):
            self.session.put(intent)
        self._step()
        self._sync()

    def _step(self) -> None:
        now = self.clock()
        if self.readers is not None:
            self.readers.tick(now)
        self.session.step(now)

    def _key_down(self, event: pygame.event.Event, now: float) -> None:
        if event.key == pygame.K_q and event.mod & pygame.KMOD_CTRL:
            self.running = False
        elif event.key == pygame.K_m:
            self._menu_key_at = now
        elif event.key == pygame.K_ESCAPE and self._drag is not None:
            drag, self._drag = self._drag, None
            if drag.lifted and drag.origin is not None:  # put it back where it was
                self._place(drag.marker, drag.origin)
            self._recompose = True
        elif event.key in KEY_BUTTONS:
            self.send(ButtonPressed(KEY_BUTTONS[event.key]))

    def _mouse_down(self, pos: tuple[int, int], now: float) -> None:
        for name, rect in self.tray.buttons.items():
            if rect.collidepoint(pos):
                self._press = _Press(f"button:{name.value}", pos, now)
                self._recompose = True
                return
        grabbed = self._marker_at(pos)
        if grabbed is not None:
            self._drag = _Drag(grabbed, self.table.markers[grabbed], pos, pos)
            return
        target = self._tray_target(pos)
        if target is not None:
            self._press = _Press(target, pos, now)
        elif (city := self.record.city_at(pos, slack=8)) is not None:
            self._press = _Press(f"city:{city}", pos, now)

    def _mouse_move(self, pos: tuple[int, int]) -> None:
        drag = self._drag
        if drag is None:
            return
        drag.pos = pos
        if not drag.lifted and math.dist(pos, drag.start) >= DRAG_THRESHOLD_PX:
            drag.lifted = True
            if drag.origin is not None:
                self.table.markers[drag.marker] = None
                self.send(TagLifted(drag.origin, self.table.uid(drag.marker)))
        self._recompose = True

    def _mouse_up(self, pos: tuple[int, int], now: float) -> None:
        drag, self._drag = self._drag, None
        if drag is not None:
            self._mouse_move(pos)
            if not drag.lifted:  # a click on a marker: a touch on its city
                if drag.origin is not None:
                    self.send(CityTapped(drag.origin))
                return
            self._drop(drag, pos)
            return
        press, self._press = self._press, None
        if press is None:
            return
        kind, _, value = press.target.partition(":")
        self._recompose = True
        if kind == "button":
            button = ButtonName(value)
            long = button is ButtonName.MENU and now - press.at >= LONG_PRESS_S
            self.send(ButtonPressed(button, long=long))
        elif kind == "card":
            self.send(CardScanned(self.table.card_uid(value)))
        elif kind == "uid":
            self.send(CardScanned(value))
        elif kind == "city":
            self.send(CityTapped(value))

    def _drop(self, drag: _Drag, pos: tuple[int, int]) -> None:
        marker = drag.marker
        if self.tray.reader is not None and self.tray.reader.collidepoint(pos):
            self.table.markers[marker] = None  # held over the reader, then back in the tray
            self.send(CardScanned(self.table.uid(marker)))
            return
        city = self.record.city_at(pos, slack=14) if self.screen_rect.collidepoint(pos) else None
        if city is None:
            self.table.markers[marker] = None  # back in its tray
            self._recompose = True
            return
        self._place(marker, city)

    def _place(self, marker: MarkerTag, city: str) -> None:
        self.table.markers[marker] = city
        if city in self._readers_at:
            self.send(TagPlaced(city, self.table.uid(marker)))
        else:  # a place with no reader under it (an Auf Achse road space): nothing is sensed
            self._recompose = True

    def _marker_at(self, pos: tuple[int, int]) -> MarkerTag | None:
        for marker, city in self.table.markers.items():
            if city is None:
                if self.tray.slots[marker].collidepoint(pos):
                    return marker
                continue
            if math.dist(pos, self._pawn_centre(marker, city)) <= self.tray.marker_radius * 0.8 and not (
                self._matches_engine(marker)
            ):
                return marker
            box = self.record.transports.get((marker.colour, marker.number))
            if box is not None and self._matches_engine(marker) and pygame.Rect(box).collidepoint(pos):
                return marker
        return None

    def _engine_place(self, marker: MarkerTag) -> str | None:
        """Where the engine has the piece this marker stands for (None: not on the board)."""
        return self.props.engine_place(self.controller.state, marker)

    def _matches_engine(self, marker: MarkerTag) -> bool:
        place = self._engine_place(marker)
        return place is not None and place == self.table.markers.get(marker)

    def _pawn_centre(self, marker: MarkerTag, city: str) -> tuple[int, int]:
        x, y, r = self.record.cities.get(city, (0, 0, 0))
        k = self.table.at(city).index(marker) if marker in self.table.at(city) else 0
        d = self.tray.marker_radius
        return x - d - r // 2 + k * 2 * d, y - d - r // 2

    def _on_admin(self) -> None:
        self.notice = "Admin menu: not available in the simulator (long MENU / admin card)"
        self._recompose = True

    def _sync(self) -> None:
        """Follow the controller: the card piles, and whether the screen must be rendered again."""
        for intent in self.table.sync(self.controller.state, self.controller.ui):  # what the table's hands do
            self.session.put(intent)
        if not self.session.intents.empty():
            self.session.step(self.clock())
        c = self.controller
        seen = (id(c.state), c.ui, c.led_frame)
        if seen != self._seen:
            self._seen = seen
            self._dirty = True

    # -- drawing -------------------------------------------------------------------------
    def draw(self) -> None:
        """Redraw what changed and flip. The screen is rendered once per model change and blink phase
        (blinking then only swaps cached frames); the tray only when the table or the model changed."""
        c = self.controller
        now = self.clock()
        phase = blink_phases(now) if self.game_screen.needs_animation(c.state, c.ui, c.led_frame) else None
        if not self._dirty and not self._recompose and phase == self._phase:
            return
        full = self._dirty or self._recompose
        if self._dirty:
            self._frames.clear()
        cached = self._frames.get(phase)
        if cached is None:
            surface = pygame.Surface(self.screen_rect.size)
            cached = (surface, self.game_screen.render(surface, c.state, c.ui, c.led_frame, now=now))
            self._frames[phase] = cached
            self.renders += 1
        self.screen, self.record = cached
        self._phase = phase
        self._dirty = self._recompose = False
        self.window.blit(self.screen, self.screen_rect)
        if full:
            canvas = Canvas(self.window, FrameRecord(self.window.get_size()))
            pressed = None
            if self._press is not None and self._press.target.startswith("button:"):
                pressed = ButtonName(self._press.target.partition(":")[2])
            self._draw_tray(canvas, pressed)
            if self.notice:
                canvas.text(self.notice, self.tray.help.midleft, max(10, self.tray.px(12)), colour=theme.ACCENT,
                            anchor="midleft", background=(12, 14, 18))  # fmt: skip
            self.tray_record = canvas.record
        self._draw_pawns()
        if full:
            pygame.display.flip()
        else:
            pygame.display.update(self.screen_rect)

    def _drag_marker(self) -> MarkerTag | None:
        return None if self._drag is None else self._drag.marker

    def _draw_pawns(self) -> None:
        canvas = Canvas(self.window, FrameRecord(self.window.get_size()))  # markers in the hand: no layout
        r = self.tray.marker_radius
        for seat, colour in enumerate(self.config.colours):
            style = theme.player_style(colour, seat)
            for marker, city in self.table.markers.items():
                if marker.colour != colour or city is None or self._matches_engine(marker):
                    continue
                if self._drag is not None and self._drag.marker == marker:
                    continue
                draw_marker(canvas, self._pawn_centre(marker, city), round(r * 0.8), style, marker.number)
        if self._drag is not None:
            seat = self.config.seat_of(self._drag.marker.colour) or 0
            style = theme.player_style(self._drag.marker.colour, seat)
            draw_marker(canvas, self._drag.pos, r, style, self._drag.marker.number)


if __name__ == "__main__":
    import sys

    from companion.simulator.app import main

    raise SystemExit(main(sys.argv[1:]))
