"""The layout check finds what it must (each kind of fault drawn on purpose) and nothing in a frame
that fits: an instrument that cannot fail proves nothing."""

from __future__ import annotations

import pygame

from companion.display import fonts
from companion.display.measure import MIN_TEXT_PX, violations
from companion.display.record import Canvas, FrameRecord


def _canvas(size: tuple[int, int] = (400, 200)) -> Canvas:
    return Canvas(pygame.Surface(size), FrameRecord(size))


def kinds(canvas: Canvas, rendered: list[tuple[str, int]] | None = None) -> list[str]:
    return [v.kind for v in violations(canvas.record, rendered=rendered)]


def test_a_frame_that_fits_has_no_violation() -> None:
    c = _canvas()
    with fonts.traced() as rendered:
        with c.box(pygame.Rect(10, 10, 200, 60), "panel"):
            c.text("Red", (15, 15), 14)
            c.text("5 000 R", (15, 40), 12)
        with c.box(pygame.Rect(220, 10, 150, 60), "panel"):
            c.text("Blue", (225, 15), 14)
    assert kinds(c, rendered) == []


def test_text_leaving_its_box_or_the_screen_is_found() -> None:
    c = _canvas()
    with c.box(pygame.Rect(10, 10, 60, 30), "chip"):
        c.text("Other seats: the box (medium)", (12, 12), 14)
    assert "outside" in kinds(c)
    c = _canvas()
    c.text("off the edge", (380, 100), 14)
    assert "outside" in kinds(c)


def test_overlapping_siblings_are_found_and_a_covering_box_hides_what_it_covers() -> None:
    c = _canvas()
    c.text("Hamburg", (50, 50), 14)
    c.text("Bremen", (60, 52), 14)
    assert kinds(c) == ["overlap"]
    c = _canvas()
    with c.box(pygame.Rect(0, 0, 300, 200), "map"):
        c.text("Hamburg", (50, 50), 14)
        with c.box(pygame.Rect(40, 40, 200, 100), "ranking", cover=True):
            c.text("Red wins!", (60, 60), 14)
    assert kinds(c) == [] and [t.text for t in c.record.hidden] == ["Hamburg"]


def test_cut_and_small_text_are_found() -> None:
    c = _canvas()
    c.text("Cluj-Napoca → Bucharest", (10, 10), 14, max_width=60)
    assert kinds(c) == ["cut"]
    c = _canvas()
    c.text("tiny", (10, 10), MIN_TEXT_PX - 1)
    assert kinds(c) == ["small"]


def test_text_rendered_past_the_recording_layer_is_found() -> None:
    c = _canvas()
    with fonts.traced() as rendered:
        c.text("recorded", (10, 10), 14)
        image = fonts.font(14).render("drawn behind the record's back", True, (255, 255, 255))
        c.surface.blit(image, (10, 50))
    assert kinds(c, rendered) == ["unrecorded"]
