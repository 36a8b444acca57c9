"""The layout check: what a frame record says was drawn, measured against where it had to stay.

A frame fails when a text's pixels leave its box or the screen, a text or box overlaps a sibling (a
text or box in the same box), a box leaves its parent, a text was cut (ellipsized), or a text is
smaller than :data:`MIN_TEXT_PX`. A name from the owner's data may be abbreviated
(:mod:`companion.display.names`), but only with meaning: both of its ends kept (at least
``MIN_KEEP`` characters each), the ellipsis marking the gap, and no two names of the frame drawn as
the same text ("ambiguous"). With ``rendered`` (from :func:`companion.display.fonts.traced`)
it also fails when a string was rendered that the record does not hold: text drawn past the
recording layer has no known rectangle, so it cannot be checked (the check would be fooled).

The minimum size: the 7" Raspberry Pi touchscreen shows 800×480 on a 154.08 × 85.92 mm active
area, a pixel pitch of 0.1926 mm (its datasheet). A 10-pixel DejaVu Sans has a cap height of 7 px
= 1.35 mm and an x-height of 5 px = 0.96 mm, about the cap height of 6-pt print, the smallest print
on game cards; from 40 cm (leaning over the box) a capital subtends 11.6 arc minutes, the low end
of what legibility guidance accepts for short labels read at a glance (continuous text wants 16'
and more: the prompts and panels use 11-17 px). Smaller is not read at the table, so 10 px is the
floor at 800×480; sizes only grow with the window.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import pygame

from companion.display.names import ELLIPSIS, MIN_KEEP
from companion.display.record import SCREEN, DrawnBox, DrawnText, FrameRecord

MIN_TEXT_PX = 10


@dataclass(frozen=True, slots=True)
class Violation:
    kind: str  # "outside" | "overlap" | "cut" | "small" | "unrecorded" | "abbreviated" | "ambiguous"
    what: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.what}"


def _r(rect: tuple[int, int, int, int]) -> pygame.Rect:
    return pygame.Rect(rect)


def _label(text: DrawnText) -> str:
    return f"{text.role} {text.text!r} at {text.ink}"


def violations(
    record: FrameRecord,
    *,
    min_px: int = MIN_TEXT_PX,
    rendered: list[tuple[str, int]] | None = None,
) -> list[Violation]:
    """Everything wrong with the frame ``record`` describes (an empty list: it fits)."""
    out: list[Violation] = []
    screen = pygame.Rect((0, 0), record.size)
    boxes: dict[str, DrawnBox] = {b.id: b for b in record.boxes}

    def area_of(box_id: str) -> pygame.Rect:
        return _r(boxes[box_id].rect) if box_id in boxes else screen

    def name_of(box_id: str) -> str:
        return f"{boxes[box_id].role} {boxes[box_id].rect}" if box_id in boxes else f"the screen {tuple(screen)}"

    inked = [t for t in record.texts if t.ink[2] > 0 and t.ink[3] > 0]
    for t in inked:
        ink = _r(t.ink)
        if not screen.contains(ink):
            out.append(Violation("outside", f"{_label(t)} runs off the screen"))
        elif not area_of(t.box).contains(ink):
            out.append(Violation("outside", f"{_label(t)} leaves its box, {name_of(t.box)}"))
        if t.full is not None:
            out.append(Violation("cut", f"{t.role} {t.full!r} drawn as {t.text!r}"))
        if t.size < min_px:
            out.append(Violation("small", f"{_label(t)} is {t.size} px (< {min_px} px)"))
    out += _abbreviation_violations(inked)
    for b in record.boxes:
        rect = _r(b.rect)
        if not area_of(b.parent).contains(rect):
            out.append(Violation("outside", f"{b.role} {b.rect} leaves {name_of(b.parent)}"))

    # Siblings: the texts and boxes drawn directly in the same box must not overlap.
    by_parent: dict[str, list[tuple[str, pygame.Rect]]] = {}
    for t in inked:
        by_parent.setdefault(t.box, []).append((_label(t), _r(t.ink)))
    for b in record.boxes:
        if not b.cover:
            by_parent.setdefault(b.parent, []).append((f"{b.role} {b.rect}", _r(b.rect)))
    for parent, members in by_parent.items():
        for i, (first_name, first) in enumerate(members):
            for second_name, second in members[i + 1 :]:
                if first.colliderect(second):
                    out.append(Violation("overlap", f"{first_name} overlaps {second_name} in {name_of(parent)}"))

    if rendered is not None:
        recorded = Counter(t.text for t in [*record.texts, *record.hidden])
        for text, _size in rendered:
            if text.strip() and recorded[text] == 0:
                out.append(Violation("unrecorded", f"{text!r} was rendered without a recorded rectangle"))
    return out


def _abbreviation_violations(texts: list[DrawnText]) -> list[Violation]:
    """An abbreviated name keeps both ends and is drawn; two names never look the same."""
    out = []
    shown_as: dict[str, set[str]] = {}
    for t in texts:
        for name, shown in t.abbreviated:
            head, gap, tail = shown.partition(ELLIPSIS)
            kept = gap and name.startswith(head) and name.endswith(tail) and min(len(head), len(tail)) >= MIN_KEEP
            if not kept or shown not in t.text:
                out.append(Violation("abbreviated", f"{t.role} {name[:40]!r}… drawn as {shown!r} in {t.text!r}"))
            shown_as.setdefault(shown, set()).add(name)
    for shown, names in shown_as.items():
        if len(names) > 1:
            listed = sorted(n[:30] for n in names)
            out.append(Violation("ambiguous", f"{len(names)} names drawn as {shown!r}: {listed}"))
    return out


__all__ = ["MIN_TEXT_PX", "SCREEN", "Violation", "violations"]
