"""What the wizard shows: the prompt of the step (pure text) and the LEDs (a ``LedFrame``).

Both are pure functions of the state, so the screen, the simulator and tests read the same thing.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.digitise.model import CardForm, Step, WizardState
from companion.games.digitise.profile import CardKind, GameProfile, profile
from companion.ledframe import CityLight, LedFrame
from companion.setup_box.machine import editable, missing, road_fields, steps, visible_fields

TITLES = {
    Step.READERS: "Readers → cities",
    Step.ROADS: "Roads",
    Step.LAYOUT: "The screen map",
    Step.SETUP: "Start cities",
    Step.CONTRACTS: "Contract cards",
    Step.EVENTS: "Event cards",
    Step.CHECK: "Check",
    Step.DONE: "Saved",
}


@dataclass(frozen=True, slots=True)
class Prompt:
    title: str  # "2/8 Roads"
    doing: str  # what to do now, in one sentence
    lines: tuple[str, ...]  # the details: the card in hand, the counts, the problems
    keys: str  # what the buttons do here
    message: str  # the wizard's last answer
    form: tuple[tuple[str, str, bool], ...] = ()  # (label, value, focused) of the card in hand


def prompt(state: WizardState) -> Prompt:
    prof = profile(state.game)
    order = steps(prof)
    number = order.index(state.step) + 1
    title = f"{number}/{len(order)} {TITLES[state.step]}"
    if state.step is Step.EVENTS and prof.events.section == "actions":
        title = f"{number}/{len(order)} Action cards"
    keys = "long OK: next step · long BACK: step before · BACK: take back"
    doing, lines, form = _what(state, prof)
    return Prompt(title, doing, tuple(lines), keys, state.message, form)


def _what(state: WizardState, prof: GameProfile) -> tuple[str, list[str], tuple[tuple[str, str, bool], ...]]:
    match state.step:
        case Step.READERS:
            remaining = state.remaining
            if not remaining:
                return "Every city has a reader. Type a name for another, or long OK.", [], ()
            city = remaining[min(state.cursor, len(remaining) - 1)]
            return (f"Put a marker on {city}.",
                    [f"{len(state.cities)} cities have a reader, {len(remaining)} to go.",
                     "PLUS/MINUS or touch: another name · type a name the list lacks · OK: no reader (desk)"],
                    ())  # fmt: skip
        case Step.ROADS:
            lines = [f"{len(state.roads)} roads."]
            if state.editing_road and state.roads:
                road = state.roads[-1]
                focus = state.road_focus
                where = ("spaces" if focus == 0 else "signs" if focus == road_fields(road) - 1
                         else f"space {focus}: triangle")  # fmt: skip
                lines.append(f"{road.a}–{road.b}: {road.spaces} spaces, triangles {list(road.triangles) or '–'}, "
                             f"signs {'yes' if road.signs else 'no'}  [PLUS/MINUS: {where}; MENU: next]")  # fmt: skip
            if state.head:
                return f"From {state.head}: put the marker on the next city (OK: lift the chain).", lines, ()
            return "Put a marker on a city, then on its neighbour.", lines, ()
        case Step.LAYOUT:
            return ("Drag a city to move it; long OK when the map looks like the board.",
                    [f"{len(state.moved)} cities moved by hand."], ())  # fmt: skip
        case Step.SETUP:
            players = state.setup_players
            chosen = state.setup_of(players)
            size = prof.setup_sizes.get(players, 0)
            return (f"Start cities for {players} players: a marker adds or removes one (PLUS/MINUS: players).",
                    [f"{len(chosen)} of {size}: {', '.join(chosen)}"], ())  # fmt: skip
        case Step.CONTRACTS | Step.EVENTS:
            kind = prof.contracts if state.step is Step.CONTRACTS else prof.events
            count = len(state.cards_of(kind.section))
            if state.form is None:
                return f"Scan a {kind.label}.", [f"{count} entered. At a desk: MENU for a card without its tag."], ()
            return _card(state, kind, state.form, count)
        case Step.CHECK:
            lines = [f"problem: {p}" for p in state.problems] + [f"warning: {w}" for w in state.warnings]
            if state.problems:
                return "Fix the problems (long BACK to go back to a step).", lines, ()
            return "OK saves the data set (the printed box is the authority: warnings may stay).", lines, ()
        case Step.DONE:
            return f"{state.name!r} is saved. The kiosk plays it from now on.", [], ()
    return "", [], ()


def _card(
    state: WizardState, kind: CardKind, form: CardForm, count: int
) -> tuple[str, list[str], tuple[tuple[str, str, bool], ...]]:
    card = form.card
    rows = []
    names = {s.name for s in editable(kind, card)}
    for spec in visible_fields(kind, card):
        value = card.get(spec.name)
        shown = "–" if value in (None, (), "") else " – ".join(value) if isinstance(value, tuple) else str(value)
        rows.append((spec.label, shown, spec.name == form.focus and spec.name in names))
    need = missing(kind, card, state)
    doing = (need[0].upper() + need[1:] + ".") if need else "OK saves the card."
    head = f"{card.id or 'new card'} · {count} entered · PLUS/MINUS: the marked field; MENU: next field"
    return doing, [head], tuple(rows)


def leds(state: WizardState) -> LedFrame:
    """Steady: what the step has confirmed; blinking: what is in hand; fast: the last entry."""
    lights: dict[str, CityLight] = {}
    match state.step:
        case Step.READERS:
            lights = {c: CityLight.HINT for c in state.cities}
        case Step.ROADS if state.head:
            lights[state.head] = CityLight.SELECTED
        case Step.SETUP:
            lights = {c: CityLight.HINT for c in state.setup_of(state.setup_players)}
        case Step.CONTRACTS | Step.EVENTS if state.form is not None:
            for _, value in state.form.card.values:
                for city in value if isinstance(value, tuple) else (value,):
                    if isinstance(city, str) and city in state.cities:
                        lights[city] = CityLight.SELECTED
    for city in state.flash:
        lights[city] = CityLight.EXPECTED
    return LedFrame.build(lights)
