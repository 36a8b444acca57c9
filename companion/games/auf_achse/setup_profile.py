"""What the set-up wizard must know of Auf Achse to digitise a printed box: the card forms, the printed
price scales that prefill them, the rulebook facts checked as warnings, and the file spelling
(``companion.games.digitise``; asked through ``plugin.setup_profile()``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.auf_achse.engine.cards import EFFECTS_WITH_AMOUNT, Effect
from companion.games.digitise.graph import step_distance
from companion.games.digitise.model import CardEntry, Value, WizardState
from companion.games.digitise.profile import (
    CardKind,
    FieldSpec,
    GameProfile,
    Values,
    _int,
    _str,
    reference_files,
)
from companion.games.digitise.said import said_by

PLUGIN_DATA = "auf-achse"
MESSAGES = "companion.games.auf_achse"  # what the wizard says of this game: its catalogue's wizard.* keys


AA_EFFECTS = tuple(e.value for e in Effect)
AA_WITH_AMOUNT = tuple(e.value for e in Effect if e in EFFECTS_WITH_AMOUNT)
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
        return said_by(MESSAGES, "check_costs", costs=costs)
    if _str(values, "from") and _str(values, "to") and _aa_steps(values, state) is None:
        return said_by(MESSAGES, "check_no_road", a=values["from"], b=values["to"])
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
        warnings.append(said_by(MESSAGES, "fact_flensburg"))
    elif flensburg.signs or flensburg.spaces != 1:
        warnings.append(said_by(MESSAGES, "fact_flensburg_sign"))
    if not any(r.triangles for r in state.roads):
        warnings.append(said_by(MESSAGES, "fact_triangles"))
    for section, count in (("contracts", 52), ("actions", 31)):
        have = len(state.cards_of(section))
        if have != count:
            warnings.append(said_by(MESSAGES, f"fact_{section}", count=count, have=have))
    if len(state.cards_of("contracts")) < 3 * 6 + 24:
        warnings.append(said_by(MESSAGES, "fact_players"))
    return warnings


def auf_achse() -> GameProfile:
    contracts = CardKind("contracts", "contract card", _aa_contract_fields, _aa_contract_prefill, lambda v: "C",
                         _aa_contract_toml, _aa_contract_from, _aa_contract_problem, messages=MESSAGES)  # fmt: skip
    actions = CardKind("actions", "action card", _aa_action_fields, _aa_action_prefill, lambda v: "A",
                       _aa_action_toml, _aa_action_from, messages=MESSAGES)  # fmt: skip
    reference = reference_files(PLUGIN_DATA)
    files = {role: path.name for role, path in reference.items()}
    return GameProfile("auf-achse", files, contracts, actions, road_details=True, facts=_aa_facts,
                       reference=reference)  # fmt: skip
