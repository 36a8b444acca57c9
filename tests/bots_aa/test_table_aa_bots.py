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
        assert blue.space is not None and len(blue.hand) == 3  # blue's bot placed its truck, was dealt
        assert sim.controller.state.public == ()  # the public contracts are the first seat's: a person's
    finally:
        pygame.display.quit()
