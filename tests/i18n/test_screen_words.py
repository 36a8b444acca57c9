"""The screens' own words are in the table's language: both games' table screens (every moment of
test_overflow, plus On The Way's jam with an event and its final ranking), the stats picture and the
attract replay are rendered in every language at 800×480; a non-English render may show no English
screen word (a word whose translation is the same word, as German "Bank", is allowed) and no text is
cut. Screenshots: tests/output/i18n/<language>_words_<screen>.png."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import Any, cast

import pygame
import pytest

import tests.display.scenes as otw_scenes
from companion import games
from companion.display.fonts import font, traced
from companion.display.record import FrameRecord
from companion.display.stats import draw_stats
from companion.games.auf_achse.screen.render import render as render_aa
from companion.games.on_the_way.screen.render import render as render_otw
from companion.games.setup import GameSetup
from companion.games.stats import stats_of_game
from companion.kiosk.attract import Replay
from companion.leaderboard import BoardModel
from companion.leaderboard.screen import BOARD_MESSAGES, BoardView
from companion.leaderboard.screen import render as render_board
from companion.table.messages import LANGUAGES, Catalogue
from tests.i18n.conftest import save
from tests.i18n.test_overflow import NOT_TRANSLATION, SIZE, aa_moments, otw_moments, role_of
from tests.table_aa.conftest import AATable

# The English words the screens drew before they were translated (On The Way, Auf Achse, the shared
# feed, prompt and ranking, the stats picture, the attract replay), and the players' names.
ENGLISH = (
    *("steps left", "step left", "round", "(last)", "VP", "score", "free", "more contracts", "no contracts"),
    *("warehouse", "logistics centre", "Time", "end", "No event yet", "Event", "strip", "per contract"),
    *("traffic jam", "Game over", "wins", "win", "and", "VP tokens", "VP from R", "ties", "Bank"),
    *("set-up", "face down", "trailers", "trailer", "spare", "goods", "private", "delivered", "to roll"),
    *("rolled", "Auction", "pays", "opened by", "high bid", "to bid", "card scanned", "passed", "still in"),
    *("nobody", "debt", "money", "debts", "worth", "action card", "more loaded", "misses", "no bid yet"),
    *("the game in figures", "earned", "spent", "biggest payout", "A sample game of"),
    *("Red", "Blue", "Green", "Yellow", "Black", "White"),
    # MENU → Advice: its sentence (companion/games/on_the_way/bots/explain.py) and chance.
    *("Take", "truck", "trucks", "idle", "road", "roads", "nearby", "Fulfil", "Build", "Cancel", "win chance"),
)
# Texts that are not the screen's words: city names (data), and the ledger's reasons, which are the
# engine's bookings and stay as they were booked (English; docs/translating.md).
NOT_SCREEN_WORDS = {"city", "ledger"}
CATALOGUES = (None, "companion.games.on_the_way", "companion.games.auf_achse", "companion.kiosk")


@functools.cache
def own_words(language: str, packages: tuple[str | None, ...], prefixes: tuple[str, ...]) -> frozenset[str]:
    """English words that are also this language's own: its translations of the keys starting with
    ``prefixes`` in ``packages`` (read once: the catalogues do not change while the tests run)."""
    own: set[str] = set()
    for package in packages:
        t = Catalogue(language, package)
        for key in t.all_keys():
            if key.startswith(prefixes):
                own.update(re.findall(r"\w+", re.sub(r"{\w*}", "", t.get(key) or "")))
    return frozenset(own)


def english_found(text: str, words: Iterable[str], own: frozenset[str]) -> list[str]:
    """The ``words`` that ``text`` shows as whole words, unless they are also the language's ``own``."""
    return [
        word
        for word in words
        if re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text) and not set(re.findall(r"\w+", word)) <= own
    ]


def english_in(text: str, language: str) -> list[str]:
    prefixes = ("screen.", "stats.", "player_names.", "advice.", "attract.sample_game")
    return english_found(text, ENGLISH, own_words(language, tuple(CATALOGUES), prefixes))


class Words:
    def __init__(self, language: str) -> None:
        self.language = language
        self.surface = pygame.Surface(SIZE)
        self.english: list[tuple[str, str, list[str]]] = []
        self.clipped: list[tuple[str, str]] = []
        self.screens = 0

    def check(self, name: str, record: FrameRecord) -> None:
        save(self.surface, f"{self.language}_words_{name}")
        self.screens += 1
        self.clipped += [(name, text) for text in record.clipped if role_of(record, text) not in NOT_TRANSLATION]
        if self.language == "en":
            return
        for drawn in record.texts:
            if drawn.role not in NOT_SCREEN_WORDS and (found := english_in(drawn.text, self.language)):
                self.english.append((name, drawn.text, found))

    def report(self) -> str:
        lines = [f"{self.language} {name}: {text!r} has English {found}" for name, text, found in self.english]
        return "\n".join(lines + [f"{self.language} {name}: cut {text!r}" for name, text in self.clipped])


def otw_extra(language: str) -> Iterator[tuple[str, Any]]:
    """The jam with its event in the top bar, and the final ranking (a tie for first), with the UI
    model's own texts (the table's, already translated) left out: only the screen's words remain."""
    for scene in (otw_scenes.jam(), otw_scenes.game_over()):
        ui = replace(scene.ui, language=language, prompt="", detail="", choices=(), message="")
        yield f"otw_{scene.name}", replace(scene, ui=ui)


def test_english_words_are_found() -> None:
    assert english_in("2 steps left · round 3 (last)", "de") == ["steps left", "round", "(last)"]
    assert english_in("Bank", "de") == [] and english_in("Bank", "cs") == ["Bank"]
    assert english_in("Rot gewinnt!", "de") == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_screens_draw_no_english_word(language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    words = Words(language)
    for name, t in otw_moments(language):
        words.check(name, render_otw(words.surface, t.state, t.ui, t.ctl.led_frame))
    for name, scene in otw_extra(language):
        words.check(name, render_otw(words.surface, scene.state, scene.ui, scene.leds))
    for name, scene in aa_moments(language, monkeypatch):
        if isinstance(scene, AATable):
            scene = scene.state, scene.ui, scene.ctl.led_frame
        else:
            scene = scene.state, scene.ui, scene.leds
        words.check(name, render_aa(words.surface, *scene))
    for game in ("on-the-way", "auf-achse"):  # the stats picture of a short sample game
        plugin = games.get(game)
        setup = GameSetup(game, plugin.colours[:3], seed=3)
        played = plugin.new_game(setup)
        for command in plugin.sample_game(setup, 3, 120):
            played.push(command)
        words.check(f"stats_{game}", draw_stats(words.surface, stats_of_game(plugin, played), language=language))
    replay = Replay(("on-the-way", "auf-achse"), caption="", language=language)
    for _ in range(2):
        scene = replay.scene
        assert scene is not None and scene.ui.language == language
        record = scene.screen.render(words.surface, scene.state, scene.ui, scene.leds)
        words.check(f"replay_{scene.plugin.name}", record)
        replay.next_game()  # the next game
    assert words.screens >= 20
    assert not words.english and not words.clipped, words.report()


# The leaderboard's English words before it was translated (its header, panels, cards and footer).
BOARD_ENGLISH = (
    *("Leaderboard", "table", "tables", "Table", "game", "games", "finished", "best", "VP", "live"),
    *("no connection", "Live tables", "round", "turn", "waiting for a game", "game over", "offline"),
    *("bad message", "dropped", "No finished games yet", "No table has reported yet", "more", "score"),
    *("Red", "Blue", "Green", "Yellow", "Black", "White"),
)


def board_english_in(text: str, language: str) -> list[str]:
    t = Catalogue(language, BOARD_MESSAGES)
    own = {w for key in t.all_keys() if key.startswith(("board.", "player_names."))
           for w in re.findall(r"\w+", re.sub(r"{\w*}", "", t.get(key) or ""))}  # fmt: skip
    return [
        word
        for word in BOARD_ENGLISH
        if re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text) and not set(re.findall(r"\w+", word)) <= own
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_leaderboard_draws_no_english_word(language: str) -> None:
    """Every string the board renders (its fonts are traced): a busy board with a dropped message, a
    table offline and one waiting, and an empty board without a broker. Game titles, money, table ids
    and the broker's address are data, drawn as they come."""
    from tests.leaderboard.test_screen import busy_model

    data = {"On The Way", "Auf Achse", "mqtt://laptop:1883"}
    found: list[str] = []
    for name, model, connected in (("busy", busy_model(), True), ("empty", BoardModel(), False)):
        surface = pygame.Surface((1920, 1080))
        view = BoardView("", connected, "mqtt://laptop:1883", 1_764_547_200.0, language)
        with traced() as rendered:
            render_board(surface, model, view, lambda size, bold: font(size, bold=bold))
        save(surface, f"{language}_words_leaderboard_{name}")
        texts = {text for text, _size in rendered} - data
        assert len(texts) > (20 if name == "busy" else 5)
        if language != "en":
            found += [f"{name}: {text!r} has English {words}" for text in sorted(texts)
                      if (words := board_english_in(text, language))]  # fmt: skip
        else:
            assert any("VP" in text for text in texts) or name == "empty"
    assert not found, "\n".join(found)


# The simulator's English words before it was translated: its table edge (both games), the admin
# notice and the start dialog.
SIM_ENGLISH = (
    *("Pile", "Events", "cards", "card", "click", "Card reader", "reveal", "top card", "Drag", "markers", "scan"),
    *("quit", "Contracts", "Actions", "bank", "goods", "next", "draw", "basic", "extended", "professional", "VP"),
    *("Red", "Blue", "Green", "Yellow", "Black", "White", "Companion simulator", "Game", "Players", "players"),
    *("keys", "key", "Full game", "Short game", "Other seats", "people", "the box", "Who plays", "Game length"),
    *("Start", "easy", "medium", "hard", "Admin menu", "not available"),
)


def sim_english_in(text: str, language: str) -> list[str]:
    packages = (None, "companion.games.on_the_way", "companion.games.auf_achse")
    prefixes = ("tray.", "simulator.", "player_names.", "screen.contract_vp", "wizard.choice_")
    return english_found(text, SIM_ENGLISH, own_words(language, packages, prefixes))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_simulator_draws_no_english_word(language: str) -> None:
    """The simulator's table edge of both games (trays, reader, piles, cards, help line, the admin
    notice) and its start dialog (every game, people and each level, full and short), in the
    language it is started in (``--language``)."""
    from companion.simulator.app import new_game
    from companion.simulator.start_dialog import Choice, draw_dialog, game_options
    from companion.simulator.window import Simulator

    found: list[str] = []
    drawn = 0
    for game in ("on-the-way", "auf-achse"):
        plugin = games.get(game)
        colours = plugin.colours[: max(plugin.player_counts)]
        sim = Simulator(plugin, new_game(game, colours, seed=1), size=(1280, 800), seed=1, clock=lambda: 0.0,
                        language=language)  # fmt: skip
        sim._on_admin()  # a long MENU: the notice that the admin menu is the kiosk's
        sim.draw()
        save(sim.window, f"{language}_words_simulator_{game}")
        texts = [d.text for d in sim.tray_record.texts]
        drawn += len(texts)
        found += [f"{game} tray: {text!r} has English {w}" for text in texts
                  if language != "en" and (w := sim_english_in(text, language))]  # fmt: skip
    options = game_options()
    for option in options:
        for box in (None, *option.bot_levels):
            for short in (False, True):
                record = FrameRecord((800, 480))
                choice = Choice(options, game=option.name, players=2, box=box, short=short)
                draw_dialog(pygame.Surface((800, 480)), choice, record, language)
                texts = [d.text for d in record.texts]
                drawn += len(texts)
                found += [f"dialog: {t!r} has English {w}" for t in texts
                          if language != "en" and (w := sim_english_in(t, language))]  # fmt: skip
    assert drawn > 100
    if language == "en":
        assert not found and sim_english_in("Pile", "cs") == ["Pile"]  # the check finds an English word
    assert not found, "\n".join(sorted(set(found)))


# The set-up wizard's words that came from the games' profiles in English: their rulebook facts, their
# card checks and their choice values (tiers, event kinds, action effects).
WIZARD_ENGLISH = (
    *("rulebook", "the box has", "entered", "not on this board", "no road", "trace the roads", "too few"),
    *("needs", "contracts", "cards", "basic", "extended", "professional", "malus", "cheaper", "extra step"),
    *("traffic jam", "pay", "receive", "roadworks", "spare contract", "miss turns", "warning triangle", "players"),
    *("cheaper_build", "extra_step", "traffic_jam", "pay_each", "miss_turns", "spare_contract"),
)


def wizard_english_in(text: str, language: str) -> list[str]:
    packages = ("companion.setup_box", "companion.games.on_the_way", "companion.games.auf_achse")
    return english_found(text, WIZARD_ENGLISH, own_words(language, packages, ("wizard.",)))


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", ["on-the-way", "auf-achse"])
def test_the_wizard_says_the_games_words_in_its_language(game: str, language: str) -> None:
    """Every step of the owner's script (card forms with their choices) and the check with a long list,
    rendered at 1280×800; and every problem and rulebook warning of the check as the screen words it
    (the list scrolls: each line of it, not only the first screen)."""
    from companion.games.digitise.model import Step, WizardState
    from companion.games.digitise.profile import profile
    from companion.setup_box.machine import enter
    from companion.setup_box.screen import render as render_wizard
    from companion.setup_box.words import words as wizard_words
    from tests.setup_box.test_screen_fits import moments

    seen = cast("dict[str, WizardState]", moments(game))
    check = seen["check"]  # a thin box: few cards, a third of the roads, no start cities: every fact speaks
    thin = replace(check, setup=(), cards=check.cards[:3], roads=check.roads[: len(check.roads) // 3])
    seen["check:thin"] = enter(thin, Step.CHECK, profile(game))
    found: list[str] = []
    said = 0
    for name, state in seen.items():
        record = render_wizard(pygame.Surface((1280, 800)), state, language=language)
        texts = [d.text for d in record.texts if d.role not in NOT_SCREEN_WORDS]
        for text in [*texts, *map(wizard_words(language).show, (*state.problems, *state.warnings))]:
            said += 1
            if language != "en" and (english := wizard_english_in(text, language)):
                found.append(f"{name}: {text!r} has English {english}")
    warnings = [wizard_words(language).show(w) for w in seen["check:thin"].warnings]
    assert len(warnings) >= 3 and all(w and "\u2063" not in w for w in warnings), warnings
    assert said > 50
    assert not found, "\n".join(sorted(set(found))[:40])
