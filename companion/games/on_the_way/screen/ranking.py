"""On The Way's final ranking (OTW-33, OTW-34) in the shared ranking table."""

from __future__ import annotations

from companion.display import theme
from companion.display.layout import Layout
from companion.display.ranking import RankingRow, draw_ranking_table, winners_line
from companion.display.record import Canvas
from companion.games.on_the_way.engine.scoring import ranking
from companion.games.on_the_way.engine.state import GameState
from companion.table.messages import Catalogue


def draw_ranking(canvas: Canvas, layout: Layout, state: GameState, t: Catalogue) -> None:
    """OTW-33: score = VP tokens + 1 VP per full 3 000 R; ties broken by R."""
    standings = ranking(state)
    rows = [
        RankingRow(s.place, s.colour, (str(s.score), str(s.vp_tokens), str(s.vp_from_money), theme.money(s.money)))
        for s in standings
    ]
    draw_ranking_table(
        canvas,
        layout,
        layout.map.inflate(-layout.px(16), -layout.px(16)),
        rows,
        tuple(t.text(f"screen.ranking_{key}") for key in ("score", "vp_tokens", "vp_money", "money")),
        seat_of=state.config.seat_of,
        note=t.text("screen.ranking_note"),
        title=t.text("screen.game_over"),
        winners=winners_line(t, [s.colour for s in standings if s.place == 1]),
        name=t.player_name,
    )
