"""The kiosk runs every game: the set-up chooses it, and its title, texts, currency and ranking are
the game's own (issue: one platform, two games)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import pygame
import pytest

from companion import games
from companion.games.auf_achse.engine import PlaceTruck
from companion.games.on_the_way.engine import Pass
from companion.intents import ButtonName, ButtonPressed
from companion.journal import ENDED
from companion.kiosk import KioskSettings, Screen
from companion.kiosk.app import KioskLoop
from companion.kiosk.screen import KioskScreen
from companion.table.base import TableBase
from companion.table.ui import Mode
from tests.screenshots import save_png

from .conftest import Box
from .test_kiosk_screen import OUT, FakeClock, NoNotify

BOTH = KioskSettings(pin="2468", games=("on-the-way", "auf-achse"), ranking_s=60.0, admin_idle_s=30.0)


def start_auf_achse(box: Box) -> None:
    box.press("ok")
    assert box.screen is Screen.SETUP_GAME and box.view.options == ("On The Way", "Auf Achse")
    box.press("plus", "ok")
    assert box.view.options == tuple(f"{n} players" for n in (2, 3, 4, 5, 6))  # AA-1
    box.press("ok", "ok", "ok")  # two players: red, blue; Auf Achse has no short game
    assert box.screen is Screen.SETUP_CONFIRM and box.view.lines[0] == "Auf Achse"
    box.press("ok")
    assert box.screen is Screen.PLAYING


def test_attract_names_both_games_and_their_how_to(tmp_path: Path) -> None:
    box = Box(tmp_path / "j.sqlite", BOTH)
    assert box.view.title == "On The Way · Auf Achse"
    assert any(line.startswith("How to play with the companion:") for line in box.view.lines)
    box.press("plus")  # the language: the how-to page follows it
    from companion import games
    from companion.kiosk.machine import how_to

    czech = set(how_to(games.get("on-the-way"), "cs")) | set(how_to(games.get("auf-achse"), "cs"))
    shown = [line for line in box.view.lines if line.startswith("Jak hrát se společníkem: ")]
    assert shown and shown[0].removeprefix("Jak hrát se společníkem: ") in czech  # the page too, not only its title
    box.press("minus")
    box.press("ok", "back")  # the game step, then back to the attract screen
    assert box.screen is Screen.ATTRACT
    box.close()


def test_auf_achse_is_journaled_resumed_and_ranked_in_dm(tmp_path: Path) -> None:
    box = Box(tmp_path / "j.sqlite", BOTH)
    start_auf_achse(box)
    game = box.kiosk.game
    assert game is not None and game.setup.game == "auf-achse"
    state = box.kiosk.playing.controller.state  # type: ignore[union-attr]
    space = next(s.id for s in state.board.spaces if not s.city)
    box.kiosk.playing.controller._push(PlaceTruck("red", space))  # type: ignore[union-attr]
    assert box.store.commands(game.game_id) == [{"player": "red", "action": "place_truck", "space": space}]
    box.close()
    # Power cut: the new kiosk offers the Auf Achse game and resumes it on the Auf Achse table.
    box = Box(tmp_path / "j.sqlite", BOTH)
    assert box.screen is Screen.RESUME_OFFER and box.view.lines == ("Auf Achse", "Round 0")
    box.press("ok")
    assert box.screen is Screen.PLAYING
    assert box.kiosk.playing.plugin.name == "auf-achse"  # type: ignore[union-attr]
    assert box.kiosk.playing.controller.state.player("red").space == space  # type: ignore[union-attr]
    # The admin ends it early: kept in the records with the standings, ranked by money in DM (AA-24).
    box.enter_pin("2468")
    box.press(*["plus"] * box.view.options.index("End the game early"), "ok", "ok")
    assert box.screen is Screen.RANKING and box.view.title == "Game over — Auf Achse"
    # Nobody delivered yet: both hold the start money (AA-3) and share the first place (AA-24).
    assert box.view.lines == ("1. Red — 5 000 DM", "1. Blue — 5 000 DM")  # players by name (issue 21)
    assert box.store.game(game.game_id).status == ENDED  # type: ignore[union-attr]
    box.close()


def test_the_kiosk_screen_draws_the_auf_achse_table(tmp_path: Path) -> None:
    pygame.display.init()
    pygame.font.init()
    screen = KioskScreen(pygame.Surface((800, 480)), clock=FakeClock())
    box = Box(tmp_path / "j.sqlite", BOTH)
    loop = KioskLoop(box.kiosk, screen, notifier=NoNotify(), clock=FakeClock())  # type: ignore[arg-type]
    start_auf_achse(box)
    loop._render()
    OUT.mkdir(parents=True, exist_ok=True)
    save_png(screen.surface, str(OUT / "kiosk-auf-achse-playing.png"))
    assert "Red" in {t.text for t in screen.record.texts}  # the Auf Achse panels are drawn
    assert any("DM" in t.text for t in screen.record.texts)
    box.close()


def test_an_abandoned_game_counts_down_then_ends_and_is_kept(tmp_path: Path) -> None:
    settings = KioskSettings(pin="2468", games=("on-the-way",), abandon_s=600.0, abandon_warning_s=60.0)
    box = Box(tmp_path / "j.sqlite", settings)
    box.new_game(2, [0, 0])
    game = box.kiosk.game
    assert game is not None and box.screen is Screen.PLAYING
    box.later(530.0)
    assert box.view.notice == ""  # not yet: the countdown starts a minute before the end
    assert box.kiosk.next_deadline(box.now) == pytest.approx(box.now + 10.0)  # the loop sleeps until it starts
    box.later(20.0)
    assert box.view.notice.startswith("Is anyone still playing? The game ends in 50 s")
    assert box.kiosk.next_deadline(box.now) == pytest.approx(box.now + 1.0)  # a tick a second for the countdown
    box.press("plus")  # someone is: the clock starts again
    box.later(10.0)
    assert box.view.notice == "" and box.screen is Screen.PLAYING
    box.later(600.0)
    assert box.screen is Screen.RANKING and box.view.title == "Game over — On The Way"
    assert box.view.notice.startswith("Nobody played for a while")
    assert box.store.game(game.game_id).status == ENDED  # type: ignore[union-attr]
    assert box.store.unfinished() is None  # not offered for resume: it was ended on purpose
    box.later(settings.ranking_s + 1)
    assert box.screen is Screen.ATTRACT
    box.close()


def test_the_ranking_shows_the_game_in_figures(tmp_path: Path) -> None:
    from companion import games
    from companion.games.setup import GameSetup

    pygame.display.init()
    pygame.font.init()
    screen = KioskScreen(pygame.Surface((800, 480)), clock=FakeClock())
    box = Box(tmp_path / "j.sqlite", KioskSettings(pin="2468", games=("on-the-way",), ranking_s=60.0))
    loop = KioskLoop(box.kiosk, screen, notifier=NoNotify(), clock=FakeClock())  # type: ignore[arg-type]
    box.new_game(2, [0, 0])
    plugin = games.get("on-the-way")
    for command in plugin.sample_game(GameSetup("on-the-way", ("red", "blue")), seed=2, max_commands=60):
        assert (
            box.kiosk.playing is not None and cast(TableBase, box.kiosk.playing.controller)._push(command) is not None
        )
    box.enter_pin("2468")
    box.press(*["plus"] * box.view.options.index("End the game early"), "ok", "ok")
    stats = box.view.stats
    assert box.screen is Screen.RANKING and stats is not None
    assert [p.colour for p in stats.players] == ["red", "blue"] and len(stats.rounds) > 3
    assert sum(p.delivered for p in stats.players) > 0  # the sample game fulfilled contracts (OTW-22)
    loop._render()
    save_png(screen.surface, str(OUT / "kiosk-ranking-figures.png"))
    assert "chart" in screen.record.regions
    assert {"delivered", "earned", "spent", "biggest payout"} <= {t.text for t in screen.record.texts}
    box.close()


def test_the_attract_screen_replays_a_sample_game_and_the_leds_follow_calmly(tmp_path: Path) -> None:
    from tests.kiosk.conftest import TAGS

    class Leds:
        def __init__(self) -> None:
            self.frames: list[object] = []

        def show(self, frame: object, now: float) -> None:
            self.frames.append(frame)

    pygame.display.init()
    pygame.font.init()
    leds = Leds()
    settings = KioskSettings(pin="2468", games=("on-the-way", "auf-achse"), replay_step_s=1.0)
    from companion.journal import JournalStore
    from companion.kiosk import Kiosk

    store = JournalStore.open(tmp_path / "j.sqlite")
    kiosk = Kiosk(store, TAGS, now=0.0, settings=settings, leds=leds)
    screen = KioskScreen(pygame.Surface((800, 480)), clock=FakeClock())
    now, states = 0.0, []
    for _ in range(12):
        kiosk.tick(now)
        scene = kiosk.view.scene
        assert scene is not None and kiosk.screen is Screen.ATTRACT
        states.append(scene.state)
        deadline = kiosk.next_deadline(now)
        assert deadline is not None and deadline - now <= 1.0  # it wakes for the next action, no busy loop
        now = deadline
    assert len({id(s) for s in states}) >= 10  # the map is alive: a new position each step
    assert len(leds.frames) >= 10 and all(f.cities == () for f in leds.frames)  # type: ignore[attr-defined]
    screen.render(kiosk.view, None)
    save_png(screen.surface, str(OUT / "kiosk-attract-replay.png"))
    texts = {t.text for t in screen.record.texts}
    assert "Tap the screen or press OK to play" in texts and scene.plugin.title in texts
    assert screen.record.cities  # the game's own screen drew the map behind
    kiosk.handle(ButtonPressed(ButtonName.OK), now)  # any button starts the set-up
    assert kiosk.screen is Screen.SETUP_GAME
    kiosk.close()


def lay_out(box: Box) -> int:
    """A person lays out face-up contracts from the pile and scans each, while the table asks (OTW-9)."""
    from companion.games.on_the_way.engine.queries import offer_missing

    game = box.kiosk.game
    assert game is not None
    laid = 0
    ui = box.kiosk.playing.controller.ui  # type: ignore[union-attr]
    while offer_missing(game.state) and (game.state.offer is not None or ui.mode is Mode.CARD_DUE):
        state = game.state
        box.scan(next(c.id for c in state.config.deck.contracts
                      if c.id not in state.used_contracts and c.id not in (state.offer or ())))  # fmt: skip
        laid += 1
    return laid


def test_a_seat_can_be_played_by_the_box_and_survives_a_power_cut(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = KioskSettings(pin="2468", games=("on-the-way",), replay_step_s=0.0, bot_level="easy")
    box = Box(tmp_path / "j.sqlite", settings)
    box.press("ok", "ok")  # new game, 2 players
    options = box.view.options
    assert options[:4] == ("Red", "Blue", "Green", "Yellow") and options[5] == "Blue — the box plays"
    box.press("ok")  # red: a person
    assert box.view.options[:3] == ("Blue", "Green", "Yellow")
    box.press(*["plus"] * box.view.options.index("Blue — the box plays"), "ok", "ok")  # blue: the box; full game
    assert "Players: Red, Blue — the box plays" in box.view.lines
    box.press("ok")
    game = box.kiosk.game
    assert game is not None and game.setup.bots == {"blue": "easy"}
    assert lay_out(box) == 3  # OTW-9: the table asks for the face-up offer, so the bot knows it
    box.kiosk.playing.controller._push(Pass("red"))  # type: ignore[union-attr]  # red ends the turn
    box.later(2.0)
    assert any(getattr(c, "player", None) == "blue" for c in game.log)  # the box played blue's turn
    offer = game.state.offer
    box.close()
    # What the resumed table's bot seat is given to remember (a spy on the real plugin's bot_command).
    plugin_class = type(games.get("on-the-way"))
    remembered: list[tuple[object, ...]] = []

    def bot_command(self: Any, state: Any, colour: str, level: str, seed: int, *, seen: Any = ()) -> object | None:
        remembered.append(tuple(seen))
        return original(self, state, colour, level, seed, seen=seen)

    original = plugin_class.bot_command
    monkeypatch.setattr(plugin_class, "bot_command", bot_command)
    box = Box(tmp_path / "j.sqlite", settings)  # the power came back: blue is still the box's
    box.press("ok")
    resumed = box.kiosk.game
    assert resumed is not None and resumed.setup.bots == {"blue": "easy"}
    assert resumed.state.offer == offer  # the open cards are in the record too
    played = sum(getattr(c, "player", None) == "blue" for c in resumed.log)
    for _ in range(30):
        if resumed.state.current.colour != "blue" or resumed.state.finished:
            break
        lay_out(box)  # a person refills the offer after the bot's take
        box.later(2.0)  # blue's turn may still be running: the resumed table's bot plays it
    box.kiosk.playing.controller._push(Pass("red"))  # type: ignore[union-attr]
    box.later(2.0)
    assert sum(getattr(c, "player", None) == "blue" for c in resumed.log) > played  # the bot plays on
    # From its first ask the seat remembered the resumed game's states (a hard bot: its turn so far,
    # no step back to a position of it); a box that forgot would have started it with none.
    states = resumed.recent(10_000)
    assert remembered and len(remembered[0]) > 1
    assert all(any(s is t for t in states) for s in remembered[0])
    box.close()


def test_the_rules_in_sixty_seconds_are_pictures_drawn_by_the_games_own_table_and_screen(tmp_path: Path) -> None:
    from companion import games
    from companion.journal import JournalStore
    from companion.kiosk import Kiosk
    from companion.kiosk.attract import PAGE_STEPS, TUTORIAL_EVERY
    from tests.kiosk.conftest import TAGS

    for name in ("on-the-way", "auf-achse"):  # each game's moments reach its own table
        pages = games.get(name).tutorial("en")
        assert len(pages) == 3, name
        assert pages[0].ui.hints  # lift a marker / the rolled die: the lit places
        assert any("took" in p.ui.message or "auctions" in p.ui.message for p in pages)  # a scanned card
        assert any(p.ui.message and ("+" in p.ui.message or "fulfilled" in p.ui.message) for p in pages)
    assert games.get("on-the-way").tutorial("de")[0].caption.startswith("Marker anheben")

    pygame.display.init()
    pygame.font.init()
    settings = KioskSettings(pin="2468", games=("on-the-way",), replay_step_s=1.0)
    kiosk = Kiosk(JournalStore.open(tmp_path / "j.sqlite"), TAGS, now=0.0, settings=settings)
    screen = KioskScreen(pygame.Surface((800, 480)), clock=FakeClock())
    now, seen = 0.0, []
    for _ in range(TUTORIAL_EVERY + 3 * PAGE_STEPS + 2):
        kiosk.tick(now)
        scene = kiosk.view.scene
        assert scene is not None
        seen.append(scene.tutorial)
        if scene.tutorial and scene.ui.hints and not any(seen[:-1]):
            screen.render(kiosk.view, None)
            save_png(screen.surface, str(OUT / "kiosk-attract-tutorial.png"))
            assert screen.record.regions.get("map") and scene.ui.prompt.startswith("Lift a marker")
        now += 1.0
    assert seen.count(True) == 3 * PAGE_STEPS  # three pictures, each for PAGE_STEPS steps
    assert seen[TUTORIAL_EVERY] is True and seen[-1] is False  # after the replay, then the replay again
    kiosk.close()


def test_a_box_seat_plays_at_the_nearest_level_the_game_has(tmp_path: Path) -> None:
    settings = KioskSettings(pin="2468", games=("auf-achse",), replay_step_s=0.0, bot_level="hard")
    box = Box(tmp_path / "j.sqlite", settings)
    box.press("ok", "ok")  # new game, 2 players
    box.press("ok")  # red: a person
    box.press(*["plus"] * box.view.options.index("Blue — the box plays"), "ok")  # blue: the box
    while box.kiosk.game is None:
        box.press("ok")
    assert box.kiosk.game.setup.bots == {"blue": "hard"}  # Auf Achse has a hard level now (docs/bots-auf-achse.md)
    box.close()
