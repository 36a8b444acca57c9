"""Bots and the advisor: legal commands only, exact replays from a seed, the right move where one wins."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

import pytest

from companion.engine.errors import IllegalAction
from companion.engine.stats import wilson
from companion.games.on_the_way.bots import Advice, Level, advise, choose
from companion.games.on_the_way.engine import Build, Building, Command, Fulfil, LayOut, Pass, RevealEvent, apply
from companion.games.on_the_way.engine.check import check
from companion.games.on_the_way.engine.notation import position
from companion.games.on_the_way.engine.queries import offer_missing
from companion.games.on_the_way.engine.scoring import winners
from companion.games.on_the_way.engine.serialize import command_from_json
from companion.games.on_the_way.engine.state import GameState, initial_state
from companion.games.seats import BotSeats
from tests.bots.helpers import config_for, laid_out

TINY = 0.002  # Pi-4 seconds per command: one or two playouts per candidate, enough to exercise the search

# OTW-31..33: the last round, red to move with one step left. Red's 3 500 R count 1 VP (11 < 12): a
# warehouse (OTW-23, +2 VP for 3 000 R) ties blue at 12 VP and 500 R, and tied players all win.
# Nothing else wins: blue, with 500 R and no contract, cannot score on his last turn.
LAST_STEP = """
red  3500R 10VP
blue 500R 12VP
turn red used=1 round=20
time 14 last=20 offer=B10,B11,B12
"""


def play_game(
    levels: dict[str, Level], seed: int, end_at: int | None, budget: float = TINY
) -> tuple[GameState, list[Command], int]:
    """A whole game of bots through the validated engine: (final state, commands, refused)."""
    state = initial_state(config_for(len(levels), None, end_at))
    log: list[Command] = []
    refused = 0
    while not state.finished and len(log) < 2000:
        colour = state.current.colour
        command = choose(state, colour, levels[colour], seed, budget_s=budget)
        try:
            state, _ = apply(state, command)
        except IllegalAction:
            refused += 1
            break
        log.append(command)
    return state, log, refused


def test_easy_bots_finish_whole_games_without_a_refused_command() -> None:
    for seed in range(12):
        players = 2 + seed % 3
        levels = dict.fromkeys(("red", "blue", "green", "yellow")[:players], Level.EASY)
        state, log, refused = play_game(levels, seed, None if players == 2 else 6)
        assert refused == 0, (seed, log[-1])
        assert state.finished, seed
        assert any(isinstance(c, RevealEvent) for c in log)  # the bot revealed the events it had to


def test_searching_bots_never_issue_a_refused_command() -> None:
    for seed, (red, blue) in enumerate(
        [(Level.HARD, Level.EASY), (Level.EASY, Level.MEDIUM), (Level.MEDIUM, Level.HARD)]
    ):
        state, _log, refused = play_game({"red": red, "blue": blue}, seed, end_at=2)
        assert refused == 0
        assert state.finished


def test_a_bot_game_replays_exactly_from_its_seed() -> None:
    levels = {"red": Level.HARD, "blue": Level.EASY}
    first = play_game(levels, seed=5, end_at=2)
    again = play_game(levels, seed=5, end_at=2)
    other = play_game(levels, seed=6, end_at=2)
    assert first[1] == again[1]
    assert first[0].players == again[0].players
    assert first[1] != other[1]


def test_choose_is_a_pure_function_of_state_level_and_seed() -> None:
    state = initial_state(config_for(2))
    for level in Level:
        assert choose(state, "red", level, 3, budget_s=TINY) == choose(state, "red", level, 3, budget_s=TINY)


def test_search_finds_the_only_winning_step() -> None:
    state = position(config_for(2), LAST_STEP)
    for level in (Level.MEDIUM, Level.HARD):
        command = choose(state, "red", level, seed=1, budget_s=0.05)
        assert isinstance(command, Build) and command.building is Building.WAREHOUSE, (level, command)
        after, _ = apply(state, command)
        while not after.finished:
            after, _ = apply(after, Pass(after.current.colour))
        assert "red" in winners(after)


def test_advice_ranks_the_winning_step_first_with_an_honest_interval() -> None:
    state = position(config_for(2), LAST_STEP)
    advice = advise(state, "red", budget_s=0.2, seed=0)
    assert 1 <= len(advice) <= 3
    best = advice[0]
    assert isinstance(best.command, Build) and best.command.building is Building.WAREHOUSE
    assert best.win_rate == 1.0 and best.low > 0.7 and best.high == 1.0
    assert "+2 VP" in best.sentence and "warehouse" in best.sentence
    for a in advice:
        assert a.low <= a.win_rate <= a.high and a.playouts > 0
    assert [a.win_rate for a in advice] == sorted((a.win_rate for a in advice), reverse=True)
    assert all(a.win_rate == 0.0 for a in advice if isinstance(a.command, Pass))


def test_advice_is_json_and_deterministic_and_every_command_is_legal() -> None:
    state = laid_out(initial_state(config_for(2)), "B01", "B02", "B03")
    advice = advise(state, "red", budget_s=0.05, seed=9)
    assert advice == advise(state, "red", budget_s=0.05, seed=9)
    assert len(advice) == 3
    for a in advice:
        apply(state, a.command)  # raises if refused
        data = json.loads(json.dumps(a.to_json()))
        assert command_from_json(data["command"]) == a.command
        assert set(data) - {"chance"} == {"command", "win_rate", "low", "high", "playouts", "sentence"}
        assert a.command.player == "red" and a.sentence


def test_advice_explains_a_fulfil_with_its_payout() -> None:
    state = position(config_for(2), "red 1000R B01 1:Oss:2:B01\nturn red")
    card = state.config.contract("B01")
    assert card is not None
    text = f"red 1000R B01 1:{card.destination}:{card.trucks}:B01\nturn red\ntime 0 offer=B02,B03,B04"
    state = position(config_for(2), text)
    advice = advise(state, "red", budget_s=0.2, seed=0)
    fulfil = [a for a in advice if isinstance(a.command, Fulfil)]
    assert fulfil, advice
    assert fulfil[0].sentence.startswith("Fulfil B01 now:") and "marker is free" in fulfil[0].sentence


@pytest.mark.parametrize(
    ("text", "who", "rule"),
    [
        ("turn blue", "red", "OTW-10"),
        ("turn red", "green", "OTW-10"),
        ("turn red\ntime 1 strip=B01,B02,B03 awaiting", "red", "OTW-28"),
    ],
)
def test_advice_and_bots_refuse_when_the_player_cannot_act(text: str, who: str, rule: str) -> None:
    state = position(config_for(2), text)
    with pytest.raises(IllegalAction) as refused:
        advise(state, who, budget_s=TINY)
    assert refused.value.rule == rule
    if rule != "OTW-28":
        with pytest.raises(IllegalAction):
            choose(state, who, Level.EASY, 0)


def test_a_bot_reveals_the_event_it_must_draw() -> None:
    state = position(config_for(2), "turn red\ntime 1 event=E01 strip=B01,B02,B03 awaiting")
    command = choose(state, "red", Level.HARD, 0)
    assert isinstance(command, RevealEvent) and command.card != "E01"
    apply(state, command)
    with pytest.raises(IllegalAction):
        choose(state, "blue", Level.EASY, 0)


def test_wilson_interval() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-3) and high == pytest.approx(0.7634, abs=1e-3)
    low, high = wilson(10, 10)
    assert high == 1.0 and low == pytest.approx(0.7225, abs=1e-3)


def test_advice_type_is_frozen() -> None:
    a = Advice(Pass("red"), 0.5, 0.4, 0.6, 10, "x")
    with pytest.raises(AttributeError):
        a.win_rate = 1.0  # type: ignore[misc]


def test_advice_sentences_count_in_the_singular_for_one() -> None:
    """Issue 21 §3: "1 trucks", "1 roads" and "1 idle trucks wait" never reach a player."""
    from companion.games.on_the_way.bots.explain import sentence
    from companion.games.on_the_way.bots.kernel import Kernel

    state = laid_out(initial_state(config_for(2)), "B01", "B02", "B03")
    kernel = Kernel.from_state(state)
    sentences = [sentence(kernel, action) for action in kernel.legal_actions()]
    assert sentences
    for text in sentences:
        for wrong in ("1 trucks", "1 roads", "1 idle trucks", " 1 idle truck wait "):
            assert wrong not in text, text


def _advice_words_over_sample_games() -> list[object]:
    """The advice's words for every legal action of every position of two short sample games."""
    from companion import games
    from companion.games.on_the_way.bots.explain import words
    from companion.games.on_the_way.bots.kernel import Kernel
    from companion.games.setup import GameSetup

    plugin = games.get("on-the-way")
    out: list[object] = []
    for seed in (1, 2):
        setup = GameSetup("on-the-way", plugin.colours[:3], seed=seed)
        game = plugin.new_game(setup)
        for n, command in enumerate(plugin.sample_game(setup, seed, 240)):
            game.push(command)
            if n % 4 == 0 and not game.state.finished:
                kernel = Kernel.from_state(game.state)
                out += [words(kernel, action) for action in kernel.legal_actions()]
    return out


@pytest.mark.parametrize("language", ["en", "cs", "de", "pl"])
def test_advice_sentences_are_told_in_every_language_with_the_counted_form_of_each_number(
    language: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 21 §3: the advice in the table's language. Every key it asks for is in the catalogue (no
    English fallback is logged, no placeholder is left), and each number before a counted noun
    ("3 vozidla", "5 ciężarówek") takes the form the language's plural rule gives that number; the
    nouns are read from the catalogue's own ``advice.trucks_*``/``advice.roads_*`` forms."""
    import re

    from companion.games.advice import Words
    from companion.table.messages import Catalogue, plural_form

    t = Catalogue(language, "companion.games.on_the_way")
    forms_of: dict[str, set[str]] = {}  # noun -> the plural forms it is written in
    for stem in ("advice.trucks", "advice.roads"):
        for form in ("one", "few", "many"):
            template = t.get(f"{stem}_{form}") or t.get(f"{stem}_many") or ""
            forms_of.setdefault(template.replace("{n} ", ""), set()).add(form)
    counted = re.compile(rf"(?<!\d)(\d+) (?:\w+ )?({'|'.join(map(re.escape, forms_of))})\b")
    said = _advice_words_over_sample_games()
    assert len(said) > 500
    seen: set[str] = set()
    with caplog.at_level("WARNING", logger="companion.table.messages"):
        for words in said:
            assert isinstance(words, Words)
            text = words.tell(t)
            assert "{" not in text and "}" not in text, text
            for number, noun in counted.findall(text):
                form = plural_form(language, int(number))
                assert form in forms_of[noun] or (form == "few" and "many" in forms_of[noun]), (text, number, noun)
                seen.add(form)
    assert not [r for r in caplog.records if "missing" in r.getMessage()], caplog.text
    assert {"one", "many" if language in ("en", "de") else "few"} <= seen, seen


@pytest.mark.parametrize("players", [2, 3, 4])
def test_greedy_games_never_fall_behind_the_pace_that_marks_a_stalling_game(players: int) -> None:
    """``behind_pace`` (OTW-28: the time track moves only with fulfilled contracts; the bots and the
    advisor then play the plan) must never fire in a normal game:
    complete greedy kernel games on seeds other than those its constants were measured on (10 000+)."""
    import random

    from companion.games.on_the_way.bots.kernel import Kernel
    from companion.games.on_the_way.bots.policy import policy_action
    from companion.games.on_the_way.bots.search import behind_pace

    start = Kernel.from_state(initial_state(config_for(players)))
    for game in range(60):
        k, rng = start.copy(), random.Random(game)
        while not k.finished:
            assert not behind_pace(k), (game, k.rnd, k.time)
            k.step(policy_action(k, rng))


def test_a_game_whose_time_track_stands_still_is_stalling_and_the_search_keeps_the_plan() -> None:
    """Round 80 with the time track still at 3 (OTW-28; searching players kept a transport wandering):
    the game is behind pace, and the advice keeps the greedy plan whatever the ranking says."""
    from companion.games.on_the_way.bots.advisor import keeps_plan
    from companion.games.on_the_way.bots.kernel import MOVE, Kernel
    from companion.games.on_the_way.bots.search import Arm, behind_pace

    k = Kernel.from_state(laid_out(initial_state(config_for(2)), "B01", "B02", "B03"))
    plan = (MOVE, 1, 3, -1, -1)
    better = Arm((MOVE, 1, 4, -1, -1), 40, 30.0)
    default = Arm(plan, 40, 10.0)
    assert not behind_pace(k) and not keeps_plan(k, plan, better, default)
    k.time, k.rnd = 3, 80
    assert behind_pace(k) and keeps_plan(k, plan, better, default)
    k.time = 9  # the same round with the track where greedy games have it by then: not stalling
    assert not behind_pace(k)


def test_behind_pace_the_advice_and_a_searching_bot_play_the_greedy_plan(monkeypatch: pytest.MonkeyPatch) -> None:
    """Round 80 with the time track at 3 (OTW-28): the advice is the greedy plan (``advise`` seeds it with
    ``plan:<seed>``) and hard does not search (its command is the same at any budget). With the guard
    switched off the same position gets other steps: the guard is what makes them play the plan."""
    import random

    import companion.games.on_the_way.bots.advisor as advisor_module
    import companion.games.on_the_way.bots.players as players_module
    from companion.games.on_the_way.bots.kernel import Kernel
    from companion.games.on_the_way.bots.policy import policy_action

    state = position(
        config_for(2), "red 3000R B01,B02 1:Oss:1\nblue 3000R B03\nturn red round=80\ntime 3 offer=B04,B05,B06"
    )
    k = Kernel.from_state(state)
    seeds = range(3)
    plans = [k.to_command(policy_action(k, random.Random(f"plan:{s}"), take_chance=1.0)) for s in seeds]
    assert [advise(state, seed=s, budget_s=0.3)[0].command for s in seeds] == plans
    hard = [choose(state, "red", "hard", seed=s, budget_s=0.05) for s in seeds]
    assert [choose(state, "red", "hard", seed=s, budget_s=1.0) for s in seeds] == hard
    monkeypatch.setattr(advisor_module, "behind_pace", lambda k: False)
    monkeypatch.setattr(players_module, "behind_pace", lambda k: False)
    assert [advise(state, seed=s, budget_s=0.3)[0].command for s in seeds] != plans
    assert [choose(state, "red", "hard", seed=s, budget_s=1.0) for s in seeds] != hard


def _seen_position(state: GameState, colour: str) -> tuple[object, ...]:
    """What a circle returns to, from the engine's state (not the kernel's ``_position``): the
    player's transports, contracts and money, the board's idle trucks and buildings."""
    player = state.player(colour)
    assert player is not None
    transports = tuple(sorted((t.marker, t.city, t.trucks, t.loaded) for t in player.transports))
    return (transports, player.contracts, player.money, state.idle, state.buildings)


def _fill_offer(state: GameState, pile: list[str]) -> GameState:
    """The offer filled from ``pile`` as a person lays it out (OTW-9); a card the game cannot have
    (taken, or of a tier whose cards are all out, OTW-4) goes back to the box."""
    while pile and offer_missing(state):
        card = pile.pop()
        try:
            state, _ = apply(state, LayOut(card))
        except IllegalAction:
            continue
    return state


def _steps_back(seed: int, ask: Callable[[GameState, tuple[GameState, ...]], Command]) -> int:
    """A 2-player game (time track ending at 3) whose every command is ``ask(state, earlier)``
    (``earlier``: the states of this turn it was asked in, oldest first): how many of its steps
    (OTW-12) returned the player's transports, cards and money to where they were earlier in the turn."""
    from companion.games.on_the_way.bots.advisor import same_turn

    pile = sorted(c.id for c in config_for(2).deck.contracts)
    random.Random(seed).shuffle(pile)
    state = initial_state(config_for(2, None, 3))
    asked: list[GameState] = []
    back = steps = 0
    while not state.finished and steps < 1500:
        state = _fill_offer(state, pile)
        colour = state.current.colour
        earlier = same_turn(asked, state)
        command = ask(state, earlier)
        asked = [*earlier, state]
        before = state
        state, _ = apply(state, command)
        steps += 1
        turn = (state.turn.round, state.turn.seat)
        if isinstance(command, RevealEvent) or turn != (before.turn.round, before.turn.seat):
            continue
        back += any(_seen_position(e, colour) == _seen_position(state, colour) for e in asked)
    assert state.finished
    return back


@cache
def _stepping_back_without_memory(count: int = 2, limit: int = 120) -> tuple[int, ...]:
    """The first ``count`` seeds (of ``limit``) whose hard bot, asked without the states of its turn,
    steps back to one of them: where the memory has something to prove. About 1 seed in 10 (seeds
    1, 2 and 8 of the first ten here); any change to the ranking moves them, so they are found, not
    named (a ranking tried in the eighth session stepped back on none of the first 24)."""
    found: list[int] = []
    for seed in range(limit):

        def forgetful(state: GameState, earlier: Sequence[GameState], seed: int = seed) -> Command:
            return choose(state, state.current.colour, Level.HARD, seed, budget_s=TINY)

        if _steps_back(seed, forgetful):
            found.append(seed)
            if len(found) == count:
                break
    return tuple(found)


@pytest.mark.parametrize("seed", range(10))
def test_hard_never_steps_back_to_a_position_of_the_same_turn(seed: int) -> None:
    """Hard, given the states of the turn it was asked in, never steps back to one of them; at a tiny
    budget its ranking is at its noisiest. (Where it steps back without them: the next test.)"""
    assert (
        _steps_back(
            seed, lambda s, earlier: choose(s, s.current.colour, Level.HARD, seed, budget_s=TINY, earlier=earlier)
        )
        == 0
    )


def test_a_hard_bot_seat_remembers_its_turn_and_never_steps_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same through the table's mechanism (``seats.BotSeats`` -> ``bot_command(seen=)``), with the
    seats' own memory, on seeds where hard without it steps back (so the check can fail)."""
    from companion import games
    from companion.games.on_the_way.bots import players
    from companion.games.seats import BotSeats

    seeds = _stepping_back_without_memory()
    assert len(seeds) == 2, seeds
    monkeypatch.setitem(players.BUDGET_S, Level.HARD, TINY)
    for seed in seeds:
        seats = BotSeats(games.get("on-the-way"), {"red": "hard", "blue": "hard"}, seed)
        assert _steps_back(seed, lambda s, earlier, seats=seats: seats(s)) == 0, seed  # type: ignore[misc]


def _lay_out_in(game: Any, pile: list[str]) -> None:
    """The offer filled from ``pile`` through ``game`` as a person lays it out (OTW-9); a card the game
    cannot have goes back to the box (``_fill_offer`` for a ``Game``)."""
    while pile and offer_missing(game.state):
        card = pile.pop()
        if check(game.state, LayOut(card)) is None:
            game.push(LayOut(card))


def _answers_after_undos(seed: int, undos: int) -> list[tuple[object, object]]:
    """Hard bot seats (``BotSeats``, TINY budget) through ``Game``: after every step of a turn the seat
    is asked again (so it remembers the new state), then the step is undone and the seat asked twice
    more: (the step, the answer after its undo), for the first ``undos`` steps."""
    from companion import games
    from companion.engine.game import Game

    pile = sorted(c.id for c in config_for(2).deck.contracts)
    random.Random(seed).shuffle(pile)
    game = Game(initial_state(config_for(2, None, 3)), apply)
    seats = BotSeats(games.get("on-the-way"), {"red": "hard", "blue": "hard"}, seed)
    out: list[tuple[object, object]] = []  # a seat answers with its game's command (object)
    while len(out) < undos and not game.state.finished:
        _lay_out_in(game, pile)
        turn = (game.state.turn.round, game.state.turn.seat)
        step = seats(game.state)
        game.push(step)
        if isinstance(step, Pass | RevealEvent) or (game.state.turn.round, game.state.turn.seat) != turn:
            continue
        if seats(game.state) is None:  # the game ended
            break
        game.pop()  # OTW-12: the step is taken back (the table's undo)
        again = seats(game.state)
        # A table asks again while pieces move: the seat remembers the position twice, still no step back.
        assert seats(copy.copy(game.state)) == again
        out.append((step, again))
        game.push(again)
    return out


def test_after_an_undo_a_hard_bot_seat_decides_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    """An undo brings back a position the seat answered in; what came after it did not happen, so the
    bot decides as it did there before (``advisor.not_undone``), rather than refusing the undone step
    as a step back (``no_circles``) and passing."""
    from companion.games.on_the_way.bots import players

    monkeypatch.setitem(players.BUDGET_S, Level.HARD, TINY)
    answers = _answers_after_undos(0, 12)
    assert len(answers) == 12
    assert all(step == again for step, again in answers)
    # Without the cut the remembered, undone position is refused: the check above can fail.
    monkeypatch.setattr(players, "not_undone", lambda earlier, now: tuple(earlier))
    assert any(step != again for step, again in _answers_after_undos(0, 12))


@pytest.mark.parametrize("seed", [1, 2])
def test_without_an_undo_nothing_of_the_turn_is_forgotten(seed: int) -> None:
    """``not_undone`` cuts only where an undo returned: over whole games of hard bots (no undo), the
    states of the turn so far come back whole at every ask."""
    from companion.games.on_the_way.bots.advisor import not_undone

    def ask(state: GameState, earlier: tuple[GameState, ...]) -> Command:
        assert not_undone(earlier, state) == earlier
        return choose(state, state.current.colour, Level.HARD, seed, budget_s=TINY, earlier=earlier)

    assert _steps_back(seed, ask) == 0


def test_a_bot_seat_remembers_the_states_it_answered_in() -> None:
    """``BotSeats`` hands each seat the states it answered in before, oldest first, at most ``MEMORY``:
    the hard bot's memory of the turn. A spy on the real plugin records what it is given."""
    from companion import games
    from companion.games.seats import MEMORY, BotSeats

    plugin = games.get("on-the-way")
    given: list[tuple[str, tuple[object, ...]]] = []
    answered: dict[str, list[GameState]] = {"red": [], "blue": []}

    class Spy(type(plugin)):  # type: ignore[misc]
        def bot_command(
            self, state: GameState, colour: str, level: str, seed: int, *, seen: Sequence[object] = ()
        ) -> object | None:
            given.append((colour, tuple(seen)))
            command = super().bot_command(state, colour, level, seed, seen=seen)
            if command is not None:
                answered[colour].append(state)
            return command

    seats = BotSeats(Spy(), {"red": "easy", "blue": "easy"}, seed=4)
    pile = sorted(c.id for c in config_for(2).deck.contracts)
    random.Random(4).shuffle(pile)
    state = _fill_offer(initial_state(config_for(2)), pile)
    for _ in range(150):
        before = {c: list(s) for c, s in answered.items()}
        calls = len(given)
        command = seats(state)
        assert command is not None
        for colour, seen in given[calls:]:
            assert list(seen) == before[colour][-MEMORY:]
            assert all(a is b for a, b in zip(seen, before[colour][-MEMORY:], strict=True))
        state, _ = apply(state, command)  # type: ignore[arg-type]
        state = _fill_offer(state, pile)
    assert len(answered["red"]) > MEMORY  # the memory was full and stayed at MEMORY states


def _restarts(seed: int, steps: int, remember: bool) -> list[tuple[object, object]]:
    """Hard bot seats through ``Game``: at every ask mid-turn, a box that restarted there (a fresh
    ``bot_player``, given the game's ``recent`` states when ``remember``) is asked too: (the running
    seat's answer, the restarted seat's), for ``steps`` asks."""
    from companion import games
    from companion.engine.game import Game
    from companion.games.seats import bot_player

    plugin = games.get("on-the-way")
    pile = sorted(c.id for c in config_for(2).deck.contracts)
    random.Random(seed).shuffle(pile)
    game = Game(initial_state(config_for(2, None, 4)), apply)
    bots = {"red": "hard", "blue": "hard"}
    running = bot_player(plugin, bots, seed)
    assert running is not None
    out: list[tuple[object, object]] = []
    while len(out) < steps and not game.state.finished:
        _lay_out_in(game, pile)
        step = running(game.state)
        if step is None:
            break
        if game.state.turn.steps_used > 0:  # mid-turn: the box restarts here
            restarted = bot_player(plugin, bots, seed, game if remember else None)
            assert restarted is not None
            out.append((step, restarted(game.state)))
        game.push(step)
    return out


def test_a_box_that_resumes_mid_turn_lets_a_hard_bot_decide_as_if_it_never_stopped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A box restarted in a bot's turn (kiosk: the journal's game resumed) gives the seats the game's
    recent states (``bot_player(..., game)``): the hard bot remembers the turn so far and answers as
    the seat that never stopped. Without them it may step back to a position of the turn (OTW-12)."""
    from companion.games.on_the_way.bots import players

    monkeypatch.setitem(players.BUDGET_S, Level.HARD, TINY)
    answers = _restarts(3, 60, remember=True)
    assert len(answers) == 60 and all(running == restarted for running, restarted in answers)
    # Restarted with an empty memory, some answer differs: the check above can fail.
    assert any(running != restarted for running, restarted in _restarts(3, 60, remember=False))
