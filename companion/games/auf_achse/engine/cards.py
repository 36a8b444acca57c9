"""Auf Achse cards: contracts (AA-13, AA-19) and action cards (AA-12) from a small effect vocabulary."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

BID_LEVELS = 5  # AA-19: the "Kosten" column has levels 1-5


@dataclass(frozen=True, slots=True)
class ContractCard:
    id: str
    start: str  # start city (AA-13)
    end: str  # end city
    goods: int  # 2..6
    payout: int  # DM paid on delivery (AA-16)
    costs: tuple[int, ...]  # AA-19: the Kosten column, levels 1..5, strictly rising

    def __str__(self) -> str:
        return f"{self.id} {self.start}→{self.end}"

    def cost(self, level: int) -> int:
        return self.costs[level - 1]


class Effect(StrEnum):
    PAY = "pay"  # pay ``amount`` to the bank
    RECEIVE = "receive"  # receive ``amount`` from the bank
    RECEIVE_FROM_EACH = "receive_from_each"  # every other player pays the drawer ``amount``
    PAY_EACH = "pay_each"  # the drawer pays every other player ``amount``
    PAY_PER_GOOD = "pay_per_good"  # pay ``amount`` to the bank for each good on board
    MISS_TURNS = "miss_turns"  # the drawer misses his next ``turns`` turns
    STAU = "stau"  # the drawer places the Stau sign (AA-11)
    ROADWORKS = "roadworks"  # the drawer moves the roadworks sign (AA-10)
    SPARE_CONTRACT = "spare_contract"  # the drawer takes one of the leftover contracts (AA-4)


EFFECTS_WITH_AMOUNT = frozenset(
    {Effect.PAY, Effect.RECEIVE, Effect.RECEIVE_FROM_EACH, Effect.PAY_EACH, Effect.PAY_PER_GOOD}
)


@dataclass(frozen=True, slots=True)
class ActionCard:
    id: str
    effect: Effect
    amount: int = 0  # DM, for the money effects
    turns: int = 0  # for miss_turns
    text: str = ""  # what the card says, for the screen


@dataclass(frozen=True)
class AADeck:
    """The contracts and action cards a game is played with, looked up by card id."""

    contracts: tuple[ContractCard, ...]
    actions: tuple[ActionCard, ...]
    _contracts: dict[str, ContractCard] = field(init=False, repr=False, compare=False)
    _actions: dict[str, ActionCard] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_contracts", {c.id: c for c in self.contracts})
        object.__setattr__(self, "_actions", {a.id: a for a in self.actions})

    def contract(self, card_id: str) -> ContractCard | None:
        return self._contracts.get(card_id)

    def action(self, card_id: str) -> ActionCard | None:
        return self._actions.get(card_id)
