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

The engine is the truth: a truck standing in a city must be on that city's reader, a truck on a plain
space on none; until the table matches, the screen says what to put right and the city blinks.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace
from typing import Any

from companion.engine.errors import IllegalAction
from companion.engine.game import Game
from companion.games.auf_achse.engine import (
    Bid,
    BuyTrailer,
    DealContract,
    DrawAction,
    EndTurn,
    GameConfig,
    GameState,
    Load,
    Move,
    OpenAuction,
    PassBid,
    PayDebt,
    PlaceSign,
    PlaceTruck,
    RevealPublic,
    Roll,
    Sign,
    StartGame,
    TakeSpare,
    TrailerSize,
    Unload,
    new_game,
)
from companion.games.auf_achse.engine.auction import check_bidder
from companion.games.auf_achse.engine.money import dm
from companion.games.auf_achse.engine.movement import sign_spaces
from companion.games.auf_achse.engine.queries import (
    auction_status,
    auctionable,
    cargo_options,
    legal_destinations,
)
from companion.games.auf_achse.engine.scoring import winners
from companion.games.auf_achse.engine.state import FACE_UP, PRIVATE_CONTRACTS, TRAILERS, Phase, Stage, Waiting
from companion.games.auf_achse.table.messages import event_message
from companion.intents import ButtonName
from companion.ledframe import CityLight, LedFrame
from companion.table.base import SETTLE_S, LedSink, TableBase
from companion.table.reconcile import Problem, PutBack, TakeOff, mismatches
from companion.table.tags import BankCardTag, CardTag, MarkerTag, Tag, TagDirectory
from companion.table.ui import Mode, UiModel

log = logging.getLogger(__name__)

TRUCK = 1  # an Auf Achse truck carries the tag of marker 1 of its colour


@dataclass(frozen=True, slots=True)
class _Confirm:
    command: object
    prompt: str


@dataclass(frozen=True, slots=True)
class _Menu:
    items: tuple[str, ...]
    index: int = 0


@dataclass(frozen=True, slots=True)
class _Choose:
    """Pick one command of several: the cargo offer in a city, the contract to auction."""

    kind: str  # "cargo" | "auction"
    labels: tuple[str, ...]
    commands: tuple[object, ...]
    index: int = 0


@dataclass(frozen=True, slots=True)
class _Roadworks:
    index: int = 0


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
    ) -> None:
        self._modal: _Confirm | _Menu | _Choose | _Roadworks | None = None
        self._die: int | None = None
        self._index = 0  # the candidate of a space selection (truck, move, sign) or of the starter
        self._dealing_to: str | None = None  # set-up: who scanned his bank card last
        self._bidder: str | None = None  # the auction: whose bank card was scanned
        self._level: int | None = None
        super().__init__(
            game if game is not None else new_game(config),
            tags,
            leds=leds,
            language=language,
            settle_s=settle_s,
            on_command=on_command,
            on_admin=on_admin,
        )
        self._refresh()

    @property
    def state(self) -> GameState:
        return self.game.state  # type: ignore[no-any-return]

    # -- what is being chosen ------------------------------------------------------------------
    def _setup_step(self) -> tuple[str, str | None]:
        state = self.state
        for p in state.players:
            if p.space is None:
                return "truck", p.colour
        dealing = self._dealing_to
        if dealing is not None and len(state.player(dealing).hand) < PRIVATE_CONTRACTS:  # type: ignore[union-attr]
            return "deal", dealing
        for p in state.players:
            if len(p.hand) < PRIVATE_CONTRACTS:
                return "deal", p.colour
        if len(state.public) < min(FACE_UP, state.config.public_deck):
            return "public", None
        return "start", None

    def _space_candidates(self) -> tuple[str, tuple[str, ...]]:
        """(what, candidates) of the space selection the table is in now, or ("", ())."""
        state = self.state
        if state.finished:
            return "", ()
        if state.phase is Phase.SETUP:
            step, _ = self._setup_step()
            if step != "truck":
                return "", ()
            occupied = {p.space for p in state.players}
            return "truck", tuple(s.id for s in state.board.spaces if not s.city and s.id not in occupied)
        waiting = state.awaiting
        if waiting is not None and waiting.kind in (Waiting.STAU, Waiting.ROADWORKS):
            return waiting.kind.value, sign_spaces(state, waiting.kind.value)
        if isinstance(self._modal, _Roadworks):
            return "roadworks", sign_spaces(state, "roadworks")
        if self._modal is None and state.auction is None and waiting is None and state.turn.stage is Stage.MOVE:
            dests = legal_destinations(state, state.current.colour)
            board = state.board
            # Cities first (they have readers and LEDs), then by steps, then by name.
            order = sorted(dests.values(), key=lambda d: (not board.is_city(d.space), -d.steps, d.space))
            return "move", tuple(d.space for d in order)
        return "", ()

    def _candidate(self) -> tuple[str, str | None]:
        kind, candidates = self._space_candidates()
        if not candidates:
            return kind, None
        return kind, candidates[self._index % len(candidates)]

    # -- placements on the readers -------------------------------------------------------------
    def _truck(self, uid: str) -> MarkerTag | None:
        marker = self.tags.marker(uid)
        return marker if marker is not None and marker.number == TRUCK else None

    def _on_place(self, city: str, uid: str) -> None:
        truck = self._truck(uid)
        state = self.state
        if truck is None or state.finished or state.phase is not Phase.PLAY:
            return
        if state.player(truck.colour) is None or state.player(truck.colour).space == city:  # type: ignore[union-attr]
            return  # put back where it stands
        kind, _ = self._space_candidates()
        if kind == "move" and truck.colour == state.current.colour and not self._blocked(acting=truck):
            self._move(city)

    def _on_lift(self, city: str, uid: str) -> None:
        """Lifting a truck changes nothing: the move happens when it settles on a city (or OK)."""

    def _move(self, space: str) -> None:
        colour = self.state.current.colour
        events = self._push(Move(colour, space))
        if events is not None:
            self._index = 0
            self._offer_cargo()

    def _offer_cargo(self) -> bool:
        state = self.state
        colour = state.current.colour
        options = cargo_options(state, colour)
        if not options:
            return False
        t = self._text
        labels: list[str] = []
        commands: list[object] = []
        for o in options:
            card = state.config.contract(o.card)
            assert card is not None
            if o.unload:
                labels.append(t.text("aa_prompt.unload_option", card=o.card, city=card.end, pay=dm(card.payout)))
                commands.append(Unload(colour, o.card))
            else:
                key = "aa_prompt.load_option" if o.fits else "aa_prompt.load_option_full"
                labels.append(t.text(key, card=o.card, start=card.start, end=card.end, goods=o.goods))
                commands.append(Load(colour, o.card))
        self._modal = _Choose("cargo", tuple(labels), tuple(commands))
        return True

    # -- cards ---------------------------------------------------------------------------------
    def _on_card(self, tag: Tag) -> None:
        state = self.state
        if isinstance(tag, BankCardTag):
            self._bank_card(tag.colour)
            return
        if not isinstance(tag, CardTag) or self._blocked():
            return
        card = tag.card
        if state.phase is Phase.SETUP:
            step, colour = self._setup_step()
            if state.config.contract(card) is None:
                self._push(DrawAction(card))  # the engine says why not now
            elif step in ("truck", "deal"):
                target = colour if step == "deal" and colour is not None else self._deal_target()
                self._push(DealContract(target, card))
            else:
                self._push(RevealPublic(card))
            return
        waiting = state.awaiting
        if state.config.action(card) is not None:
            self._push(DrawAction(card))
            return
        if waiting is not None and waiting.kind is Waiting.SPARE_CONTRACT:
            self._push(TakeSpare(waiting.player or state.current.colour, card))
            return
        if waiting is not None or state.auction is not None:
            self._push(RevealPublic(card))  # the awaited public card (or the engine says why not)
            return
        colour = state.current.colour
        p = state.current
        if card in state.public:
            c = state.config.contract(card)
            assert c is not None
            prompt = self._text.text("aa_prompt.auction_open", card=card, start=c.start, end=c.end)
            self._modal = _Confirm(OpenAuction(colour, card), prompt)
        elif card in p.loaded:
            self._modal = None
            self._push(Unload(colour, card))
        else:
            self._modal = None
            self._push(Load(colour, card))  # a private contract: load it (or the engine says why not)
        if self._modal is None:
            self._offer_cargo_if_left()

    def _deal_target(self) -> str:
        state = self.state
        if self._dealing_to is not None:
            return self._dealing_to
        return next((p.colour for p in state.players if len(p.hand) < PRIVATE_CONTRACTS), state.players[0].colour)

    def _bank_card(self, colour: str) -> None:
        state = self.state
        p = state.player(colour)
        if p is None:
            return
        if state.phase is Phase.SETUP:
            self._dealing_to = colour
        elif state.auction is not None:
            status = auction_status(state)
            assert status is not None
            if colour not in status.may_act:
                try:  # the engine says why he may not bid now (AA-19)
                    check_bidder(state, state.auction, PassBid(colour))
                except IllegalAction as refusal:
                    self._refuse(refusal.rule, refusal.message)
                return
            self._refusal = None
            self._bidder = colour
            allowed = status.allowed_for(colour)
            self._level = allowed[0][0] if allowed else None
            return
        self._message = self._text.text("aa_message.bank_card", player=colour, money=dm(p.money))

    def _offer_cargo_if_left(self) -> None:
        if self._refusal is None and self._modal is None:
            self._offer_cargo()

    # -- buttons -------------------------------------------------------------------------------
    def _on_button(self, button: ButtonName) -> None:
        if button is ButtonName.BACK:
            self._back()
        elif button in (ButtonName.PLUS, ButtonName.MINUS):
            self._step(1 if button is ButtonName.PLUS else -1)
        elif button is ButtonName.MENU:
            if self._blocked() or self.state.phase is Phase.SETUP or self.state.auction or self.state.awaiting:
                return
            self._modal = None if isinstance(self._modal, _Menu) else _Menu(self._menu_items())
        elif button is ButtonName.OK:
            self._ok()

    def _menu_items(self) -> tuple[str, ...]:
        state = self.state
        colour = state.current.colour
        items: list[str] = []
        if state.turn.stage is Stage.ROLL:
            items.append("roll_for_me")
        if auctionable(state, colour):
            items.append("auction")
        for size in TrailerSize:
            if state.trailers_available(size) > 0:
                items.append(f"trailer_{size.value}")
        if state.turn.roadworks_allowed:
            items.append("roadworks")
        p = state.current
        if p.debts and not state.config.rules.auto_settle_debts:
            items.append("pay_debt")
        if state.turn.stage is Stage.ACT:
            items.append("end_turn")
        items.append("language")
        return tuple(items)

    def _back(self) -> None:
        state = self.state
        modal = self._modal
        if (isinstance(modal, _Choose) and modal.kind == "auction") or isinstance(modal, _Roadworks):
            self._modal = _Menu(self._menu_items())
        elif modal is not None:
            self._modal = None
        elif state.auction is not None and self._bidder is not None:
            bidder, self._bidder, self._level = self._bidder, None, None
            self._push(PassBid(bidder))
        elif state.phase is Phase.PLAY and state.turn.stage is Stage.ROLL and self._die is not None:
            self._die = None
        else:
            self._bidder = self._level = None
            self._undo_in_turn(_describe_command)
            self._index = 0

    def _step(self, delta: int) -> None:
        state = self.state
        modal = self._modal
        if isinstance(modal, _Menu):
            self._modal = replace(modal, index=(modal.index + delta) % len(modal.items))
        elif isinstance(modal, _Choose):
            self._modal = replace(modal, index=(modal.index + delta) % len(modal.labels))
        elif modal is not None and not isinstance(modal, _Roadworks):
            return
        elif state.auction is not None:
            status = auction_status(state)
            if status is None or self._bidder is None or not status.allowed_for(self._bidder):
                return
            levels = [lv for lv, _ in status.allowed_for(self._bidder)]
            i = levels.index(self._level) if self._level in levels else 0
            self._level = levels[max(0, min(len(levels) - 1, i + delta))]
        elif state.phase is Phase.SETUP and self._setup_step()[0] == "start":
            self._index = (self._index + delta) % state.config.player_count
        elif state.phase is Phase.PLAY and state.awaiting is None and state.turn.stage is Stage.ROLL:
            self._die = (1 if delta > 0 else 6) if self._die is None else min(6, max(1, self._die + delta))
        else:
            _, candidates = self._space_candidates()
            if candidates:
                self._index = (self._index + delta) % len(candidates)

    def _ok(self) -> None:
        state = self.state
        modal = self._modal
        if self._blocked():
            return
        if isinstance(modal, _Confirm):
            self._modal = None
            if self._push(modal.command) is not None and isinstance(modal.command, EndTurn | OpenAuction):
                self._index = 0
            return
        if isinstance(modal, _Menu):
            self._choose(modal.items[modal.index])
            return
        if isinstance(modal, _Choose):
            if self._push(modal.commands[modal.index]) is not None:
                self._modal = None
                if modal.kind == "cargo":
                    self._offer_cargo()
            return
        kind, candidate = self._candidate()
        if state.phase is Phase.SETUP:
            step, colour = self._setup_step()
            if step == "truck" and candidate is not None and colour is not None:
                if self._push(PlaceTruck(colour, candidate)) is not None:
                    self._index = 0
            elif step == "start":
                starter = state.config.colours[self._index % state.config.player_count]
                if self._push(StartGame(starter)) is not None:
                    self._index = 0
            return
        if kind in ("stau", "roadworks") and candidate is not None:
            who = state.awaiting.player if state.awaiting is not None else None
            sign = Sign.STAU if kind == "stau" else Sign.ROADWORKS
            if self._push(PlaceSign(who or state.current.colour, sign, candidate)) is not None:
                self._modal = None
                self._index = 0
            return
        if state.auction is not None:
            if self._bidder is not None and self._level is not None:
                bidder, level = self._bidder, self._level
                if self._push(Bid(bidder, level)) is not None:
                    self._bidder = self._level = None
            return
        if state.awaiting is not None:
            return
        colour = state.current.colour
        stage = state.turn.stage
        if stage is Stage.ROLL:
            if self._die is not None and self._push(Roll(colour, self._die)) is not None:
                self._die = None
                self._index = 0
            return
        if stage is Stage.MOVE:
            if candidate is not None:
                self._move(candidate)
            return
        if not self._offer_cargo():
            self._modal = _Confirm(EndTurn(colour), self._text.text("aa_prompt.confirm_end", player=colour))

    def _choose(self, item: str) -> None:
        state = self.state
        colour = state.current.colour
        self._modal = None
        if item == "language":
            self._toggle_language()
        elif item == "roll_for_me":
            self._push(Roll(colour))
            self._die = None
            self._index = 0
        elif item == "auction":
            labels = []
            for cid in auctionable(state, colour):
                c = state.config.contract(cid)
                assert c is not None
                labels.append(f"{cid} {c.start}→{c.end} {dm(c.payout)}")
            self._modal = _Choose(
                "auction", tuple(labels), tuple(OpenAuction(colour, c) for c in auctionable(state, colour))
            )
        elif item.startswith("trailer_"):
            self._push(BuyTrailer(colour, TrailerSize(item.removeprefix("trailer_"))))
        elif item == "roadworks":
            self._index = 0
            self._modal = _Roadworks()
        elif item == "pay_debt":
            self._push(PayDebt(colour))
        elif item == "end_turn":
            self._push(EndTurn(colour))

    def _on_city(self, city: str) -> None:
        """A touch on the map: a city or a plain space. Picks it among the candidates of a selection;
        a touch that is no candidate lets the engine say why not."""
        kind, candidates = self._space_candidates()
        if not kind:
            return
        if city in candidates:
            self._index = candidates.index(city)
        elif kind == "move":
            self._move(city)
        elif kind == "truck":
            _, colour = self._setup_step()
            self._push(PlaceTruck(colour or self.state.current.colour, city))
        else:
            waiting = self.state.awaiting
            who = waiting.player if waiting is not None and waiting.player else self.state.current.colour
            self._push(PlaceSign(who, Sign(kind), city))

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
                    return t.text("aa_prompt.take_truck_off_space", colour=m.colour, city=city, space=space)
                return t.text("aa_prompt.take_truck_off", colour=m.colour, city=city)
        return ""

    # -- turns, UI model, LEDs ---------------------------------------------------------------------
    def _turn_key(self) -> Hashable:
        state = self.state
        return state.phase, state.turn.round, state.turn.seat

    def _on_new_turn(self) -> None:
        self._modal = None
        self._die = None
        self._index = 0
        self._bidder = self._level = None

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
                bidder = self._bidder or state.auction.bidder
                seat = state.config.seat_of(bidder) if bidder is not None else seat
        return LedFrame.build(lights, seat=seat)  # no time track, no event kinds in Auf Achse

    def _compute_ui(self) -> UiModel:
        state = self.state
        t = self._text
        status = auction_status(state)
        if self._bidder is not None and (status is None or self._bidder not in status.may_act):
            self._bidder = self._level = None  # the bid moved on (or was undone)
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
        if state.phase is Phase.SETUP:
            return self._setup_ui(base)
        colour = state.current.colour
        waiting = state.awaiting
        if waiting is not None:
            who = waiting.player or colour
            if waiting.kind in (Waiting.STAU, Waiting.ROADWORKS):
                return self._select_ui(
                    replace(base, player=who),
                    t.text("aa_prompt.sign_due", player=who, sign=t.text(f"aa_words.{waiting.kind.value}")),
                    t.text("aa_prompt.sign_detail"),
                )
            key = {
                Waiting.PUBLIC_CARD: "aa_prompt.public_due",
                Waiting.ACTION_CARD: "aa_prompt.action_due",
                Waiting.SPARE_CONTRACT: "aa_prompt.spare_due",
            }[waiting.kind]
            return replace(base, mode=Mode.CARD_DUE, player=who, prompt=t.text(key, player=who))
        if state.auction is not None:
            return self._auction_ui(base)
        modal = self._modal
        if isinstance(modal, _Confirm):
            return replace(base, mode=Mode.CONFIRM, prompt=modal.prompt, detail=t.text("prompt.confirm_detail"))
        if isinstance(modal, _Menu):
            labels = tuple(self._menu_label(item) for item in modal.items)
            return replace(base, mode=Mode.MENU, prompt=t.text("prompt.menu"), detail=t.text("prompt.menu_detail"),
                           choices=labels, choice_index=modal.index)  # fmt: skip
        if isinstance(modal, _Choose):
            p = state.current
            if modal.kind == "cargo":
                prompt = t.text("aa_prompt.cargo", player=colour, city=p.space)
                detail = t.text("aa_prompt.cargo_detail")
            else:
                prompt = t.text("aa_prompt.auction_pick", player=colour)
                detail = t.text("aa_prompt.auction_pick_detail")
            return replace(base, mode=Mode.CHOOSE, prompt=prompt, detail=detail, choices=modal.labels,
                           choice_index=modal.index)  # fmt: skip
        if isinstance(modal, _Roadworks):
            return self._select_ui(
                base, t.text("aa_prompt.roadworks", player=colour), t.text("aa_prompt.roadworks_detail")
            )
        stage = state.turn.stage
        if stage is Stage.ROLL:
            if self._die is None:
                prompt = t.text("aa_prompt.roll", player=colour)
            else:
                prompt = t.text("aa_prompt.roll_value", player=colour, value=self._die)
            return replace(base, mode=Mode.ROLL, prompt=prompt, detail=t.text("aa_prompt.roll_detail"), die=self._die)
        if stage is Stage.MOVE:
            roll = state.turn.roll or 0
            _, candidate = self._candidate()
            if candidate is None:
                return replace(base, mode=Mode.MOVE, die=roll, prompt=t.text("aa_prompt.move_none", player=colour,
                               roll=roll), detail=t.text("aa_prompt.move_detail"))  # fmt: skip
            ui = self._select_ui(
                base,
                t.text("aa_prompt.move", player=colour, roll=roll, space=candidate),
                t.text("aa_prompt.move_detail"),
            )
            return replace(ui, mode=Mode.MOVE, die=roll)
        must = state.turn.must_serve if not state.turn.served else None
        prompt = (
            t.text("aa_prompt.must_serve", player=colour, city=must) if must else t.text("aa_prompt.act", player=colour)
        )
        return replace(base, mode=Mode.IDLE, prompt=prompt, detail=t.text("aa_prompt.act_detail"), die=state.turn.roll)

    def _select_ui(self, base: UiModel, prompt: str, detail: str) -> UiModel:
        _, candidates = self._space_candidates()
        selected = candidates[self._index % len(candidates)] if candidates else None
        return replace(base, mode=Mode.SELECT_SPACE, prompt=prompt, detail=detail, hints=frozenset(candidates),
                       selected=selected)  # fmt: skip

    def _setup_ui(self, base: UiModel) -> UiModel:
        state = self.state
        t = self._text
        step, colour = self._setup_step()
        if step == "truck":
            assert colour is not None
            ui = self._select_ui(base, t.text("aa_prompt.place_truck", player=colour),
                                 t.text("aa_prompt.place_truck_detail"))  # fmt: skip
            return replace(ui, player=colour)
        if step == "deal":
            assert colour is not None
            n = len(state.player(colour).hand)  # type: ignore[union-attr]
            return replace(base, mode=Mode.SETUP, player=colour, prompt=t.text("aa_prompt.deal", player=colour, n=n),
                           detail=t.text("aa_prompt.deal_detail"))  # fmt: skip
        if step == "public":
            total = min(FACE_UP, state.config.public_deck)
            return replace(base, mode=Mode.SETUP, player=None,
                           prompt=t.text("aa_prompt.public", n=len(state.public), total=total))  # fmt: skip
        colours = state.config.colours
        starter = colours[self._index % len(colours)]
        return replace(base, mode=Mode.SETUP, player=starter, prompt=t.text("aa_prompt.start", player=starter),
                       detail=t.text("aa_prompt.start_detail"), choices=colours,
                       choice_index=self._index % len(colours))  # fmt: skip

    def _auction_ui(self, base: UiModel) -> UiModel:
        state = self.state
        t = self._text
        status = auction_status(state)
        assert status is not None
        bidder = self._bidder or status.bidder  # scanned (any order) or named (round_the_table)
        base = replace(base, mode=Mode.AUCTION, player=bidder or base.player, bidder=self._bidder, level=self._level)
        if self._bidder is None:
            if status.bidder is None:
                players = ", ".join(status.still_in)
                return replace(base, prompt=t.text("aa_prompt.auction_any", card=status.card, players=players),
                               detail=t.text("aa_prompt.auction_any_detail"))  # fmt: skip
            return replace(base, prompt=t.text("aa_prompt.auction_bidder", card=status.card, player=bidder),
                           detail=t.text("aa_prompt.auction_bidder_detail"))  # fmt: skip
        if self._level is None:
            return replace(base, prompt=t.text("aa_prompt.auction_none", player=bidder))
        allowed = status.allowed_for(self._bidder)
        amount = dict(allowed).get(self._level, 0)
        labels = tuple(f"{lv}: {dm(amt)}" for lv, amt in allowed)
        levels = [lv for lv, _ in allowed]
        return replace(base, prompt=t.text("aa_prompt.auction_level", player=bidder, level=self._level,
                       amount=dm(amount)), detail=t.text("aa_prompt.auction_level_detail"), choices=labels,
                       choice_index=levels.index(self._level))  # fmt: skip

    def _menu_label(self, item: str) -> str:
        t = self._text
        if item == "language":
            return t.text("menu.language")
        if item.startswith("trailer_"):
            size = TrailerSize(item.removeprefix("trailer_"))
            return t.text(f"aa_menu.{item}", price=dm(TRAILERS[size].price))
        if item == "pay_debt":
            return t.text("aa_menu.pay_debt", amount=dm(self.state.current.debt))
        return t.text(f"aa_menu.{item}")


def _describe_command(command: object) -> str:
    from companion.games.auf_achse.engine.serialize import command_to_json

    try:
        data = command_to_json(command)  # type: ignore[arg-type]
    except TypeError:
        return repr(command)
    return " ".join(str(v) for k, v in data.items() if k != "player")
