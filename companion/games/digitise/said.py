"""What the set-up wizard says, stored as a key and its values and put into words when shown.

The wizard's state is saved after every intent, so what it says must not depend on the language of
the moment: ``said("msg.road_added", n=3, a="Riga", b="Tartu")`` is a plain string (JSON-safe, saved
as it is) that ``companion.setup_box.words.Words.show`` turns into the sentence in the screen's
language. The wizard's own texts are ``wizard.<key>`` of ``companion/setup_box/messages``; a game's
own (its rulebook facts, its card checks, its choice values) are ``wizard.<key>`` of the game's
catalogue (``said_by(package, key, ...)``), so a game brings its words with it. A value may itself
be a said string (a choice value inside a sentence): it is put into words first.
"""

from __future__ import annotations

import json

MARK = "\u2063wizard:"  # an invisible separator starts a said string: no typed name or game text starts so
MESSAGES = "_messages"  # the value naming the catalogue (a game's package) of a game's own words


def said(key: str, **values: object) -> str:
    """``key`` (``wizard.<key>`` in the catalogue) with its ``values``, as a string to store."""
    return MARK + key + " " + json.dumps(values, ensure_ascii=False, sort_keys=True)


def said_by(package: str, key: str, **values: object) -> str:
    """A game's own words: ``wizard.<key>`` of the catalogue of ``package`` (the game's package)."""
    return said(key, **{MESSAGES: package}, **values)


def is_said(text: str) -> bool:
    return text.startswith(MARK)
