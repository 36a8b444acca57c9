"""Long names from an owner's data abbreviated with meaning (companion.display.names): both ends kept,
never wider than the room, never like another known name when a longer split can tell them apart;
only the names are shortened (a too-long translation is still cut and reported); and the layout check
finds an abbreviation that lost an end or two names drawn alike."""

from __future__ import annotations

import pygame
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.display import fonts
from companion.display.measure import violations
from companion.display.names import ELLIPSIS, MIN_KEEP, NameFitter, fit_name
from companion.display.record import Canvas, DrawnText, FrameRecord

SIZE = 11
# Letters and digits of the scripts the boards use, wide and narrow: no spaces, nothing that wraps.
LETTER = st.characters(whitelist_categories=("Lu", "Ll", "Nd"), max_codepoint=0x024F)
NAME = st.text(LETTER, min_size=1, max_size=200)


def width_of(text: str) -> int:
    return int(fonts.font(SIZE).size(text)[0])


def keeps_both_ends(name: str, shown: str) -> bool:
    head, gap, tail = shown.partition(ELLIPSIS)
    return bool(gap) and name.startswith(head) and name.endswith(tail) and min(len(head), len(tail)) >= MIN_KEEP


@settings(max_examples=60, deadline=None)
@given(NAME, st.integers(20, 300))
def test_a_fitted_name_fits_and_keeps_both_ends(name: str, width: int) -> None:
    shown = fit_name(width_of, name, width)
    if width_of(name) <= width:
        assert shown == name
    elif shown is None:  # even the shortest abbreviation is wider: the caller cuts (and it is reported)
        assert len(name) <= 2 * MIN_KEEP or width_of(name[:MIN_KEEP] + ELLIPSIS + name[-MIN_KEEP:]) > width
    else:
        assert width_of(shown) <= width and keeps_both_ends(name, shown)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(LETTER, min_size=1, max_size=6), min_size=2, max_size=8, unique=True), st.integers(60, 160))
def test_an_abbreviation_stands_for_one_name_when_a_split_can_say_which(stems: list[str], width: int) -> None:
    """Names alike at both ends ("ŴŴ…Budapest", "ŴŴ…Bucharest"): the split moves towards the end
    that tells them apart, and when the fitter says an abbreviation is distinct, no other known name
    starts and ends with what it shows (checked here directly, not with the fitter's own tables)."""
    names = tuple("Ŵ" * 30 + stem + "W" * 30 for stem in stems) + tuple("Ŵ" * 30 + stem for stem in stems)
    fitter = NameFitter(names)
    for name in names:
        fitted = fitter.fit(width_of, name, width)
        if fitted is None:
            continue
        shown = fitted[0]
        head, _, tail = shown.partition(ELLIPSIS)
        alike = [o for o in names if o != name and o.startswith(head) and o.endswith(tail)]
        assert fitter.distinct(name, shown) == (not alike), (name, shown, alike)


def test_the_split_moves_to_the_end_that_tells_two_names_apart() -> None:
    """ "ŴŴŴŴ…furt" could be Erfurt or Frankfurt; with the same number of characters kept,
    "ŴŴŴ…rfurt" and "ŴŴŴ…kfurt" cannot."""
    names = ("Ŵ" * 40 + "Erfurt", "Ŵ" * 40 + "Frankfurt")
    fitter = NameFitter(names)
    kept_enough = 0
    for width in range(40, 200, 3):
        for name in names:
            fitted = fitter.fit(width_of, name, width)
            if fitted is not None and len(fitted[0]) - 1 >= MIN_KEEP + 5:  # room for "rfurt" / "kfurt"
                kept_enough += 1
                assert fitter.distinct(name, fitted[0]), fitted[0]
    assert kept_enough > 10


def test_a_sentence_keeps_its_words_and_abbreviates_only_the_name() -> None:
    name = "Ŵ" * 120 + "Poznań"
    c = Canvas(pygame.Surface((400, 100)), FrameRecord((400, 100)), (name, "Warsaw"))
    with fonts.traced() as rendered:
        c.text(f"Put red marker 1 back on {name}", (0, 0), 14, max_width=380)
    drawn = c.record.texts[0]
    assert drawn.text.startswith("Put red marker 1 back on Ŵ") and drawn.text.endswith("Poznań")
    assert drawn.full is None and [n for n, _ in drawn.abbreviated] == [name]
    assert violations(c.record, rendered=rendered) == []
    # A sentence too long without any name in it is still cut, and the check says so.
    c.text("Put red marker 1 back on the city that is lit, or press BACK to undo", (0, 40), 14, max_width=200)
    assert [v.kind for v in violations(c.record)] == ["cut"]


def test_a_name_too_long_for_any_line_is_wrapped_after_its_arrow_and_abbreviated() -> None:
    a, b = "Ŵ" * 150 + "Hamburg", "Bremen" + "W" * 150
    c = Canvas(pygame.Surface((300, 200)), FrameRecord((300, 200)), (a, b, "Ŵ" * 150 + "Flensburg"))
    end = c.paragraph(f"{a}→{b} (1.)", (0, 0), 13, 140, 18)
    texts = c.record.texts
    assert end == 36 and [t.text.endswith("→") for t in texts] == [True, False] and texts[1].text.endswith(" (1.)")
    assert all(width_of_at(t.text, 13) <= 140 for t in texts)
    assert [n for t in texts for n, _ in t.abbreviated] == [a, b]
    assert "MBURG".lower() in texts[0].text.lower()  # "…burg" alone would not say Hamburg or Flensburg
    assert violations(c.record) == []


def width_of_at(text: str, size: int) -> int:
    return int(fonts.font(size).size(text)[0])


def test_a_long_text_is_wrapped_into_the_lines_it_has_by_abbreviating_its_names_harder() -> None:
    names = tuple("Ŵ" * 100 + city for city in ("Gdańsk", "Kraków", "Łódź", "Warsaw"))
    c = Canvas(pygame.Surface((400, 200)), FrameRecord((400, 200)), names)
    text = f"take {names[0]}→{names[1]} and move R1 to {names[3]}, before the jam on {names[2]}–{names[1]} ends"
    assert len(c.lines(text, 12, 300)) > 3
    lines = c.lines(text, 12, 300, max_lines=3)
    assert len(lines) <= 3 and all(width_of_at(line, 12) <= 300 for line in lines)
    assert all(city in " ".join(lines) for city in ("ńsk", "ków", "ódź", "saw"))


def test_the_check_finds_an_abbreviation_without_meaning_and_two_names_drawn_alike() -> None:
    record = FrameRecord((400, 100))
    ink = (0, 0, 50, 10)
    lost_end = DrawnText("Ham…", (0, 0, 50, 12), "city", 12, ink, abbreviated=(("Hamburg-Altona", "Ham…"),))
    record.texts.append(lost_end)
    assert [v.kind for v in violations(record)] == ["abbreviated"]
    record = FrameRecord((400, 100))
    for i, name in enumerate(("Frankfurt am Main", "Frankfurt an der Main")):
        box = (0, 20 * i, 50, 12)
        record.texts.append(DrawnText("Fr…in", box, "city", 12, box, abbreviated=((name, "Fr…in"),)))
    assert [v.kind for v in violations(record)] == ["ambiguous"]
