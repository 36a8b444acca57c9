"""The Auf Achse screen: key moments rendered headless, saved as PNGs (tests/output/aa_*.png), and
checked for what is drawn (texts, colours at positions)."""

from __future__ import annotations

import pygame
import pytest

from companion import games
from companion.display import render_to_surface as render_screen
from companion.display import theme
from companion.games.auf_achse.screen.panels import HIGH_BID
from companion.ledframe import CityLight
from tests.display_aa import scenes
from tests.display_aa.conftest import SIZES, save

SCENES = [scenes.setup, scenes.move, scenes.auction, scenes.game_over]

SCREEN = games.get("auf-achse").screen()


def render_to_surface(state, ui, leds, size, *, now=0.0):  # type: ignore[no-untyped-def]
    return render_screen(SCREEN, state, ui, leds, size, now=now)


def needs_animation(state, ui, leds) -> bool:  # type: ignore[no-untyped-def]
    return SCREEN.needs_animation(state, ui, leds)


def _inside(rect: tuple[int, int, int, int], size: tuple[int, int]) -> bool:
    x, y, w, h = rect
    return x >= 0 and y >= 0 and x + w <= size[0] and y + h <= size[1]


@pytest.fixture(scope="module")
def built() -> dict[str, scenes.Scene]:
    return {make.__name__: make() for make in SCENES}


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", [m.__name__ for m in SCENES])
def test_every_scene_renders_inside_the_window_without_overlapping_text(built, name, size) -> None:  # type: ignore[no-untyped-def]
    scene = built[name]
    surface, record = render_to_surface(scene.state, scene.ui, scene.leds, size)
    save(surface, f"{scene.name}_{size[0]}x{size[1]}")
    assert record.texts
    for text in record.texts:
        assert _inside(text.rect, size), f"{text.text!r} at {text.rect} leaves the {size} window"
    rects = [pygame.Rect(t.rect) for t in record.texts]
    for i, a in enumerate(rects):
        for j in a.collidelistall(rects[i + 1 :]):
            clip = a.clip(rects[i + 1 + j])
            assert clip.w * clip.h <= 4, f"{record.texts[i].text!r} overlaps {record.texts[i + 1 + j].text!r}"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_auction_panel_shows_the_card_levels_high_bid_bidder_and_passes(built, size) -> None:  # type: ignore[no-untyped-def]
    scene = built["auction"]
    surface, record = render_to_surface(scene.state, scene.ui, scene.leds, size)
    assert record.has("Auction C10 Milan→Vienna", "auction_title")
    assert record.roles("level_amount") == ["700 DM", "1 400 DM", "2 100 DM", "2 800 DM", "3 500 DM"]
    assert record.has("high bid 700 DM (level 1) by Blue", "high_bid")  # players by name, as the table says
    assert record.has("Red to bid (card scanned)", "bidder")
    assert record.has("passed: Green", "still_in")  # green had no money: passed automatically
    assert record.has("still in: Blue (high bid), Red", "still_in")  # AA-19: who may still bid
    assert record.has("Red: bid level 3 (2 100 DM)?", "prompt")
    # The high bid's chip is filled green and marked ✓; the level being chosen is framed yellow.
    x, y, w, h = record.regions["level1"]
    assert surface.get_at((x + w // 2, y + h // 2 - 1))[:3] in {HIGH_BID, (0, 0, 0)}
    assert surface.get_at((x + 4, y + h // 2))[:3] == HIGH_BID
    assert record.has("1 ✓", "level")
    x, y, w, h = record.regions["level3"]
    assert surface.get_at((x + w // 2, y + 1))[:3] == theme.ACCENT
    # The face-up card on auction is framed in its slot in the top bar.
    assert record.find("Milan → Vienna", "public")
    # Money in DM, a debt shown as such.
    assert "6 500 DM" in record.roles("money") and record.has("debt −700 DM to Bank", "debt")
    # Signs on the map: roadworks and Stau by shape and text, not colour alone.
    assert record.roles("stau") == ["STAU"] and record.roles("roadworks") == ["⚒"]
    assert record.roles("truck")[:3] == ["R 3/10", "B 0/6", "G 0/6"]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_final_ranking_by_money_with_debts_subtracted(built, size) -> None:  # type: ignore[no-untyped-def]
    scene = built["game_over"]
    surface, record = render_to_surface(scene.state, scene.ui, scene.leds, size)
    assert record.has("Red wins!", "ranking_title")
    rows = record.roles("ranking")
    assert rows[:5] == ["1.", "Red", "22 500 DM", "—", "22 500 DM"]
    assert "3." in rows and "−1 200 DM" in rows and "7 800 DM" in rows
    assert record.has("AA-24", "ranking_note")
    x, y, w, h = record.regions["ranking"]
    assert surface.get_at((x + w // 2, y + h - 8))[:3] == theme.BACKGROUND  # the map is covered
    assert not record.find("Hamburg", "city")  # no map label peeks through the ranking
    assert record.has("Game over — Red wins", "prompt")


def test_setup_keeps_private_contracts_secret_on_the_shared_screen(built) -> None:  # type: ignore[no-untyped-def]
    scene = built["setup"]
    assert scene.state.players[0].hand == ("C01", "C02")
    _, record = render_to_surface(scene.state, scene.ui, scene.leds, (1920, 1080))
    assert not record.find("C01") and not record.find("C02")
    assert record.has("2 private", "cargo")
    assert record.has("Red: scan your 3 private contracts (2/3)", "prompt")


def test_move_rings_destinations_on_cities_and_plain_spaces_and_blinks_the_candidate(built) -> None:  # type: ignore[no-untyped-def]
    scene = built["move"]
    _, record = render_to_surface(scene.state, scene.ui, scene.leds, (1280, 800))
    for space in scene.ui.hints - {scene.ui.selected}:
        assert record.rings[space] is CityLight.HINT
    assert record.rings[scene.ui.selected] is CityLight.SELECTED
    assert any(not scene.state.board.is_city(s) for s in scene.ui.hints)  # plain spaces are ringed too
    assert needs_animation(scene.state, scene.ui, scene.leds)
    on, _ = render_to_surface(scene.state, scene.ui, scene.leds, (1280, 800), now=0.1)
    off, _ = render_to_surface(scene.state, scene.ui, scene.leds, (1280, 800), now=0.6)
    assert pygame.image.tobytes(on, "RGB") != pygame.image.tobytes(off, "RGB")


def test_idle_auf_achse_screen_does_not_animate(built) -> None:  # type: ignore[no-untyped-def]
    scene = built["auction"]
    assert not needs_animation(scene.state, scene.ui, scene.leds)
