"""The screen layout holds every seat a game allows (Auf Achse: up to 6, AA-1) at every size."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from companion.display.layout import compute


@given(players=st.integers(1, 6), w=st.integers(800, 2560), h=st.integers(480, 1440))
def test_panels_fit_without_overlap(players: int, w: int, h: int) -> None:
    lay = compute((w, h), players)
    assert len(lay.players) == players
    screen = (0, 0, w, h)
    for i, panel in enumerate(lay.players):
        assert panel.w > 0 and panel.h > 0 and panel.colliderect(screen) and panel.clip(screen) == panel
        assert not panel.colliderect(lay.feed) and not panel.colliderect(lay.map) and not panel.colliderect(lay.prompt)
        assert all(not panel.colliderect(other) for other in lay.players[i + 1 :])
