"""Worst-case names for the layout check: the reference data of both games with every city name and
card id replaced by the longest the data validator accepts (``companion.data.fields.MAX_TEXT``
characters), in wide glyphs and without a space (so nothing can wrap them), and loaded through the
games' own loaders (so the validator accepts them: what is measured is what an owner can ship).

Half of the names keep what tells them apart at their start ("BREMENŴŴŴ…"), half at their end
("ŴŴŴ…POZNAŃ"), as real names do ("Frankfurt am Main", "Frankfurt (Oder)"): an abbreviation must keep
both ends to keep every one recognisable. Scenario texts (positions, card ids) are rewritten with
:func:`Names.rewrite`."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from companion.data.fields import MAX_TEXT
from companion.games.auf_achse.data import AA_ACTIONS, AA_BOARD, AA_CONTRACTS, load_aa_board, load_aa_deck
from companion.games.on_the_way.data import (
    REFERENCE_BOARD,
    REFERENCE_CONTRACTS,
    REFERENCE_EVENTS,
    load_board,
    load_deck,
)

WIDE = "ŴWĘMŚ"  # among the widest glyphs of DejaVu Sans, with the diacritics the boards use
_CITY = re.compile(r'^\[\[cities\]\]\s*\nname = "([^"]+)"', re.M)
_ID = re.compile(r'^id = "([^"]+)"', re.M)
_TEXT = re.compile(r'^text = "([^"]+)"', re.M)


def _letters(name: str) -> str:
    """The name in capitals without what the position notations use as separators ("-", " ")."""
    return "".join(c for c in unicodedata.normalize("NFC", name.upper()) if c.isalnum())


def long_name(short: str, n: int) -> str:
    """``short`` padded with wide glyphs to MAX_TEXT characters, at the end for even ``n``, at the
    start for odd."""
    fill = (WIDE * MAX_TEXT)[: MAX_TEXT - len(short)]
    return short + fill if n % 2 == 0 else fill + short


@dataclass(frozen=True)
class Names:
    """Reference name or id -> its worst case."""

    mapping: dict[str, str]

    def __getitem__(self, name: str) -> str:
        return self.mapping[name]

    def rewrite(self, text: str) -> str:
        """A scenario text (a position, an advice sentence) with every known name replaced."""
        pattern = "|".join(re.escape(k) for k in sorted(self.mapping, key=len, reverse=True))
        return re.sub(rf"(?<!\w)(?:{pattern})(?!\w)", lambda m: self.mapping[m.group(0)], text)


def _rename(files: dict[str, Path], out: Path, extra_text: str | None = None) -> tuple[Names, dict[str, Path]]:
    texts = {key: path.read_text(encoding="utf-8") for key, path in files.items()}
    cities = _CITY.findall(texts["board"])
    ids = [i for key, t in texts.items() if key != "board" for i in _ID.findall(t)]
    mapping = {c: long_name(_letters(c), n) for n, c in enumerate(cities)}
    mapping |= {i: long_name(i, n) for n, i in enumerate(ids)}
    written = {}
    for key, text in texts.items():
        for old, new in mapping.items():
            text = text.replace(f'"{old}"', f'"{new}"')
        if extra_text is not None:  # action-card texts: the longest accepted, in words (they may wrap)
            text = _TEXT.sub(lambda m: f'text = "{_words(m.group(1))}"', text)
        written[key] = out / files[key].name
        written[key].write_text(text, encoding="utf-8")
    return Names(mapping), written


def _words(text: str) -> str:
    padded = text
    while len(padded) < MAX_TEXT:
        padded += " " + "Ŵśmęw"
    return padded[:MAX_TEXT].rstrip()


def otw_worst(out: Path):  # type: ignore[no-untyped-def]
    """(board, deck, names) of On The Way with the longest names, loaded and checked by its loaders."""
    out.mkdir(parents=True, exist_ok=True)
    files = {"board": REFERENCE_BOARD, "contracts": REFERENCE_CONTRACTS, "events": REFERENCE_EVENTS}
    names, written = _rename(files, out)
    board = load_board(written["board"])
    return board, load_deck(written["contracts"], written["events"], board=board), names


def aa_worst(out: Path):  # type: ignore[no-untyped-def]
    """(board, deck, names) of Auf Achse with the longest names and action texts."""
    out.mkdir(parents=True, exist_ok=True)
    files = {"board": AA_BOARD, "contracts": AA_CONTRACTS, "actions": AA_ACTIONS}
    names, written = _rename(files, out, extra_text="")
    board = load_aa_board(written["board"])
    return board, load_aa_deck(written["contracts"], written["actions"], board=board), names


def worst_files(game: str, out: Path) -> tuple[dict[str, str | None], Names]:
    """The data files of ``game`` with the longest names (``new_game``'s ``files``: board, contracts,
    events), as :func:`otw_worst` / :func:`aa_worst` write them, and the names' mapping."""
    out.mkdir(parents=True, exist_ok=True)
    if game == "on-the-way":
        names, written = _rename({"board": REFERENCE_BOARD, "contracts": REFERENCE_CONTRACTS,
                                  "events": REFERENCE_EVENTS}, out)  # fmt: skip
        return {key: str(path) for key, path in written.items()}, names
    names, written = _rename({"board": AA_BOARD, "contracts": AA_CONTRACTS, "actions": AA_ACTIONS}, out, extra_text="")
    return {"board": str(written["board"]), "contracts": str(written["contracts"]),
            "events": str(written["actions"])}, names  # fmt: skip
