"""One panel per player: colour + letter, bank balance, VP and score, markers, contracts held."""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from companion.display import theme
from companion.display.layout import Layout
from companion.display.record import Canvas
from companion.display.tokens import swatch
from companion.games.on_the_way.engine.scoring import score
from companion.games.on_the_way.engine.state import MARKERS_PER_PLAYER, GameState, PlayerState


def draw_players(canvas: Canvas, layout: Layout, state: GameState, offer: str | None = None) -> None:
    """``offer``: a contract offered for fulfilment now (UiModel.offer), highlighted in its panel."""
    for seat, (player, rect) in enumerate(zip(state.players, layout.players, strict=False)):
        on_turn = seat == state.turn.seat and not state.finished
        _panel(canvas, layout, state, seat, player, rect, on_turn, offer)
    if layout.players:
        u = layout.players[0].unionall(layout.players[1:])
        canvas.record.regions["players"] = (u.x, u.y, u.w, u.h)


def _panel(
    canvas: Canvas,
    layout: Layout,
    state: GameState,
    seat: int,
    player: PlayerState,
    rect: pygame.Rect,
    on_turn: bool,
    offer: str | None,
) -> None:
    head = draw_panel_header(canvas, layout, rect, player.colour, seat, on_turn, theme.money(player.money))
    inner, body, small, line, y = head.inner, head.body, head.small, head.line, head.y
    style = theme.player_style(player.colour, seat)

    # Row 2: VP tokens and the score now.
    vp_text = f"{player.vp} VP  ·  score {score(player)}"
    canvas.text(vp_text, (inner.x, y), body, role="score", max_width=inner.w)
    y += round(body * 1.3)

    # Row 3: markers.
    parts = []
    for m in range(1, MARKERS_PER_PLAYER + 1):
        t = player.transport(m)
        parts.append(f"{style.letter}{m}: {t.city} ×{t.trucks}" if t else f"{style.letter}{m}: free")
    canvas.text("   ".join(parts), (inner.x, y), small, colour=theme.TEXT_DIM, role="markers", max_width=inner.w)
    y += line

    # Contracts held, as many as fit.
    contracts = [state.config.contract(cid) for cid in player.contracts]
    room = max(0, (inner.bottom - y) // line)
    shown = contracts if len(contracts) <= room else contracts[: max(0, room - 1)]
    for card in shown:
        if card is None:
            continue
        text = f"{card.id} {card.origin}→{card.destination}  ×{card.trucks}  {theme.money(card.pay)}"
        if card.vp:
            text += f" +{card.vp} VP"
        if card.id == offer:
            canvas.text(
                "▶ " + text, (inner.x, y), small, colour=theme.ACCENT, bold=True, role="offer", max_width=inner.w
            )
        else:
            canvas.text(text, (inner.x, y), small, role="contract", max_width=inner.w)
        y += line
    if len(shown) < len(contracts):
        canvas.text(f"+{len(contracts) - len(shown)} more contracts", (inner.x, y), small, colour=theme.TEXT_DIM)
    elif not contracts and room:
        canvas.text("no contracts", (inner.x, y), small, colour=theme.TEXT_FAINT, role="contract")


@dataclass(frozen=True, slots=True)
class PanelHeader:
    inner: pygame.Rect  # the panel's content area
    big: int
    body: int
    small: int
    line: int
    y: int  # where the rows below the header start


def draw_panel_header(
    canvas: Canvas, layout: Layout, rect: pygame.Rect, colour: str, seat: int, on_turn: bool, money: str
) -> PanelHeader:
    """A player's panel frame and first row, for every game: a stripe of the player's colour down the
    left edge, a bright frame for the player on turn, then swatch, name and the bank balance (always
    visible: drawn first and right-aligned)."""
    surface = canvas.surface
    style = theme.player_style(colour, seat)
    radius = layout.px(5)
    pygame.draw.rect(surface, theme.PANEL_ACTIVE if on_turn else theme.PANEL, rect, border_radius=radius)
    stripe = pygame.Rect(rect.x, rect.y, layout.px(5), rect.h)
    pygame.draw.rect(surface, style.colour, stripe, border_top_left_radius=radius, border_bottom_left_radius=radius)
    if on_turn:
        pygame.draw.rect(surface, theme.ACCENT, rect, width=layout.px(2), border_radius=radius)
    pad = layout.pad
    inner = rect.inflate(-2 * pad, -2 * pad)
    inner.x += layout.px(4)
    inner.w -= layout.px(4)
    compact = len(layout.players) > 2
    big = layout.body if compact else layout.large
    body = layout.small if compact else layout.body
    small = layout.small
    sw = pygame.Rect(inner.x, inner.y, big + layout.px(4), big + layout.px(4))
    swatch(surface, sw, style)
    money_rect = canvas.text(money, (inner.right, inner.y), big, bold=True, anchor="topright", role="money")
    name = theme.title(colour) + ("  ▶" if on_turn else "")
    canvas.text(name, (sw.right + pad, inner.y + layout.px(1)), big, bold=True, role="player",
                max_width=money_rect.x - sw.right - 2 * pad)  # fmt: skip
    return PanelHeader(inner, big, body, small, round(small * 1.25), sw.bottom + layout.px(2))
