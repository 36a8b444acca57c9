"""A seat played by the box at the physical table: the bot acts by the engine's commands, the screen
and the LEDs show what to move, and it waits until a person has moved its pieces (issue 14)."""

from __future__ import annotations

import re
import time

import pytest

from companion import games
from companion.games.on_the_way.engine import LayOut, Move, Pass, RevealEvent, TakeContract, Undo
from companion.games.on_the_way.engine.queries import offer_missing
from companion.games.seats import bot_player
from companion.ledframe import CityLight
from companion.table.ui import Mode

from .conftest import Table


def top_of_pile(t: Table) -> str:
    """The physical pile in the tests: the deck in its printed order (basic first, OTW-5), less the
    cards taken or lying open."""
    state = t.state
    return next(c.id for c in state.config.deck.contracts if c.id not in state.used_contracts
                and c.id not in (state.offer or ()))  # fmt: skip


def lay_out(t: Table, cards: tuple[str, ...] = ()) -> list[str]:
    """A person fills the offer from the pile (``cards`` first), scanning each card (OTW-9); returns
    the cards laid out."""
    laid: list[str] = []
    while offer_missing(t.state) and (t.state.offer is not None or t.ui.mode is Mode.CARD_DUE):
        card = cards[len(laid)] if len(laid) < len(cards) else top_of_pile(t)
        t.scan(card)
        assert card in (t.state.offer or ()), t.ui
        laid.append(card)
    return laid


def flip_event(t: Table) -> str:
    """A person flips the next event card and scans it (OTW-28)."""
    card = next(e.id for e in t.state.config.deck.events if e.id not in t.state.revealed and e.id != t.state.event)
    t.scan(card)
    return card


def test_the_bot_acts_on_its_turn_and_waits_for_its_pieces_to_be_moved() -> None:
    bot = bot_player(games.get("on-the-way"), {"blue": "easy"}, seed=3)
    t = Table("", bot=bot)
    assert lay_out(t) and t.state.offer is not None  # OTW-9: the offer first, so the bot knows it
    t.later(2.0)
    assert t.state.current.colour == "red"  # red's turn: the bot waits
    placed, waited = 0, 0
    for _ in range(200):
        if t.state.finished or waited >= 3:
            break
        lay_out(t)
        if t.state.awaiting_event:
            flip_event(t)
            continue
        if t.state.current.colour == "red":
            t.ctl._push(Pass("red"))  # the person at red's seat ends the turn (the shortest way in a test)
            continue
        t.later(2.0)  # blue's turn: the bot acts
        moved = [c for c in t.ctl.game.log if isinstance(c, Move) and c.player == "blue"]
        if moved[placed:]:  # the engine moved a transport: until a person moves the marker, the bot waits
            depth = t.ctl.game.depth
            assert t.ui.expected and all(t.ctl.led_frame.city(c) is CityLight.EXPECTED for c in t.ui.expected)
            t.later(5.0)
            assert t.ctl.game.depth == depth, "the bot acted before its marker was moved"
            waited += 1
            for command in moved[placed:]:
                t.place("blue", command.marker, command.to)  # a person puts the bot's marker on its city
            placed = len(moved)
            newer = [c for c in t.ctl.game.log if isinstance(c, Move) and c.player == "blue"][placed:]
            assert t.ui.expected == () or newer  # the table matches the engine, or the bot already moved on
    assert waited >= 3  # the bot moved transports and each time waited for its marker
    assert any(isinstance(c, Move) and c.player == "blue" for c in t.ctl.game.log)


def test_menu_advice_says_the_best_action_and_its_city_blinks() -> None:
    from companion.games.on_the_way.table.prompts import MENU, MenuItem

    t = Table("")
    t.press("menu")
    for _ in range(MENU.index(MenuItem.ADVICE)):
        t.press("plus")
    t.press("ok")
    # The advisor must not name a card that is not laid out: it asks for the face-up offer first (OTW-9).
    assert t.ui.mode is Mode.CARD_DUE and "OTW-9" in t.ui.prompt and "3" in t.ui.prompt
    assert "win chance" not in t.ui.message
    offer = lay_out(t, ("B08", "B03", "B10"))  # B08 starts at Poznań, where red's idle truck stands
    assert len(offer) == 3
    # The search takes about a second: the screen says so first, then it runs beside the loop, which
    # wakes every frame meanwhile and shows how far it got.
    assert t.ui.message == "Thinking about the best action…" and t.ctl.next_deadline() is not None
    shown = t.think()
    shares = [int(m.split()[-2]) for m in shown if re.fullmatch(r"Thinking about the best action… \d+ %", m)]
    assert shares and shares == sorted(shares) and 0 < max(shares) <= 100, shown  # it went on, never back
    assert "win chance" in t.ui.message and "%" in t.ui.message  # then one sentence and its estimated chance
    assert t.ctl.next_deadline() is None  # nothing more to do: the loop sleeps until the next input
    named = set(re.findall(r"\b[BEPX]\d\d\b", t.ui.message))
    assert named and named <= set(offer), t.ui.message  # the advice takes a card that lies open
    city = t.ui.selected
    assert city is not None and t.ctl.led_frame.city(city) is CityLight.SELECTED  # the advised city blinks
    depth = t.ctl.game.depth
    t.scan(offer[1])  # red takes a card of the offer
    assert t.ctl.game.log[-1] == TakeContract("red", offer[1])
    assert t.ui.selected is None  # the advice was for the position before: it no longer blinks
    assert t.ui.mode is Mode.CARD_DUE and t.state.offer == (offer[0], offer[2])  # refill it
    assert t.ctl.game.depth == depth + 1


def test_on_a_persons_turn_the_bot_is_asked_once_per_position_and_the_loop_sleeps() -> None:
    asked: list[int] = []
    play = bot_player(games.get("on-the-way"), {"blue": "easy"}, seed=3)
    assert play is not None

    def counting(state: object) -> object | None:
        asked.append(1)
        return play(state)

    t = Table("", bot=counting)
    t.later(1.0)
    assert asked == [] and t.ctl.next_deadline() is None  # the offer is not laid out: the bot waits, the loop sleeps
    lay_out(t)
    for _ in range(10):  # red's turn, nothing changes: asked once, then no wake-ups for the bot
        t.later(1.0)
    assert len(asked) == 1 and t.ctl.next_deadline() is None
    t.scan(t.state.offer[0])  # red acts
    t.later(1.0)
    assert len(asked) == 1  # the offer lacks a card: the bot waits for it, without asking
    lay_out(t)
    t.later(1.0)
    assert len(asked) == 2  # a new position: asked again


def test_the_bot_takes_a_card_of_the_offer_and_the_screen_says_to_hand_it_over() -> None:
    bot = bot_player(games.get("on-the-way"), {"blue": "easy"}, seed=5)
    t = Table("turn blue", bot=bot)
    offer = lay_out(t, ("B08", "B03", "B10"))
    for _ in range(20):
        t.later(2.0)
        taken = [c for c in t.ctl.game.log if isinstance(c, TakeContract)]
        if taken:
            break
    assert taken and taken[0].card in offer  # OTW-9: only a card that lies open
    assert "the box" in t.ui.message and taken[0].card in t.ui.message and "hand the card over" in t.ui.message
    assert t.ui.mode is Mode.CARD_DUE  # and the table asks for the refill before the bot goes on
    depth = t.ctl.game.depth
    t.later(5.0)
    assert t.ctl.game.depth == depth  # the bot waits for the refill
    refill = lay_out(t)
    t.later(2.0)
    # Then it plays on: its second step (with this seed) takes the card just laid out.
    assert t.ctl.game.log[depth:] == [LayOut(refill[0]), TakeContract("blue", refill[0])]


def test_at_the_table_the_bot_waits_for_the_real_event_card() -> None:
    bot = bot_player(games.get("on-the-way"), {"blue": "easy"}, seed=5)
    t = Table("turn blue\ntime 2 awaiting", bot=bot)  # the strip is full: blue must reveal (OTW-28)
    t.later(5.0)
    assert not any(isinstance(c, RevealEvent) for c in t.ctl.game.log)  # the bot invents no card
    assert t.ui.mode is Mode.EVENT_DUE
    card = flip_event(t)
    assert t.state.event == card and not t.state.awaiting_event
    assert t.ui.mode is Mode.CARD_DUE and lay_out(t)  # then the offer (the event came first on the screen)
    t.later(2.0)
    assert any(getattr(c, "player", None) == "blue" for c in t.ctl.game.log)  # then it plays its turn


def test_back_takes_a_refill_back_with_the_take_before_it() -> None:
    bot = bot_player(games.get("on-the-way"), {"blue": "easy"}, seed=5)
    t = Table("", bot=bot)
    offer = lay_out(t, ("B08", "B03", "B10"))
    t.scan("B03")  # red takes an open card
    refill = lay_out(t)
    assert t.state.offer == ("B08", "B10", *refill)
    t.press("back")
    assert t.state.offer == tuple(offer) and t.state.players[0].contracts == ()
    assert t.ctl.game.depth == 3 and all(isinstance(c, Undo) for c in t.ctl.game.log[-2:])  # both undone
    assert isinstance(t.ctl.game.log[-3], LayOut) and t.ctl.game.log[-3].card in refill


def test_where_the_bot_builds_blinks_until_the_game_moves_on() -> None:
    from companion.games.on_the_way.engine import Build

    start = "Bremen=W0 Poznań=W0 Vilnius=W0 Lviv=W0 Bratislava=W0 Mönchengladbach=W0"  # no idle truck
    for seed in range(30):  # the easy bot builds 60 % of the times it has nothing else to do
        bot = bot_player(games.get("on-the-way"), {"blue": "easy"}, seed=seed)
        t = Table(f"cities {start}\nblue 20000R B01,B02\nturn blue", bot=bot)
        lay_out(t)
        t.later(2.0)
        built = [c for c in t.ctl.game.log if isinstance(c, Build)]
        if built:
            break
    assert built, "no seed made the bot build"
    city = built[0].city
    assert t.ui.selected == city and t.ctl.led_frame.city(city) is CityLight.SELECTED  # put the building here
    assert city in t.ui.message


def test_ok_while_laying_out_says_the_pile_is_empty_and_the_bot_plays_on() -> None:
    bot = bot_player(games.get("on-the-way"), {"blue": "easy"}, seed=5)
    t = Table("turn blue", bot=bot)
    t.scan("B08")  # one card lies open; the box has no more (a card went missing)
    t.later(5.0)
    assert t.ui.mode is Mode.CARD_DUE and t.ctl.game.depth == 1  # the bot waits for the offer
    assert "OK" in t.ui.detail
    t.press("ok")  # "the pile has no more cards": the offer is as it lies
    assert t.ui.mode is not Mode.CARD_DUE and "as it lies" in t.ui.message
    for _ in range(10):
        t.later(2.0)
        if any(isinstance(c, TakeContract) for c in t.ctl.game.log):
            break
    assert TakeContract("blue", "B08") in t.ctl.game.log  # the only open card
    assert t.ui.mode is Mode.CARD_DUE  # after a take the table asks again (a card may have come back)


def test_ok_before_any_card_is_laid_out_does_not_let_the_bot_choose_a_hidden_card() -> None:
    bot = bot_player(games.get("on-the-way"), {"blue": "easy"}, seed=5)
    t = Table("turn blue", bot=bot)
    t.press("ok")  # nothing is open yet: OK cannot say "the pile is empty"
    t.later(5.0)
    assert t.ctl.game.log == [] and t.ui.mode is Mode.CARD_DUE  # the bot still waits for the offer
    assert "OK" not in t.ui.detail  # and the screen does not offer it


def test_ok_on_the_event_screen_does_not_end_the_offer() -> None:
    bot = bot_player(games.get("on-the-way"), {"blue": "easy"}, seed=5)
    t = Table("turn blue\ntime 2 awaiting", bot=bot)
    t.scan("B08")  # laid out while the event is due
    t.press("ok")  # on the event screen
    flip_event(t)
    assert t.ui.mode is Mode.CARD_DUE and offer_missing(t.state) == 2  # still two cards to lay out


def test_back_after_lay_outs_alone_takes_back_only_the_last_card() -> None:
    bot = bot_player(games.get("on-the-way"), {"blue": "easy"}, seed=5)
    t = Table("", bot=bot)
    lay_out(t, ("B08", "B03", "B10"))
    t.press("back")  # B10 was the wrong card: only it comes back
    assert t.state.offer == ("B08", "B03")


def test_a_card_scanned_twice_is_laid_out_not_taken() -> None:
    bot = bot_player(games.get("on-the-way"), {"blue": "easy"}, seed=5)
    t = Table("", bot=bot)
    lay_out(t, ("B08", "B03", "B10"))
    t.scan("B03")  # red takes B03 from the offer
    t.scan("B12")  # the refill ...
    t.scan("B12")  # ... held on the reader a little long
    assert t.state.players[0].contracts == ("B03",) and t.state.offer == ("B08", "B10", "B12")
    assert t.ui.refusal is not None and t.ui.refusal.rule == "OTW-9"
    t.scan("B12")  # a deliberate third scan takes it
    assert t.state.players[0].contracts == ("B03", "B12")


def test_on_the_bots_turn_a_scanned_contract_is_never_its_take() -> None:
    bot = bot_player(games.get("on-the-way"), {"blue": "easy"}, seed=5)
    t = Table("turn blue", bot=bot)
    t.scan("B08")
    t.scan("B03")
    t.press("menu")  # a dialog in between: B03 is no longer "just laid out"
    t.press("menu")
    t.scan("B03")
    assert not any(isinstance(c, TakeContract) for c in t.ctl.game.log)  # the box chooses its own contracts
    assert t.ui.refusal is not None and t.ui.refusal.rule == "OTW-10"


def _ask_for_advice(t: Table, budget_s: float) -> list[str]:
    from companion.games.on_the_way.table.prompts import MENU, MenuItem

    t.ctl.advice_budget_s = budget_s
    t.press("menu")
    for _ in range(MENU.index(MenuItem.ADVICE)):
        t.press("plus")
    t.press("ok")
    return lay_out(t, ("B08", "B03", "B10"))  # asked for first (OTW-9)


def test_advice_for_a_position_the_players_left_while_it_thought_is_dropped_and_its_search_stopped() -> None:
    """The search runs beside the loop, so the players may act meanwhile: the advice for the position
    they left is never shown, the "thinking" line goes, the table is not left thinking, and the
    search stops at once (a Pi core is not burnt for an answer nobody wants)."""
    t = Table("")
    offer = _ask_for_advice(t, budget_s=60.0)  # about 30 s of CPU here if it ran to the end
    t.later(0.05)  # the search starts on its worker
    assert t.ctl.thinking and t.ui.message.startswith("Thinking")
    thinking = t.ctl._thinking
    assert thinking is not None
    t.scan(offer[0])  # red takes a card meanwhile
    assert t.ctl.game.log[-1] == TakeContract("red", offer[0])
    t.later(0.05)
    assert not t.ctl.thinking and "Thinking" not in t.ui.message and "win chance" not in t.ui.message
    assert t.ctl.next_deadline() is None or t.ctl.next_deadline() > t.now  # the loop does not spin for it
    started = time.monotonic()
    thinking.thread.join(10.0)
    assert not thinking.thread.is_alive() and time.monotonic() - started < 2.0  # stopped, not run out


def test_advice_that_arrives_after_the_players_moved_on_is_not_shown() -> None:
    """The search is done before the loop looks, but the position changed in between (the loop
    handles intents before it ticks): the old advice is dropped, not shown for the new position."""
    t = Table("")
    # Long enough that the search is still running when the loop first looks, right after starting it
    # (0.02 s of a Pi was done by then once the kernel was compiled), short enough to end in the join.
    offer = _ask_for_advice(t, budget_s=0.5)
    t.later(0.05)
    thinking = t.ctl._thinking
    assert thinking is not None
    thinking.thread.join(30.0)
    assert thinking.show is not None  # done, not yet shown
    t.scan(offer[0])
    t.later(0.05)
    assert not t.ctl.thinking and "win chance" not in t.ui.message and "Thinking" not in t.ui.message


def test_the_advice_speaks_the_language_the_table_has_when_it_arrives() -> None:
    """MENU → Language while the box thinks: the advice comes in the new language."""
    from companion.games.on_the_way.table.prompts import MENU, MenuItem

    t = Table("")
    _ask_for_advice(t, budget_s=0.3)
    t.later(0.05)
    assert t.ctl.thinking
    t.press("menu")
    for _ in range(MENU.index(MenuItem.LANGUAGE)):
        t.press("plus")
    t.press("ok")
    assert t.ctl.language != "en"
    t.think()
    catalogue_chance = t.ctl._text.text("message.advice_chance", percent=0).split("0")[0].strip()
    assert catalogue_chance and catalogue_chance in t.ui.message and "win chance" not in t.ui.message


@pytest.mark.allow_error_logs
def test_a_search_that_fails_says_so_and_the_table_plays_on(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import companion.games.on_the_way.bots as bots

    def broken(*args: object, **kwargs: object) -> object:
        raise RuntimeError("a fault in the advisor")

    monkeypatch.setattr(bots, "advise", broken)
    t = Table("")
    _ask_for_advice(t, budget_s=0.05)
    t.think()
    assert t.ui.message.startswith("No advice this time") and not t.ctl.thinking
    assert any("advice search failed" in r.getMessage() for r in caplog.records)  # the log says why
    t.press("ok")  # the table plays on: OK ends red's turn
    t.press("ok")
    assert t.state.current.colour == "blue"


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_the_advice_tells_the_chance_against_the_boxs_bot_seat(level: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # The box knows its bot seat's level: the chance on the screen is the win rate mapped against it
    # (companion/games/calibration.py), not the playouts' raw win rate. Maps far apart tell them apart.
    from companion.games.calibration import Logistic
    from companion.games.on_the_way.bots import advise, chances

    monkeypatch.setattr(chances, "MAPS", {(2, "easy"): Logistic(2.5, 1.0), (2, "medium"): Logistic(-2.5, 1.0)})
    t = Table("", bot=bot_player(games.get("on-the-way"), {"blue": level}, seed=0))
    _ask_for_advice(t, 0.05)
    t.think()
    top = advise(t.state, "red", budget_s=0.05, seed=t.ctl.game.depth, opponents={"blue": level})[0]
    assert top.chance is not None and round(top.chance * 100) != round(top.win_rate * 100)
    shown = re.search(r"(\d+) %", t.ui.message)
    assert shown is not None and int(shown.group(1)) == round(top.chance * 100), t.ui.message
