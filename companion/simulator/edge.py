"""The table's edge in a window: the pieces, the card piles, the card reader and the five buttons
around a game's screen, played with a mouse — the simulator's and the windowed kiosk's.

A marker dragged onto a city is a tag placed on that city's reader (``TagPlaced``), dragging it off
is ``TagLifted``; a click on a card in the tray scans it (``CardScanned``); the on-screen buttons are
the five buttons (holding MENU is its long press); a click on a city is a touch (``CityTapped``).
``TableEdge`` only turns the mouse into intents (returned, in order) and draws the tray and the
markers on top of the game's screen; whoever owns the table controller applies them (the
simulator's ``TableSession``, the kiosk's state machine). The game's parts come from its plug-in
(``plugin.simulator``: ``SimProps``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import pygame

from companion.display import theme
from companion.display.record import Canvas, FrameRecord
from companion.display.tokens import marker as draw_marker
from companion.engine.game import Game
from companion.games.protocol import GamePlugin
from companion.intents import ButtonName, ButtonPressed, CardScanned, CityTapped, Intent, TagLifted, TagPlaced
from companion.table.tags import MarkerTag

LONG_PRESS_S = 0.8
DRAG_THRESHOLD_PX = 6


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


def tray_height(window_height: int) -> int:
    """The tray's share of a window under the game's screen."""
    return max(110, round(window_height * 0.19))


class TableEdge:
    """``TableEdge(plugin, game, seed)``: the physical table of ``game`` (its pieces dealt by ``seed``).

    ``layout(tray_rect, screen_rect)`` places the tray; the mouse methods take the frame the game's
    screen drew last (``record``: cities, transports) and the engine state, and return intents.
    """

    def __init__(self, plugin: GamePlugin, game: Game[Any], seed: int | None = None) -> None:
        self.props = plugin.simulator(game, seed)
        self.config: Any = game.state.config
        self.tags = self.props.tags
        self.readers_at = frozenset(self.props.reader_cities)
        self.table = self.props.deal(seed)
        self.tray: Any = None
        self.screen_rect = pygame.Rect(0, 0, 0, 0)
        self.drag: _Drag | None = None
        self.press: _Press | None = None
        self.changed = True  # the tray or the markers on top must be drawn again

    @property
    def title(self) -> str:
        return self.props.title

    def layout(self, tray_rect: pygame.Rect, screen_rect: pygame.Rect) -> None:
        self.tray = self.props.compute_tray(tray_rect)  # the game's tray layout
        self.screen_rect = screen_rect
        self.changed = True

    @property
    def active(self) -> bool:
        """A drag or a press is under way (the loop should not sleep on events alone)."""
        return self.drag is not None or self.press is not None

    # -- geometry (also what tests and scripts aim at) -------------------------------------
    def marker_pos(self, marker: MarkerTag, record: FrameRecord, state: Any) -> tuple[int, int]:
        """Where to grab a marker: its tray slot, its pawn, or the transport token it stands for."""
        city = self.table.markers[marker]
        if city is None:
            return self.tray.slots[marker].center
        box = record.transports.get((marker.colour, marker.number))
        if box is not None and self.matches_engine(marker, state):
            return pygame.Rect(box).center
        return self.pawn_centre(marker, city, record)

    def card_pos(self, card: str) -> tuple[int, int]:
        return self.tray.offer[self.table.offer.index(card)].center

    def button_pos(self, button: ButtonName) -> tuple[int, int]:
        return self.tray.buttons[button].center

    def pawn_centre(self, marker: MarkerTag, city: str, record: FrameRecord) -> tuple[int, int]:
        x, y, r = record.cities.get(city, (0, 0, 0))
        k = self.table.at(city).index(marker) if marker in self.table.at(city) else 0
        d = self.tray.marker_radius
        return x - d - r // 2 + k * 2 * d, y - d - r // 2

    def engine_place(self, marker: MarkerTag, state: Any) -> str | None:
        """Where the engine has the piece this marker stands for (None: not on the board)."""
        return self.props.engine_place(state, marker)

    def matches_engine(self, marker: MarkerTag, state: Any) -> bool:
        place = self.engine_place(marker, state)
        return place is not None and place == self.table.markers.get(marker)

    # -- the mouse -------------------------------------------------------------------------
    def mouse_down(self, pos: tuple[int, int], now: float, record: FrameRecord, state: Any) -> list[Intent]:
        for name, rect in self.tray.buttons.items():
            if rect.collidepoint(pos):
                self.press = _Press(f"button:{name.value}", pos, now)
                self.changed = True
                return []
        grabbed = self._marker_at(pos, record, state)
        if grabbed is not None:
            self.drag = _Drag(grabbed, self.table.markers[grabbed], pos, pos)
            return []
        target = self.props.tray_target(pos, self.tray, self.table, state)
        if target is not None:
            self.press = _Press(target, pos, now)
        elif (city := record.city_at(pos, slack=8)) is not None:
            self.press = _Press(f"city:{city}", pos, now)
        return []

    def mouse_move(self, pos: tuple[int, int]) -> list[Intent]:
        drag = self.drag
        if drag is None:
            return []
        drag.pos = pos
        self.changed = True
        if not drag.lifted and math.dist(pos, drag.start) >= DRAG_THRESHOLD_PX:
            drag.lifted = True
            if drag.origin is not None:
                self.table.markers[drag.marker] = None
                return [TagLifted(drag.origin, self.table.uid(drag.marker))]
        return []

    def mouse_up(self, pos: tuple[int, int], now: float, record: FrameRecord) -> list[Intent]:
        drag, self.drag = self.drag, None
        if drag is not None:
            self.changed = True
            if not drag.lifted:  # a click on a marker: a touch on its city
                return [CityTapped(drag.origin)] if drag.origin is not None else []
            return self._drop(drag, pos, record)
        press, self.press = self.press, None
        if press is None:
            return []
        kind, _, value = press.target.partition(":")
        self.changed = True
        if kind == "button":
            button = ButtonName(value)
            long = button is ButtonName.MENU and now - press.at >= LONG_PRESS_S
            return [ButtonPressed(button, long=long)]
        if kind == "card":
            return [CardScanned(self.table.card_uid(value))]
        if kind == "uid":
            return [CardScanned(value)]
        if kind == "city":
            return [CityTapped(value)]
        return []

    def cancel_drag(self) -> list[Intent]:
        """Esc while dragging: the marker goes back where it came from."""
        drag, self.drag = self.drag, None
        self.changed = True
        if drag is not None and drag.lifted and drag.origin is not None:
            return self.place(drag.marker, drag.origin)
        return []

    def _drop(self, drag: _Drag, pos: tuple[int, int], record: FrameRecord) -> list[Intent]:
        marker = drag.marker
        if self.tray.reader is not None and self.tray.reader.collidepoint(pos):
            self.table.markers[marker] = None  # held over the reader, then back in the tray
            return [CardScanned(self.table.uid(marker))]
        city = record.city_at(pos, slack=14) if self.screen_rect.collidepoint(pos) else None
        if city is None:
            self.table.markers[marker] = None  # back in its tray
            return []
        return self.place(marker, city)

    def place(self, marker: MarkerTag, city: str) -> list[Intent]:
        self.table.markers[marker] = city
        self.changed = True
        if city in self.readers_at:
            return [TagPlaced(city, self.table.uid(marker))]
        return []  # a place with no reader under it (an Auf Achse road space): nothing is sensed

    def _marker_at(self, pos: tuple[int, int], record: FrameRecord, state: Any) -> MarkerTag | None:
        for marker, city in self.table.markers.items():
            if city is None:
                if self.tray.slots[marker].collidepoint(pos):
                    return marker
                continue
            matches = self.matches_engine(marker, state)
            if math.dist(pos, self.pawn_centre(marker, city, record)) <= self.tray.marker_radius * 0.8 and not matches:
                return marker
            box = record.transports.get((marker.colour, marker.number))
            if box is not None and matches and pygame.Rect(box).collidepoint(pos):
                return marker
        return None

    # -- following the game ------------------------------------------------------------------
    def sync(self, state: Any, ui: Any) -> list[Intent]:
        """What the people's hands do by themselves (refill a pile, scan the laid-out cards)."""
        return list(self.table.sync(state, ui))

    # -- drawing -------------------------------------------------------------------------
    def draw_tray(self, canvas: Canvas, state: Any, ui: Any) -> None:
        pressed = None
        if self.press is not None and self.press.target.startswith("button:"):
            pressed = ButtonName(self.press.target.partition(":")[2])
        dragging = None if self.drag is None else self.drag.marker
        self.props.draw_tray(canvas, self.tray, self.table, state, ui, pressed=pressed, dragging=dragging)

    def draw_pawns(self, surface: pygame.Surface, record: FrameRecord, state: Any) -> None:
        """The markers on the board the engine does not show yet (being placed), and the one in hand."""
        canvas = Canvas(surface, FrameRecord(surface.get_size()))  # markers in the hand: no layout to check
        r = self.tray.marker_radius
        for seat, colour in enumerate(self.config.colours):
            style = theme.player_style(colour, seat)
            for marker, city in self.table.markers.items():
                if marker.colour != colour or city is None or self.matches_engine(marker, state):
                    continue
                if self.drag is not None and self.drag.marker == marker:
                    continue
                draw_marker(canvas, self.pawn_centre(marker, city, record), round(r * 0.8), style, marker.number)
        if self.drag is not None:
            seat = self.config.seat_of(self.drag.marker.colour) or 0
            style = theme.player_style(self.drag.marker.colour, seat)
            draw_marker(canvas, self.drag.pos, r, style, self.drag.marker.number)
        self.changed = False
