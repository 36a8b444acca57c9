"""What the wizard shows: the prompt of the step (pure text) and the LEDs (a ``LedFrame``).

Both are pure functions of the state, so the screen, the simulator and tests read the same thing.
The prompt speaks the screen's language and names the input at hand: on the box (``desk=False``)
markers, the card reader and the five buttons; at a desk (``desk=True``: ``--input window``, a
windowed kiosk) clicks and keys (Enter, Esc, +/−, Tab, F2). Texts: ``companion/setup_box/messages``.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.digitise.model import CardForm, Step, WizardState
from companion.games.digitise.profile import CardKind, GameProfile, profile
from companion.ledframe import CityLight, LedFrame
from companion.setup_box.machine import editable, missing, road_fields, steps, visible_fields
from companion.setup_box.words import Words, words

TITLES = {
    Step.READERS: "title.readers",
    Step.ROADS: "title.roads",
    Step.LAYOUT: "title.layout",
    Step.SETUP: "title.setup",
    Step.CONTRACTS: "title.contracts",
    Step.EVENTS: "title.events",
    Step.CHECK: "title.check",
}


@dataclass(frozen=True, slots=True)
class Prompt:
    title: str  # "Step 2 of 7: Roads"
    doing: str  # what to do now, in one sentence
    lines: tuple[str, ...]  # the details: the card in hand, the counts, the problems
    keys: str  # what the buttons (or keys) do here
    message: str  # the wizard's last answer
    form: tuple[tuple[str, str, bool], ...] = ()  # (label, value, focused) of the card in hand
    problems: tuple[str, ...] = ()  # the lines of ``lines`` that are problems (drawn as such)
    leave: str = ""  # the way out, on the screen: "Leave (kept)"
    more: str = ""  # the check's list goes on: "… and 4 more (PLUS/MINUS: scroll)"


def numbered(state: WizardState) -> tuple[int, int]:
    """The step's number and how many steps there are (the end, saved or a draft, is not a step)."""
    order = steps(profile(state.game))[:-1]
    return (order.index(state.step) + 1 if state.step in order else len(order)), len(order)


def prompt(state: WizardState, language: str = "en", *, desk: bool = False) -> Prompt:
    prof = profile(state.game)
    w = words(language, desk)
    if state.step is Step.DONE:
        title = w.text("title.draft" if state.draft else "title.done")
    else:
        name = "title.actions" if state.step is Step.EVENTS and prof.events.section == "actions" else TITLES[state.step]
        number, total = numbered(state)
        title = w.text("title.numbered", number=number, total=total, title=w.text(name))
    doing, lines, form, problems, more = _what(state, prof, w)
    return Prompt(title, doing, tuple(lines), w.text("keys"), w.show(state.message), form, problems,
                  w.text("leave"), more)  # fmt: skip


CHECK_LINES = 8  # problems and warnings shown at once; PLUS/MINUS scroll the rest
Shown = tuple[str, list[str], tuple[tuple[str, str, bool], ...], tuple[str, ...], str]  # doing, lines, form, …


def _what(state: WizardState, prof: GameProfile, w: Words) -> Shown:
    match state.step:
        case Step.READERS:
            remaining = state.remaining
            if not remaining:
                return w.text("readers.all"), [], (), (), ""
            city = remaining[min(state.cursor, len(remaining) - 1)]
            with_reader = sum(1 for reader, c in state.readers if reader != c)
            tally = w.text("readers.count", entered=w.counted("readers.entered", len(state.cities)),
                           readers=with_reader, left=len(remaining))  # fmt: skip
            return w.text("readers.put", city=city), [tally, w.text("readers.help")], (), (), ""
        case Step.ROADS:
            lines = [w.counted("roads.count", len(state.roads))]
            if state.editing_road and state.roads:
                road = state.roads[-1]
                focus = state.road_focus
                where = (w.text("roads.where_spaces") if focus == 0
                         else w.text("roads.where_signs") if focus == road_fields(road) - 1
                         else w.text("roads.where_triangle", n=focus))  # fmt: skip
                triangles = ", ".join(map(str, road.triangles)) or "–"
                lines.append(w.text("roads.editing", a=road.a, b=road.b, spaces=road.spaces, triangles=triangles,
                                    signs=w.text("roads.yes" if road.signs else "roads.no")))  # fmt: skip
                lines.append(w.text("roads.edit_keys", where=where))
            if state.head:
                return w.text("roads.from", city=state.head), lines, (), (), ""
            return w.text("roads.start"), lines, (), (), ""
        case Step.LAYOUT:
            return (
                w.text("layout.doing"),
                [w.text("layout.moved", n=len(state.moved)), w.text("layout.keys")],
                (),
                (),
                "",
            )
        case Step.SETUP:
            players = state.setup_players
            chosen = state.setup_of(players)
            size = prof.setup_sizes.get(players, 0)
            listed = w.text("setup.count", chosen=len(chosen), size=size, cities=", ".join(chosen) or "–")
            return w.text("setup.doing", players=players), [listed], (), (), ""
        case Step.CONTRACTS | Step.EVENTS:
            kind = prof.contracts if state.step is Step.CONTRACTS else prof.events
            count = len(state.cards_of(kind.section))
            if state.form is None:
                label = w.kind(kind.section, kind.label)
                return w.text("cards.scan", kind=label), [w.text("cards.entered", n=count)], (), (), ""
            return _card(state, kind, state.form, count, w)
        case Step.CHECK:
            return _check(state, w)
        case Step.DONE:
            return w.text("done.draft" if state.draft else "done.saved", name=state.name), [], (), (), ""
    return "", [], (), (), ""


def _check(
    state: WizardState, w: Words
) -> tuple[str, list[str], tuple[tuple[str, str, bool], ...], tuple[str, ...], str]:
    problems = [w.text("check.problem", text=p) for p in state.problems]
    every = problems + [w.text("check.warning", text=x) for x in state.warnings]
    first = max(0, min(state.scroll, len(every) - CHECK_LINES)) if len(every) > CHECK_LINES else 0
    shown = every[first : first + CHECK_LINES]
    more = ""
    if len(every) > len(shown):
        more = w.text(
            "check.more", n=len(every) - len(shown), first=first + 1, last=first + len(shown), total=len(every)
        )
    doing = w.text("check.fix") if state.problems else w.text("check.save")
    return doing, shown, (), tuple(line for line in shown if line in problems), more


def _card(state: WizardState, kind: CardKind, form: CardForm, count: int, w: Words) -> Shown:
    card = form.card
    rows = []
    names = {s.name for s in editable(kind, card)}
    for spec in visible_fields(kind, card):
        value = card.get(spec.name)
        shown = "–" if value in (None, (), "") else " – ".join(value) if isinstance(value, tuple) else str(value)
        if spec.kind == "choice" and isinstance(value, str):
            shown = w.choice(kind.messages, spec.name, value)
        rows.append((w.field(spec.name, spec.label), shown, spec.name == form.focus and spec.name in names))
    need = missing(kind, card, state)
    if need:
        text = w.show(need)
        doing = text[0].upper() + text[1:] + ("" if text.endswith(".") else ".")
    else:
        doing = w.text("cards.ok")
    lines = [w.text("cards.head", card=card.id or w.text("cards.new"), n=count)]
    flagged = None if need else kind.check(card.as_dict, state)  # what the check step would say of it
    if flagged:
        lines.append(w.text("cards.flagged", problem=flagged))
    return doing, lines, tuple(rows), tuple(lines[1:]), ""


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
