"""Auf Achse panels: the top bar (round, die, the 4 face-up public contracts, decks, trailers), one
panel per player (money in DM with debts, truck, cargo, private contracts as a count only), the
auction panel and the final ranking by money (AA-24).

Everything here reads ``view_for(state, None)`` for what is secret: the shared screen never draws a
private contract's id (style point 7).
"""

from __future__ import annotations

from typing import Any

import pygame

from companion.display import theme
from companion.display.layout import Layout
from companion.display.panels import PanelLine, draw_panel_header, draw_panel_list, panel_list_lines
from companion.display.ranking import RankingRow, draw_ranking_table, winners_line
from companion.display.record import Canvas
from companion.display.tokens import swatch
from companion.games.auf_achse.engine.queries import auction_status
from companion.games.auf_achse.engine.scoring import ranking
from companion.games.auf_achse.engine.serialize import view_for
from companion.games.auf_achse.engine.state import FACE_UP, GameState, Phase
from companion.table.messages import Catalogue, plural_form, spaces
from companion.table.ui import UiModel

CARD: theme.RGB = (236, 232, 220)  # a contract card's face
CARD_INK: theme.RGB = (20, 20, 24)
HIGH_BID: theme.RGB = (0, 158, 115)  # bluish green (Okabe–Ito): the level that holds the auction


def draw_aa_top(canvas: Canvas, layout: Layout, state: GameState, ui: UiModel, t: Catalogue) -> None:
    surface = canvas.surface
    rect = layout.top
    canvas.record.regions["top"] = (rect.x, rect.y, rect.w, rect.h)
    pygame.draw.rect(surface, theme.PANEL, rect)
    pad = layout.pad
    small, body = layout.small, layout.body
    x = rect.x + pad
    # The die: a white square with the value, or a dash while it is being entered.
    die = ui.die if ui.die is not None else state.turn.roll
    size = rect.h - 2 * pad
    box = pygame.Rect(x, rect.y + pad, size, size)
    pygame.draw.rect(surface, (245, 245, 245), box, border_radius=layout.px(5))
    with canvas.box(box, "die"):
        canvas.text("–" if die is None else str(die), box.center, round(size * 0.7), colour=(0, 0, 0), bold=True,
                    anchor="center", role="die")  # fmt: skip
    x = box.right + pad
    head = t.text("screen.setup") if state.phase is Phase.SETUP else t.text("screen.round", n=state.turn.round)
    canvas.text(head, (x, rect.y + pad), body, bold=True, role="round")
    hidden = t.text("screen.face_down", n=state.public_hidden)
    canvas.text(hidden, (x, rect.y + pad + round(body * 1.3)), small, colour=theme.TEXT_DIM, role="deck")
    x += max(canvas.measure(head, body, bold=True)[0], canvas.measure(hidden, small)[0]) + 2 * pad

    # Right: trailers left and the leftover contracts.
    trailers = dict(state.trailers_left)
    parts = [t.text("screen.trailers_left", n=sum(trailers.values())), t.text("screen.spare", n=state.spare_left)]
    right = rect.right - pad
    line1 = canvas.text(parts[0], (right, rect.y + pad), small, colour=theme.TEXT_DIM, anchor="topright",
                        role="trailers")  # fmt: skip
    line2 = canvas.text(parts[1], (right, rect.y + pad + round(body * 1.3)), small, colour=theme.TEXT_DIM,
                        anchor="topright", role="spare")  # fmt: skip
    right = min(line1.x, line2.x) - pad

    # The face-up public contracts, as cards.
    if state.public_left == 0 and state.phase is Phase.PLAY:
        canvas.text(t.text("screen.no_public"), (x, rect.centery), body, colour=theme.TEXT_DIM,
                    anchor="midleft", role="public", max_width=right - x)  # fmt: skip
        canvas.record.regions["public"] = (x, rect.y, right - x, rect.h)
        return
    slots = FACE_UP
    width = (right - x - (slots - 1) * pad) // slots
    auction = state.auction.card if state.auction is not None else None
    for i in range(slots):
        card_rect = pygame.Rect(x + i * (width + pad), rect.y + pad // 2, width, rect.h - pad)
        card_id = state.public[i] if i < len(state.public) else None
        if card_id is None:
            pygame.draw.rect(surface, theme.BACKGROUND, card_rect, border_radius=layout.px(4))
            pygame.draw.rect(surface, theme.TEXT_FAINT, card_rect, width=1, border_radius=layout.px(4))
            continue
        with canvas.box(card_rect, "card"):
            _card(canvas, layout, card_rect, state, card_id, t, highlight=card_id == auction)
    canvas.record.regions["public"] = (x, rect.y, right - x, rect.h)


def _card(
    canvas: Canvas,
    layout: Layout,
    rect: pygame.Rect,
    state: GameState,
    card_id: str,
    t: Catalogue,
    *,
    highlight: bool,
) -> None:
    surface = canvas.surface
    card = state.config.contract(card_id)
    assert card is not None
    pygame.draw.rect(surface, CARD, rect, border_radius=layout.px(4))
    if highlight:
        pygame.draw.rect(surface, theme.ACCENT, rect, width=layout.px(3), border_radius=layout.px(4))
    small = max(10, layout.small - layout.px(1))
    x, w = rect.x + layout.px(4), rect.w - layout.px(8)
    y = rect.y + layout.px(2)
    step = canvas.measure("Hg", small)[1]
    # Two long city names break after the arrow rather than lose their end, as far as the card has
    # room: its last line is the id and the payout (a small card, e.g. 800×480, has room for two).
    room = max(1, (rect.bottom - y) // step - 1)
    rows = canvas.lines(f"{card.start} → {card.end}", small, w, bold=True, max_lines=room)
    for row in rows:
        canvas.text(row, (x, y), small, colour=CARD_INK, bold=True, role="public", max_width=w)
        y += step
    line = f"{card_id} · {t.text('screen.goods', n=card.goods)} · {theme.dm(card.payout)}"
    if canvas.measure(line, small)[0] > w:
        line = f"{card_id} · {theme.dm(card.payout)}"  # the goods are printed on the card on the table
    canvas.text(line, (x, y), small, colour=(60, 60, 70), role="public", max_width=w)


def draw_aa_players(canvas: Canvas, layout: Layout, state: GameState, t: Catalogue) -> None:
    shared = view_for(state, None)  # the shared screen: hands are counts
    views: list[dict[str, Any]] = shared["players"]  # type: ignore[assignment]
    for seat, (player, rect) in enumerate(zip(views, layout.players, strict=False)):
        on_turn = state.phase is Phase.PLAY and seat == state.turn.seat and not state.finished
        with canvas.box(rect, "panel"):
            _panel(canvas, layout, state, t, seat, player, rect, on_turn)
    if layout.players:
        u = layout.players[0].unionall(layout.players[1:])
        canvas.record.regions["players"] = (u.x, u.y, u.w, u.h)


def _panel(
    canvas: Canvas,
    layout: Layout,
    state: GameState,
    t: Catalogue,
    seat: int,
    p: dict[str, Any],
    rect: pygame.Rect,
    on_turn: bool,
) -> None:
    colour = str(p["colour"])
    head = draw_panel_header(
        canvas, layout, rect, colour, seat, on_turn, theme.dm(int(p["money"])), t.player_name(colour)
    )
    inner, body, small, line, y = head.inner, head.body, head.small, head.line, head.y
    debts = p["debts"]
    if debts:
        owed = sum(int(d["amount"]) for d in debts)
        to = ", ".join(t.text("screen.bank") if d["to"] == "bank" else t.player_name(str(d["to"])) for d in debts)
        debt = t.text("screen.debt", amount=theme.dm(owed), to=to)
        if canvas.measure(debt, body, bold=True)[0] > inner.w:  # a narrow panel: whom is in the ledger
            debt = t.text("screen.debt_short", amount=theme.dm(owed))
        y = canvas.paragraph(debt, (inner.x, y), body, inner.w, line if body == small else round(body * 1.3),
                             colour=theme.DEBIT, bold=True,
                             role="debt")  # fmt: skip
    load = [int(n) for n in p["load"]]
    trailers = len(p["trailers"])
    cargo = t.text("screen.cargo", load=sum(load), capacity=p["capacity"])
    trailer_text = t.text(f"screen.trailers_{plural_form(t.language, trailers)}", n=trailers) if trailers else ""
    known = spaces.places(state.board)
    where = spaces.space_name(t, p["space"], known)
    if canvas.measure(where, body)[0] > inner.w:  # a narrow panel: the short form, "Hamburg→Bremen (1.)"
        where = spaces.space_name(t, p["space"], known, short=True)
    y = canvas.paragraph(where, (inner.x, y), body, inner.w, line if body == small else round(body * 1.3),
                         role="truck_line")  # fmt: skip
    hand = p["hand"]
    count = hand if isinstance(hand, int) else len(hand)
    extra = " · " + t.text("screen.delivered", n=len(p["delivered"]))
    if p["miss_turns"]:
        extra += " · " + t.text("screen.misses", n=p["miss_turns"])
    items = []
    for cid in p["loaded"]:
        card = state.config.contract(str(cid))
        if card is not None:
            text = f"▸ {card.id} {card.start}→{card.end} {theme.dm(card.payout)}"
            items.append(PanelLine(text, "loaded", short=f"▸{card.id}"))
    # Cargo, trailers, private contracts, delivered, turns missed: one wrapped paragraph (no half-empty
    # rows). Where the loaded contracts would not fit below it in full, their ids join the cargo.
    rest = [trailer_text] if trailers else []
    rest += [t.text("screen.private", n=count) + extra]
    stats = " · ".join([cargo, *rest])
    fits = inner.bottom + (line - small) // 2
    need = len(canvas.paragraph_lines(stats, small, inner.w, sep=" · ")) + panel_list_lines(canvas, layout, head, items)
    if items and y + need * line > fits:
        short = " · ".join([f"{cargo}: {' '.join(item.short for item in items)}", *rest])
        if y + len(canvas.paragraph_lines(short, small, inner.w, sep=" · ")) * line <= fits:
            stats, items = short, []
        elif y + (len(canvas.paragraph_lines(stats, small, inner.w, sep=" · ")) + 1) * line > fits:
            # Long ids and no line left for the list: the cargo says how many ("+2 more loaded", "+2").
            counted = " · ".join([f"{cargo}: {t.text('screen.more_loaded', n=len(items))}", *rest])
            if y + len(canvas.paragraph_lines(counted, small, inner.w, sep=" · ")) * line > fits:
                counted = " · ".join([f"{cargo}: +{len(items)}", *rest])
            stats, items = counted, []
        # else: the list below shows what fits and counts the rest ("+2 more loaded")
    y = canvas.paragraph(stats, (inner.x, y), small, inner.w, line, role="cargo", sep=" · ")
    draw_panel_list(canvas, layout, head, y, items, lambda n: t.text("screen.more_loaded", n=n))


def draw_auction(
    canvas: Canvas, rect: pygame.Rect, layout: Layout, state: GameState, ui: UiModel, t: Catalogue
) -> None:
    """The running auction (AA-18..21): the card, its Kosten levels with the high bid marked, who is
    bidding, who passed and who is still in."""
    status = auction_status(state)
    if status is None:
        return
    surface = canvas.surface
    canvas.record.regions["auction"] = (rect.x, rect.y, rect.w, rect.h)
    pygame.draw.rect(surface, theme.PANEL, rect, border_radius=layout.px(5))
    pygame.draw.rect(surface, theme.ACCENT, rect, width=layout.px(2), border_radius=layout.px(5))
    pad = layout.pad
    inner = rect.inflate(-2 * pad, -2 * pad)
    body, small = layout.body, layout.small
    card = state.config.contract(status.card)
    assert card is not None
    y = inner.y
    title = t.text("screen.auction", card=card.id, start=card.start, end=card.end)
    canvas.text(title, (inner.x, y), body, bold=True, role="auction_title", max_width=inner.w)
    y += round(body * 1.2)
    about = t.text("screen.auction_card", goods=t.text("screen.goods", n=card.goods), pay=theme.dm(card.payout),
                   player=status.opener)  # fmt: skip
    canvas.text(about, (inner.x, y),
                small, colour=theme.TEXT_DIM, role="auction_card", max_width=inner.w)  # fmt: skip
    y += round(small * 1.3)
    # Levels 1..5: the high bid filled green with a check; the one being chosen outlined in yellow;
    # levels the bidder may not bid are dim. Shape and text carry it as well as colour.
    allowed = {lv for lv, _ in status.allowed_for(ui.bidder)} if ui.bidder is not None else set()
    n = len(card.costs)
    gap = layout.px(3)
    w = (inner.w - (n - 1) * gap) // n
    row_h = canvas.measure("1", small, bold=True)[1]
    # Level over amount on two rows; one row ("1 · 2 000 DM") where the panel is short of height.
    below = round(small * 1.3) * 2 + round(small * 1.25) * 2
    one_row = max(canvas.measure(f"{n} ✓ · {theme.dm(a)}", small, bold=True)[0] for n, a in enumerate(card.costs, 1))
    w = (inner.w - (len(card.costs) - 1) * layout.px(3)) // len(card.costs)
    two_rows = y + 2 * row_h + layout.px(4) + pad + below <= inner.bottom or one_row > w - 2
    h = (2 * row_h + 2 * layout.px(1)) if two_rows else row_h + layout.px(4)
    for i, amount in enumerate(card.costs):
        level = i + 1
        chip = pygame.Rect(inner.x + i * (w + gap), y, w, h)
        canvas.record.regions[f"level{level}"] = (chip.x, chip.y, chip.w, chip.h)
        high = level == status.level
        chosen = ui.level == level and ui.bidder is not None
        fill = HIGH_BID if high else theme.BACKGROUND
        pygame.draw.rect(surface, fill, chip, border_radius=layout.px(4))
        border = theme.ACCENT if chosen else (theme.TEXT_DIM if level in allowed else theme.TEXT_FAINT)
        pygame.draw.rect(surface, border, chip, width=layout.px(3) if chosen else 1, border_radius=layout.px(4))
        ink = (0, 0, 0) if high else (theme.TEXT if not allowed or level in allowed else theme.TEXT_FAINT)
        mark = " ✓" if high else ""
        with canvas.box(chip, "level"):
            if two_rows:
                canvas.text(f"{level}{mark}", (chip.centerx, chip.y + layout.px(1)), small, colour=ink, bold=True,
                            anchor="midtop", role="level", max_width=chip.w - 2)  # fmt: skip
                canvas.text(theme.dm(amount), (chip.centerx, chip.bottom - layout.px(1)), small, colour=ink,
                            anchor="midbottom", role="level_amount", max_width=chip.w - 2)  # fmt: skip
            else:
                canvas.text(f"{level}{mark} · {theme.dm(amount)}", chip.center, small, colour=ink, bold=True,
                            anchor="center", role="level", max_width=chip.w - 2)  # fmt: skip
    y += h + pad
    if status.leader is None:
        high_text = t.text("screen.no_bid")
    else:
        high_text = t.text("screen.high_bid", amount=theme.dm(status.amount), level=status.level, player=status.leader)
    high_rect = canvas.text(high_text, (inner.x, y), small, bold=status.leader is not None, role="high_bid",
                       max_width=inner.w)  # fmt: skip
    # Who is bidding: the player whose bank card was scanned (any order, AA-19), or the one the
    # engine names (house rule round_the_table); then who is still in and who has passed.
    actor = ui.bidder if ui.bidder is not None else status.bidder
    if actor is not None:
        whose = t.text("screen.to_bid_scanned" if ui.bidder == actor else "screen.to_bid", player=actor)
    else:
        whose = t.text("screen.any_bidder")
    x = inner.x
    swatch_w = small + layout.px(2) + pad if actor is not None else 0
    if high_rect.right + 3 * pad + swatch_w + canvas.measure(whose, small, bold=True)[0] <= inner.right:
        x = high_rect.right + 3 * pad  # the bidder on the high bid's row: room for who else is in
    else:
        y += round(small * 1.3)
    if actor is not None:
        sw = pygame.Rect(x, y, small + layout.px(2), small + layout.px(2))
        swatch(canvas, sw, theme.player_style(actor, state.config.seat_of(actor) or 0))
        x = sw.right + pad
    canvas.text(whose, (x, y), small, bold=True, role="bidder", max_width=inner.right - x)
    y += round(small * 1.3)
    passed = ", ".join(map(t.player_name, status.passed)) if status.passed else t.text("screen.nobody")
    still_in = ", ".join(
        t.text("screen.leader", player=c) if c == status.leader else t.player_name(c) for c in status.still_in
    )
    who_else = t.text("screen.still_in", players=still_in) + " · " + t.text("screen.passed", players=passed)
    canvas.paragraph(who_else, (inner.x, y), small, inner.w, round(small * 1.25), colour=theme.TEXT_DIM,
                     role="still_in")  # fmt: skip


def draw_aa_ranking(canvas: Canvas, layout: Layout, state: GameState, t: Catalogue) -> None:
    """AA-24: ranked by money held, debts subtracted; ties share a place."""
    standings = ranking(state)
    rows = [
        RankingRow(
            s.place,
            s.player,
            (theme.dm(s.money), "−" + theme.dm(s.debt) if s.debt else "—", theme.dm(s.worth)),
            (theme.TEXT, theme.DEBIT if s.debt else theme.TEXT, theme.TEXT),
        )
        for s in standings
    ]
    draw_ranking_table(
        canvas,
        layout,
        layout.map.copy(),  # covers the whole map: no half-hidden labels peek out
        rows,
        (t.text("screen.ranking_money"), t.text("screen.ranking_debts"), t.text("screen.ranking_worth")),
        seat_of=state.config.seat_of,
        sizes=(layout.body, layout.body, layout.large),  # worth is what ranks: the big column
        bold_column=2,
        note=t.text("screen.ranking_note") if state.end_reason else "",
        title=t.text("screen.game_over"),
        winners=winners_line(t, [s.player for s in standings if s.place == 1]),
        name=t.player_name,
    )
