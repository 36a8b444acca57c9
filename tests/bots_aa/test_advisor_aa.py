"""The Auf Achse advisor (issue 22): the decision of the player who must decide now, legal commands
only, a card to draw never named, the same advice whatever the other player's secret contracts."""

from __future__ import annotations

import json
import random
from typing import cast

import pytest

from companion.engine.errors import IllegalAction
from companion.games import get
from companion.games.auf_achse.bots.advisor import advise
from companion.games.auf_achse.engine import Bid, OpenAuction, PassBid, apply
from companion.games.auf_achse.engine.notation import position
from companion.games.auf_achse.engine.serialize import command_from_json
from tests.bots_aa.helpers import config_for

# Red has arrived exactly at Hamburg (AA-18): red may open an auction on a public contract or end the turn.
AUCTION = """
red  @Hamburg hand=C01
blue @Hamburg-Bremen#2 hand={blue}
public C10,C11,C12,C13 hidden=8
turn red stage=act roll=3 exact
"""


def test_advice_at_the_end_of_the_act_stage_is_legal_json_for_the_player_to_move() -> None:
    state = position(config_for(2), AUCTION.format(blue="C02"))
    advice = advise(state, budget_s=0.1, seed=3)
    assert 1 <= len(advice) <= 3 and advice == advise(state, "red", budget_s=0.1, seed=3)
    for a in advice:
        apply(state, a.command)  # raises if refused
        data = json.loads(json.dumps(a.to_json()))
        assert command_from_json(data["command"]) == a.command and a.sentence
        assert 0.0 <= a.low <= a.win_rate <= a.high <= 1.0
    plugin_answer = get("auf-achse").advise(state, None, budget_s=0.1, seed=3)
    assert plugin_answer == [a.to_json() for a in advice]


def test_in_an_auction_it_advises_the_bidder_a_bid_or_a_pass() -> None:
    state = position(config_for(2), AUCTION.format(blue="C02"))
    state, _ = apply(state, OpenAuction("red", "C10"))
    advice = advise(state, budget_s=0.1, seed=1)  # blue must answer: red opened it (AA-19, AA-20)
    assert advice and all(cast(Bid | PassBid, a.command).player == "blue" for a in advice)  # Bid/PassBid: checked next
    assert {type(a.command).__name__ for a in advice} <= {"Bid", "PassBid"}


@pytest.mark.parametrize("blue", ["C02", "C03", "C04"])
def test_the_other_players_secret_contract_does_not_change_the_advice(blue: str) -> None:
    # AA-4: blue's private contract is secret; the advisor deals it afresh in every playout.
    reference = advise(position(config_for(2), AUCTION.format(blue="C02")), budget_s=0.1, seed=5)
    assert advise(position(config_for(2), AUCTION.format(blue=blue)), budget_s=0.1, seed=5) == reference


def test_it_refuses_when_nothing_is_the_players_to_decide() -> None:
    state = position(config_for(2), AUCTION.format(blue="C02"))
    with pytest.raises(IllegalAction) as refused:
        advise(state, "blue", budget_s=0.1)
    assert refused.value.rule == "AA-6" and "nothing is blue's to decide" in refused.value.message


def test_it_never_names_a_card_to_draw_it_asks_for_the_card_aa4() -> None:
    """Where the player's next step is a card from a face-down pile (a contract dealt, an action card
    after a triangle), the advice refuses with AA-4 instead of naming a card nobody has seen."""
    from companion.games.auf_achse.bots.advisor import CARDS, deciding
    from companion.games.auf_achse.bots.policy import easy_command
    from companion.games.auf_achse.engine.state import Phase
    from companion.games.setup import GameSetup

    plugin = get("auf-achse")
    setup = GameSetup("auf-achse", plugin.colours[:2], seed=4)
    game = plugin.new_game(setup)
    refusals = 0
    for command in plugin.sample_game(setup, 4, 400):
        state = game.state
        colour = deciding(state)
        if state.phase is Phase.PLAY and colour is not None:
            plan = easy_command(state, colour, random.Random("advise:0"))
            if isinstance(plan, CARDS):
                with pytest.raises(IllegalAction) as refused:
                    advise(state, colour, budget_s=0.05)
                assert refused.value.rule == "AA-4", refused.value
                refusals += 1
        game.push(command)
    assert refusals >= 1


@pytest.mark.parametrize("language", ["en", "cs", "de", "pl"])
def test_the_advice_sentence_of_every_legal_command_is_told_in_every_language(
    language: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 21 §3: the advisor's sentence is words of the game's catalogue (advice.*), so a table
    tells it in its language: every legal command of two sample games has a sentence in each
    language, with no key missing (no English fallback logged), and a contract's goods in the
    plural form their number takes."""
    import re

    from companion.games.auf_achse.bots.advisor import words
    from companion.games.auf_achse.engine.queries import legal_commands
    from companion.games.auf_achse.engine.state import Phase
    from companion.games.setup import GameSetup
    from companion.table.messages import Catalogue, plural_form

    t = Catalogue(language, "companion.games.auf_achse")
    forms = {form: (t.get(f"advice.goods_{form}") or "").replace("{n} ", "") for form in ("one", "few", "many")}
    plugin = get("auf-achse")
    told = checked = 0
    with caplog.at_level("WARNING", logger="companion.table.messages"):
        for seed in (1, 2):
            setup = GameSetup("auf-achse", plugin.colours[:3], seed=seed)
            game = plugin.new_game(setup)
            for n, command in enumerate(plugin.sample_game(setup, seed, 300)):
                game.push(command)
                if n % 3:
                    continue
                for legal in legal_commands(game.state):
                    text = words(game.state, legal).tell(t)
                    told += 1
                    assert text and "{" not in text, text
                    if game.state.phase is Phase.PLAY:  # what it advises (the set-up it does not, AA-2)
                        assert "#" not in text, text  # a road space by its place, never its id (issue 21)
                    checked += 1 if "DM)" in text else 0
                    for number, noun in re.findall(r"\((\d+) ([^,()]+), \d+ DM\)", text):
                        assert noun == forms[plural_form(language, int(number))], (text, number, noun)
    assert told > 300 and checked > 20
    assert not [r for r in caplog.records if "missing" in r.getMessage()], caplog.text


def test_only_the_pick_tells_a_chance_of_winning_against_the_opponent() -> None:
    # The maps (chances.py) were fitted on the pick's fresh lead share: the other suggestions (ranking
    # means) tell none. A person is told the chance against medium; hard has no map here.
    from companion.games.auf_achse.bots import chances
    from companion.games.calibration import PERSON, Logistic

    # Auf Achse has no time track (AA-23): its maps are one line per game, never by phase.
    assert all(isinstance(m, Logistic) for m in chances.MAPS.values())
    assert {n: m for (n, kind), m in chances.MAPS.items() if kind == PERSON} == {
        n: m for (n, kind), m in chances.FITTED.items() if kind == "medium"
    }
    state = position(config_for(2), AUCTION.format(blue="C02"))
    person = advise(state, budget_s=0.1, seed=3)
    medium = advise(state, budget_s=0.1, seed=3, opponents={"blue": "medium"})
    easy = advise(state, budget_s=0.1, seed=3, opponents={"blue": "easy"})
    hard = advise(state, budget_s=0.1, seed=3, opponents={"blue": "hard"})
    assert len(person) > 1 and [a.command for a in person] == [a.command for a in easy] == [a.command for a in hard]
    assert person[0].chance is not None and person[0].chance == medium[0].chance
    assert easy[0].chance is not None and easy[0].chance != person[0].chance
    assert hard[0].chance is None and "chance" not in hard[0].to_json()
    assert all(a.chance is None and "chance" not in a.to_json() for a in (*person[1:], *easy[1:]))
