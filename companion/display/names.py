"""Names from an owner's data (city names, card ids: up to 200 characters, docs/data.md) fitted into
the room a screen has for them, abbreviated with meaning.

A name too wide for its line keeps both ends with an ellipsis in the middle ("Mönchen…bach",
"POZNAŃŴ…ĘMŚ"): real names tell each other apart at the start ("Frankfurt am Main") or at the end
("Frankfurt (Oder)"), so a cut at the end alone would make two of them look alike. Only the names
are shortened, never the words around them: a sentence from a catalogue ("Put red marker 1 back on
…") is translated to fit (tests/i18n) and is cut, and reported as cut, only when even its names at
their shortest do not make it fit. Every abbreviation is recorded (``DrawnText.abbreviated``) so the
layout check can see that it kept both ends and that no two names of a frame became the same text.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from functools import lru_cache

ELLIPSIS = "…"
MIN_KEEP = 2  # characters kept at each end: fewer does not say which name it was
Measure = Callable[[str], int]  # the width in pixels of a text in the font it will be drawn in


Rivals = tuple[tuple[int, int], ...]  # (common prefix, common suffix) with each other known name


def abbreviate(name: str, kept: int, rivals: Rivals = ()) -> str:
    """``name`` with ``kept`` of its characters, about half at the start and the rest at the end,
    split where no rival name has the same start and end (the abbreviation names one name only)."""
    if kept >= len(name):
        return name
    half = head = (kept + 1) // 2
    if any(p >= half and s >= kept - half for p, s in rivals):  # another name starts and ends alike
        splits = sorted(range(MIN_KEEP, kept - MIN_KEEP + 1), key=lambda h: (abs(h - half), -h))
        head = next((h for h in splits if not any(p >= h and s >= kept - h for p, s in rivals)), half)
    return name[:head] + ELLIPSIS + name[len(name) - (kept - head) :]


def fit_name(width_of: Measure, name: str, width: int, rivals: Rivals = ()) -> str | None:
    """The longest abbreviation of ``name`` at most ``width`` pixels wide; None when even the
    shortest (:data:`MIN_KEEP` characters at each end) is too wide."""
    if width_of(name) <= width:
        return name
    lo, hi = 2 * MIN_KEEP, len(name) - 1
    if hi < lo or width_of(abbreviate(name, lo, rivals)) > width:
        return None
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if width_of(abbreviate(name, mid, rivals)) <= width:
            lo = mid
        else:
            hi = mid - 1
    return abbreviate(name, lo, rivals)


class NameFitter:
    """Finds the known ``names`` in a text and shortens them until the text fits a width."""

    def __init__(self, names: Iterable[str]) -> None:
        self._names = tuple(names)  # compiled only when a text is too wide (rare): drawing stays cheap

    def distinct(self, name: str, shown: str) -> bool:
        """Whether the abbreviation ``shown`` of ``name`` stands for no other known name."""
        return names_one(name, shown, self._names)

    def cap(self, width_of: Measure, text: str, width: int) -> tuple[str, tuple[tuple[str, str], ...]]:
        """``text`` with every known name wider than ``width`` abbreviated to it (to wrap a long
        text into fewer lines), and the abbreviations made."""
        made: list[tuple[str, str]] = []

        def shorten(match: re.Match[str]) -> str:
            name = match.group(0)
            shown = fit_name(width_of, name, width, _rivals(name, self._names)) or name
            if shown != name:
                made.append((name, shown))
            return shown

        pattern = self._pattern
        return (text if pattern is None else pattern.sub(shorten, text)), tuple(made)

    @property
    def _pattern(self) -> re.Pattern[str] | None:
        return _pattern_of(self._names)

    def fit(self, width_of: Measure, text: str, width: int) -> tuple[str, tuple[tuple[str, str], ...]] | None:
        """``text`` with its names abbreviated so it is at most ``width`` pixels wide, and the
        abbreviations made (full name, shown); None when it cannot be done by shortening names."""
        if self._pattern is None:
            return None
        pieces: list[str] = []  # text, name, text, name, ..., text
        last = 0
        for match in self._pattern.finditer(text):
            pieces += [text[last : match.start()], match.group(0)]
            last = match.end()
        pieces.append(text[last:])
        names = pieces[1::2]
        if not names:
            return None
        room = width - width_of("".join(pieces[0::2]))
        for slack in (0, 2, 4, 8, 16):  # the pieces' widths do not add up exactly (kerning): a few tries
            shares = _shares([width_of(n) for n in names], room - slack)
            shown = [fit_name(width_of, n, w, _rivals(n, self._names)) for n, w in zip(names, shares, strict=True)]
            if any(s is None for s in shown):
                return None
            result = "".join(p if i % 2 == 0 else shown[i // 2] or "" for i, p in enumerate(pieces))
            if width_of(result) <= width:
                made = tuple((n, s) for n, s in zip(names, shown, strict=True) if s is not None and s != n)
                return result, made
        return None


@lru_cache(maxsize=4096)
def _rivals(name: str, names: tuple[str, ...]) -> Rivals:
    """How far each other known name agrees with ``name`` from the start and from the end; only the
    pairs no other pair covers (the rest cannot make a split ambiguous on their own)."""
    pairs = set()
    for other in names:
        if other != name:
            prefix = len(os.path.commonprefix([name, other]))  # noqa: RUF071 (characters, not paths)
            suffix = len(os.path.commonprefix([name[::-1], other[::-1]]))  # noqa: RUF071
            if prefix or suffix:
                pairs.add((prefix, suffix))
    return tuple(p for p in pairs if not any(q != p and q[0] >= p[0] and q[1] >= p[1] for q in pairs))


@lru_cache(maxsize=8)
def _pattern_of(names: tuple[str, ...]) -> re.Pattern[str] | None:
    """Longest first: "Frankfurt (Oder)" is found whole, not as "Frankfurt"."""
    known = sorted({n for n in names if len(n) > 2 * MIN_KEEP + 1}, key=len, reverse=True)
    return re.compile("|".join(re.escape(n) for n in known)) if known else None


def names_one(name: str, shown: str, names: tuple[str, ...]) -> bool:
    """Whether ``shown`` (``name`` abbreviated) could stand for no other of ``names``."""
    head, gap, tail = shown.partition(ELLIPSIS)
    return not gap or not any(p >= len(head) and s >= len(tail) for p, s in _rivals(name, names))


def _shares(widths: list[int], room: int) -> list[int]:
    """Room for each name: the narrow ones keep their width, the wide ones share what is left equally."""
    order = sorted(range(len(widths)), key=lambda i: widths[i])
    shares = [0] * len(widths)
    left, count = room, len(widths)
    for i in order:
        share = left // count if count else 0
        shares[i] = min(widths[i], share)
        left -= shares[i]
        count -= 1
    return shares
