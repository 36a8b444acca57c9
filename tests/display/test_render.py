"""The screen as a pure function: key moments rendered headless, saved as PNGs, and checked for content."""

from __future__ import annotations

import pygame
import pytest

from companion import games
from companion.display import fonts, theme
from companion.display import render_to_surface as render_screen
from companion.ledframe import CityLight
from companion.table.ui import UiModel
from tests.display import scenes
from tests.display.conftest import SIZES, save

SCENES = [scenes.setup, scenes.lifted, scenes.refusal, scenes.jam, scenes.game_over, scenes.with_undo]

SCREEN = games.get("on-the-way").screen()


def render_to_surface(state, ui, leds, size, *, now=0.0):  # type: ignore[no-untyped-def]
    return render_screen(SCREEN, state, ui, leds, size, now=now)


def needs_animation(state, ui, leds) -> bool:  # type: ignore[no-untyped-def]
    return SCREEN.needs_animation(state, ui, leds)


def _inside(rect: tuple[int, int, int, int], size: tuple[int, int]) -> bool:
    x, y, w, h = rect
    return x >= 0 and y >= 0 and x + w <= size[0] and y + h <= size[1]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("make", SCENES, ids=lambda f: f.__name__)
def test_every_scene_renders_inside_the_window_without_overlapping_text(make, size) -> None:  # type: ignore[no-untyped-def]
    scene = make()
    surface, record = render_to_surface(scene.state, scene.ui, scene.leds, size)
    save(surface, f"{scene.name}_{size[0]}x{size[1]}")
    assert record.texts
    for text in record.texts:
        assert _inside(text.rect, size), f"{text.text!r} at {text.rect} leaves the {size} window"
    # No two texts may overlap (labels, panels, feed, prompt): overlapping text is unreadable.
    rects = [pygame.Rect(t.rect) for t in record.texts]
    for i, a in enumerate(rects):
        for j in a.collidelistall(rects[i + 1 :]):
            b = record.texts[i + 1 + j]
            clip = a.clip(rects[i + 1 + j])
            assert clip.w * clip.h <= 4, f"{record.texts[i].text!r} overlaps {b.text!r}"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_setup_shows_money_time_end_and_the_starting_network(size) -> None:  # type: ignore[no-untyped-def]
    scene = scenes.setup()
    _, record = render_to_surface(scene.state, scene.ui, scene.leds, size)
    assert record.roles("money") == ["1 000 R", "1 000 R"]
    assert record.has("end 14", "time_end")
    assert record.has("strip 0/3", "strip")
    assert record.has("Red", "turn") and record.has("2 steps left", "steps")
    assert record.has("+1 000 R Red — starting money", "ledger")
    assert set(scene.state.board.setup[2]) <= set(record.cities)
    assert record.clipped == [] if size == (1920, 1080) else True


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_lifted_marker_lights_its_hints_like_the_leds(size) -> None:  # type: ignore[no-untyped-def]
    scene = scenes.lifted()
    surface, record = render_to_surface(scene.state, scene.ui, scene.leds, size, now=0.0)
    for city in scene.ui.hints:
        assert record.rings[city] is CityLight.HINT
        x, y, r = record.cities[city]
        # The HINT ring is drawn at the city radius (r includes the ring): look on the ring, left of the city.
        hits = [surface.get_at((x - d, y))[:3] for d in range(r - 4, r + 3)]
        assert theme.LIGHT_COLOURS[CityLight.HINT] in hits, f"no hint ring pixel at {city}: {hits}"
    assert record.rings["Poznań"] is CityLight.EXPECTED
    assert "Kaunas" not in record.rings
    assert record.has("R1 ×2", "transport") and record.has("R2 ×1", "transport")
    assert record.has("B01 Kaunas→Warsaw", "contract")
    for city in scene.ui.hints | {"Poznań"}:
        assert record.has(city, "city"), f"{city} matters now and must be labelled"


def test_refusal_names_the_rule_in_the_prompt_area() -> None:
    scene = scenes.refusal()
    surface, record = render_to_surface(scene.state, scene.ui, scene.leds, (800, 480))
    (refusal,) = record.find("OTW-18", "refusal")
    assert "Warsaw has 1 idle truck" in refusal.text
    assert pygame.Rect(record.regions["prompt"]).contains(pygame.Rect(refusal.rect))
    x, y, w, h = refusal.rect
    colours = {surface.get_at((x + i, y + h // 2))[:3] for i in range(w)}
    assert theme.REFUSAL in colours
    assert record.has("Red 1 moved Poznań → Warsaw", "message")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_traffic_jam_is_drawn_on_its_road_and_named_on_the_event(size) -> None:  # type: ignore[no-untyped-def]
    scene = scenes.jam()
    surface, record = render_to_surface(scene.state, scene.ui, scene.leds, size)
    assert record.has("traffic jam Warsaw–Lviv", "event")
    ax, ay, _ = record.cities["Warsaw"]
    bx, by, _ = record.cities["Lviv"]
    along = [surface.get_at((ax + (bx - ax) * k // 20, ay + (by - ay) * k // 20))[:3] for k in range(4, 17)]
    assert along.count(theme.JAM) >= len(along) // 2, along
    assert len(record.roles("jam")) == 2
    assert record.roles("choice_selected") == ["Logistics centre 7 500 R"]
    assert record.rings["Kraków"] is CityLight.SELECTED


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_game_over_ranks_with_the_score_breakdown(size) -> None:  # type: ignore[no-untyped-def]
    scene = scenes.game_over()
    _, record = render_to_surface(scene.state, scene.ui, scene.leds, size)
    assert record.has("Green wins!", "ranking_title")
    rows = record.roles("ranking")
    # place, name, score, VP tokens, VP from money, R — green 12 VP; then blue beats yellow and red on VP
    assert rows[:6] == ["1.", "Green", "12", "12", "0", "1 000 R"]
    assert rows[6:12] == ["2.", "Blue", "11", "8", "3", "9 500 R"]
    # yellow and red tie on score 11; yellow has more R (OTW-33)
    assert rows[12:14] == ["3.", "Yellow"] and rows[18:20] == ["4.", "Red"]
    for head in ("score", "VP tokens", "VP from R", "R (ties)"):
        assert record.has(head, "ranking_head")


def test_undo_shows_a_reversal_and_strikes_the_reversed_entry() -> None:
    scene = scenes.with_undo()
    surface, record = render_to_surface(scene.state, scene.ui, scene.leds, (1920, 1080))
    lines = record.roles("ledger")
    assert lines[0] == "↶ −1 500 R Red — undo: contract B01 Kaunas→Warsaw (#4)"
    assert lines[1] == "+1 500 R Red — contract B01 Kaunas→Warsaw"
    x, y, w, h = record.find("+1 500 R Red — contract B01", "ledger")[0].rect
    assert surface.get_at((x + w // 2, y + h // 2))[:3] == theme.TEXT_DIM  # struck through


def test_a_long_ledger_line_wraps_instead_of_losing_its_end() -> None:
    scene = scenes.with_undo()
    _, record = render_to_surface(scene.state, scene.ui, scene.leds, (800, 480))
    lines = record.roles("ledger")
    assert lines[0].startswith("↶ −1 500 R Red — undo:") and lines[1].endswith("(#4)")
    assert not any(t.endswith("…") for t in lines)


def test_city_names_with_diacritics_have_real_glyphs() -> None:
    font = fonts.font(20)
    tofu = pygame.image.tobytes(font.render("\U0010fffd", True, (255, 255, 255)), "RGBA")
    names = [c.name for c in scenes.reference_config().board.cities]
    letters = {ch for name in names for ch in name if not ch.isascii()} | set("↶✗▶→−…×·–")
    assert {"ń", "ö", "Ž", "ș"} <= letters
    for ch in letters:
        image = font.render(ch, True, (255, 255, 255))
        assert pygame.image.tobytes(image, "RGBA") != tofu, f"{ch!r} is missing from the shipped font"


def test_render_is_a_pure_function_of_its_inputs() -> None:
    scene = scenes.lifted()
    before = scene.state
    a, _ = render_to_surface(scene.state, scene.ui, scene.leds, (800, 480), now=0.1)
    b, _ = render_to_surface(scene.state, scene.ui, scene.leds, (800, 480), now=0.1)
    assert pygame.image.tobytes(a, "RGB") == pygame.image.tobytes(b, "RGB")
    assert scene.state is before and scene.state == before


def test_only_selected_or_expected_cities_need_animation() -> None:
    scene = scenes.setup()
    assert not needs_animation(scene.state, scene.ui, scene.leds)
    hint_only = UiModel(hints=frozenset({"Warsaw"}))
    assert not needs_animation(scene.state, hint_only, scenes.leds_for(scene.state, hint_only))
    assert needs_animation(scenes.lifted().state, scenes.lifted().ui, scenes.lifted().leds)  # Poznań expected


def test_selected_ring_blinks_with_the_clock() -> None:
    scene = scenes.jam()
    on, record = render_to_surface(scene.state, scene.ui, scene.leds, (800, 480), now=0.1)
    off, _ = render_to_surface(scene.state, scene.ui, scene.leds, (800, 480), now=0.6)
    x, y, r = record.cities["Kraków"]
    ring_x = x - r - round(3 * 800 / 800)
    assert on.get_at((ring_x, y)) != off.get_at((ring_x, y))


def test_colour_is_never_the_only_cue() -> None:
    styles = [theme.player_style(c, i) for i, c in enumerate(("red", "blue", "green", "yellow"))]
    assert len({s.letter for s in styles}) == 4
    assert len({s.pattern for s in styles}) == 4


def test_a_contract_offered_for_fulfilment_is_highlighted_in_its_panel() -> None:
    from dataclasses import replace

    from companion.table.ui import Mode

    scene = scenes.lifted()
    ui = replace(scene.ui, mode=Mode.CONFIRM, offer="B01", prompt="Fulfil B01 Kaunas→Warsaw for 1 500 R?")
    _, record = render_to_surface(scene.state, ui, scene.leds, (800, 480))
    assert record.roles("offer") == ["▶ B01 Kaunas→Warsaw  ×2  1 500 R"]
    assert not record.has("B01", "contract")
