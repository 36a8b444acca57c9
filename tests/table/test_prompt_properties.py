"""Hypothesis: random intents at a real table never raise, and the table only pushes what the engine's
``check`` accepts — or, should the engine refuse after all, shows that refusal with its rule id."""

from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine.errors import IllegalAction
from companion.engine.game import UndoCommand
from companion.games.on_the_way.engine.check import check
from companion.games.on_the_way.engine.state import GameState
from companion.games.on_the_way.table.controller import expected_markers
from companion.games.on_the_way.table.prompts import Confirm, Forming, GameOver, Idle, Lifted, Menu, SelectCity
from companion.intents import ButtonName, ButtonPressed, CardScanned, TagLifted, TagPlaced
from companion.table.tags import MarkerTag
from companion.table.ui import Mode

from .conftest import DECK, Table

START = """cities Warsaw=W2 Kaunas=W2 Łódź=W1
red 9000R B01 1:Warsaw:2:B01
blue 9000R 1:Poznań:1
time 0 strip=X01"""
CITIES = ("Poznań", "Warsaw", "Lviv", "Kaunas", "Łódź", "Berlin", "Vilnius", "Lublin")
CARDS = ("B01", "B03", "B04", *[c.id for c in DECK.contracts if c.origin in CITIES][:5], "E01", "E05", "E09", "E13")
MARKERS = tuple(MarkerTag(c, n) for c in ("red", "blue") for n in (1, 2))


@dataclass
class Pushes:
    """Every command the controller pushes, with the state it was pushed on and the refusal, if any."""

    log: list[tuple[GameState, object, IllegalAction | None]] = field(default_factory=list)


def recording(t: Table) -> Pushes:
    pushes = Pushes()
    game = t.ctl.game
    push = game.push

    def recorded(command: object) -> list[object]:
        before = game.state
        try:
            events = push(command)
        except IllegalAction as refusal:
            pushes.log.append((before, command, refusal))
            raise
        pushes.log.append((before, command, None))
        return events

    game.push = recorded  # type: ignore[method-assign]
    return pushes


move = st.tuples(st.just("move"), st.sampled_from(MARKERS), st.sampled_from(CITIES))
tidy = st.tuples(st.just("tidy"))
press = st.tuples(st.just("press"), st.sampled_from(ButtonName), st.booleans())
menu = st.tuples(st.just("menu"), st.integers(0, 5), st.integers(0, 3))  # MENU, PLUS×i, OK, PLUS×j, OK
intents = st.one_of(
    move,  # lift a marker where it stands and put it down elsewhere
    tidy,  # put the table right, as players do when asked
    press,
    st.tuples(st.just("place"), st.sampled_from(MARKERS), st.sampled_from(CITIES), st.booleans()),
    st.tuples(st.just("lift"), st.sampled_from(MARKERS), st.sampled_from(CITIES)),
    st.tuples(st.just("scan"), st.sampled_from(CARDS)),
    st.tuples(st.just("hold"), st.sampled_from(MARKERS)),  # a marker over the card reader
    st.tuples(st.just("tap"), st.sampled_from(CITIES)),
    st.tuples(st.just("wait"), st.floats(0.0, 1.0)),
    st.tuples(st.just("unknown"), st.sampled_from(CITIES)),
)
script = st.lists(st.one_of(move, tidy, press, menu, intents), min_size=10, max_size=80)


def drive(t: Table, intent: tuple[object, ...]) -> None:
    ctl = t.ctl
    match intent:
        case ("place", MarkerTag() as m, str(city), bool(settle)):
            ctl.handle(TagPlaced(city, t.uid(m.colour, m.number)), t.now)
            if settle:
                t.later()
        case ("lift", MarkerTag() as m, str(city)):
            sensed = ctl.sensed.get(t.uid(m.colour, m.number), city)  # lift it where it is, mostly
            ctl.handle(TagLifted(sensed, t.uid(m.colour, m.number)), t.now)
        case ("move", MarkerTag() as m, str(city)):
            uid = t.uid(m.colour, m.number)
            if uid in ctl.sensed:
                ctl.handle(TagLifted(ctl.sensed[uid], uid), t.now)
            ctl.handle(TagPlaced(city, uid), t.now)
            t.later()
        case ("tidy",):
            expected = expected_markers(t.state)
            for m in MARKERS:
                uid = t.uid(m.colour, m.number)
                where, want = ctl.sensed.get(uid), expected.get(m)
                if where is not None and where != want:
                    ctl.handle(TagLifted(where, uid), t.now)
                if want is not None and where != want:
                    t.place(m.colour, m.number, want)
        case ("menu", int(item), int(city)):
            for button in ("menu", *["plus"] * item, "ok", *["plus"] * city, "ok"):
                t.press(button)
        case ("scan", str(card)):
            t.scan(card)
        case ("hold", MarkerTag() as m):
            ctl.handle(CardScanned(t.uid(m.colour, m.number)), t.now)
        case ("press", ButtonName() as button, bool(long)):
            ctl.handle(ButtonPressed(button, long and button is not ButtonName.MENU), t.now)
        case ("tap", str(city)):
            t.tap(city)
        case ("wait", float(seconds)):
            t.later(seconds)
        case ("unknown", str(city)):
            ctl.handle(TagPlaced(city, "DEADBEEF"), t.now)
            t.later()
            ctl.handle(TagLifted(city, "DEADBEEF"), t.now)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(script=script, language=st.sampled_from(["en", "cs"]))
def test_random_intents_never_raise_and_every_push_is_checked_or_its_refusal_shown(
    script: list[tuple[object, ...]], language: str
) -> None:
    t = Table(START, language=language)
    pushes = recording(t)
    for intent in script:
        seen = len(pushes.log)
        drive(t, intent)
        for before, command, refusal in pushes.log[seen:]:
            if isinstance(command, UndoCommand):
                continue
            if refusal is None:
                assert check(before, command) is None  # type: ignore[arg-type]
            else:  # the engine refused after all: the table says so, with the rule
                assert t.ui.refusal is not None and t.ui.refusal.rule == refusal.rule
        ui = t.ui
        assert ui.refusal is None or ui.refusal.rule
        assert isinstance(t.ctl._prompt, Idle | Lifted | Forming | Confirm | Menu | SelectCity | GameOver)
        assert (ui.mode is Mode.GAME_OVER) == t.state.finished
        if ui.mode is Mode.SELECT_CITY:
            assert ui.selected in ui.hints
        for p in t.state.players:
            assert p.money == t.state.ledger.balance(p.colour)
        assert t.ctl.led_frame is not None


def test_a_scripted_game_pushes_only_checked_commands() -> None:
    """The happy path through the same recorder: fulfil the ready contract, build, end the turn."""
    t = Table(START)
    pushes = recording(t)
    t.press("ok")  # OTW-21: the offer first
    assert t.ui.mode is Mode.CONFIRM and t.ui.offer == "B01"
    t.press("ok")
    t.lift("red", 1, "Warsaw")  # the marker comes off after a fulfilment (OTW-22)
    t.press("menu")
    t.press("ok")
    t.tap("Lviv")
    t.press("ok")  # OTW-23: a warehouse in Lviv, the second step
    assert t.state.building_at("Lviv") is not None and t.state.current.colour == "blue"
    commands = [c for _, c, r in pushes.log if r is None]
    assert [type(c).__name__ for c in commands] == ["Fulfil", "Build"]
    assert all(check(before, c) is None for before, c, _ in pushes.log)  # type: ignore[arg-type]
