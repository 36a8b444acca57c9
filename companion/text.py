"""Names and ids that people type, print or see on a screen: one check for all of them.

A name that reaches a screen, a log line, a file name or a topic must be text a person can read and
type: no control characters (NUL, newline, escape), no invisible format characters (zero-width
spaces and joiners, bidi overrides and isolates that reorder what is shown), no surrogates, private
use or unassigned code points, and a bounded length. ``text_problem`` says what is wrong (None: it is
fine); ``printable`` makes any text safe to draw or print (for text that comes from outside and is
shown anyway, e.g. a broker message).
"""

from __future__ import annotations

import unicodedata

# Unicode general categories a name may not hold: Cc control, Cf format (zero-width, bidi), Cs
# surrogate, Co private use, Cn unassigned, Zl/Zp line and paragraph separators.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
MAX_NAME = 200  # a printed card, city or reader name is far shorter


def bad_character(text: str) -> str | None:
    """The first character a name may not hold, as ``U+200B (ZERO WIDTH SPACE)``; None: none."""
    for char in text:
        if unicodedata.category(char) in REFUSED_CATEGORIES:
            name = unicodedata.name(char, "a control or unassigned character")
            return f"U+{ord(char):04X} ({name})"
    return None


def text_problem(value: object, *, limit: int = MAX_NAME, what: str = "a name") -> str | None:
    """Why ``value`` cannot be ``what`` (None: it can): not a string, empty, too long, or holding a
    character that cannot be shown or typed."""
    if not isinstance(value, str):
        return f"{what} must be text, not {type(value).__name__}"
    if not value.strip():
        return f"{what} must not be empty"
    if len(value) > limit:
        return f"{what} must be at most {limit} characters, not {len(value)}"
    bad = bad_character(value)
    if bad is not None:
        return f"{what} must not hold {bad}: it cannot be shown or typed"
    return None


def printable(text: str, limit: int = MAX_NAME) -> str:
    """``text`` with every refused character replaced by U+FFFD and cut to ``limit`` characters
    (an ellipsis marks the cut): safe to draw, whatever it held."""
    cut = text if len(text) <= limit else text[: max(limit - 1, 0)] + "…"
    return "".join("\ufffd" if unicodedata.category(c) in REFUSED_CATEGORIES else c for c in cut)


def shown(value: object, limit: int = 60) -> str:
    """``repr(value)`` for a message, cut short: a 1 MB string does not belong in a report line."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
