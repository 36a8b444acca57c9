"""The UI model: what the screen must show now. Computed by the table controller, rendered by the display.

One model for both games: the fields of table interaction are the same (a mode, a prompt, choices,
hints, a refusal); a few are used by one game only (``trucks``/``offer``/``lifted``: On The Way;
``die``/``bidder``/``level``: Auf Achse) and stay at their defaults in the other. In Auf Achse
``hints``/``selected`` may name plain spaces as well as cities: the screen rings both, the LEDs
light only the cities.

It holds only table-interaction state (prompts, choices, hints, the last refusal); the game itself
(board, players, money, ledger) is read from the engine state, which the display receives alongside.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class Mode(StrEnum):
    IDLE = "idle"  # waiting for the player on turn to act
    LIFTED = "lifted"  # a marker of the player on turn is in the hand: hints lit
    FORMING = "forming"  # a new transport: marker on its start city, PLUS/MINUS choose trucks
    CONFIRM = "confirm"  # a yes/no question: OK / BACK (fulfil offer, cancel, end turn)
    MENU = "menu"  # MENU pressed: PLUS/MINUS step through ``choices``, OK picks
    SELECT_CITY = "select_city"  # choose a city: touch, PLUS/MINUS through ``hints``, OK
    EVENT_DUE = "event_due"  # the strip is full: scan the next event card (OTW-28)
    MISMATCH = "mismatch"  # the table disagrees with the engine: put things right first
    GAME_OVER = "game_over"
    # Auf Achse
    SETUP = "setup"  # AA-2..5: trucks, private and public contracts, who starts
    ROLL = "roll"  # enter the die with PLUS/MINUS (``die``), OK; MENU: roll for me
    MOVE = "move"  # choose the destination: a lit city's reader, or PLUS/MINUS/touch over ``choices``
    SELECT_SPACE = "select_space"  # a plain space for a truck or a sign: touch, PLUS/MINUS, OK
    CHOOSE = "choose"  # pick one of ``choices`` (cargo to load/unload, the contract to auction)
    AUCTION = "auction"  # AA-19: the bidder scans his bank card, PLUS/MINUS level, OK bid, BACK pass
    CARD_DUE = "card_due"  # scan a card the engine waits for (public contract, action card, spare)


@dataclass(frozen=True, slots=True)
class Refusal:
    rule: str  # e.g. "OTW-18"
    message: str  # one plain sentence


@dataclass(frozen=True, slots=True)
class UiModel:
    mode: Mode = Mode.IDLE
    language: str = "en"
    player: str | None = None  # colour of the player on turn
    steps_left: int = 0
    prompt: str = ""  # the main instruction line
    detail: str = ""  # a second line: what OK / BACK / PLUS / MINUS do now
    choices: tuple[str, ...] = ()  # labels PLUS/MINUS step through (menu items, truck counts)
    choice_index: int = 0
    refusal: Refusal | None = None  # the last refused action, shown until the next accepted one
    message: str = ""  # the last thing that happened ("+1 500 R red — contract B01")
    hints: frozenset[str] = field(default_factory=frozenset)  # cities lit: reachable now / candidates
    selected: str | None = None  # the current candidate of a city selection (blinks)
    expected: tuple[str, ...] = ()  # cities where a marker must go back / come off (blink, 2nd colour)
    lifted: tuple[str, int] | None = None  # (colour, marker) in the hand
    trucks: int | None = None  # the truck count being chosen (new transport / joining)
    offer: str | None = None  # a contract id offered for fulfilment
    die: int | None = None  # Auf Achse: the die value being entered (None: not yet)
    bidder: str | None = None  # Auf Achse: whose bank card was scanned in the running auction
    level: int | None = None  # Auf Achse: the bid level being chosen (1..5)

    @property
    def choice(self) -> str | None:
        return self.choices[self.choice_index] if self.choices else None
