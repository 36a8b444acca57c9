"""Auf Achse at the table: intents in, engine commands out (the shared half is ``TableBase``).

What each input does (docs/auf-achse.md, "At the table"):

- **Set-up.** Each truck's start space (a plain space: no reader) is chosen on the screen (touch, or
  PLUS/MINUS then OK). Contract cards scanned go to the player being dealt to — the first seat with
  fewer than 3, or whoever scanned his bank card last — then become the face-up public ones. OK
  starts the game with the player chosen by PLUS/MINUS (who rolled highest, AA-5).
- **Roll.** PLUS/MINUS enter the physical die, OK rolls it; MENU → "Roll for me" rolls the
  companion's seeded die.
- **Move.** The truck (tag ``MarkerTag(colour, 1)``) put on a lit city's reader moves there; any
  destination (plain spaces too) can be chosen on the screen: PLUS/MINUS through the engine's legal
  destinations or touch, OK. Arriving in a city offers the contracts to load or unload there.
- **Act.** A contract card scanned is loaded / unloaded (or auctioned, if it is a face-up public
  one: OK confirms); OK offers what can be loaded or unloaded, then ends the turn; MENU: auction,
  trailers, roadworks after a 1, pay debts, end turn, language.
- **Auction.** Any player still in scans his bank card at any moment (AA-19: in any order; with the
  house rule ``round_the_table`` only the one the engine names), PLUS/MINUS choose the level among
  those he may bid, OK bids, BACK passes. A card of a player who may not bid now is refused with
  the engine's reason.
- **Awaited cards and signs.** The next public contract, an action card, a leftover contract are
  scanned; a Stau or roadworks sign's space is chosen on the screen.
- **BACK** closes a dialog, else undoes the last command of this turn.

The modes are prompts (``prompts.py``): one frozen value per mode and one pure
``step(prompt, intent, state)`` (``step.py``); this controller turns hardware into intents (settling placements,
reconciling the readers with the engine), pushes the commands ``step`` asks for, carries out its
table effects and drives the LEDs. The screen's model for a prompt is ``view.py``.

The engine is the truth: a truck standing in a city must be on that city's reader, a truck on a plain
space on none; until the table matches, the screen says what to put right and the city blinks.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import replace
from typing import Any

from companion.engine.errors import IllegalAction
from companion.engine.game import Game
from companion.games.auf_achse.engine import GameConfig, GameState, new_game
from companion.games.auf_achse.engine.commands import DealContract, DrawAction, RevealPublic, TakeSpare
from companion.games.auf_achse.engine.money import dm
from companion.games.auf_achse.engine.queries import auction_status
from companion.games.auf_achse.engine.scoring import winners
from companion.games.auf_achse.engine.state import Phase, Stage
from companion.games.auf_achse.table.messages import event_message
from companion.games.auf_achse.table.prompts import (
    AskAdvice,
    Bidding,
    ClearRefusal,
    Idle,
    Press,
    Prompt,
    ScanBank,
    ScanCard,
    ShowBalance,
    ShowRefusal,
    TableIntent,
    ToggleLanguage,
    Touch,
    TruckOn,
    UndoLast,
)
from companion.games.auf_achse.table.step import settle, step
from companion.games.auf_achse.table.view import prompt_ui
from companion.intents import ButtonName
from companion.ledframe import CityLight, LedFrame
from companion.table.base import SETTLE_S, AdviceSearch, LedSink, Progress, TableBase
from companion.table.messages.spaces import named
from companion.table.reconcile import Problem, PutBack, TakeOff, mismatches
from companion.table.tags import BankCardTag, CardTag, MarkerTag, Tag, TagDirectory
from companion.table.ui import Mode, UiModel

TRUCK = 1  # an Auf Achse truck carries the tag of marker 1 of its colour


class AATableController(TableBase):
    """Auf Achse at the table. ``AATableController(config, tags, leds=rig)``; see the module doc."""

    messages = "companion.games.auf_achse"  # the package whose messages/ hold this table's texts

    def __init__(
        self,
        config: GameConfig,
        tags: TagDirectory,
        *,
        leds: LedSink | None = None,
        language: str = "en",
        settle_s: float = SETTLE_S,
        game: Game[GameState] | None = None,
        on_command: Callable[[object], None] | None = None,
        on_admin: Callable[[], None] | None = None,
        bot: Callable[[Any], object | None] | None = None,
    ) -> None:
        self._prompt: Prompt = Idle()
        super().__init__(
            game if game is not None else new_game(config),
            tags,
            leds=leds,
            language=language,
            settle_s=settle_s,
            on_command=on_command,
            on_admin=on_admin,
            bot=bot,
        )
        self._refresh()

    @property
    def state(self) -> GameState:
        return self.game.state  # type: ignore[no-any-return]

    @property
    def prompt(self) -> Prompt:
        """What the table is asking now (settled against the game after every intent)."""
        return self._prompt

    # -- intents into the prompt -------------------------------------------------------------
    def _apply(self, intent: TableIntent) -> None:
        """One intent through ``step``: push its command (a refused one keeps the prompt as it
        was and shows why) or carry out its table effect."""
        state = self.state
        prompt = self._prompt  # settled by the last refresh: every change of the game ends in one
        following, action = step(prompt, intent, state)
        match action:
            case None:
                self._prompt = following
            case UndoLast():
                self._prompt = following
                self._undo_in_turn(_describe_command)
            case ToggleLanguage():
                self._prompt = following
                self._toggle_language()
            case AskAdvice():
                self._prompt = following
                self._ask_advice()
            case ShowRefusal(rule=rule, message=message):
                self._prompt = following
                self._refuse(rule, message)
            case ClearRefusal():
                self._prompt = following
                self._refusal = None
            case ShowBalance(colour=colour):
                self._prompt = following
                p = state.player(colour)
                assert p is not None
                self._message = self._text.text("aa_message.bank_card", player=colour, money=dm(p.money))
            case _:
                self._prompt = following if self._push(action) is not None else prompt

    def _advice_search(self) -> AdviceSearch:
        """MENU → Advice: the advisor's first suggestion for whoever decides now, with its chance of
        winning against the table's opponents where one was fitted, else the share of its trial runs
        in which that player leads (a look a few turns ahead, not a chance of winning)."""
        from companion.games.auf_achse.bots.advisor import advise

        state, seed, budget_s = self.state, self.game.depth, self.advice_budget_s
        opponents = dict(self._bot_levels)

        def search(progress: Progress) -> Callable[[], None]:
            try:
                best = advise(state, None, budget_s=budget_s, seed=seed, progress=progress, opponents=opponents)
            except IllegalAction as refusal:  # nothing to decide, or a card to draw and scan first (AA-4)
                rule, why = refusal.rule, refusal.message  # (the name is unbound after the except clause)
                return lambda: self._refuse(rule, why)
            if not best:
                return lambda: None
            top = best[0]

            def show() -> None:  # on the loop's thread, in the table's language of now
                if top.chance is None:  # no map for these opponents: the lead share, said as what it is
                    chance = self._text.text("aa_message.advice_chance", percent=round(top.win_rate * 100))
                else:
                    chance = self._text.text("aa_message.advice_win_chance", percent=round(top.chance * 100))
                self._message = f"{top.told(self._text)} ({chance})"

            return show

        return search

    def _bot_may_play(self, command: object) -> bool:
        """A bot never draws a card at the table (AA-4, AA-12, AA-21): a person draws the real contract
        or action card and scans it for the bot's seat (face down: the reader needs no look), as the
        screen asks. Only all-virtual play (scripts) lets a bot pick an unseen card itself."""
        return not isinstance(command, DealContract | RevealPublic | DrawAction | TakeSpare)

    def _bot_played(self, command: object) -> None:
        """A bot's bid may overtake the level a person is choosing (AA-19: bids in any order): his
        dialog moves up to the lowest level still allowed (None: he may only pass). The rest of the
        prompt is settled in the refresh that follows, as after any change of the game."""
        prompt = self._prompt
        if not isinstance(prompt, Bidding) or prompt.bidder is None or prompt.level is None:
            return
        status = auction_status(self.state)
        levels = [level for level, _ in status.allowed_for(prompt.bidder)] if status is not None else []
        if prompt.level not in levels:
            self._prompt = replace(prompt, level=levels[0] if levels else None)

    # -- placements on the readers -------------------------------------------------------------
    def _truck(self, uid: str) -> MarkerTag | None:
        marker = self.tags.marker(uid)
        return marker if marker is not None and marker.number == TRUCK else None

    def _on_place(self, city: str, uid: str) -> None:
        truck = self._truck(uid)
        state = self.state
        if truck is None or state.finished or state.phase is not Phase.PLAY:
            return
        player = state.player(truck.colour)
        if player is None or player.space == city:
            return  # put back where it stands
        if not self._blocked(acting=truck):
            self._apply(TruckOn(truck.colour, city))

    def _on_lift(self, city: str, uid: str) -> None:
        """Lifting a truck changes nothing: the move happens when it settles on a city (or OK)."""

    # -- cards, buttons, touches ---------------------------------------------------------------
    def _on_card(self, tag: Tag) -> None:
        if isinstance(tag, BankCardTag):
            self._apply(ScanBank(tag.colour))
        elif isinstance(tag, CardTag) and not self._blocked():
            self._apply(ScanCard(tag.card))

    def _on_button(self, button: ButtonName) -> None:
        if button in (ButtonName.OK, ButtonName.MENU) and self._blocked():
            return  # put the table right first
        self._apply(Press(button))

    def _on_city(self, city: str) -> None:
        """A touch on the map: a city or a plain space."""
        self._apply(Touch(city))

    # -- the game's events as the message line ---------------------------------------------------
    def _describe(self, events: list[Any]) -> None:
        for e in events:
            message = event_message(self._text, self.state, e)
            if message is not None:
                self._message = message

    # -- the table against the engine ------------------------------------------------------------
    def _problems(self) -> list[Problem]:
        state = self.state
        board = state.board
        expected = {
            MarkerTag(p.colour, TRUCK): p.space for p in state.players if p.space is not None and board.is_city(p.space)
        }
        in_hand = None
        if state.phase is Phase.PLAY and not state.finished and state.turn.stage is Stage.MOVE:
            truck = MarkerTag(state.current.colour, TRUCK)
            uid = self.tags.uid_of(truck)
            if uid is None or uid not in self._sensed:
                in_hand = truck  # lifted on the way to its destination
        return mismatches(expected, self.tags, self._sensed, in_hand=in_hand, settling=frozenset(self._settling))

    def _blocked(self, acting: MarkerTag | None = None) -> bool:
        if self.state.finished:
            return True
        return any(p.marker != acting for p in self._problems())

    def _problem_text(self, problem: Problem) -> str:
        t = self._text
        match problem:
            case PutBack(marker=m, city=city):
                return t.text("aa_prompt.put_truck", colour=m.colour, city=city)
            case TakeOff(marker=None, city=city):
                return t.text("prompt.take_off_unknown", city=city)
            case TakeOff(marker=m, city=city):
                assert m is not None
                p = self.state.player(m.colour)
                space = None if p is None else p.space
                if space is not None:
                    return t.text("aa_prompt.take_truck_off_space", colour=m.colour, city=city,
                                  space=named(t, self.state, space))  # fmt: skip
                return t.text("aa_prompt.take_truck_off", colour=m.colour, city=city)
        return ""

    # -- turns, UI model, LEDs ---------------------------------------------------------------------
    def _turn_key(self) -> Hashable:
        state = self.state
        return state.phase, state.turn.round, state.turn.seat

    def _on_new_turn(self) -> None:
        self._prompt = Idle()  # no dialog of the previous player's survives

    def _compute_leds(self) -> LedFrame:
        state = self.state
        ui = self._ui
        cities = set(state.board.cities)
        lights: dict[str, CityLight] = {c: CityLight.HINT for c in ui.hints if c in cities}
        if ui.selected in cities:
            lights[ui.selected] = CityLight.SELECTED  # type: ignore[index]
        for city in ui.expected:
            lights[city] = CityLight.EXPECTED
        seat: int | None = None
        if state.phase is Phase.PLAY and not state.finished:
            seat = state.turn.seat
            if state.auction is not None:  # the seat LED follows the bidder (scanned, or named)
                scanned = self._prompt.bidder if isinstance(self._prompt, Bidding) else None
                bidder = scanned or state.auction.bidder
                seat = state.config.seat_of(bidder) if bidder is not None else seat
        return LedFrame.build(lights, seat=seat)  # no time track, no event kinds in Auf Achse

    def _compute_ui(self) -> UiModel:
        state = self.state
        t = self._text
        self._prompt = settle(self._prompt, state)  # an undo or a new turn may have changed the game
        base = UiModel(language=t.language, player=state.current.colour, refusal=self._refusal, message=self._message)
        if state.finished:
            names = winners(state)
            text = (
                t.text("message.winners_one", winner=t.player_name(names[0]))
                if len(names) == 1
                else t.text("message.winners_many", winners=", ".join(map(t.player_name, names)))
            )
            return replace(base, mode=Mode.GAME_OVER, prompt=t.text("aa_message.winners", winners=text))
        problems = self._problems()
        if problems:
            expected = tuple(dict.fromkeys(p.city for p in problems))
            return replace(base, mode=Mode.MISMATCH, prompt=self._problem_text(problems[0]), expected=expected)
        ui = prompt_ui(self._prompt, state, t, base)
        if self._bot_card_due() and ui.player is not None:  # a person draws and scans the card for the box
            return replace(ui, detail=t.text("aa_message.box_draws", player=t.player_name(ui.player)))
        return ui


def _describe_command(command: object) -> str:
    from companion.games.auf_achse.engine.serialize import command_to_json

    try:
        data = command_to_json(command)  # type: ignore[arg-type]
    except TypeError:
        return repr(command)
    return " ".join(str(v) for k, v in data.items() if k != "player")
