"""The layout check with generated worst-case names (tests/i18n/worst_names.py): both games on their
reference data with every city name and card id as long as the data validator accepts (200
characters of wide glyphs, no space to wrap at), played into the text-heaviest states of the
layout check: every prompt of On The Way that names a city or a card (lifted, refusal, choosing a
city, an event, forming, putting back, laying out the offer, the advisor's own advice), 4 players
with full hands and transports out, a long advice sentence in the feed; Auf Achse's set-up, move,
auction and end of game, 6 players with loaded cargo and debts, a truck on a road space (named by its
two cities); and the end-of-game picture of both games. Each frame is measured in every language at
every size (companion.display.measure): a long name may be abbreviated, but only with meaning
(:func:`companion.display.names.fit_name`: both ends kept, the cut marked), never cut by a panel's
edge, never overlapping. Screenshots at 800×480: tests/output/i18n/worst_<language>_<state>.png."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pygame
import pytest

import tests.i18n.test_overflow as overflow
import tests.table.conftest as otw_table
import tests.table_aa.conftest as aa_table
from companion.data.fields import MAX_TEXT
from companion.games.on_the_way.data import DataFileError, load_board
from companion.games.on_the_way.screen.render import render as render_otw
from companion.table.messages import LANGUAGES
from tests.i18n.conftest import save
from tests.i18n.test_layout import ADVICE, SIZES, Frame, _otw, aa_frames, check
from tests.i18n.worst_names import Names, aa_worst, otw_worst

# The text-heaviest of test_overflow's moments (the others show the same panels and map under a
# prompt that names no city): the ones whose prompt, refusal or feed names a city or a card.
OTW_MOMENTS = {"otw_lifted", "otw_refusal", "otw_select_city", "otw_event_due", "otw_advice"}


@pytest.fixture(scope="module")
def worst(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out: Path = tmp_path_factory.mktemp("worst_names")
    return {"otw": otw_worst(out / "otw"), "aa": aa_worst(out / "aa"), "otw_dir": out / "otw"}


def _renaming(base: type, names: Names) -> type:
    """``base`` (a test table) with every name in its position text and its actions rewritten."""

    class Renaming(base):  # type: ignore[valid-type,misc]
        def __init__(self, text: str | None = None, *args: Any, **kwargs: Any) -> None:
            super().__init__(None if text is None else names.rewrite(text), *args, **kwargs)

        def place(self, colour: str, *args: Any, **kwargs: Any) -> None:
            super().place(colour, *(names.rewrite(a) if isinstance(a, str) else a for a in args), **kwargs)

        def lift(self, colour: str, *args: Any) -> None:
            super().lift(colour, *(names.rewrite(a) if isinstance(a, str) else a for a in args))

        def move(self, colour: str, *args: Any) -> None:
            super().move(colour, *(names.rewrite(a) if isinstance(a, str) else a for a in args))

        def scan(self, card: str) -> None:
            super().scan(names.rewrite(card))

        def tap(self, space: str) -> None:
            super().tap(names.rewrite(space))

    return Renaming


def worst_frames(language: str, worst: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> Iterator[Frame]:
    board, deck, names = worst["otw"]
    monkeypatch.setattr(otw_table, "BOARD", board)
    monkeypatch.setattr(otw_table, "DECK", deck)
    table = _renaming(otw_table.Table, names)
    monkeypatch.setattr(overflow, "Table", table)
    for name, t in overflow.otw_moments(language):
        if name in OTW_MOMENTS:
            yield _otw(f"worst_{name}", t)
    t = table(
        "red 5000R B01,B02,B03,B04,B05 1:Poznań:2:B01 2:Kaunas:1\nblue 2500R B06,B07,B08 1:Warsaw:1\n"
        "green 1200R B09,B10 1:Lviv:1\nyellow 800R B11,B12\ncities Warsaw=W2 Kaunas=L1",
        colours=("red", "blue", "green", "yellow"),
        language=language,
    )
    advice = names.rewrite(ADVICE)  # 4 players, full hands, transports out, and a long advice naming cities
    ui = replace(t.ui, message=advice)
    yield replace(_otw("worst_otw_4p_advice", t), draw=lambda s: render_otw(s, t.state, ui, t.ctl.led_frame), ui=ui)

    board, deck, names = worst["aa"]
    monkeypatch.setattr(aa_table, "BOARD", board)
    monkeypatch.setattr(aa_table, "DECK", deck)
    monkeypatch.setattr(aa_table, "CARD_IDS", [c.id for c in deck.contracts] + [a.id for a in deck.actions])
    aa = _renaming(aa_table.AATable, names)
    yield from aa_frames(language, monkeypatch, table=aa, prefix="worst_", menu=False)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_longest_names_fit_every_table_screen(
    language: str, worst: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    frames = list(worst_frames(language, worst, monkeypatch))
    problems: list[str] = []
    for size in SIZES:
        surface = pygame.Surface(size)
        for frame in frames:
            problems += [f"{language} {size[0]}x{size[1]} {frame.state}: {v}" for v in check(frame, surface)]
            if size == SIZES[0]:
                save(surface, f"worst_{language}_{frame.state}")
    assert len(frames) == len(OTW_MOMENTS) + 6
    assert not problems, f"{len(problems)} problems in {len(frames) * len(SIZES)} frames:\n" + "\n".join(problems[:60])


def test_the_worst_names_are_the_longest_the_validator_accepts(worst: dict[str, Any]) -> None:
    """Loaded by the games' own loaders (they raise on anything the validator refuses), every city
    and card id as long as allowed, with no space to break at; one character more is refused."""
    otw_board, otw_deck, _ = worst["otw"]
    aa_board, aa_deck, _ = worst["aa"]
    names = [*otw_board.names, *aa_board.cities, *(c.id for c in (*otw_deck.contracts, *aa_deck.contracts))]
    assert len(names) > 150 and all(len(n) == MAX_TEXT and " " not in n for n in names)
    path = Path(worst["otw_dir"]) / "on-the-way.board.toml"
    path.write_text(path.read_text(encoding="utf-8").replace(otw_board.names[0], otw_board.names[0] + "W"), "utf-8")
    with pytest.raises(DataFileError, match=f"cities\\[1\\].name: must be at most {MAX_TEXT} characters"):
        load_board(path)
