"""The set-up wizard: one pure ``step(state, intent) -> state`` over the table's intents.

    readers ─▶ roads ─▶ layout ─▶ [start cities] ─▶ contracts ─▶ events ─▶ check ─▶ done
       long OK: the next step · long BACK: the step before · BACK: take the last thing back

Like the kiosk's machine (``companion/kiosk/machine.py``) nothing here draws, sleeps or writes: the
runner (``runner.py``) saves the state after every intent and turns ``state.flash`` into LED
flashes; the screen (``screen.py``) draws ``view.prompt(state)``. The game's vocabulary comes from
its profile (``profiles.py``). What each step does with each intent is in docs/setup-box.md.
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.digitise.graph import connected
from companion.games.digitise.model import (
    CardEntry,
    CardForm,
    CityMoved,
    FieldTapped,
    NameTyped,
    RoadEntry,
    SaveFailed,
    SpaceTapped,
    Step,
    Value,
    WizardState,
    with_value,
)
from companion.games.digitise.profile import CardKind, FieldSpec, GameProfile, profile, reference_cities
from companion.intents import ButtonName, ButtonPressed, CardScanned, CityTapped, DeviceFault, TagLifted, TagPlaced
from companion.setup_box.layout import stress_layout

WizardIntent = (
    TagPlaced | TagLifted | CardScanned | ButtonPressed | CityTapped | DeviceFault
    | NameTyped | CityMoved | SpaceTapped | FieldTapped | SaveFailed
)  # fmt: skip

MAX_SPACES = 12
UNTAGGED = "untagged-"  # the "uid" of a card entered without its tag (at a desk)


def start(game: str, name: str, candidates: tuple[str, ...] | None = None) -> WizardState:
    """A fresh wizard for ``game``; the readers step proposes ``candidates`` (default: the reference
    board's cities, in its order)."""
    names = candidates if candidates is not None else reference_cities(game)
    return WizardState(game=game, name=name, candidates=names, message=_HELLO)


_HELLO = "Put a marker on the city the screen names."


def steps(prof: GameProfile) -> tuple[Step, ...]:
    order = [Step.READERS, Step.ROADS, Step.LAYOUT]
    if prof.setup_sizes:
        order.append(Step.SETUP)
    return (*order, Step.CONTRACTS, Step.EVENTS, Step.CHECK, Step.DONE)


def step(state: WizardState, intent: WizardIntent) -> WizardState:
    """The state after ``intent``; ``seq`` counts every intent, so a resumed driver knows where it was."""
    prof = profile(state.game)
    new = _dispatch(replace(state, flash=()), intent, prof)
    return replace(new, seq=state.seq + 1)


def _dispatch(state: WizardState, intent: WizardIntent, prof: GameProfile) -> WizardState:
    match intent:
        case ButtonPressed(ButtonName.OK, True):
            return _advance(state, prof, +1)
        case ButtonPressed(ButtonName.BACK, True):
            return _advance(state, prof, -1)
        case ButtonPressed(ButtonName.MENU, True):
            return state  # the kiosk's admin gesture; nothing to do here
        case DeviceFault(device, message, recovered):
            return replace(state, message=f"{device}: {'back' if recovered else message}")
        case TagLifted():
            return state  # moving a marker lifts it: not an entry
        case SaveFailed(problems):
            return replace(state, step=Step.CHECK, problems=problems, message="The data set could not be saved.")
    match state.step:
        case Step.READERS:
            return _readers(state, intent)
        case Step.ROADS:
            return _roads(state, intent, prof)
        case Step.LAYOUT:
            return _layout(state, intent)
        case Step.SETUP:
            return _setup(state, intent, prof)
        case Step.CONTRACTS | Step.EVENTS:
            kind = prof.contracts if state.step is Step.CONTRACTS else prof.events
            return _cards(state, intent, prof, kind)
        case Step.CHECK:
            return _check(state, intent, prof)
    return state


# -- moving between steps ------------------------------------------------------------------------------


def _advance(state: WizardState, prof: GameProfile, direction: int) -> WizardState:
    order = steps(prof)
    here = order.index(state.step)
    refusal = _cannot_leave(state, direction)
    if refusal:
        return replace(state, message=refusal)
    if direction > 0 and state.step is Step.CHECK:
        return _check(state, ButtonPressed(ButtonName.OK), prof)
    if state.step is Step.DONE and direction > 0:
        return state
    target = order[max(0, min(len(order) - 2, here + direction))] if state.step is not Step.DONE else order[-2]
    if target is state.step:
        return state
    return enter(replace(state, head=None, editing_road=False), target, prof)


def _cannot_leave(state: WizardState, direction: int) -> str | None:
    if state.form is not None:
        return "Confirm the card in hand (OK) or take it back (BACK) first."
    if direction < 0:
        return None
    if state.step is Step.READERS and len(state.cities) < 2:
        return "Give at least two cities a reader first."
    if state.step is Step.ROADS and not state.roads:
        return "Trace at least one road first."
    return None


def enter(state: WizardState, target: Step, prof: GameProfile) -> WizardState:
    """Arrive at ``target``: the layout is computed, the start cities prefilled, the check run."""
    state = replace(state, step=target, message="")
    match target:
        case Step.LAYOUT:
            return relayout(state)
        case Step.SETUP if not state.setup:
            cities = set(state.cities)
            setup = tuple((p, tuple(c for c in prof.default_setup.get(p, ()) if c in cities)) for p in prof.setup_sizes)
            return replace(state, setup=setup, setup_players=min(prof.setup_sizes))
        case Step.SETUP:
            return replace(state, setup_players=state.setup_players or min(prof.setup_sizes))
        case Step.CHECK:
            problems, warnings = review(state, prof)
            return replace(state, problems=tuple(problems), warnings=tuple(warnings))
    return state


def relayout(state: WizardState) -> WizardState:
    fixed = {c: (x, y) for c, x, y in state.moved if c in state.cities}
    positions = stress_layout(state.cities, [(r.a, r.b) for r in state.roads], fixed)
    return replace(state, positions=tuple((c, x, y) for c, (x, y) in positions.items()))


def _city_of(state: WizardState, intent: WizardIntent) -> str | None:
    """The city a marker was put on (through the readers' names) or that was touched on the screen."""
    match intent:
        case TagPlaced(reader, _):
            mapped = state.reader_map.get(reader)
            if mapped is not None:
                return mapped
            return reader if reader in state.cities else None
        case CityTapped(city):
            return city if city in state.cities else None
    return None


# -- 1. readers -> cities ----------------------------------------------------------------------------


def _readers(state: WizardState, intent: WizardIntent) -> WizardState:
    remaining = state.remaining
    match intent:
        case TagPlaced(reader, _):
            known = state.reader_map.get(reader)
            if known is not None:
                return replace(state, flash=(known,), message=f"That reader is already {known}.")
            if not remaining:
                return replace(state, message="Type the name of this city first.")
            city = remaining[min(state.cursor, len(remaining) - 1)]
            left = len(remaining) - 1
            cursor = min(state.cursor, max(0, left - 1))
            return replace(state, readers=(*state.readers, (reader, city)), cursor=cursor, flash=(city,),
                           message=f"{city}: reader {reader}. {left} to go.")  # fmt: skip
        case ButtonPressed(ButtonName.OK, False) if remaining:
            # at a desk (or under a reader that is broken): the city without a reader; a reader named
            # like the city (the simulator's) still finds it
            city = remaining[min(state.cursor, len(remaining) - 1)]
            cursor = min(state.cursor, max(0, len(remaining) - 2))
            return replace(state, readers=(*state.readers, (city, city)), cursor=cursor, flash=(city,),
                           message=f"{city} added without a reader. {len(remaining) - 1} to go.")  # fmt: skip
        case ButtonPressed(ButtonName.PLUS | ButtonName.MINUS as button, _) if remaining:
            delta = 1 if button == ButtonName.PLUS else -1
            return replace(state, cursor=(state.cursor + delta) % len(remaining), message="")
        case CityTapped(city) if city in remaining:
            return replace(state, cursor=remaining.index(city), message="")
        case NameTyped(text) if text.strip():
            name = text.strip()
            if name in state.cities:
                return replace(state, message=f"{name} already has a reader.")
            if name in remaining:
                return replace(state, cursor=remaining.index(name), message=f"Put a marker on {name}.")
            where = state.candidates.index(remaining[min(state.cursor, len(remaining) - 1)]) if remaining else None
            candidates = list(state.candidates)
            where = len(candidates) if where is None else where
            candidates.insert(where, name)
            new = replace(state, candidates=tuple(candidates))
            return replace(new, cursor=new.remaining.index(name), message=f"Put a marker on {name}.")
        case ButtonPressed(ButtonName.BACK, False) if state.readers:
            reader, city = state.readers[-1]
            new = replace(state, readers=state.readers[:-1])
            return replace(new, cursor=new.remaining.index(city), message=f"{city} has no reader again.")
    return state


# -- 2. roads ------------------------------------------------------------------------------------------


def road_fields(road: RoadEntry) -> int:
    """Auf Achse road details: 0 = spaces, 1..n = space n's triangle, n + 1 = signs."""
    return (road.spaces or 0) + 2


def _roads(state: WizardState, intent: WizardIntent, prof: GameProfile) -> WizardState:
    city = _city_of(state, intent)
    if isinstance(intent, TagPlaced | CityTapped):
        if city is None:
            return replace(state, message="That reader has no city yet (step 1).")
        return _trace(state, city, prof)
    match intent:
        case ButtonPressed(ButtonName.OK, False):
            return replace(state, head=None, editing_road=False, message="Start the next road anywhere.")
        case ButtonPressed(ButtonName.BACK, False):
            return _untrace(state)
        case ButtonPressed(ButtonName.PLUS | ButtonName.MINUS | ButtonName.MENU as button, _) if state.editing_road:
            return _edit_road(state, button)
        case SpaceTapped(index) if state.editing_road and state.roads:
            road = state.roads[-1]
            if 1 <= index <= (road.spaces or 0):
                triangles = tuple(sorted(set(road.triangles) ^ {index}))
                return replace(state, roads=(*state.roads[:-1], replace(road, triangles=triangles)))
    return state


def _trace(state: WizardState, city: str, prof: GameProfile) -> WizardState:
    head = state.head
    if head is None:
        return replace(state, head=city, editing_road=False, message=f"From {city}: put the marker on a neighbour.")
    if city == head:
        return replace(state, head=None, editing_road=False, message="Start the next road anywhere.")
    if state.road(head, city) is not None:
        return replace(state, head=city, editing_road=False, flash=(city,), message=f"{head}–{city} is traced already.")
    road = RoadEntry(head, city, prof.default_spaces if prof.road_details else None)
    message = f"Road {head}–{city} ({len(state.roads) + 1} roads)."
    if prof.road_details:
        message += " PLUS/MINUS: spaces; MENU: the triangles."
    return replace(state, roads=(*state.roads, road), head=city, editing_road=prof.road_details, road_focus=0,
                   flash=(head, city), message=message)  # fmt: skip


def _untrace(state: WizardState) -> WizardState:
    if state.roads and state.head is not None and state.roads[-1].b == state.head:
        last = state.roads[-1]
        return replace(state, roads=state.roads[:-1], head=last.a, editing_road=False,
                       message=f"Road {last.a}–{last.b} taken back.")  # fmt: skip
    if state.head is not None:
        return replace(state, head=None, editing_road=False, message="")
    if state.roads:
        last = state.roads[-1]
        return replace(state, roads=state.roads[:-1], head=last.a, message=f"Road {last.a}–{last.b} taken back.")
    return state


def _edit_road(state: WizardState, button: ButtonName) -> WizardState:
    road = state.roads[-1]
    focus = state.road_focus
    if button == ButtonName.MENU:
        return replace(state, road_focus=(focus + 1) % road_fields(road))
    up = button == ButtonName.PLUS
    spaces = road.spaces or 0
    if focus == 0:
        spaces = max(0, min(MAX_SPACES, spaces + (1 if up else -1)))
        road = replace(road, spaces=spaces, triangles=tuple(t for t in road.triangles if t <= spaces))
    elif focus <= spaces:
        triangles = set(road.triangles) | {focus} if up else set(road.triangles) - {focus}
        road = replace(road, triangles=tuple(sorted(triangles)))
    else:
        road = replace(road, signs=not road.signs)
    return replace(state, roads=(*state.roads[:-1], road), road_focus=min(state.road_focus, road_fields(road) - 1))


# -- 3. the screen map ---------------------------------------------------------------------------------


def _layout(state: WizardState, intent: WizardIntent) -> WizardState:
    match intent:
        case CityMoved(city, x, y) if city in state.cities:
            x, y = round(min(1.0, max(0.0, x)), 3), round(min(1.0, max(0.0, y)), 3)
            positions = tuple((c, x, y) if c == city else (c, px, py) for c, px, py in state.positions)
            return replace(state, positions=positions, moved=(*state.moved, (city, x, y)), flash=(city,))
        case ButtonPressed(ButtonName.BACK, False) if state.moved:
            city = state.moved[-1][0]
            return relayout(replace(state, moved=state.moved[:-1], message=f"{city} back where it was."))
        case ButtonPressed(ButtonName.OK, False):
            return relayout(state)
        case ButtonPressed(ButtonName.PLUS | ButtonName.MINUS as button, _):
            # the automatic map has no north: PLUS turns it a quarter clockwise, MINUS mirrors it
            turn = button == ButtonName.PLUS

            def moved(x: float, y: float) -> tuple[float, float]:
                return (round(1.0 - y, 3), round(x, 3)) if turn else (round(1.0 - x, 3), y)

            return replace(state, positions=tuple((c, *moved(x, y)) for c, x, y in state.positions),
                           moved=tuple((c, *moved(x, y)) for c, x, y in state.moved),
                           message="Turned a quarter." if turn else "Mirrored.")  # fmt: skip
    return state


# -- the start cities (OTW-8) --------------------------------------------------------------------------


def _setup(state: WizardState, intent: WizardIntent, prof: GameProfile) -> WizardState:
    city = _city_of(state, intent)
    counts = sorted(prof.setup_sizes)
    players = state.setup_players or counts[0]
    match intent:
        case ButtonPressed(ButtonName.PLUS | ButtonName.MINUS as button, _):
            delta = 1 if button == ButtonName.PLUS else -1
            return replace(state, setup_players=counts[(counts.index(players) + delta) % len(counts)])
        case ButtonPressed(ButtonName.BACK, False) if state.setup_undo:
            return replace(state, setup=state.setup_undo[-1], setup_undo=state.setup_undo[:-1], message="Taken back.")
    if city is None:
        return state
    lists = dict(state.setup)
    if city in lists.get(players, ()):  # off this list and every list after it (they contain it)
        new = {p: tuple(c for c in cities if c != city) if p >= players else cities for p, cities in lists.items()}
        message = f"{city} is no longer a start city for {players}+ players."
    else:
        new = {p: (*cities, city) if p >= players and city not in cities else cities for p, cities in lists.items()}
        message = f"{city} is a start city for {players}+ players."
    setup = tuple((p, new.get(p, ())) for p in counts)
    return replace(state, setup=setup, setup_undo=(*state.setup_undo, state.setup)[-50:], flash=(city,),
                   message=message)  # fmt: skip


# -- 4. and 5. cards -------------------------------------------------------------------------------------


def visible_fields(kind: CardKind, card: CardEntry) -> tuple[FieldSpec, ...]:
    return kind.fields(card.as_dict)


def editable(kind: CardKind, card: CardEntry) -> tuple[FieldSpec, ...]:
    return tuple(f for f in visible_fields(kind, card) if f.kind in ("int", "choice", "text"))


def refresh(form: CardForm, state: WizardState, kind: CardKind) -> CardForm:
    """Apply the prefill to every field the owner has not changed (twice: a prefilled payout feeds
    the prefilled Kosten levels)."""
    previous = _previous(state, kind.section, form.card.uid)
    card = form.card
    for _ in range(2):
        values = card.as_dict
        for name, value in kind.prefill(values, state, previous).items():
            if name not in form.touched:
                values[name] = value
        card = replace(card, values=tuple(values.items()))
    focus = form.focus
    names = [f.name for f in editable(kind, card)]
    if focus not in names:
        focus = names[0] if names else None
    return replace(form, card=card, focus=focus)


def _previous(state: WizardState, section: str, uid: str) -> CardEntry | None:
    cards = [c for c in state.cards_of(section) if c.uid != uid]
    return cards[-1] if cards else None


def missing(kind: CardKind, card: CardEntry, state: WizardState) -> str | None:
    """What keeps the card from being confirmed (None: it is complete)."""
    for spec in visible_fields(kind, card):
        value = card.get(spec.name)
        if spec.kind == "city" and not value:
            return f"put a marker on the {spec.label} city"
        if spec.kind == "pair" and (not isinstance(value, tuple) or len(value) < 2):
            return f"put markers on the two cities of the {spec.label}"
    return kind.problem(card.as_dict, state)


def _cards(state: WizardState, intent: WizardIntent, prof: GameProfile, kind: CardKind) -> WizardState:
    form = state.form
    match intent:
        case CardScanned(uid):
            return _scan(state, uid, prof, kind)
        case ButtonPressed(ButtonName.BACK, False):
            return _card_back(state, kind)
    if form is None and intent == ButtonPressed(ButtonName.MENU):
        # at a desk there is no card reader: a card without a tag (enrol it later on the box)
        untagged = sum(1 for c in state.cards if c.uid.startswith(UNTAGGED))
        return _scan(state, f"{UNTAGGED}{untagged + 1}", prof, kind)
    if form is None:
        if isinstance(intent, ButtonPressed | TagPlaced | CityTapped):
            return replace(state, message=f"Scan a {kind.label} first.")
        return state
    city = _city_of(state, intent)
    if isinstance(intent, TagPlaced | CityTapped):
        if city is None:
            return replace(state, message="That reader has no city.")
        return _put_city(state, form, city, kind)
    specs = editable(kind, form.card)
    match intent:
        case ButtonPressed(ButtonName.OK, False):
            return _confirm(state, form, kind)
        case ButtonPressed(ButtonName.MENU, False) if specs:
            names = [s.name for s in specs]
            focus = names[(names.index(form.focus) + 1) % len(names)] if form.focus in names else names[0]
            return replace(state, form=replace(form, focus=focus))
        case FieldTapped(name) if name in [s.name for s in specs]:
            return replace(state, form=replace(form, focus=name))
        case ButtonPressed(ButtonName.PLUS | ButtonName.MINUS as button, long):
            spec = next((s for s in specs if s.name == form.focus), None)
            if spec is None or spec.kind == "text":
                return state
            value = _adjust(spec, form.card.get(spec.name), button == ButtonName.PLUS, long)
            return _set(state, form, spec.name, value, kind)
        case NameTyped(text):
            spec = next((s for s in specs if s.kind == "text"), None)
            if spec is None:
                return state
            return _set(state, form, spec.name, text.strip(), kind)
    return state


def _adjust(spec: FieldSpec, value: Value, up: bool, long: bool) -> Value:
    if spec.kind == "choice":
        here = spec.choices.index(value) if value in spec.choices else -1
        return spec.choices[(here + (1 if up else -1)) % len(spec.choices)]
    number = value if isinstance(value, int) else spec.minimum
    step = spec.fine if long else spec.step
    return max(spec.minimum, min(spec.maximum, number + (step if up else -step)))


def _set(state: WizardState, form: CardForm, name: str, value: Value, kind: CardKind) -> WizardState:
    card = with_value(form.card, name, value)
    touched = form.touched if name in form.touched else (*form.touched, name)
    new = refresh(replace(form, card=card, touched=touched), state, kind)
    return replace(state, form=new, message="")


def _scan(state: WizardState, uid: str, prof: GameProfile, kind: CardKind) -> WizardState:
    form = state.form
    if form is not None and form.card.uid == uid:
        return replace(state, message="This card is in hand: OK confirms it.")
    if form is not None:
        return replace(state, message="Confirm the card in hand (OK) or take it back (BACK) first.")
    known = state.card_by_uid(uid)
    if known is not None and known.section != kind.section:
        return replace(state, message=f"This tag is {known.id} ({known.section}).")
    if known is not None:  # scanned again: open it for a correction
        opened = CardForm(known, touched=tuple(k for k, _ in known.values), original=known)
        return replace(state, form=refresh(opened, state, kind), message=f"{known.id} open: change it, then OK.")
    fresh = CardForm(CardEntry(kind.section, uid, ()))
    cities = {s.name: None for s in kind.fields({}) if s.kind == "city"}
    fresh = replace(fresh, card=replace(fresh.card, values=tuple(cities.items())))
    first = next((s.label for s in kind.fields({}) if s.kind == "city"), None)
    message = f"Put a marker on the {first} city." if first else "PLUS/MINUS: the kind; OK confirms."
    return replace(state, form=refresh(fresh, state, kind), message=message)


def _put_city(state: WizardState, form: CardForm, city: str, kind: CardKind) -> WizardState:
    card = form.card
    filled = form.filled
    slots = [s for s in visible_fields(kind, card) if s.kind in ("city", "pair")]
    if not slots:
        return replace(state, message="This card names no city.")
    target = None
    for spec in slots:
        value = card.get(spec.name)
        if (spec.kind == "city" and not value) or (spec.kind == "pair" and len(_pair(value)) < 2):
            target = spec
            break
    if target is None:  # all given: start the cities over
        for spec in slots:
            card = with_value(card, spec.name, None if spec.kind == "city" else ())
        filled = ()
        target = slots[0]
    if city in card_cities(kind, card):
        message = f"{city} is on this card already: put the marker on the other city."
        return replace(state, flash=(city,), message=message)
    if target.kind == "city":
        card = with_value(card, target.name, city)
    else:
        before = card.get(target.name)
        pair = before if isinstance(before, tuple) else ()
        card = with_value(card, target.name, (*pair, city))
    new = refresh(replace(form, card=card, filled=(*filled, target.name)), state, kind)
    return replace(state, form=new, flash=(city,), message=missing(kind, new.card, state) or "OK confirms the card.")


def _pair(value: Value) -> tuple[str, ...]:
    return value if isinstance(value, tuple) else ()


def _next_id(state: WizardState, prefix: str) -> str:
    numbers = [int(c.id[len(prefix):]) for c in state.cards
               if c.id and c.id.startswith(prefix) and c.id[len(prefix):].isdigit()]  # fmt: skip
    return f"{prefix}{max(numbers, default=0) + 1:02d}"


def _confirm(state: WizardState, form: CardForm, kind: CardKind) -> WizardState:
    reason = missing(kind, form.card, state)
    if reason:
        return replace(state, message=reason[0].upper() + reason[1:] + ".")
    card = form.card
    prefix = kind.id_prefix(card.as_dict)
    if card.id is None or not card.id.startswith(prefix):
        card = replace(card, id=_next_id(state, prefix))
    if form.original is not None:
        cards = tuple(card if c.uid == card.uid else c for c in state.cards)
    else:
        cards = (*state.cards, card)
    lit = card_cities(kind, card)
    count = sum(1 for c in cards if c.section == kind.section)
    return replace(state, cards=cards, form=None, flash=lit, message=f"{card.id} saved ({count} {kind.section}).")


def card_cities(kind: CardKind, card: CardEntry) -> tuple[str, ...]:
    """The cities a card names (its start and end, a jammed road's ends): their LEDs confirm it."""
    found: list[str] = []
    for spec in visible_fields(kind, card):
        value = card.get(spec.name)
        if spec.kind == "city" and isinstance(value, str):
            found.append(value)
        elif spec.kind == "pair" and isinstance(value, tuple):
            found.extend(value)
    return tuple(found)


def _card_back(state: WizardState, kind: CardKind) -> WizardState:
    form = state.form
    if form is None:
        mine = state.cards_of(kind.section)
        if not mine:
            return state
        last = mine[-1]
        opened = CardForm(last, touched=tuple(k for k, _ in last.values), original=last)
        return replace(state, form=refresh(opened, state, kind), message=f"{last.id} open again: change it, then OK.")
    if form.filled:
        name = form.filled[-1]
        value = form.card.get(name)
        cleared: Value = value[:-1] if isinstance(value, tuple) else None
        card = with_value(form.card, name, cleared)
        new = refresh(replace(form, card=card, filled=form.filled[:-1]), state, kind)
        return replace(state, form=new, message="City taken back.")
    what = "unchanged" if form.original is not None else "taken back; its tag is free again"
    return replace(state, form=None, message=f"The card is {what}.")


# -- 6. the check ----------------------------------------------------------------------------------------


def _check(state: WizardState, intent: WizardIntent, prof: GameProfile) -> WizardState:
    match intent:
        case ButtonPressed(ButtonName.OK, _):
            problems, warnings = review(state, prof)
            if problems:
                return replace(state, problems=tuple(problems), warnings=tuple(warnings),
                               message="Fix the problems first (long BACK goes to the steps before).")  # fmt: skip
            return replace(state, step=Step.DONE, problems=(), warnings=tuple(warnings),
                           message=f"Saving {state.name!r}.")  # fmt: skip
    return state


def review(state: WizardState, prof: GameProfile) -> tuple[list[str], list[str]]:
    """Problems (what ``board check`` would refuse) and warnings (the rulebook's facts)."""
    problems: list[str] = []
    if len(state.cities) < 2:
        problems.append("the board needs at least two cities")
    cut = connected(state.cities, state.roads)
    if cut:
        problems.append(f"the map is not connected: {', '.join(cut[:8])} cannot be reached")
    cities = set(state.cities)
    previous: tuple[str, ...] = ()
    for players, size in sorted(prof.setup_sizes.items()):
        chosen = state.setup_of(players)
        if len(chosen) != size:
            problems.append(f"{players} players start on {size} cities (OTW-8), {len(chosen)} chosen")
        if any(c not in chosen for c in previous):
            problems.append(f"the start cities for {players} players must include those for fewer players (OTW-8)")
        if any(c not in cities for c in chosen):
            problems.append(f"a start city for {players} players is not on the board")
        previous = chosen
    for card in state.cards:
        kind = prof.kind(card.section)
        reason = missing(kind, card, state)
        if reason:
            problems.append(f"{card.id}: {reason}")
        late = kind.check(card.as_dict, state)
        if late:
            problems.append(f"{card.id}: {late}")
    return problems, prof.facts(state)
