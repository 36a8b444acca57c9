"""What the set-up wizard must know of On The Way to digitise a printed box: the card forms, the printed
price scales that prefill them, the rulebook facts checked as warnings, and the file spelling
(``companion.games.digitise``; asked through ``plugin.setup_profile()``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.digitise.graph import road_distance
from companion.games.digitise.model import CardEntry, Value, WizardState
from companion.games.digitise.profile import (
    CardKind,
    FieldSpec,
    GameProfile,
    Values,
    _int,
    _pair,
    _str,
    reference_files,
)
from companion.games.digitise.said import said_by
from companion.games.on_the_way.engine.cards import TIER_DISTANCES, EventKind, Tier

PLUGIN_DATA = "on-the-way"
MESSAGES = "companion.games.on_the_way"  # what the wizard says of this game: its catalogue's wizard.* keys


OTW_TIERS = tuple(t.value for t in Tier)
OTW_TIER_PREFIX = {"basic": "B", "extended": "X", "professional": "P"}
OTW_TIER_DISTANCES = {t.value: d for t, d in TIER_DISTANCES.items()}  # OTW-13, as the engine has it
OTW_KINDS = tuple(k.value for k in EventKind)
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
        return said_by(MESSAGES, "check_no_road", a=values["from"], b=values["to"])
    return None


def _otw_contract_check(values: Values, state: WizardState) -> str | None:
    """OTW-13: the tier printed on the card must fit its distance on the traced board (else a road
    is missing or one too many: the printed card is the authority)."""
    tier, distance = _str(values, "tier"), _otw_distance(values, state)
    allowed = OTW_TIER_DISTANCES.get(tier or "", ())
    if distance not in allowed:
        need = " / ".join(map(str, allowed))
        if distance is None:
            return said_by(MESSAGES, "check_tier_no_route", a=values.get("from"), b=values.get("to"),
                           tier=_tier_said(tier), need=need)  # fmt: skip
        return said_by(MESSAGES, "check_tier", a=values.get("from"), b=values.get("to"), distance=distance,
                       tier=_tier_said(tier), need=need)  # fmt: skip
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
        return said_by(MESSAGES, "check_jam_road", a=road[0], b=road[1])
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
        warnings.append(said_by(MESSAGES, "fact_named", cities=", ".join(missing)))
    for a, b in OTW_ROADS:
        if a in cities and b in cities and state.road(a, b) is None:
            warnings.append(said_by(MESSAGES, "fact_road", a=a, b=b))
    if "Mönchengladbach" in cities and "Lviv" in cities:
        d = road_distance(state.roads, "Mönchengladbach", "Lviv")
        if d is None:
            warnings.append(said_by(MESSAGES, "fact_distance_none"))
        elif d != 5:
            warnings.append(said_by(MESSAGES, "fact_distance", d=d))
    contracts = state.cards_of("contracts")
    for tier, count in OTW_TIER_COUNTS.items():
        have = sum(1 for c in contracts if c.get("tier") == tier)
        if have != count:
            warnings.append(said_by(MESSAGES, "fact_tier_count", count=count, tier=_tier_said(tier), have=have))
        if have < OTW_REMOVED[tier] + 5:
            warnings.append(said_by(MESSAGES, "fact_tier_few", removed=OTW_REMOVED[tier], tier=_tier_said(tier),
                                    have=have))  # fmt: skip
    erratum = [c for c in contracts if c.get("from") == "Mönchengladbach" and c.get("to") == "Lviv"]
    if not erratum:
        warnings.append(said_by(MESSAGES, "fact_erratum_missing"))
    elif not any(c.get("pay") == 3000 for c in erratum):
        warnings.append(said_by(MESSAGES, "fact_erratum_pay"))
    events = state.cards_of("events")
    if len(events) != 22:
        warnings.append(said_by(MESSAGES, "fact_events", have=len(events)))
    jams = sum(1 for c in events if c.get("kind") == "traffic_jam")
    if jams > 3:
        warnings.append(said_by(MESSAGES, "fact_jams", jams=jams))
    return warnings


def _tier_said(tier: str | None) -> str:
    """A tier inside a sentence: its name in the screen's language (the choice's own words)."""
    return said_by(MESSAGES, f"choice_tier_{tier}") if tier in OTW_TIERS else str(tier)


def on_the_way() -> GameProfile:
    contracts = CardKind("contracts", "contract card", _otw_contract_fields, _otw_contract_prefill,
                         lambda v: OTW_TIER_PREFIX.get(str(v.get("tier")), "C"), _otw_contract_toml,
                         _otw_contract_from, _otw_contract_problem, _otw_contract_check, MESSAGES)  # fmt: skip
    events = CardKind("events", "event card", _otw_event_fields, _otw_event_prefill, lambda v: "E",
                      _otw_event_toml, _otw_event_from, _otw_event_problem, messages=MESSAGES)  # fmt: skip
    reference = reference_files(PLUGIN_DATA)
    files = {role: path.name for role, path in reference.items()}
    return GameProfile("on-the-way", files, contracts, events, road_details=False, setup_sizes={2: 6, 3: 8, 4: 10},
                       default_setup=OTW_SETUP, facts=_otw_facts, reference=reference)  # fmt: skip
