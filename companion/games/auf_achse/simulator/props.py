"""Auf Achse's things around the board in the simulator (``SimProps``, composed into the one
``companion.simulator`` window with Auf Achse's table controller and screen).

The table edge holds each player's truck (while it is in the box) and bank card, the shuffled
contract deck (a click scans the next card: private contracts at set-up, then public ones), the
face-up public contracts (a click scans one: to auction it), the action deck and the five buttons.
Dragging a truck onto a city puts its tag on that city's reader; a truck whose move was chosen on the
screen follows the engine by itself (the player's hand moving it), lifting off / arriving on readers
as it goes, so the controller hears exactly what the readers would report.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pygame

from companion.display import theme
from companion.display.record import Canvas
from companion.display.tokens import marker as draw_marker
from companion.display.tray import box, button_row, draw_buttons, draw_help
from companion.engine.game import Game
from companion.games.auf_achse.engine import GameConfig, GameState
from companion.games.auf_achse.table.controller import TRUCK
from companion.intents import ButtonName, Intent, TagLifted, TagPlaced
from companion.table.messages import Catalogue
from companion.table.tags import BankCardTag, CardTag, MarkerTag, TagDirectory
from companion.table.ui import UiModel

MESSAGES = "companion.games.auf_achse"  # the tray's words: its catalogue's tray.* (in the table's language)


@dataclass
class AASimTable:
    """Where each truck is (a space id, or None: in the box) and the order of the face-down decks."""

    config: GameConfig
    tags: TagDirectory
    markers: dict[MarkerTag, str | None] = field(default_factory=dict)
    contracts: list[str] = field(default_factory=list)  # the shuffled contract deck, top first
    actions: list[str] = field(default_factory=list)  # the shuffled action deck, top first
    _state: object | None = None

    @classmethod
    def deal(cls, config: GameConfig, tags: TagDirectory, seed: int | None = None) -> AASimTable:
        rng = random.Random(seed)
        contracts = [c.id for c in config.deck.contracts]
        actions = [a.id for a in config.deck.actions]
        rng.shuffle(contracts)
        rng.shuffle(actions)
        markers: dict[MarkerTag, str | None] = {MarkerTag(c, TRUCK): None for c in config.colours}
        return cls(config, tags, markers, contracts, actions)

    def uid(self, tag: MarkerTag | CardTag | BankCardTag) -> str:
        uid = self.tags.uid_of(tag)
        assert uid is not None, f"no simulated tag for {tag}"
        return uid

    def card_uid(self, card: str) -> str:
        return self.uid(CardTag(card))

    def in_tray(self, colour: str) -> list[MarkerTag]:
        return [m for m, c in self.markers.items() if c is None and m.colour == colour]

    def at(self, city: str) -> list[MarkerTag]:
        return [m for m, c in self.markers.items() if c == city]

    def next_contract(self, state: GameState) -> str | None:
        return next((c for c in self.contracts if c not in state.seen), None)

    def next_action(self, state: GameState) -> str | None:
        used = set(state.actions_used)
        return next((a for a in self.actions if a not in used), self.actions[0] if self.actions else None)

    def sync(self, state: GameState, ui: object = None) -> list[Intent]:
        """When the game changed, trucks follow the engine: the intents the readers report on the way."""
        if state is self._state:
            return []
        self._state = state
        out: list[Intent] = []
        board = state.board
        for p in state.players:
            truck = MarkerTag(p.colour, TRUCK)
            here = self.markers.get(truck)
            if p.space == here or p.space is None:
                continue
            uid = self.uid(truck)
            if here is not None and board.is_city(here):
                out.append(TagLifted(here, uid))
            self.markers[truck] = p.space
            if board.is_city(p.space):
                out.append(TagPlaced(p.space, uid))
        return out


@dataclass(frozen=True)
class AATrayLayout:
    rect: pygame.Rect
    scale: float
    trays: dict[str, pygame.Rect]  # colour -> the player's box: truck and bank card
    slots: dict[MarkerTag, pygame.Rect]
    banks: dict[str, pygame.Rect]
    pile: pygame.Rect
    public: tuple[pygame.Rect, ...]
    actions: pygame.Rect
    buttons: dict[ButtonName, pygame.Rect]
    help: pygame.Rect
    reader: None = None

    def px(self, value: float) -> int:
        return max(1, round(value * self.scale))

    @property
    def marker_radius(self) -> int:
        return self.px(14)


def compute_aa_tray(rect: pygame.Rect, colours: tuple[str, ...]) -> AATrayLayout:
    rows = 1 if len(colours) <= 3 else 2
    cols = (len(colours) + rows - 1) // rows
    base_width = cols * 96 + 96 + 4 * 110 + 76 + 5 * 58 + 16
    scale = min(rect.h / 150, rect.w / base_width)

    def px(v: float) -> int:
        return max(1, round(v * scale))

    help_h, gap = px(20), px(8)
    body = pygame.Rect(rect.x + gap, rect.y + gap, rect.w - 2 * gap, rect.h - help_h - 2 * gap)
    trays: dict[str, pygame.Rect] = {}
    slots: dict[MarkerTag, pygame.Rect] = {}
    banks: dict[str, pygame.Rect] = {}
    tray_w = px(88)
    tray_h = (body.h - (rows - 1) * gap) // rows
    for i, colour in enumerate(colours):
        col, row = divmod(i, rows)
        tray = pygame.Rect(body.x + col * (tray_w + gap), body.y + row * (tray_h + gap), tray_w, tray_h)
        trays[colour] = tray
        d = min(px(30), tray.h // 2 - px(4))
        slots[MarkerTag(colour, TRUCK)] = pygame.Rect(tray.x + px(6), tray.bottom - d - px(4), d, d)
        banks[colour] = pygame.Rect(tray.x + px(12) + d, tray.bottom - d - px(4), tray.w - d - px(18), d)
    x = body.x + cols * (tray_w + gap)
    pile = pygame.Rect(x, body.y, px(96), body.h)  # "Contracts" fits at 800×480 with six trays
    x = pile.right + gap
    card_w = px(104)
    public = tuple(pygame.Rect(x + i * (card_w + gap), body.y, card_w, body.h) for i in range(4))
    x += 4 * (card_w + gap)
    actions = pygame.Rect(x, body.y, px(76), body.h)
    x = actions.right + gap
    buttons = button_row(x, body, px)
    help_rect = pygame.Rect(rect.x + gap, rect.bottom - help_h, rect.w - 2 * gap, help_h)
    return AATrayLayout(rect, scale, trays, slots, banks, pile, public, actions, buttons, help_rect)


class AufAchseSimProps:
    title = "Auf Achse"

    def __init__(self, game: Game[GameState]) -> None:
        self.config: GameConfig = game.state.config
        deck = self.config.deck
        card_ids = [c.id for c in deck.contracts] + [a.id for a in deck.actions]
        self.tags = TagDirectory.simulated(self.config.colours, card_ids, markers_per_player=1)
        self.reader_cities = tuple(self.config.board.cities)  # plain road spaces have no reader

    def deal(self, seed: int | None) -> AASimTable:
        return AASimTable.deal(self.config, self.tags, seed)

    def compute_tray(self, rect: pygame.Rect) -> AATrayLayout:
        return compute_aa_tray(rect, self.config.colours)

    def engine_place(self, state: GameState, marker: MarkerTag) -> str | None:
        player = state.player(marker.colour)
        return None if player is None else player.space

    def tray_target(self, pos: tuple[int, int], tray: AATrayLayout, table: AASimTable, state: GameState) -> str | None:
        for colour, rect in tray.banks.items():
            if rect.collidepoint(pos):
                return f"uid:{table.uid(BankCardTag(colour))}"
        for i, rect in enumerate(tray.public):
            if rect.collidepoint(pos) and i < len(state.public):
                return f"card:{state.public[i]}"
        if tray.pile.collidepoint(pos) and (card := table.next_contract(state)) is not None:
            return f"card:{card}"
        if tray.actions.collidepoint(pos) and (card := table.next_action(state)) is not None:
            return f"card:{card}"
        return None

    def draw_tray(
        self,
        canvas: Canvas,
        lay: AATrayLayout,
        table: AASimTable,
        state: GameState,
        ui: UiModel,
        *,
        pressed: ButtonName | None,
        dragging: MarkerTag | None,
    ) -> None:
        surface = canvas.surface
        px = lay.px
        small = max(10, px(12))
        t = Catalogue(ui.language, MESSAGES)
        pygame.draw.rect(surface, (12, 14, 18), lay.rect)
        for seat, (colour, tray) in enumerate(lay.trays.items()):
            style = theme.player_style(colour, seat)
            on_turn = not state.finished and ui.player == colour
            pygame.draw.rect(surface, theme.PANEL_ACTIVE if on_turn else theme.PANEL, tray, border_radius=px(6))
            pygame.draw.rect(surface, style.colour, tray, width=px(2), border_radius=px(6))
            with canvas.box(tray, "marker_tray"):
                canvas.text(t.player_name(colour), (tray.x + px(6), tray.y + px(3)), small, role="tray",
                            max_width=tray.w - px(8))  # fmt: skip
                for m in table.in_tray(colour):
                    if m != dragging:
                        slot = lay.slots[m]
                        draw_marker(canvas, slot.center, slot.w // 2, style, m.number)
                bank = lay.banks[colour]
                pygame.draw.rect(surface, style.colour, bank, border_radius=px(4))
                with canvas.box(bank, "bank_card"):
                    canvas.text(t.text("tray.bank"), bank.center, max(10, small - px(2)), colour=style.ink, bold=True,
                                anchor="center", role="tray")  # fmt: skip
        nxt = table.next_contract(state)
        left = sum(1 for c in table.contracts if c not in state.seen)
        pile = t.text("tray.contracts_detail", cards=t.counted("tray.cards", left))
        box(canvas, lay.pile, t.text("tray.contracts"), pile, small, lay, face_down=nxt is not None)
        for i, rect in enumerate(lay.public):
            card_id = state.public[i] if i < len(state.public) else None
            if card_id is None:
                pygame.draw.rect(surface, theme.PANEL, rect, width=1, border_radius=px(6))
                continue
            card = state.config.contract(card_id)
            assert card is not None
            highlight = state.auction is not None and state.auction.card == card_id
            detail = t.text("tray.public_detail", end=card.end, goods=t.counted("tray.goods", card.goods),
                            payout=theme.dm(card.payout))  # fmt: skip
            box(canvas, rect, f"{card_id} {card.start}", detail, small, lay, highlight=highlight)
        due = state.awaiting is not None and state.awaiting.kind.value == "action_card"
        box(canvas, lay.actions, t.text("tray.actions"), t.text("tray.actions_detail"), small, lay, face_down=True,
            highlight=due, colour=(40, 70, 130))  # fmt: skip
        draw_buttons(canvas, lay, pressed)
        draw_help(canvas, lay.help, (t.text("tray.help"), t.text("tray.help_short")), small)


def props(game: Game[Any], seed: int | None = None) -> AufAchseSimProps:
    return AufAchseSimProps(game)
