"""The wizard fed by the hardware emulators (MFRC522 readers under the cities and the card reader,
gpiozero mock buttons, the 74HC595 LED chain): a small Auf Achse box traced with real debounced
reads gives the same data as the pure intents, and the LEDs confirm what the wizard sensed."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from companion import games
from companion.games.digitise.model import Step
from companion.hardware.emulated import EmulatedTable
from companion.intents import ButtonPressed, CardScanned, TagLifted, TagPlaced
from companion.ledframe import CityLight
from companion.setup_box.runner import WizardSession
from companion.setup_box.trace import owner_script
from companion.setup_box.writer import render
from tests.setup_box.conftest import normalised, reference

BOARD = """[board]
name = "a small box"
game = "auf-achse"

[[cities]]
name = "Hamburg"
x = 0.5
y = 0.1

[[cities]]
name = "Flensburg"
x = 0.45
y = 0.02

[[cities]]
name = "Bremen"
x = 0.4
y = 0.2

[[cities]]
name = "Hanover"
x = 0.5
y = 0.3

[[roads]]
between = ["Hamburg", "Flensburg"]
spaces = 1
signs = false

[[roads]]
between = ["Hamburg", "Bremen"]
spaces = 3
triangles = [2]

[[roads]]
between = ["Bremen", "Hanover"]
spaces = 2

[[roads]]
between = ["Hanover", "Hamburg"]
spaces = 4
triangles = [1, 4]
"""
CONTRACTS = """[[contracts]]
id = "C01"
from = "Flensburg"
to = "Hanover"
goods = 3
payout = 4500
costs = [500, 900, 1400, 1800, 2300]

[[contracts]]
id = "C02"
from = "Bremen"
to = "Hamburg"
goods = 6
payout = 5000
costs = [500, 1000, 1500, 2000, 2500]
"""
ACTIONS = """[[actions]]
id = "A01"
effect = "pay"
amount = 1500

[[actions]]
id = "A02"
effect = "miss_turns"
turns = 2

[[actions]]
id = "A03"
effect = "stau"
"""


def small_box(folder: Path) -> dict[str, Path]:
    files = {"board": folder / "b.toml", "contracts": folder / "c.toml", "events": folder / "a.toml"}
    for role, text in (("board", BOARD), ("contracts", CONTRACTS), ("events", ACTIONS)):
        files[role].write_text(text, encoding="utf-8")
    problems = games.get("auf-achse").check_files(list(files.values())).problems
    # A box this small is well formed but too small to play (AA-4 deals more contracts than it has):
    # the only problems are the deck sizes per player count.
    assert all("AA-4 deals" in p for p in problems), problems
    return files


def test_a_small_box_traced_through_the_hardware_emulators(tmp_path: Path) -> None:
    files = small_box(tmp_path)
    script, expected = owner_script("auf-achse", files)
    readers = [f"channel {n}" for n in range(4)]
    session = WizardSession(tmp_path / "state", "auf-achse", "a small box", candidates=expected.candidates)
    lit_after_road = None
    with EmulatedTable(readers) as table:
        for intent in script:
            match intent:
                case TagPlaced(reader, uid):
                    table.place_tag(reader, uid)
                    table.lift_tag(reader)
                case CardScanned(uid):
                    table.scan_card(uid)
                case ButtonPressed(button, long):
                    table.press(button, long)
                case _:  # a touch, a drag, typed text: the screen's, not the emulated hardware's
                    session.handle(intent)
                    continue
            sensed = [i for i in table.intents() if not isinstance(i, TagLifted)]
            assert sensed == [intent], (intent, sensed)
            before = len(session.state.roads)
            session.handle(sensed[0])
            table.show(session.reader_leds())
            if len(session.state.roads) > before and lit_after_road is None:
                lit_after_road = (session.state.roads[-1], table.decoded_leds())
    # The box is too small to play (see small_box): saving stops at the check with the deck sizes only;
    # everything entered through the emulated hardware equals the pure replay.
    got = session.state
    assert got.step is Step.CHECK and got.problems and all("AA-4 deals" in p for p in got.problems), got.problems
    assert replace(got, step=expected.step, seq=expected.seq, problems=expected.problems,
                   message=expected.message) == expected  # fmt: skip
    assert lit_after_road is not None
    road, frame = lit_after_road
    by_city = {city: reader for reader, city in session.state.readers}
    assert frame.city(by_city[road.a]) is CityLight.EXPECTED and frame.city(by_city[road.b]) is CityLight.EXPECTED
    out = tmp_path / "out"
    out.mkdir()
    for name, text in render(session.state).items():
        (out / name).write_text(text, encoding="utf-8")
    names = {role: path.name for role, path in reference("auf-achse").items()}
    assert normalised({role: out / n for role, n in names.items()}) == normalised(files)
    assert session.saved is None  # not saved as a data set: its decks cannot be dealt (AA-4)
