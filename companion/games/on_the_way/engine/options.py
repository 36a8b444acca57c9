"""House-rule options: every **Interpretation** of the rules digest is a named option whose default
is the digest's reading. ``docs/rules-notes.md`` lists each with the choice and why."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from enum import StrEnum

from companion.engine.house_rules import parse_house_rules


class ContractOffer(StrEnum):
    OPEN = "open"  # OTW-9 default: any not-yet-used card may be taken (offer or pile top)
    TIER_ORDER = "tier_order"  # a higher tier only once the lower tiers can no longer fill the offer


@dataclass(frozen=True, slots=True)
class HouseRules:
    # OTW-9: which card a "take a contract" may be.
    contract_offer: ContractOffer = ContractOffer.OPEN
    # OTW-11: a player may end his turn before using all steps.
    allow_pass: bool = True
    # OTW-18: any player may transship at any building (False: only at buildings he built or at
    # the neutral starting warehouses).
    neutral_buildings: bool = True
    # OTW-21: fulfilling needs the transport to have stood at the start city with enough trucks
    # after the contract was taken (False: standing at the end city with enough trucks suffices).
    fulfil_needs_route: bool = True
    # OTW-21: fulfilling a contract is an action (uses a step).
    fulfil_is_action: bool = True
    # OTW-26: trucks and buildings come from a limited supply (33 trucks, 14 WH, 18 LC).
    limited_supply: bool = True
    # OTW-30: jam tokens stay after their event is replaced.
    jams_persist: bool = True
    # OTW-30: a jammed road cannot be part of a transshipment chain; crossing it takes 2 steps.
    jam_blocks_transshipment: bool = True

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    @classmethod
    def from_mapping(cls, values: Mapping[str, object]) -> HouseRules:
        return parse_house_rules(cls, values)
