"""A bot seat at the Auf Achse table: it answers a person's auction (AA-19) between the people's inputs."""

from __future__ import annotations

from companion.games import get
from companion.games.auf_achse.engine import Bid
from companion.games.auf_achse.table.prompts import Bidding
from companion.games.seats import bot_player
from tests.table_aa.conftest import AATable

# AA-18: red's move ended exactly in Hamburg; C10 Milan→Vienna lies face up among the public ones.
AUCTION = """
red   @Hamburg
blue  @Verona-Milan#2
green @Berlin
public C10,C11,C12,C13 hidden=8
turn red stage=act roll=3 exact
"""


def test_aa19_a_bot_outbids_the_level_a_person_is_choosing_and_his_dialog_moves_up() -> None:
    bot = bot_player(get("auf-achse"), {"blue": "easy"}, seed=0)
    t = AATable(AUCTION, colours=("red", "blue", "green"), bot=bot)
    t.scan("C10")  # red, a person, puts the face-up C10 up for auction (AA-18): OK confirms
    t.press("ok")
    assert t.state.auction is not None and t.state.auction.card == "C10"
    t.bank("green")  # green, a person, starts to bid: the lowest level is offered (AA-19)
    assert t.ctl.prompt == Bidding("green", 1)
    t.later(2.0)  # blue's bot answers at once, though it is red's turn (any order)
    assert t.ctl.game.last_command == Bid("blue", 1)
    # Green's dialog follows the auction: level 1 is no longer a bid (AA-19: bid higher), level 2 is.
    assert t.ctl.prompt == Bidding("green", 2)
    t.press("ok")
    assert t.ctl.game.last_command == Bid("green", 2) and t.ui.refusal is None


def test_a_bot_seat_plays_its_set_up_in_the_simulator() -> None:
    """``companion --game auf-achse --players red,blue:bot``: the same mechanism in the simulator window."""
    import pygame

    from companion.games.auf_achse.engine import DealContract, PlaceTruck
    from companion.intents import CardScanned
    from companion.simulator.app import new_game
    from companion.simulator.window import Simulator

    pygame.display.init()
    pygame.font.init()
    try:
        now = [0.0]
        sim = Simulator(get("auf-achse"), new_game("auf-achse", ("red", "blue"), seed=7), seed=7,
                        clock=lambda: now[0], size=(1280, 800), bots={"blue": "easy"})  # fmt: skip
        sim.controller._push(PlaceTruck("red", "Hamburg-Bremen#1"))  # red, a person: AA-2
        for card in ("C01", "C02", "C03"):  # red is dealt first (AA-4)
            sim.controller._push(DealContract("red", card))
        for _ in range(12):
            now[0] += 2.0
            sim.pump()
        blue = sim.controller.state.player("blue")
        assert blue.space is not None  # blue's bot placed its truck (AA-2) ...
        assert blue.hand == () and not any(isinstance(c, DealContract) and c.player == "blue"
                                           for c in sim.controller.game.log)  # fmt: skip
        assert "blue" in sim.controller.ui.prompt.lower() or "Blue" in sim.controller.ui.prompt
        # ... but draws no card itself (AA-4): a person deals it the real cards, scanning each one.
        for _ in range(3):
            card = sim.table.next_contract(sim.controller.state)
            assert card is not None
            sim.session.put(CardScanned(sim.table.card_uid(card)))
            now[0] += 0.5
            sim.pump()
        assert len(sim.controller.state.player("blue").hand) == 3
        assert sim.controller.state.public == ()  # the public contracts are the first seat's: a person's
    finally:
        pygame.display.quit()


def test_at_the_table_a_bot_never_draws_an_action_card_itself() -> None:
    """AA-12: the bot rolled a 1 and its only move ends on a warning triangle; a person draws the real
    action card and scans it for the bot (the bot would otherwise pick an unseen card of its own)."""
    from companion.games.auf_achse.engine import DrawAction, Move
    from companion.table.ui import Mode

    public = "public C10,C11,C12,C13 hidden=8"
    bot = bot_player(get("auf-achse"), {"red": "easy"}, seed=0)
    t = AATable(f"red @Hamburg-Berlin#1\nblue @Hamburg\n{public}\nturn red roll=1", bot=bot)
    for _ in range(6):
        t.later(2.0)
    assert t.ctl.game.log == [Move("red", "Hamburg-Berlin#2")]  # a plain space: no marker to move
    assert t.ui.mode is Mode.CARD_DUE and "action card" in t.ui.prompt  # the table asks a person
    assert t.ui.detail == "The box plays Red: draw the card for it and scan it face down"
    t.later(5.0)
    assert not any(isinstance(c, DrawAction) for c in t.ctl.game.log)  # the bot waits for the real card
    t.scan("A13")
    assert isinstance(t.ctl.game.log[1], DrawAction) and t.ctl.game.log[1].card == "A13"
