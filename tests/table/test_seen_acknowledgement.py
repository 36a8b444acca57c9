"""Feedback a person can feel (issue 19, §7): every game's table lights a city SEEN the moment the
readers report a marker there, keeps the 0.35 s settle before the move counts, and drops the
acknowledgement once the placement settled or the marker left. One mechanism (TableBase), every game."""

from __future__ import annotations

import pytest

from companion import games
from companion.games.setup import GameSetup
from companion.intents import TagLifted, TagPlaced
from companion.ledframe import CityLight, LedFrame
from companion.table.base import SETTLE_S
from companion.table.tags import MarkerTag, TagDirectory


class RecordingLeds:
    def __init__(self) -> None:
        self.frames: list[tuple[float, LedFrame]] = []

    def show(self, frame: LedFrame, now: float) -> None:
        self.frames.append((now, frame))


@pytest.mark.parametrize("name", games.names())
def test_a_placement_is_acknowledged_at_once_and_counts_after_the_settle(name: str) -> None:
    plugin = games.get(name)
    colours = plugin.colours[:2]
    game = plugin.new_game(GameSetup(name, colours))
    tags = TagDirectory.simulated(colours, plugin.card_ids())
    leds = RecordingLeds()
    table = plugin.table(game, tags, leds=leds)
    city = sorted(plugin.neighbours())[0]
    uid = tags.uid_of(MarkerTag(colours[0], 1))
    assert uid is not None
    depth = table.game.depth
    table.handle(TagPlaced(city, uid), 10.0)
    shown_at, frame = leds.frames[-1]  # written to the LEDs by the intent itself, not at the next tick
    assert shown_at == 10.0 and frame.city(city) is CityLight.SEEN
    assert table.game.depth == depth  # seen, not yet a move
    table.tick(10.0 + SETTLE_S / 2)
    assert table.led_frame.city(city) is CityLight.SEEN
    table.tick(10.0 + SETTLE_S + 0.01)
    assert table.led_frame.city(city) is not CityLight.SEEN  # settled: the game's own light again
    # a marker that slides off before it settles: the acknowledgement goes with it
    other = sorted(plugin.neighbours())[1]
    uid2 = tags.uid_of(MarkerTag(colours[1], 1))
    assert uid2 is not None
    table.handle(TagPlaced(other, uid2), 20.0)
    assert table.led_frame.city(other) is CityLight.SEEN
    table.handle(TagLifted(other, uid2), 20.1)
    assert table.led_frame.city(other) is not CityLight.SEEN


def test_acknowledging_replaces_a_citys_light_and_keeps_the_rest() -> None:
    frame = LedFrame.build({"Oss": CityLight.EXPECTED, "Riga": CityLight.HINT}, time=3, seat=1)
    seen = frame.acknowledging(["Oss", "Lviv"])
    assert seen == LedFrame.build(
        {"Oss": CityLight.SEEN, "Lviv": CityLight.SEEN, "Riga": CityLight.HINT}, time=3, seat=1
    )
    assert frame.acknowledging([]) is frame
