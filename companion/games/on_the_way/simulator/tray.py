"""The simulator's table edge, below the screen: marker trays, card reader, contracts, event deck, buttons.

It stands in for the physical things around the board; drawing it never changes the game.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from companion.display import theme
from companion.display.record import Canvas
from companion.display.theme import RGB
from companion.display.tokens import marker as draw_marker
from companion.display.tray import box, button_row, draw_buttons, draw_help
from companion.games.on_the_way.engine.cards import ContractCard, Tier
from companion.games.on_the_way.engine.state import MARKERS_PER_PLAYER, GameState
from companion.games.on_the_way.simulator.table import SimTable
from companion.intents import ButtonName
from companion.table.messages import Catalogue
from companion.table.tags import MarkerTag
from companion.table.ui import Mode, UiModel

TIER_COLOURS = {Tier.BASIC: (0, 158, 115), Tier.EXTENDED: (240, 228, 66), Tier.PROFESSIONAL: (213, 94, 0)}
MESSAGES = "companion.games.on_the_way"  # the tray's words: its catalogue's tray.* (in the table's language)


@dataclass(frozen=True)
class TrayLayout:
    rect: pygame.Rect
    scale: float
    trays: dict[str, pygame.Rect]  # colour -> the player's marker tray
    slots: dict[MarkerTag, pygame.Rect]  # where a marker lies while it is in its tray
    reader: pygame.Rect | None
    offer: tuple[pygame.Rect, ...]  # face-up contract slots
    pile: pygame.Rect
    events: pygame.Rect
    buttons: dict[ButtonName, pygame.Rect]
    help: pygame.Rect

    def px(self, value: float) -> int:
        return max(1, round(value * self.scale))

    @property
    def marker_radius(self) -> int:
        return self.px(16)


def compute_tray(rect: pygame.Rect, colours: tuple[str, ...], offer_size: int) -> TrayLayout:
    rows = 1 if len(colours) <= 2 else 2
    cols = (len(colours) + rows - 1) // rows
    # Everything must fit across: trays, reader, offer, pile, events and five buttons (8 px gaps).
    base_width = cols * 108 + 108 + offer_size * 136 + 84 + 92 + 5 * 58 + 16
    scale = min(rect.h / 150, rect.w / base_width)

    def px(v: float) -> int:
        return max(1, round(v * scale))

    help_h = px(20)
    gap = px(8)
    body = pygame.Rect(rect.x + gap, rect.y + gap, rect.w - 2 * gap, rect.h - help_h - 2 * gap)
    x = body.x
    trays: dict[str, pygame.Rect] = {}
    slots: dict[MarkerTag, pygame.Rect] = {}
    tray_w = px(100)
    tray_h = (body.h - (rows - 1) * gap) // rows
    for i, colour in enumerate(colours):
        col, row = divmod(i, rows)
        tray = pygame.Rect(x + col * (tray_w + gap), body.y + row * (tray_h + gap), tray_w, tray_h)
        trays[colour] = tray
        d = min(px(34), tray.h - px(20))
        for n in range(1, MARKERS_PER_PLAYER + 1):
            slot = pygame.Rect(0, 0, d, d)
            slot.center = (tray.x + tray.w * (2 * n - 1) // (2 * MARKERS_PER_PLAYER), tray.bottom - px(4) - d // 2)
            slots[MarkerTag(colour, n)] = slot
    x += cols * (tray_w + gap)
    reader = pygame.Rect(x, body.y, px(100), body.h)
    x = reader.right + gap
    card_w = px(128)
    spare = 0
    if card_w < 100 and offer_size > 1:  # a narrow window: the cards in two rows, each twice as wide
        cols = -(-offer_size // 2)
        spare = px(60)  # two rows need less width: the buttons get it (their labels must fit)
        wide = (offer_size * (card_w + gap) - spare - gap - (cols - 1) * gap) // cols
        high = (body.h - gap) // 2
        offer = tuple(
            pygame.Rect(x + (i % cols) * (wide + gap), body.y + (i // cols) * (high + gap), wide, high)
            for i in range(offer_size)
        )
    else:
        offer = tuple(pygame.Rect(x + i * (card_w + gap), body.y, card_w, body.h) for i in range(offer_size))
    x += offer_size * (card_w + gap) - spare
    pile = pygame.Rect(x, body.y, px(76), body.h)
    events = pygame.Rect(pile.right + gap, body.y, px(84), body.h)
    x = events.right + gap
    buttons = button_row(x, body, px)
    help_rect = pygame.Rect(rect.x + gap, rect.bottom - help_h, rect.w - 2 * gap, help_h)
    return TrayLayout(rect, scale, trays, slots, reader, offer, pile, events, buttons, help_rect)


def draw_tray(
    canvas: Canvas,
    lay: TrayLayout,
    table: SimTable,
    state: GameState,
    ui: UiModel,
    *,
    pressed: ButtonName | None = None,
    dragging: MarkerTag | None = None,
) -> None:
    surface = canvas.surface
    px = lay.px
    small = max(10, px(12))
    body = max(10, px(14))
    t = Catalogue(ui.language, MESSAGES)
    pygame.draw.rect(surface, (12, 14, 18), lay.rect)
    # Marker trays.
    for seat, (colour, tray) in enumerate(lay.trays.items()):
        style = theme.player_style(colour, seat)
        on_turn = not state.finished and state.current.colour == colour
        pygame.draw.rect(surface, theme.PANEL_ACTIVE if on_turn else theme.PANEL, tray, border_radius=px(6))
        pygame.draw.rect(surface, style.colour, tray, width=px(2), border_radius=px(6))
        with canvas.box(tray, "marker_tray"):
            canvas.text(t.player_name(colour), (tray.x + px(6), tray.y + px(3)), small, role="tray",
                        max_width=tray.w - px(8))  # fmt: skip
            for m in table.in_tray(colour):
                if m == dragging:
                    continue
                slot = lay.slots[m]
                draw_marker(canvas, slot.center, slot.w // 2, style, m.number)
    # Card reader.
    assert lay.reader is not None
    box(canvas, lay.reader, t.text("tray.reader"), t.text("tray.reader_detail"), small, lay)
    # Contracts: the open offer and the face-down pile.
    for i, rect in enumerate(lay.offer):
        card_id = table.offer[i] if i < len(table.offer) else None
        with canvas.box(rect, "card"):
            _contract(canvas, lay, rect, card_id, state, small, body, t)
    pile = t.text("tray.pile_detail", cards=t.counted("tray.cards", len(table.pile)))
    box(canvas, lay.pile, t.text("tray.pile"), pile, small, lay, face_down=bool(table.pile))
    due = ui.mode is Mode.EVENT_DUE or state.awaiting_event
    box(
        canvas,
        lay.events,
        t.text("tray.events"),
        t.text("tray.events_detail", cards=t.counted("tray.cards", len(table.events))),
        small,
        lay,
        face_down=True,
        highlight=due,
        colour=(40, 70, 130),
    )
    draw_buttons(canvas, lay, pressed)
    draw_help(canvas, lay.help, (t.text("tray.help"), t.text("tray.help_short")), small)


def _contract(
    canvas: Canvas,
    lay: TrayLayout,
    rect: pygame.Rect,
    card_id: str | None,
    state: GameState,
    small: int,
    body: int,
    t: Catalogue,
) -> None:
    surface = canvas.surface
    px = lay.px
    if card_id is None:
        pygame.draw.rect(surface, theme.PANEL, rect, width=1, border_radius=px(6))
        return
    card = state.config.contract(card_id)
    assert card is not None
    pygame.draw.rect(surface, (236, 232, 220), rect, border_radius=px(6))
    stripe = pygame.Rect(rect.x, rect.y, rect.w, px(6))
    pygame.draw.rect(
        surface, TIER_COLOURS[card.tier], stripe, border_top_left_radius=px(6), border_top_right_radius=px(6)
    )
    ink = (20, 20, 24)
    x = rect.x + px(6)
    w = rect.w - px(12)
    y = stripe.bottom + px(3)
    pay = theme.money(card.pay) + (" " + t.text("screen.contract_vp", vp=card.vp) if card.vp else "")
    tier = t.text(f"wizard.choice_tier_{card.tier.value}")  # as the set-up wizard names it
    head = f"{card.id}  {tier}"
    split = not canvas.fits(head, small, w)  # a long id: the tier on a line of its own
    full_h = px(9) + round(small * 1.3) * (2 if split else 1) + round(body * 1.25) + round(body * 1.35)
    full_h += canvas.measure("Hg", small)[1]
    if rect.h < full_h:  # a card in a two-row tray (or a long id): id, trucks and pay, then the route
        # The text closer to the card's edges (3 px instead of 6): the route's two names at their
        # shortest ("ŴW…CA → ŴW…ST") then fit one line, and the id, route, trucks and pay all fit.
        room = pygame.Rect(rect.x + px(3), y, rect.w - px(6), rect.bottom - y)
        _compact_contract(canvas, card, pay, room, small, ink)
        return
    for line in (card.id, tier) if split else (head,):
        canvas.text(line, (x, y), small, colour=(70, 70, 80), role="card", max_width=w)
        y += round(small * 1.3)
    # Long city names ("Cluj-Napoca") step down to the small size rather than lose their end.
    wide = max(canvas.measure(name, body, bold=True)[0] for name in (card.origin, f"→ {card.destination}"))
    name_size = body if wide <= w else max(10, small)
    canvas.text(card.origin, (x, y), name_size, colour=ink, bold=True, role="card", max_width=w)
    y += round(body * 1.25)
    canvas.text(f"→ {card.destination}", (x, y), name_size, colour=ink, bold=True, role="card", max_width=w)
    y += round(body * 1.35)
    canvas.text(f"×{card.trucks} · {pay}", (x, y), small, colour=ink, role="card", max_width=w)


def _compact_contract(canvas: Canvas, card: ContractCard, pay: str, room: pygame.Rect, small: int, ink: RGB) -> None:
    """A contract in a low card: "id · ×trucks · pay" and the route below. When the id is too long
    for that line (an owner's 200-character id): the id alone, the route (its names abbreviated with
    meaning), then trucks and pay; when the route's names cannot be told apart on one line, the id
    gives way (scanning the card names it on the screen) so that trucks and pay stay on the card."""
    size = max(10, small)
    step = round(size * 1.2)
    rows = max(1, (room.h - canvas.measure("Hg", size)[1]) // step + 1)
    head = f"{card.id} · ×{card.trucks} · {pay}"
    heads = [head] if canvas.fits(head, size, room.w) else [card.id, f"×{card.trucks} · {pay}"]
    text = f"{card.origin} → {card.destination}"
    route, bold = _route(canvas, text, size, room.w, rows - len(heads))
    if len(heads) > 1 and len(heads) + len(route) > rows:
        heads = heads[1:]
        route, bold = _route(canvas, text, size, room.w, rows - 1)
    y = room.y
    for line, strong in [(heads[0], False), *((r, bold) for r in route), *((h, False) for h in heads[1:])]:
        canvas.text(line, (room.x, y), size, colour=ink if strong else (70, 70, 80), bold=strong, role="card",
                    max_width=room.w)  # fmt: skip
        y += step


def _route(canvas: Canvas, text: str, size: int, width: int, rows: int) -> tuple[list[str], bool]:
    """The route's lines (in at most ``rows`` when its names can be abbreviated to that) and whether
    they are bold: the regular weight, a tenth narrower, when bold takes a line more."""
    rows = max(1, rows)
    lines = canvas.lines(text, size, width, bold=True, max_lines=rows)
    if len(lines) <= rows:
        return lines, True
    return canvas.lines(text, size, width, max_lines=rows), False
