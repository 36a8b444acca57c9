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
from typing import Any

import pygame

from companion.display import theme
from companion.display.keys import KEY_BUTTONS
from companion.display.lights import blink_phases
from companion.display.record import Canvas, FrameRecord
from companion.display.waiting import wait_for_events
from companion.engine.game import Game
from companion.games.protocol import GamePlugin
from companion.games.seats import bot_player
from companion.intents import ButtonName, ButtonPressed, Intent
from companion.simulator.edge import LONG_PRESS_S, TableEdge, tray_height
from companion.simulator.readers import POLL_S, EmulatedReaders
from companion.table.messages import Catalogue
from companion.table.session import TableSession
from companion.table.tags import MarkerTag

log = logging.getLogger(__name__)

DEFAULT_SIZE = (1280, 800)


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
        self.edge = TableEdge(plugin, game, seed)  # the pieces, piles, reader and buttons around the screen
        self.props = self.edge.props
        self.game_screen = plugin.screen()
        self.config: Any = game.state.config
        self.clock = clock
        # The same path as the Pi: every input is an intent on one queue, one loop applies them
        # (TableSession). No rig: the window itself is the hardware.
        self.tags = self.edge.tags
        intents: queue.Queue[Intent] = queue.Queue()
        self.readers: EmulatedReaders | None = None
        options: dict[str, Any] = {"language": language, "settle_s": settle_s, "on_admin": self._on_admin}
        bot = bot_player(plugin, bots or {}, seed or 0, game)  # a resumed game: its turn so far
        if bot is not None:  # seats the box plays: you move their pieces as the screen and the rings show
            options["bot"] = bot
        if emulated_readers:  # opt-in: through the MFRC522 emulators and the 595 chain (docs/simulator.md)
            self.readers = EmulatedReaders(self.props.reader_cities, intents.put, plugin.neighbours())
            options["leds"] = self.readers.rig
        controller = plugin.table(game, self.tags, **options)
        self.session = TableSession(controller, None if self.readers is None else self.readers.rig, intents)
        self.running = True
        self.notice = ""
        self.record = FrameRecord((0, 0))
        self.tray_record = FrameRecord((0, 0))
        self.renders = 0  # full screen renders, for the benchmark and the redraw tests
        self._menu_key_at: float | None = None
        self._dirty = True  # the screen must be rendered again (the model changed)
        self._recompose = True  # only the tray / the markers on top changed
        self._seen: tuple[object, ...] = ()
        self._phase: tuple[bool, bool] | None = None
        self._frames: dict[tuple[bool, bool] | None, tuple[pygame.Surface, FrameRecord]] = {}
        self.window = pygame.display.set_mode(size, pygame.RESIZABLE)
        pygame.display.set_caption(f"{self.title} — {Catalogue(language).text('simulator.title')}")
        self._layout(size)

    @property
    def title(self) -> str:
        return self.props.title

    @property
    def table(self) -> Any:
        """The physical table: where each marker is, the card piles (the game's ``SimTable``)."""
        return self.edge.table

    @property
    def tray(self) -> Any:
        return self.edge.tray

    @property
    def controller(self) -> Any:
        """The game's table controller (a ``GameTable``: TableController or AATableController)."""
        return self.session.controller

    # -- geometry (also what tests and scripts aim at) -------------------------------------
    def _layout(self, size: tuple[int, int]) -> None:
        w, h = size
        tray_h = tray_height(h)
        self.screen_rect = pygame.Rect(0, 0, w, h - tray_h)
        self.screen = pygame.Surface(self.screen_rect.size)
        self.tray_rect = pygame.Rect(0, h - tray_h, w, tray_h)
        self.edge.layout(self.tray_rect, self.screen_rect)
        self._dirty = True

    def city_pos(self, city: str) -> tuple[int, int]:
        x, y, _ = self.record.cities[city]
        return x, y

    def marker_pos(self, marker: MarkerTag) -> tuple[int, int]:
        """Where to grab a marker: its tray slot, its pawn, or the transport token it stands for."""
        return self.edge.marker_pos(marker, self.record, self.controller.state)

    def card_pos(self, card: str) -> tuple[int, int]:
        return self.edge.card_pos(card)

    def button_pos(self, button: ButtonName) -> tuple[int, int]:
        return self.edge.button_pos(button)

    # -- the loop ------------------------------------------------------------------------
    def run(self) -> int:
        """Play until the window closes. Blocks on events; wakes only for settling and blinking."""
        while self.running:
            self.draw()
            timeout = self._timeout_ms()
            active = self.edge.active or self._menu_key_at is not None
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
            self._send_all(self.edge.mouse_down(event.pos, now, self.record, self.controller.state))
        elif event.type == pygame.MOUSEMOTION:
            self._send_all(self.edge.mouse_move(event.pos))
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self._send_all(self.edge.mouse_up(event.pos, now, self.record))

    def send(self, intent: Intent) -> None:
        """Queue one intent, as the hardware layer does (or hand it to the emulated readers), and step."""
        log.debug("intent %r", intent)
        if self.readers is None or not self.readers.drive(intent, self.clock()):
            self.session.put(intent)
        self._step()
        self._sync()

    def _send_all(self, intents: list[Intent]) -> None:
        for intent in intents:
            self.send(intent)
        if self.edge.changed:
            self._recompose = True

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
        elif event.key == pygame.K_ESCAPE and self.edge.drag is not None:
            self._send_all(self.edge.cancel_drag())  # put it back where it was
            self._recompose = True
        elif event.key in KEY_BUTTONS:
            self.send(ButtonPressed(KEY_BUTTONS[event.key]))

    def _on_admin(self) -> None:
        self.notice = Catalogue(self.controller.ui.language).text("simulator.no_admin")
        self._recompose = True

    def _sync(self) -> None:
        """Follow the controller: the card piles, and whether the screen must be rendered again."""
        for intent in self.edge.sync(self.controller.state, self.controller.ui):  # what the table's hands do
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
        if self.edge.changed:
            self._recompose = True
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
            self.tray_record = self.draw_tray(c.ui)
        self.edge.draw_pawns(self.window, self.record, c.state)
        if full:
            pygame.display.flip()
        else:
            pygame.display.update(self.screen_rect)

    def draw_tray(self, ui: Any) -> FrameRecord:
        """Draw the tray for ``ui`` and return what it drew. Its cards and piles name the owner's cities
        and cards as the game's screen does: with the names the screen's last frame knew (abbreviated
        with meaning where they do not fit, never cut)."""
        canvas = Canvas(self.window, FrameRecord(self.window.get_size()), self.record.names)
        self.edge.draw_tray(canvas, self.controller.state, ui)
        if self.notice:
            canvas.text(self.notice, self.tray.help.midleft, max(10, self.tray.px(12)), colour=theme.ACCENT,
                        anchor="midleft", background=(12, 14, 18), role="help", max_width=self.tray.help.w)  # fmt: skip
        return canvas.record
