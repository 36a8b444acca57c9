"""House-rule options: every **Interpretation** of the Auf Achse digest is a named option whose
default is the digest's reading. ``docs/rules-notes.md`` lists each with the choice and why."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from enum import StrEnum

from companion.engine.house_rules import parse_house_rules


class StauRemoval(StrEnum):
    PLACER_NEXT_TURN = "placer_next_turn"  # AA-11 default: when its placer starts his next turn
    ROUND_END = "round_end"  # when the first seat starts the next round


class AuctionOrder(StrEnum):
    ANY_ORDER = "any_order"  # AA-19 default: anyone still in bids or passes at any moment
    ROUND_THE_TABLE = "round_the_table"  # one at a time from the opener's left, the opener last


class TieBreak(StrEnum):
    SHARE = "share"  # AA-24 default: equal money shares the place
    DELIVERIES = "deliveries"  # more contracts delivered ranks higher; then the place is shared


@dataclass(frozen=True, slots=True)
class HouseRules:
    # AA-11: when the Stau sign comes off the board.
    stau_removal: StauRemoval = StauRemoval.PLACER_NEXT_TURN
    # AA-19: bids are raised "in any order" (round_the_table: one at a time, the opener last).
    auction_order: AuctionOrder = AuctionOrder.ANY_ORDER
    # AA-19: a player who passes is out of this auction (False: he may bid again once someone
    # raises; the auction ends when everyone but the high bidder has passed since the last bid).
    pass_is_final: bool = True
    # AA-22: debts are settled automatically from the next income (False: the debtor pays them
    # with a pay_debt command when he chooses; they still count against him at the end).
    auto_settle_debts: bool = True
    # AA-24: how equal money ranks.
    tie_break: TieBreak = TieBreak.SHARE
    # AA-24: outstanding debts are subtracted from the money that ranks (False: money only).
    debts_count: bool = True
    # AA-21 (engine choice): a bid must be covered by the bidder's money (False: the winner who
    # cannot pay owes the rest as a debt, AA-22).
    bids_need_cash: bool = True

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    @classmethod
    def from_mapping(cls, values: Mapping[str, object]) -> HouseRules:
        return parse_house_rules(cls, values)
