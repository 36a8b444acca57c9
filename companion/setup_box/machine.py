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
from companion.setup_box.words import said

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


_HELLO = said("msg.hello")


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
            if recovered:
                return replace(state, message=said("msg.device_back", device=device))
            return replace(state, message=said("msg.device_fault", device=device, message=message))
        case TagLifted():
            return state  # moving a marker lifts it: not an entry
        case SaveFailed(problems):
            return replace(state, step=Step.CHECK, problems=problems, message=said("msg.save_failed"))
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
        return said("msg.card_first")
    if direction < 0:
        return None
    if state.step is Step.READERS and len(state.cities) < 2:
        return said("msg.two_cities")
    if state.step is Step.ROADS and not state.roads:
        return said("msg.one_road")
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
            return replace(state, problems=tuple(problems), warnings=tuple(warnings), draft=False, scroll=0)
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
                return replace(state, flash=(known,), message=said("msg.reader_known", city=known))
            if not remaining:
                return replace(state, message=said("msg.type_first"))
            city = remaining[min(state.cursor, len(remaining) - 1)]
            left = len(remaining) - 1
            cursor = min(state.cursor, max(0, left - 1))
            return replace(state, readers=(*state.readers, (reader, city)), cursor=cursor, flash=(city,),
                           message=said("msg.reader_named", city=city, reader=reader, left=left))  # fmt: skip
        case ButtonPressed(ButtonName.OK, False) if remaining:
            # at a desk (or under a reader that is broken): the city without a reader; a reader named
            # like the city (the simulator's) still finds it
            city = remaining[min(state.cursor, len(remaining) - 1)]
            cursor = min(state.cursor, max(0, len(remaining) - 2))
            return replace(state, readers=(*state.readers, (city, city)), cursor=cursor, flash=(city,),
                           message=said("msg.city_added", city=city, left=len(remaining) - 1))  # fmt: skip
        case ButtonPressed(ButtonName.PLUS | ButtonName.MINUS as button, _) if remaining:
            delta = 1 if button == ButtonName.PLUS else -1
            return replace(state, cursor=(state.cursor + delta) % len(remaining), message="")
        case CityTapped(city) if city in remaining:
            return replace(state, cursor=remaining.index(city), message="")
        case NameTyped(text) if text.strip():
            name = text.strip()
            if name in state.cities:
                return replace(state, message=said("msg.city_known", city=name))
            if name in remaining:
                return replace(state, cursor=remaining.index(name), message=said("msg.put_on", city=name))
            where = state.candidates.index(remaining[min(state.cursor, len(remaining) - 1)]) if remaining else None
            candidates = list(state.candidates)
            where = len(candidates) if where is None else where
            candidates.insert(where, name)
            new = replace(state, candidates=tuple(candidates))
            return replace(new, cursor=new.remaining.index(name), message=said("msg.put_on", city=name))
        case ButtonPressed(ButtonName.BACK, False) if state.readers:
            reader, city = state.readers[-1]
            new = replace(state, readers=state.readers[:-1])
            return replace(new, cursor=new.remaining.index(city), message=said("msg.city_removed", city=city))
    return state


# -- 2. roads ------------------------------------------------------------------------------------------


def road_fields(road: RoadEntry) -> int:
    """Auf Achse road details: 0 = spaces, 1..n = space n's triangle, n + 1 = signs."""
    return (road.spaces or 0) + 2


def _roads(state: WizardState, intent: WizardIntent, prof: GameProfile) -> WizardState:
    city = _city_of(state, intent)
    if isinstance(intent, TagPlaced | CityTapped):
        if city is None:
            return replace(state, message=said("msg.reader_unnamed"))
        return _trace(state, city, prof)
    match intent:
        case ButtonPressed(ButtonName.OK, False):
            return replace(state, head=None, editing_road=False, message=said("msg.next_road"))
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
        return replace(state, head=city, editing_road=False, message=said("msg.from", city=city))
    if city == head:
        return replace(state, head=None, editing_road=False, message=said("msg.next_road"))
    if state.road(head, city) is not None:
        return replace(state, head=city, editing_road=False, flash=(city,), message=said("msg.traced", a=head, b=city))
    road = RoadEntry(head, city, prof.default_spaces if prof.road_details else None)
    key = "msg.road_added_details" if prof.road_details else "msg.road_added"
    message = said(key, n=len(state.roads) + 1, a=head, b=city)
    return replace(state, roads=(*state.roads, road), head=city, editing_road=prof.road_details, road_focus=0,
                   flash=(head, city), message=message)  # fmt: skip


def _untrace(state: WizardState) -> WizardState:
    if state.roads and state.head is not None and state.roads[-1].b == state.head:
        last = state.roads[-1]
        return replace(state, roads=state.roads[:-1], head=last.a, editing_road=False,
                       message=said("msg.road_back", a=last.a, b=last.b))  # fmt: skip
    if state.head is not None:
        return replace(state, head=None, editing_road=False, message="")
    if state.roads:
        last = state.roads[-1]
        return replace(state, roads=state.roads[:-1], head=last.a, message=said("msg.road_back", a=last.a, b=last.b))
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
            return relayout(replace(state, moved=state.moved[:-1], message=said("msg.city_moved_back", city=city)))
        case ButtonPressed(ButtonName.OK, False):
            return relayout(state)
        case ButtonPressed(ButtonName.PLUS | ButtonName.MINUS as button, _):
            # the automatic map has no north: PLUS turns it a quarter clockwise, MINUS mirrors it
            turn = button == ButtonName.PLUS

            def moved(x: float, y: float) -> tuple[float, float]:
                return (round(1.0 - y, 3), round(x, 3)) if turn else (round(1.0 - x, 3), y)

            return replace(state, positions=tuple((c, *moved(x, y)) for c, x, y in state.positions),
                           moved=tuple((c, *moved(x, y)) for c, x, y in state.moved),
                           message=said("msg.turned" if turn else "msg.mirrored"))  # fmt: skip
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
            return replace(
                state, setup=state.setup_undo[-1], setup_undo=state.setup_undo[:-1], message=said("msg.taken_back")
            )
    if city is None:
        return state
    lists = dict(state.setup)
    if city in lists.get(players, ()):  # off this list and every list after it (they contain it)
        new = {p: tuple(c for c in cities if c != city) if p >= players else cities for p, cities in lists.items()}
        message = said("msg.start_removed", city=city, players=players)
    else:
        new = {p: (*cities, city) if p >= players and city not in cities else cities for p, cities in lists.items()}
        message = said("msg.start_added", city=city, players=players)
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
    card = _agreeing(card, form.touched, state, kind)
    focus = form.focus
    names = [f.name for f in editable(kind, card)]
    if focus not in names:
        focus = names[0] if names else None
    return replace(form, card=card, focus=focus)


def _agreeing(card: CardEntry, touched: tuple[str, ...], state: WizardState, kind: CardKind) -> CardEntry:
    """A prefill the check agrees with: when the check would flag the card, a choice the owner has
    not set (On The Way's tier for a distance) takes the first value the check accepts, if one does
    (none does for a distance no tier has: then the form says what the check will say)."""
    if missing(kind, card, state) or kind.check(card.as_dict, state) is None:
        return card
    for spec in visible_fields(kind, card):
        if spec.kind != "choice" or spec.name in touched:
            continue
        for choice in spec.choices:
            trial = with_value(card, spec.name, choice)
            if kind.check(trial.as_dict, state) is None:
                return trial
    return card


def _previous(state: WizardState, section: str, uid: str) -> CardEntry | None:
    cards = [c for c in state.cards_of(section) if c.uid != uid]
    return cards[-1] if cards else None


def missing(kind: CardKind, card: CardEntry, state: WizardState) -> str | None:
    """What keeps the card from being confirmed (None: it is complete)."""
    for spec in visible_fields(kind, card):
        value = card.get(spec.name)
        if spec.kind == "city" and not value:
            return said("need.city", field=spec.name, label=spec.label)
        if spec.kind == "pair" and (not isinstance(value, tuple) or len(value) < 2):
            return said("need.pair", field=spec.name, label=spec.label)
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
            return replace(state, message=said("msg.scan_first", kind=kind.section, kind_label=kind.label))
        return state
    city = _city_of(state, intent)
    if isinstance(intent, TagPlaced | CityTapped):
        if city is None:
            return replace(state, message=said("msg.reader_no_city"))
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
        return replace(state, message=said("msg.in_hand"))
    if form is not None:
        return replace(state, message=said("msg.card_first"))
    known = state.card_by_uid(uid)
    if known is not None and known.section != kind.section:
        return replace(state, message=said("msg.tag_is", card=known.id, kind=known.section,
                                           kind_label=prof.kind(known.section).label))  # fmt: skip
    if known is not None:  # scanned again: open it for a correction
        opened = CardForm(known, touched=tuple(k for k, _ in known.values), original=known)
        return replace(state, form=refresh(opened, state, kind), message=said("msg.card_open", card=known.id))
    fresh = CardForm(CardEntry(kind.section, uid, ()))
    cities = {s.name: None for s in kind.fields({}) if s.kind == "city"}
    fresh = replace(fresh, card=replace(fresh.card, values=tuple(cities.items())))
    first = next((s for s in kind.fields({}) if s.kind == "city"), None)
    message = said("need.city", field=first.name, label=first.label) if first else said("msg.kind_then_ok")
    return replace(state, form=refresh(fresh, state, kind), message=message)


def _put_city(state: WizardState, form: CardForm, city: str, kind: CardKind) -> WizardState:
    card = form.card
    filled = form.filled
    slots = [s for s in visible_fields(kind, card) if s.kind in ("city", "pair")]
    if not slots:
        return replace(state, message=said("msg.no_city_on_card"))
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
        message = said("msg.on_card_already", city=city)
        return replace(state, flash=(city,), message=message)
    if target.kind == "city":
        card = with_value(card, target.name, city)
    else:
        before = card.get(target.name)
        pair = before if isinstance(before, tuple) else ()
        card = with_value(card, target.name, (*pair, city))
    new = refresh(replace(form, card=card, filled=(*filled, target.name)), state, kind)
    return replace(state, form=new, flash=(city,), message=missing(kind, new.card, state) or said("msg.ok_confirms"))


def _pair(value: Value) -> tuple[str, ...]:
    return value if isinstance(value, tuple) else ()


def _next_id(state: WizardState, prefix: str) -> str:
    numbers = [int(c.id[len(prefix):]) for c in state.cards
               if c.id and c.id.startswith(prefix) and c.id[len(prefix):].isdigit()]  # fmt: skip
    return f"{prefix}{max(numbers, default=0) + 1:02d}"


def _confirm(state: WizardState, form: CardForm, kind: CardKind) -> WizardState:
    reason = missing(kind, form.card, state)
    if reason:
        return replace(state, message=reason)
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
    return replace(state, cards=cards, form=None, flash=lit, message=said("msg.card_saved", card=card.id, n=count))


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
        return replace(state, form=refresh(opened, state, kind), message=said("msg.card_reopened", card=last.id))
    if form.filled:
        name = form.filled[-1]
        value = form.card.get(name)
        cleared: Value = value[:-1] if isinstance(value, tuple) else None
        card = with_value(form.card, name, cleared)
        new = refresh(replace(form, card=card, filled=form.filled[:-1]), state, kind)
        return replace(state, form=new, message=said("msg.city_taken_back"))
    return replace(
        state, form=None, message=said("msg.card_unchanged" if form.original is not None else "msg.card_dropped")
    )


# -- 6. the check ----------------------------------------------------------------------------------------


def _check(state: WizardState, intent: WizardIntent, prof: GameProfile) -> WizardState:
    """OK saves the data set; with problems left it keeps the box as a draft (a small box, one not
    finished yet: nothing is lost, the wizard resumes). PLUS/MINUS scroll the list."""
    match intent:
        case ButtonPressed(ButtonName.OK, _):
            problems, warnings = review(state, prof)
            if problems:
                return replace(state, step=Step.DONE, draft=True, problems=tuple(problems), warnings=tuple(warnings),
                               message=said("msg.keeping_draft", name=state.name))  # fmt: skip
            return replace(state, step=Step.DONE, draft=False, problems=(), warnings=tuple(warnings),
                           message=said("msg.saving", name=state.name))  # fmt: skip
        case ButtonPressed(ButtonName.PLUS | ButtonName.MINUS as button, _):
            total = len(state.problems) + len(state.warnings)
            delta = 1 if button == ButtonName.PLUS else -1
            return replace(state, scroll=max(0, min(total - 1, state.scroll + delta)))
    return state


def review(state: WizardState, prof: GameProfile) -> tuple[list[str], list[str]]:
    """Problems (what ``board check`` would refuse) and warnings (the rulebook's facts)."""
    problems: list[str] = []
    if len(state.cities) < 2:
        problems.append(said("problem.two_cities"))
    cut = connected(state.cities, state.roads)
    if cut:
        problems.append(said("problem.not_connected", cities=", ".join(cut[:8])))
    cities = set(state.cities)
    previous: tuple[str, ...] = ()
    for players, size in sorted(prof.setup_sizes.items()):
        chosen = state.setup_of(players)
        if len(chosen) != size:
            problems.append(said("problem.start_count", players=players, size=size, chosen=len(chosen)))
        if any(c not in chosen for c in previous):
            problems.append(said("problem.start_include", players=players))
        if any(c not in cities for c in chosen):
            problems.append(said("problem.start_off_board", players=players))
        previous = chosen
    for card in state.cards:
        kind = prof.kind(card.section)
        reason = missing(kind, card, state)
        if reason:
            problems.append(said("problem.card", card=card.id, problem=reason))
        late = kind.check(card.as_dict, state)
        if late:
            problems.append(said("problem.card", card=card.id, problem=late))
    return problems, prof.facts(state)
