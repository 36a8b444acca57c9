"""On The Way's final ranking (OTW-33, OTW-34) in the shared ranking table."""

from __future__ import annotations

from companion.display import theme
from companion.display.layout import Layout
from companion.display.ranking import RankingRow, draw_ranking_table
from companion.display.record import Canvas
from companion.games.on_the_way.engine.scoring import ranking
from companion.games.on_the_way.engine.state import GameState


def draw_ranking(canvas: Canvas, layout: Layout, state: GameState) -> None:
    """OTW-33: score = VP tokens + 1 VP per full 3 000 R; ties broken by R."""
    rows = [
        RankingRow(s.place, s.colour, (str(s.score), str(s.vp_tokens), str(s.vp_from_money), theme.money(s.money)))
        for s in ranking(state)
    ]
    draw_ranking_table(
        canvas,
        layout,
        layout.map.inflate(-layout.px(16), -layout.px(16)),
        rows,
        ("score", "VP tokens", "VP from R", "R (ties)"),
        seat_of=state.config.seat_of,
        note="score = VP tokens + 1 VP per full 3 000 R; ties: most R (OTW-33)",
    )
