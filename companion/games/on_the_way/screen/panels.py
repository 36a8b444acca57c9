"""On The Way's player panels: money, victory points, transports, contracts held, the offer."""

from __future__ import annotations

import pygame

from companion.display import theme
from companion.display.layout import Layout
from companion.display.panels import PanelLine, draw_panel_header, draw_panel_list
from companion.display.record import Canvas
from companion.games.on_the_way.engine.scoring import score
from companion.games.on_the_way.engine.state import MARKERS_PER_PLAYER, GameState, PlayerState
from companion.table.messages import Catalogue


def draw_players(canvas: Canvas, layout: Layout, state: GameState, t: Catalogue, offer: str | None = None) -> None:
    """``offer``: a contract offered for fulfilment now (UiModel.offer), highlighted in its panel."""
    for seat, (player, rect) in enumerate(zip(state.players, layout.players, strict=False)):
        on_turn = seat == state.turn.seat and not state.finished
        with canvas.box(rect, "panel"):
            _panel(canvas, layout, state, t, seat, player, rect, on_turn, offer)
    if layout.players:
        u = layout.players[0].unionall(layout.players[1:])
        canvas.record.regions["players"] = (u.x, u.y, u.w, u.h)


def _panel(
    canvas: Canvas,
    layout: Layout,
    state: GameState,
    t: Catalogue,
    seat: int,
    player: PlayerState,
    rect: pygame.Rect,
    on_turn: bool,
    offer: str | None,
) -> None:
    money = theme.money(player.money)
    head = draw_panel_header(canvas, layout, rect, player.colour, seat, on_turn, money, t.player_name(player.colour))
    inner, body, small, line, y = head.inner, head.body, head.small, head.line, head.y
    style = theme.player_style(player.colour, seat)

    # Row 2: VP tokens and the score now.
    vp_text = t.text("screen.score", vp=player.vp, score=score(player))
    canvas.text(vp_text, (inner.x, y), body, role="score", max_width=inner.w)
    y += round(body * 1.3)

    # Row 3: markers.
    parts = []
    for m in range(1, MARKERS_PER_PLAYER + 1):
        held = player.transport(m)
        where = f"{held.city} ×{held.trucks}" if held else t.text("screen.marker_free")
        parts.append(f"{style.letter}{m}: {where}")
    rows: list[str] = []  # whole markers per line: "R1: Poznań ×2" is never split
    for part in parts:
        if rows and canvas.measure(f"{rows[-1]}   {part}", small)[0] <= inner.w:
            rows[-1] = f"{rows[-1]}   {part}"
        else:
            rows.append(part)
    for row in rows:
        canvas.text(row, (inner.x, y), small, colour=theme.TEXT_DIM, role="markers", max_width=inner.w)
        y += line

    # Contracts held, each in full, as many as fit.
    items = []
    for cid in player.contracts:
        card = state.config.contract(cid)
        if card is None:
            continue
        text = f"{card.id} {card.origin}→{card.destination}  ×{card.trucks}  {theme.money(card.pay)}"
        if card.vp:
            text += " " + t.text("screen.contract_vp", vp=card.vp)
        if card.id == offer:
            items.append(PanelLine("▶ " + text, "offer", theme.ACCENT, bold=True, short=f"▶{card.id}"))
        else:
            items.append(PanelLine(text, "contract", short=card.id))
    if items:
        draw_panel_list(canvas, layout, head, y, items, lambda n: t.text("screen.more_contracts", n=n))
    elif y + line <= inner.bottom + (line - small) // 2:
        canvas.text(t.text("screen.no_contracts"), (inner.x, y), small, colour=theme.TEXT_FAINT, role="contract")
