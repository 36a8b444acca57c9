"""``companion hardware test|calibrate`` and ``companion cards enroll`` against an emulated table."""

from __future__ import annotations

import argparse
import io
import queue
import random
from collections.abc import Callable
from pathlib import Path
from typing import TypedDict

from companion.cli.hardware import (
    calibrate,
    calibration_config,
    enroll,
    frames_to_walk,
    hardware_test,
    register,
)
from companion.hardware.config import load
from companion.hardware.emulated import EmulatedTable, config_for
from companion.hardware.emulated_mfrc522 import EmulatedTag
from companion.intents import Intent

CITIES = ["Bremen", "Poznań", "Vilnius", "Lviv", "Bratislava", "Mönchengladbach"]


class Clocked(TypedDict):
    clock: Callable[[], float]
    sleep: Callable[[float], None]


def clocked(table: EmulatedTable) -> Clocked:
    def sleep(dt: float) -> None:
        table.now += dt

    return {"clock": lambda: table.now, "sleep": sleep}


def test_hardware_test_lists_readers_walks_leds_and_shows_events() -> None:
    intents: queue.Queue[Intent] = queue.Queue()
    with EmulatedTable(CITIES, sink=intents.put, dead=["Lviv"]) as table:
        table.place_tag("Bremen", "04A1B2C3D4E5F6", settle=False)
        out = io.StringIO()
        hardware_test(table.rig, intents, table.config, out=out, led_step_s=0.05, seconds=1.0, **clocked(table))
    text = out.getvalue()
    assert "reader  3 Lviv: NOT ANSWERING" in text
    assert "reader  0 Bremen: answers (version 0x92)" in text
    assert "6 of 7 readers answer" in text
    assert text.count("\nLED ") + text.startswith("LED ") == len(frames_to_walk(table.config))
    assert "LED Mönchengladbach: expected (colour B, fast blink)" in text and "LED seat 3" in text
    assert "placed  Bremen: 04A1B2C3D4E5F6 (unknown tag)" in text


def test_calibrate_finds_each_city_on_its_reader() -> None:
    physical = list(range(len(CITIES)))
    random.Random(7).shuffle(physical)  # the cities were wired to channels in some unknown order
    where = dict(zip(CITIES, physical, strict=True))
    config = calibration_config(config_for(CITIES), range(len(CITIES) + 1))
    intents: queue.Queue[Intent] = queue.Queue()
    with EmulatedTable(config=config, sink=intents.put) as table:
        chips = table.bus.chips

        def hobbyist(action: str, city: str) -> None:
            if city not in where:
                return  # a city whose reader is missing: nobody can put a tag there
            if action == "place":
                chips[where[city]].place(EmulatedTag.from_hex("04A1B2C3D4E5F6"))
            else:
                chips[where[city]].tags.clear()

        out = io.StringIO()
        mapping = calibrate(
            table.rig,
            intents,
            [*CITIES, "Nowhere"],
            out=out,
            timeout_s=2.0,
            prompt=hobbyist,
            **clocked(table),
        )
    assert mapping == {channel: city for city, channel in where.items()}
    assert "no tag seen for Nowhere; skipped" in out.getvalue()


def test_enroll_names_and_saves_cards(tmp_path: Path) -> None:
    path = tmp_path / "box.toml"
    path.write_text(
        '[hardware]\nbackend = "emulated"\n\n[cards]\n04000000000001 = "otw-contract-7"\n', encoding="utf-8"
    )
    intents: queue.Queue[Intent] = queue.Queue()
    with EmulatedTable(["A"], sink=intents.put) as table:
        scans = iter(["04AAAAAAAAAAAA", "04BBBBBBBBBBBB"])
        answers = iter(["", "otw-event-1"])

        def ask(question: str) -> str:
            return next(answers)

        def sleep(dt: float) -> None:
            table.now += dt
            if table.chip("card").tags == [] and int(table.now * 20) % 20 == 0:
                uid = next(scans, None)
                if uid is not None:
                    table.chip("card").place(EmulatedTag.from_hex(uid))
            elif table.chip("card").tags and int(table.now * 20) % 20 == 10:
                table.chip("card").tags.clear()

        out = io.StringIO()
        got = enroll(table.rig, intents, path, out=out, ask=ask, clock=lambda: table.now, sleep=sleep, count=2)
    assert got == {"04AAAAAAAAAAAA": "otw-contract-8", "04BBBBBBBBBBBB": "otw-event-1"}
    assert load(path, env={}).cards == {"04000000000001": "otw-contract-7", **got}


def test_commands_register() -> None:
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["hardware", "calibrate", "--config", "x.toml", "--cities", "A,B"])
    assert args.cities == "A,B" and callable(args.handler)
    assert parser.parse_args(["cards", "enroll", "--config", "x.toml"]).handler.__name__ == "_run_enroll"


def test_crosstalk_step_reports_readers_that_see_a_neighbours_tag() -> None:
    from dataclasses import replace

    from companion.cli.hardware import crosstalk
    from companion.hardware.config import RfSettings

    cities = ["A", "B", "C"]
    adjacency = {"A": {"B"}, "B": {"A", "C"}, "C": {"B"}}
    reports = {}
    for rf_safe in (False, True):
        config = replace(config_for(cities), rf=RfSettings(rf_safe=rf_safe))
        intents: queue.Queue[Intent] = queue.Queue()
        with EmulatedTable(config=config, sink=intents.put, adjacency=adjacency) as table:
            table.couple("A", "B")
            table.couple("B", "C")

            def hobbyist(action: str, city: str, table: EmulatedTable = table) -> None:
                if action == "place":
                    table.chip(city).place(EmulatedTag.from_hex("04A1B2C3D4E5F6"))
                else:
                    table.chip(city).tags.clear()

            out = io.StringIO()
            reports[rf_safe] = crosstalk(
                table.rig, intents, cities, out=out, timeout_s=2.0, prompt=hobbyist, **clocked(table)
            )
    assert any(reports[False].values())  # always-on antennas: a neighbour reads the tag too
    assert reports[True] == {"A": set(), "B": set(), "C": set()}
