"""What the wizard must know of a game: its card forms, its printed scales (for the prefills), its
rulebook facts, and how its TOML files are spelt (docs/data.md, docs/auf-achse.md).

The wizard itself is game-neutral; a ``GameProfile`` per game lives here because the games' own
packages are not the wizard's to change. A game that wants the wizard registers a profile
(``register_profile``); a natural next step is a ``setup_profile()`` on the game's plugin.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.setup_box.graph import road_distance, step_distance
from companion.setup_box.model import CardEntry, Value, WizardState

Values = Mapping[str, Value]


@dataclass(frozen=True, slots=True)
class FieldSpec:
    """One thing printed on a card. ``kind``: city (a marker or a touch), pair (two cities: a road),
    int (PLUS/MINUS by ``step``, long press by ``fine``), choice (PLUS/MINUS cycle), text (typed)."""

    name: str
    label: str
    kind: str
    step: int = 1
    fine: int = 1
    minimum: int = 0
    maximum: int = 1_000_000
    choices: tuple[str, ...] = ()
    optional: bool = False


@dataclass(frozen=True)
class CardKind:
    """A kind of card (a TOML section): its fields for given values, the prefill, the id, the TOML."""

    section: str  # "contracts", "events", "actions"
    label: str  # "contract card"
    fields: Callable[[Values], tuple[FieldSpec, ...]]
    prefill: Callable[[Values, WizardState, CardEntry | None], dict[str, Value]]  # (values, state, previous)
    id_prefix: Callable[[Values], str]
    to_toml: Callable[[str, Values, WizardState], dict[str, Any]]
    from_toml: Callable[[Mapping[str, Any]], dict[str, Value]]
    problem: Callable[[Values, WizardState], str | None] = lambda values, state: None  # why it cannot be confirmed
    check: Callable[[Values, WizardState], str | None] = lambda values, state: None  # found by the check step


@dataclass(frozen=True)
class GameProfile:
    game: str
    files: Mapping[str, str]  # role -> file name in a data set (the reference files' names)
    contracts: CardKind
    events: CardKind
    road_details: bool  # Auf Achse: spaces, triangles, signs per road
    default_spaces: int = 2
    setup_sizes: Mapping[int, int] = field(default_factory=dict)  # players -> start cities (OTW-8)
    default_setup: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    facts: Callable[[WizardState], list[str]] = lambda state: []  # warnings: the rulebook's facts
    reference: Mapping[str, Path] = field(default_factory=dict)  # role -> the shipped file

    def kind(self, section: str) -> CardKind:
        return self.contracts if section == self.contracts.section else self.events


_PROFILES: dict[str, Callable[[], GameProfile]] = {}


def register_profile(game: str, factory: Callable[[], GameProfile]) -> None:
    _PROFILES[game] = factory


def profile(game: str) -> GameProfile:
    try:
        return _PROFILES[game]()
    except KeyError:
        known = ", ".join(sorted(_PROFILES))
        raise ValueError(f"the set-up wizard does not know the game {game!r} (it knows {known})") from None


def profiles() -> tuple[str, ...]:
    return tuple(sorted(_PROFILES))


def _reference(game: str) -> dict[str, Path]:
    from companion import games

    return {role.field: role.reference for role in games.get(game).data_roles}


def _int(values: Values, name: str, default: int = 0) -> int:
    value = values.get(name)
    return value if isinstance(value, int) else default


def _str(values: Values, name: str) -> str | None:
    value = values.get(name)
    return value if isinstance(value, str) else None


def _pair(values: Values, name: str) -> tuple[str, ...]:
    value = values.get(name)
    return value if isinstance(value, tuple) else ()


# -- On The Way ---------------------------------------------------------------------------------------

OTW_TIERS = ("basic", "extended", "professional")
OTW_TIER_PREFIX = {"basic": "B", "extended": "X", "professional": "P"}
OTW_TIER_DISTANCES = {"basic": (2,), "extended": (3,), "professional": (4, 5)}  # OTW-13
OTW_KINDS = ("bonus", "malus", "cheaper_build", "extra_step", "traffic_jam")
OTW_WITH_AMOUNT = ("bonus", "malus", "cheaper_build")
OTW_SETUP = {
    2: ("Bremen", "Poznań", "Vilnius", "Lviv", "Bratislava", "Mönchengladbach"),
    3: ("Bremen", "Poznań", "Vilnius", "Lviv", "Bratislava", "Mönchengladbach", "Prague", "Riga"),
    4: ("Bremen", "Poznań", "Vilnius", "Lviv", "Bratislava", "Mönchengladbach", "Prague", "Riga", "Oss", "Bucharest"),
}
OTW_NAMED = ("Bremen", "Poznań", "Vilnius", "Lviv", "Bratislava", "Mönchengladbach", "Prague", "Riga", "Oss",
             "Bucharest", "Warsaw", "Kyiv")  # fmt: skip
OTW_ROADS = (("Poznań", "Warsaw"), ("Warsaw", "Lviv"), ("Lviv", "Kyiv"), ("Oss", "Bremen"))
OTW_TIER_COUNTS = {"basic": 20, "extended": 31, "professional": 33}  # OTW-2
OTW_REMOVED = {"basic": 4, "extended": 4, "professional": 2}  # OTW-4: the most removed of a tier


def _otw_distance(values: Values, state: WizardState) -> int | None:
    a, b = _str(values, "from"), _str(values, "to")
    if a is None or b is None or a == b:
        return None
    return road_distance(state.roads, a, b)


def _otw_tier(distance: int | None) -> str:
    if distance is None or distance <= 2:
        return "basic"
    return "extended" if distance == 3 else "professional"


def _otw_contract_fields(values: Values) -> tuple[FieldSpec, ...]:
    return (
        FieldSpec("from", "from", "city"),
        FieldSpec("to", "to", "city"),
        FieldSpec("trucks", "trucks", "int", minimum=1, maximum=9),
        FieldSpec("tier", "tier (back colour)", "choice", choices=OTW_TIERS),
        FieldSpec("pay", "pay", "int", step=500, fine=500, maximum=50_000),
        FieldSpec("vp", "VP", "int", maximum=9),
    )


def _otw_contract_prefill(values: Values, state: WizardState, previous: CardEntry | None) -> dict[str, Value]:
    """The printed cards' scale (docs/data.md): pay = 500 R x (distance + trucks - 1); VP = trucks - 2
    on professional cards of distance 5 with 3 or 4 trucks; the tier follows the distance (OTW-13)."""
    distance = _otw_distance(values, state)
    trucks = _int(values, "trucks", 2)
    d = distance if distance is not None else 2
    tier = _otw_tier(distance)
    vp = trucks - 2 if tier == "professional" and d == 5 and trucks >= 3 else 0
    return {"trucks": 2, "tier": tier, "pay": 500 * (d + trucks - 1), "vp": vp}


def _otw_contract_problem(values: Values, state: WizardState) -> str | None:
    if _str(values, "from") and _str(values, "to") and _otw_distance(values, state) is None:
        return f"no road joins {values['from']} and {values['to']}: trace the roads first"
    return None


def _otw_contract_check(values: Values, state: WizardState) -> str | None:
    """OTW-13: the tier printed on the card must fit its distance on the traced board (else a road
    is missing or one too many: the printed card is the authority)."""
    tier, distance = _str(values, "tier"), _otw_distance(values, state)
    allowed = OTW_TIER_DISTANCES.get(tier or "", ())
    if distance not in allowed:
        need = " or ".join(map(str, allowed))
        return f"{values.get('from')}→{values.get('to')} is {distance} roads here, a {tier} card needs {need} (OTW-13)"
    return None


def _otw_contract_toml(card_id: str, values: Values, state: WizardState) -> dict[str, Any]:
    return {"id": card_id, "tier": values["tier"], "from": values["from"], "to": values["to"],
            "distance": _otw_distance(values, state), "trucks": values["trucks"], "pay": values["pay"],
            "vp": values["vp"]}  # fmt: skip


def _otw_contract_from(data: Mapping[str, Any]) -> dict[str, Value]:
    return {"from": data["from"], "to": data["to"], "trucks": data["trucks"], "tier": data["tier"],
            "pay": data["pay"], "vp": data.get("vp", 0)}  # fmt: skip


def _otw_event_fields(values: Values) -> tuple[FieldSpec, ...]:
    kind = FieldSpec("kind", "kind", "choice", choices=OTW_KINDS)
    match _str(values, "kind"):
        case "traffic_jam":
            return (kind, FieldSpec("road", "road", "pair"))
        case k if k in OTW_WITH_AMOUNT:
            return (kind, FieldSpec("amount", "amount", "int", step=500, fine=500, minimum=500, maximum=10_000))
    return (kind,)


def _otw_event_prefill(values: Values, state: WizardState, previous: CardEntry | None) -> dict[str, Value]:
    """The previous card's kind and amount: cards sorted by kind go in with a scan and OK each."""
    kind = _str(previous.as_dict, "kind") if previous else None
    amount = _int(previous.as_dict, "amount", 500) if previous else 500
    return {"kind": kind or "bonus", "amount": amount or 500}


def _otw_event_problem(values: Values, state: WizardState) -> str | None:
    road = _pair(values, "road")
    if _str(values, "kind") == "traffic_jam" and len(road) == 2 and state.road(road[0], road[1]) is None:
        return f"there is no road {road[0]}–{road[1]} (OTW-30: a jam is on a road)"
    return None


def _otw_event_toml(card_id: str, values: Values, state: WizardState) -> dict[str, Any]:
    out: dict[str, Any] = {"id": card_id, "kind": values["kind"]}
    if values["kind"] in OTW_WITH_AMOUNT:
        out["amount"] = values["amount"]
    if values["kind"] == "traffic_jam":
        out["road"] = list(_pair(values, "road"))
    return out


def _otw_event_from(data: Mapping[str, Any]) -> dict[str, Value]:
    out: dict[str, Value] = {"kind": data["kind"]}
    if "amount" in data:
        out["amount"] = data["amount"]
    if "road" in data:
        out["road"] = tuple(data["road"])
    return out


def _otw_facts(state: WizardState) -> list[str]:
    """The rulebook's facts (rules digest): warnings only, the printed box is the authority."""
    warnings = []
    cities = set(state.cities)
    missing = [c for c in OTW_NAMED if c not in cities]
    if missing:
        warnings.append(f"the rulebook names {', '.join(missing)}; not on this board")
    for a, b in OTW_ROADS:
        if a in cities and b in cities and state.road(a, b) is None:
            warnings.append(f"the rulebook's examples use a road {a}–{b} (OTW-18, OTW-30); not on this board")
    if "Mönchengladbach" in cities and "Lviv" in cities:
        d = road_distance(state.roads, "Mönchengladbach", "Lviv")
        if d != 5:
            warnings.append(f"OTW-34: Mönchengladbach–Lviv is 5 roads in the rulebook, {d} here")
    contracts = state.cards_of("contracts")
    for tier, count in OTW_TIER_COUNTS.items():
        have = sum(1 for c in contracts if c.get("tier") == tier)
        if have != count:
            warnings.append(f"OTW-2: the box has {count} {tier} contracts, {have} entered")
        if have < OTW_REMOVED[tier] + 5:
            warnings.append(f"OTW-4 removes up to {OTW_REMOVED[tier]} {tier} cards: {have} is too few to play")
    erratum = [c for c in contracts if c.get("from") == "Mönchengladbach" and c.get("to") == "Lviv"]
    if not erratum:
        warnings.append("OTW-34: the box has a contract Mönchengladbach → Lviv; none entered")
    elif not any(c.get("pay") == 3000 for c in erratum):
        warnings.append("OTW-34 erratum: the contract Mönchengladbach → Lviv pays 3 000 R")
    events = state.cards_of("events")
    if len(events) != 22:
        warnings.append(f"OTW-2: the box has 22 event cards, {len(events)} entered")
    jams = sum(1 for c in events if c.get("kind") == "traffic_jam")
    if jams > 3:
        warnings.append(f"OTW-1: the box has 3 jam tokens for {jams} traffic-jam cards")
    return warnings


def on_the_way() -> GameProfile:
    contracts = CardKind("contracts", "contract card", _otw_contract_fields, _otw_contract_prefill,
                         lambda v: OTW_TIER_PREFIX.get(str(v.get("tier")), "C"), _otw_contract_toml,
                         _otw_contract_from, _otw_contract_problem, _otw_contract_check)  # fmt: skip
    events = CardKind("events", "event card", _otw_event_fields, _otw_event_prefill, lambda v: "E",
                      _otw_event_toml, _otw_event_from, _otw_event_problem)  # fmt: skip
    reference = _reference("on-the-way")
    files = {role: path.name for role, path in reference.items()}
    return GameProfile("on-the-way", files, contracts, events, road_details=False, setup_sizes={2: 6, 3: 8, 4: 10},
                       default_setup=OTW_SETUP, facts=_otw_facts, reference=reference)  # fmt: skip


# -- Auf Achse ----------------------------------------------------------------------------------------

AA_EFFECTS = ("pay", "receive", "receive_from_each", "pay_each", "pay_per_good", "miss_turns", "stau", "roadworks",
              "spare_contract")  # fmt: skip
AA_WITH_AMOUNT = ("pay", "receive", "receive_from_each", "pay_each", "pay_per_good")
AA_COSTS = tuple(f"cost{n}" for n in range(1, 6))  # AA-19: the Kosten column, levels 1..5


def _aa_steps(values: Values, state: WizardState) -> int | None:
    a, b = _str(values, "from"), _str(values, "to")
    if a is None or b is None or a == b:
        return None
    return step_distance(state.roads, a, b)


def _aa_contract_fields(values: Values) -> tuple[FieldSpec, ...]:
    costs = tuple(FieldSpec(name, f"Kosten {n}", "int", step=100, fine=100, minimum=100, maximum=50_000)
                  for n, name in enumerate(AA_COSTS, 1))  # fmt: skip
    return (
        FieldSpec("from", "from", "city"),
        FieldSpec("to", "to", "city"),
        FieldSpec("goods", "goods", "int", minimum=2, maximum=6),
        FieldSpec("payout", "payout", "int", step=500, fine=100, maximum=100_000),
        *costs,
    )


def _aa_contract_prefill(values: Values, state: WizardState, previous: CardEntry | None) -> dict[str, Value]:
    """The reference cards' scale (auf-achse.contracts.toml): payout = 1 000 + 180 DM per step of the
    shortest route + 500 DM per good, to 500; Kosten level n = n x 10 % of the payout, to 100."""
    steps = _aa_steps(values, state) or 0
    goods = _int(values, "goods", 5)
    payout = round((1000 + 180 * steps + 500 * goods) / 500) * 500
    actual = _int(values, "payout", payout) if "payout" in values else payout
    out: dict[str, Value] = {"goods": 5, "payout": payout}
    for n, name in enumerate(AA_COSTS, 1):
        out[name] = round(actual * n / 10 / 100) * 100
    return out


def _aa_contract_problem(values: Values, state: WizardState) -> str | None:
    costs = [_int(values, name) for name in AA_COSTS]
    if costs != sorted(set(costs)):
        return f"the Kosten levels must rise: {costs} (AA-19)"
    if _str(values, "from") and _str(values, "to") and _aa_steps(values, state) is None:
        return f"no road joins {values['from']} and {values['to']}: trace the roads first"
    return None


def _aa_contract_toml(card_id: str, values: Values, state: WizardState) -> dict[str, Any]:
    return {"id": card_id, "from": values["from"], "to": values["to"], "goods": values["goods"],
            "payout": values["payout"], "costs": [values[name] for name in AA_COSTS]}  # fmt: skip


def _aa_contract_from(data: Mapping[str, Any]) -> dict[str, Value]:
    out: dict[str, Value] = {"from": data["from"], "to": data["to"], "goods": data["goods"], "payout": data["payout"]}
    for name, cost in zip(AA_COSTS, data["costs"], strict=True):
        out[name] = cost
    return out


def _aa_action_fields(values: Values) -> tuple[FieldSpec, ...]:
    effect = FieldSpec("effect", "effect", "choice", choices=AA_EFFECTS)
    text = FieldSpec("text", "text (typed, optional)", "text", optional=True)
    match _str(values, "effect"):
        case "miss_turns":
            return (effect, FieldSpec("turns", "turns", "int", minimum=1, maximum=9), text)
        case e if e in AA_WITH_AMOUNT:
            return (effect, FieldSpec("amount", "amount", "int", step=500, fine=100, minimum=100, maximum=50_000), text)
    return (effect, text)


def _aa_action_prefill(values: Values, state: WizardState, previous: CardEntry | None) -> dict[str, Value]:
    before = previous.as_dict if previous else {}
    return {"effect": _str(before, "effect") or "pay", "amount": _int(before, "amount", 500) or 500,
            "turns": _int(before, "turns", 1) or 1, "text": ""}  # fmt: skip


def _aa_action_toml(card_id: str, values: Values, state: WizardState) -> dict[str, Any]:
    out: dict[str, Any] = {"id": card_id, "effect": values["effect"]}
    if values["effect"] in AA_WITH_AMOUNT:
        out["amount"] = values["amount"]
    if values["effect"] == "miss_turns":
        out["turns"] = values["turns"]
    if values.get("text"):
        out["text"] = values["text"]
    return out


def _aa_action_from(data: Mapping[str, Any]) -> dict[str, Value]:
    out: dict[str, Value] = {"effect": data["effect"], "text": data.get("text", "")}
    for key in ("amount", "turns"):
        if key in data:
            out[key] = data[key]
    return out


def _aa_facts(state: WizardState) -> list[str]:
    warnings = []
    flensburg = state.road("Hamburg", "Flensburg")
    if flensburg is None:
        warnings.append("AA-10: the rulebook has a road Hamburg–Flensburg; not on this board")
    elif flensburg.signs or flensburg.spaces != 1:
        warnings.append("AA-10: the one space between Hamburg and Flensburg never takes a sign (signs off)")
    if not any(r.triangles for r in state.roads):
        warnings.append("AA-12: no road has a warning triangle; action cards would never be drawn")
    for section, count, label in (("contracts", 52, "contract cards"), ("actions", 31, "action cards")):
        have = len(state.cards_of(section))
        if have != count:
            warnings.append(f"AA-1: the 1987 box has {count} {label}, {have} entered")
    if len(state.cards_of("contracts")) < 3 * 6 + 24:
        warnings.append("AA-4: 6 players need 3 private contracts each and 24 public ones (42 cards)")
    return warnings


def auf_achse() -> GameProfile:
    contracts = CardKind("contracts", "contract card", _aa_contract_fields, _aa_contract_prefill, lambda v: "C",
                         _aa_contract_toml, _aa_contract_from, _aa_contract_problem)  # fmt: skip
    actions = CardKind("actions", "action card", _aa_action_fields, _aa_action_prefill, lambda v: "A",
                       _aa_action_toml, _aa_action_from)  # fmt: skip
    reference = _reference("auf-achse")
    files = {role: path.name for role, path in reference.items()}
    return GameProfile("auf-achse", files, contracts, actions, road_details=True, facts=_aa_facts,
                       reference=reference)  # fmt: skip


register_profile("on-the-way", on_the_way)
register_profile("auf-achse", auf_achse)


# -- reading a game's files (seeding the wizard, comparing in tests) ----------------------------------


def read_toml(path: Path) -> dict[str, Any]:
    with path.open("rb") as handle:
        return tomllib.load(handle)


def reference_cities(game: str) -> tuple[str, ...]:
    """The reference board's city names, in file order: what the readers step proposes."""
    board = read_toml(profile(game).reference["board"])
    return tuple(c["name"] for c in board.get("cities", ()))
