"""What an owner does to digitise a box: the intents that trace a board and its cards into the wizard.

``owner_script(game, files)`` plays an owner who has the printed box in front of him, with the given
data files standing in for the printed board and cards: a marker on each city the screen names, the
roads traced in as few strokes as possible, each card scanned, its cities touched with the marker,
its printed values reached with PLUS/MINUS/MENU from the prefill. The script is computed by asking
the wizard itself what it shows after each intent, so it counts exactly the actions the wizard
needs. Used by the round-trip tests and by ``companion setup-box count`` (the report's figures).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.games.digitise.model import CityMoved, NameTyped, SpaceTapped, Step, Value, WizardState
from companion.games.digitise.profile import GameProfile, profile, read_toml
from companion.intents import ButtonName, ButtonPressed, CardScanned, TagPlaced
from companion.setup_box.machine import WizardIntent, editable, start, step

MARKER = "04AA0000000001"  # the one marker the owner moves around
OK = ButtonPressed(ButtonName.OK)
PLUS = ButtonPressed(ButtonName.PLUS)
MINUS = ButtonPressed(ButtonName.MINUS)
MENU = ButtonPressed(ButtonName.MENU)
NEXT_STEP = ButtonPressed(ButtonName.OK, long=True)


def card_uid(card_id: str) -> str:
    """A stable 7-byte NTAG-like UID for a card (as the simulator's tags are made)."""
    return "04" + hashlib.sha1(f"card:{card_id}".encode()).hexdigest()[:12].upper()


def reader_label(n: int) -> str:
    return f"channel {n}"  # how ``companion hardware calibrate`` names a reader it does not know yet


@dataclass
class Owner:
    """Drives the wizard and records every intent (the script)."""

    state: WizardState
    script: list[WizardIntent] = field(default_factory=list)

    def do(self, intent: WizardIntent) -> None:
        self.state = step(self.state, intent)
        self.script.append(intent)

    def place(self, city: str) -> None:
        readers = {c: r for r, c in self.state.readers}
        self.do(TagPlaced(readers[city], MARKER))


def owner_script(game: str, files: Mapping[str, Path], *, drag: bool = True, name: str | None = None,
                 ) -> tuple[list[WizardIntent], WizardState]:  # fmt: skip
    """The intents that enter ``files`` (role -> path: board, contracts, events) into a fresh wizard,
    and the state they lead to (at DONE). ``drag``: move every city to its position in the file."""
    prof = profile(game)
    board = read_toml(files["board"])
    cities = [c["name"] for c in board["cities"]]
    owner = Owner(start(game, name or board["board"]["name"], tuple(cities)))
    for n, _ in enumerate(cities):  # 1. the screen names each city in turn
        owner.do(TagPlaced(reader_label(n), MARKER))
    owner.do(NEXT_STEP)
    _trace_roads(owner, prof, board["roads"])
    owner.do(NEXT_STEP)
    if drag:  # 3. the map as printed (at a desk: a drag per city)
        for c in board["cities"]:
            owner.do(CityMoved(c["name"], c["x"], c["y"]))
    owner.do(NEXT_STEP)
    if prof.setup_sizes:
        _setup(owner, prof, board.get("setup", {}))
        owner.do(NEXT_STEP)
    for kind, role in ((prof.contracts, "contracts"), (prof.events, "events")):
        for data in read_toml(files[role]).get(kind.section, ()):
            _card(owner, prof, kind.section, data)
        owner.do(NEXT_STEP)
    owner.do(OK)  # accept the warnings: save
    return owner.script, owner.state


def _trace_roads(owner: Owner, prof: GameProfile, roads: list[dict[str, Any]]) -> None:
    """2. As few strokes as possible: walk unused roads from a city with an odd number of them left."""
    todo = {i: r for i, r in enumerate(roads)}
    adjacency: dict[str, list[int]] = {}
    for i, r in todo.items():
        for end in r["between"]:
            adjacency.setdefault(end, []).append(i)
    first = True
    while todo:
        left = Counter(end for r in todo.values() for end in r["between"])
        odd = [c for c in left if left[c] % 2]
        here = min(odd or left, key=lambda c: list(adjacency).index(c))
        if not first:
            owner.do(OK)  # lift the chain: the next stroke starts elsewhere
        first = False
        owner.place(here)
        while True:
            options = [i for i in adjacency[here] if i in todo]
            if not options:
                break
            i = options[0]
            road = todo.pop(i)
            a, b = road["between"]
            there = b if here == a else a
            owner.place(there)
            if prof.road_details:
                _road_details(owner, road, reverse=here != a)
            here = there


def _road_details(owner: Owner, road: Mapping[str, Any], reverse: bool) -> None:
    spaces = int(road.get("spaces", 0))
    have = owner.state.roads[-1].spaces or 0
    for _ in range(abs(spaces - have)):
        owner.do(PLUS if spaces > have else MINUS)
    for t in road.get("triangles", ()):
        owner.do(SpaceTapped(spaces + 1 - t if reverse else t))  # a touch on the space
    if not road.get("signs", True):
        while owner.state.road_focus != spaces + 1:
            owner.do(MENU)
        owner.do(PLUS)


def _setup(owner: Owner, prof: GameProfile, setup: Mapping[str, list[str]]) -> None:
    for players in sorted(prof.setup_sizes):
        target = setup.get(f"players_{players}", [])
        have = owner.state.setup_of(players)
        changes = [c for c in have if c not in target] + [c for c in target if c not in have]
        if not changes:
            continue
        while owner.state.setup_players != players:
            owner.do(PLUS)
        for city in changes:
            owner.place(city)


def _card(owner: Owner, prof: GameProfile, section: str, data: Mapping[str, Any]) -> None:
    kind = prof.kind(section)
    target = kind.from_toml(data)
    owner.do(CardScanned(card_uid(str(data["id"]))))
    for _ in range(60):
        form = owner.state.form
        assert form is not None, owner.state.message
        card = form.card
        pending = _next_difference(kind, card.as_dict, target)
        if pending is None:
            break
        spec_name, spec_kind = pending
        if spec_kind in ("city", "pair"):
            want = target[spec_name]
            have = card.get(spec_name)
            cities = _as_cities(want)
            done = _as_cities(have)
            owner.place(str(cities[len(done)]))
            continue
        if spec_kind == "text":
            owner.do(NameTyped(str(target[spec_name])))
            continue
        if form.focus != spec_name:
            owner.do(MENU)
            continue
        spec = next(s for s in editable(kind, card) if s.name == spec_name)
        owner.do(_press_towards(spec.kind, spec.choices, spec.step, spec.fine, card.get(spec_name), target[spec_name]))
    owner.do(OK)
    assert owner.state.form is None, owner.state.message


def _as_cities(value: Value) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    return value if isinstance(value, tuple) else ()


def _next_difference(kind: Any, values: Mapping[str, Value], target: Mapping[str, Value]) -> tuple[str, str] | None:
    for spec in kind.fields(values):
        want = target.get(spec.name)
        have = values.get(spec.name)
        if spec.kind == "pair":
            have, want = _as_cities(have), _as_cities(want)
        if spec.kind == "text" and not want and not have:
            continue
        if have != want:
            return spec.name, spec.kind
    return None


def _press_towards(kind: str, choices: tuple[str, ...], big: int, fine: int, have: Value, want: Value) -> ButtonPressed:
    if kind == "choice":
        here, there = choices.index(str(have)), choices.index(str(want))
        forward = (there - here) % len(choices)
        return PLUS if forward <= len(choices) - forward else MINUS
    assert isinstance(have, int) and isinstance(want, int)
    gap = want - have
    long = abs(gap) < big
    return ButtonPressed(ButtonName.PLUS if gap > 0 else ButtonName.MINUS, long=long and fine != big)


@dataclass(frozen=True)
class ActionCount:
    placements: int
    scans: int
    presses: int
    touches: int
    drags: int
    typed: int

    @property
    def physical(self) -> int:
        """What an owner does at the box (typing and dragging are the desk's extras)."""
        return self.placements + self.scans + self.presses + self.touches

    def minutes(self, seconds: Mapping[str, float]) -> float:
        total = (self.placements * seconds["placement"] + self.scans * seconds["scan"]
                 + self.presses * seconds["press"] + self.touches * seconds["touch"])  # fmt: skip
        return total / 60


def count(script: list[WizardIntent]) -> ActionCount:
    kinds = Counter(type(i).__name__ for i in script)
    return ActionCount(
        placements=kinds["TagPlaced"],
        scans=kinds["CardScanned"],
        presses=kinds["ButtonPressed"],
        touches=kinds["SpaceTapped"] + kinds["CityTapped"] + kinds["FieldTapped"],
        drags=kinds["CityMoved"],
        typed=kinds["NameTyped"],
    )


def count_by_step(
    game: str, script: list[WizardIntent], candidates: tuple[str, ...] | None = None
) -> dict[str, ActionCount]:
    """``count`` per wizard step, replaying ``script`` from a fresh wizard proposing ``candidates``."""
    state = start(game, "count", candidates)
    parts: dict[str, list[WizardIntent]] = {}
    for intent in script:
        parts.setdefault(state.step.value, []).append(intent)
        state = step(state, intent)
    return {part: count(intents) for part, intents in parts.items()}


def reached(state: WizardState) -> bool:
    return state.step is Step.DONE
