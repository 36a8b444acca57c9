"""On The Way's player panels: money, victory points, transports, contracts held, the offer."""

from __future__ import annotations

import pygame

from companion.display import theme
from companion.display.layout import Layout
from companion.display.panels import draw_panel_header
from companion.display.record import Canvas
from companion.games.on_the_way.engine.scoring import score
from companion.games.on_the_way.engine.state import MARKERS_PER_PLAYER, GameState, PlayerState
from companion.table.messages import Catalogue


def draw_players(canvas: Canvas, layout: Layout, state: GameState, t: Catalogue, offer: str | None = None) -> None:
    """``offer``: a contract offered for fulfilment now (UiModel.offer), highlighted in its panel."""
    for seat, (player, rect) in enumerate(zip(state.players, layout.players, strict=False)):
        on_turn = seat == state.turn.seat and not state.finished
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
            text += " " + t.text("screen.contract_vp", vp=card.vp)
        if card.id == offer:
            canvas.text(
                "▶ " + text, (inner.x, y), small, colour=theme.ACCENT, bold=True, role="offer", max_width=inner.w
            )
        else:
            canvas.text(text, (inner.x, y), small, role="contract", max_width=inner.w)
        y += line
    if len(shown) < len(contracts):
        canvas.text(
            t.text("screen.more_contracts", n=len(contracts) - len(shown)), (inner.x, y), small, colour=theme.TEXT_DIM
        )
    elif not contracts and room:
        canvas.text(t.text("screen.no_contracts"), (inner.x, y), small, colour=theme.TEXT_FAINT, role="contract")
