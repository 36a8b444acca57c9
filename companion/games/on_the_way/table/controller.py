"""The table controller: sensed intents in, engine commands out, and what the screen and LEDs show.

One loop calls ``handle(intent, now)`` for every intent (RFID readers, card reader, buttons, touch,
keyboard) and ``tick(now)`` regularly; hardware callbacks never call in here directly
(``../shared/design/table.md``, style point 10). The engine is the truth: when the sensed table
disagrees, the controller prompts until it matches again and changes nothing meanwhile.

Placements settle before they count: a marker must rest on a reader for ``settle_s`` seconds
(default 0.35 s, as PicoChess waits ~350 ms) so sliding a marker across cities moves nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace

from companion.engine.errors import IllegalAction
from companion.engine.game import Game
from companion.games.on_the_way.engine import (
    Build,
    Building,
    Cancel,
    Command,
    Expand,
    Fulfil,
    GameConfig,
    GameState,
    Move,
    Pass,
    RevealEvent,
    TakeContract,
    new_game,
)
from companion.games.on_the_way.engine import events as ev
from companion.games.on_the_way.engine.cards import EventKind
from companion.games.on_the_way.engine.queries import (
    fulfillable,
    legal_builds,
    reachable_from_marker,
    reachable_new_transport,
)
from companion.games.on_the_way.engine.rules import BUILD_COST, EXPAND_COST, build_cost, money
from companion.games.on_the_way.engine.scoring import winners
from companion.games.on_the_way.table.leds import led_frame
from companion.intents import ButtonName
from companion.ledframe import LedFrame
from companion.table.base import SETTLE_S, LedSink, TableBase
from companion.table.messages import Catalogue
from companion.table.reconcile import Problem, PutBack, TakeOff, mismatches
from companion.table.tags import CardTag, MarkerTag, Tag, TagDirectory
from companion.table.ui import Mode, UiModel

log = logging.getLogger(__name__)

__all__ = ["SETTLE_S", "LedSink", "TableController"]


@dataclass(frozen=True, slots=True)
class _Lifted:
    marker: MarkerTag
    city: str  # where the engine has the transport
    trucks: int  # including idle trucks to join (PLUS/MINUS)


@dataclass(frozen=True, slots=True)
class _Forming:
    marker: MarkerTag
    city: str
    trucks: int


@dataclass(frozen=True, slots=True)
class _Confirm:
    command: Command  # what OK does
    prompt: str


@dataclass(frozen=True, slots=True)
class _Menu:
    items: tuple[str, ...]  # menu keys
    index: int = 0


@dataclass(frozen=True, slots=True)
class _Select:
    kind: str  # menu key: build_warehouse | build_logistics_centre | expand
    candidates: tuple[str, ...]
    index: int = 0


MENU_ITEMS = ("build_warehouse", "build_logistics_centre", "expand", "end_turn", "language")


def expected_markers(state: GameState) -> dict[MarkerTag, str]:
    """Where the engine has each transport: the marker that stands for it must be on that city."""
    return {MarkerTag(p.colour, t.marker): t.city for p in state.players for t in p.transports}


class TableController(TableBase):
    """On The Way at the table: turns intents into engine commands (the shared half is ``TableBase``)."""

    messages = "companion.games.on_the_way"  # the package whose messages/ hold this table's texts

    def __init__(
        self,
        config: GameConfig,
        tags: TagDirectory,
        *,
        leds: LedSink | None = None,
        language: str = "en",
        settle_s: float = SETTLE_S,
        game: Game[GameState] | None = None,
        on_command: Callable[[Command], None] | None = None,
        on_admin: Callable[[], None] | None = None,
    ) -> None:
        self._lifted: _Lifted | None = None
        self._forming: _Forming | None = None
        self._modal: _Confirm | _Menu | _Select | None = None
        super().__init__(
            game if game is not None else new_game(config),
            tags,
            leds=leds,
            language=language,
            settle_s=settle_s,
            on_command=on_command,  # type: ignore[arg-type]
            on_admin=on_admin,
        )
        self._refresh()

    @property
    def state(self) -> GameState:
        return self.game.state  # type: ignore[no-any-return]

    def _describe(self, events: list[object]) -> None:
        t = self._text
        for e in events:
            match e:
                case ev.ContractTaken(player=p, card=card_id):
                    card = self.state.config.contract(card_id)
                    assert card is not None
                    self._message = t.text(
                        "message.taken",
                        player=p,
                        card=card.id,
                        origin=card.origin,
                        destination=card.destination,
                        trucks=t.trucks(card.trucks),
                        pay=money(card.pay),
                    )
                case ev.TransportMoved(player=p, marker=m, route=route):
                    self._message = t.text("message.moved", colour=p, n=m, city=route[-1])
                case ev.ContractFulfilled(player=p, marker=m, card=card_id, city=city):
                    self._message = t.text("message.fulfilled", player=p, card=card_id, n=m, city=city)
                case ev.Built(player=p, city=city, building=b, trucks=n):
                    self._message = t.text(
                        "message.built", player=p, building=t.text(f"words.{b}"), city=city, trucks=t.trucks(n)
                    )
                case ev.TransportCancelled(player=p, marker=m, city=city):
                    self._message = t.text("message.cancelled", colour=p, n=m, city=city)
                case ev.EventRevealed(card=card_id):
                    self._message = t.text("message.event", card=card_id, kind=self._event_text(card_id))

    def _event_text(self, card_id: str) -> str:
        card = self.state.config.event(card_id)
        if card is None:
            return ""
        road = "–".join(card.road) if card.road else ""
        return self._text.text(f"event_kind.{card.kind.value}", amount=money(card.amount), road=road)

    # -- markers -------------------------------------------------------------------------
    def _on_lift(self, city: str, uid: str) -> None:
        marker = self.tags.marker(uid)
        if marker is None or self.state.finished:
            return
        if self._forming is not None and self._forming.marker == marker:
            return  # lifted off its start city on the way to the destination
        state = self.state
        player = state.player(marker.colour)
        transport = None if player is None else player.transport(marker.number)
        if transport is None or marker.colour != state.current.colour or self._blocked(acting=marker):
            return  # reconciliation will ask for it back
        self._modal = None
        self._lifted = _Lifted(marker, transport.city, transport.trucks)

    def _on_place(self, city: str, uid: str) -> None:
        marker = self.tags.marker(uid)
        if marker is None:
            return
        if isinstance(self._modal, _Select) and city in self._modal.candidates:
            self._select(city)  # a tagged piece touched to a city's reader picks that city
            return
        lifted, forming = self._lifted, self._forming
        if lifted is not None and lifted.marker == marker:
            self._lifted = None
            if city == lifted.city and lifted.trucks == self._transport_trucks(marker):
                return  # put back: no move
            joined = lifted.trucks if lifted.trucks != self._transport_trucks(marker) else None
            self._after_move(self._push(Move(marker.colour, marker.number, city, trucks=joined)), marker)
            return
        if forming is not None and forming.marker == marker:
            if city == forming.city:
                return
            events = self._push(Move(marker.colour, marker.number, city, forming.city, forming.trucks))
            if events is not None:
                self._forming = None
            self._after_move(events, marker)
            return
        self._maybe_start_forming(marker, city)

    def _transport_trucks(self, marker: MarkerTag) -> int:
        player = self.state.player(marker.colour)
        transport = None if player is None else player.transport(marker.number)
        return 0 if transport is None else transport.trucks

    def _maybe_start_forming(self, marker: MarkerTag, city: str) -> None:
        state = self.state
        if self._blocked(acting=marker) or marker.colour != state.current.colour or self._forming is not None:
            return
        player = state.current
        if player.transport(marker.number) is not None:
            return
        idle = state.idle_at(city)
        if idle < 1:
            self._refuse(
                "OTW-15", f"{city} has no idle trucks; a transport starts from idle trucks (take the marker off)"
            )
            return
        wanted = [c.trucks for cid in player.contracts if (c := state.config.contract(cid)) and c.origin == city]
        self._modal = None
        self._forming = _Forming(marker, city, max(1, min(idle, max(wanted, default=1))))

    def _after_move(self, events: list[object] | None, marker: MarkerTag) -> None:
        if events is None:
            return
        # Offer to fulfil a contract this transport can now complete (OTW-21).
        for card, m in fulfillable(self.state, marker.colour):
            if m == marker.number:
                self._modal = self._fulfil_offer(card.id)
                return

    def _fulfil_offer(self, card_id: str) -> _Confirm:
        card = self.state.config.contract(card_id)
        assert card is not None
        pay = card.pay
        event = self.state.active_event()
        if event is not None and event.kind is EventKind.BONUS:
            pay += event.amount
        elif event is not None and event.kind is EventKind.MALUS:
            pay -= min(event.amount, pay)
        prompt = self._text.text(
            "prompt.confirm_fulfil", card=card.id, origin=card.origin, destination=card.destination, pay=money(pay)
        )
        return _Confirm(Fulfil(self.state.current.colour, card.id), prompt)

    # -- cards ---------------------------------------------------------------------------
    def _on_card(self, tag: Tag) -> None:
        state = self.state
        if self._blocked(allow_event=True):
            return
        if isinstance(tag, MarkerTag):
            self._offer_cancel(tag)
            return
        if not isinstance(tag, CardTag):
            return
        colour = state.current.colour
        if state.config.event(tag.card) is not None:
            self._push(RevealEvent(tag.card))
        elif tag.card in state.current.contracts:
            self._modal = None
            self._push(Fulfil(colour, tag.card))  # re-scanning a held contract fulfils it (or says why not)
        else:
            holder = next((p.colour for p in state.players if tag.card in p.contracts), None)
            if holder is not None:
                self._refuse("OTW-12", f"{tag.card} is {holder}'s contract")
            else:
                self._modal = None
                self._push(TakeContract(colour, tag.card))

    def _offer_cancel(self, marker: MarkerTag) -> None:
        player = self.state.current
        transport = player.transport(marker.number) if marker.colour == player.colour else None
        if transport is None:
            self._refuse("OTW-27", f"{marker} is not a transport of {player.colour} on the road")
            return
        prompt = self._text.text("prompt.confirm_cancel", colour=marker.colour, n=marker.number, city=transport.city)
        self._modal = _Confirm(Cancel(player.colour, marker.number), prompt)

    # -- buttons -------------------------------------------------------------------------
    def _on_button(self, button: ButtonName) -> None:
        modal = self._modal
        if button is ButtonName.BACK:
            self._back()
        elif button in (ButtonName.PLUS, ButtonName.MINUS):
            self._step(1 if button is ButtonName.PLUS else -1)
        elif button is ButtonName.MENU:
            self._lifted = None
            self._modal = None if isinstance(modal, _Menu) else _Menu(MENU_ITEMS)
        elif button is ButtonName.OK:
            self._ok()

    def _back(self) -> None:
        modal = self._modal
        if isinstance(modal, _Select):
            self._modal = _Menu(MENU_ITEMS, MENU_ITEMS.index(modal.kind))
        elif modal is not None:
            self._modal = None
        elif self._forming is not None:
            self._forming = None  # reconciliation asks for the marker to come off
        elif self._lifted is not None:
            pass  # the marker is in the hand: putting it back is the way out
        else:
            self._undo_in_turn(_describe_command)

    def _step(self, delta: int) -> None:
        modal = self._modal
        if isinstance(modal, _Menu):
            self._modal = replace(modal, index=(modal.index + delta) % len(modal.items))
        elif isinstance(modal, _Select):
            self._modal = replace(modal, index=(modal.index + delta) % len(modal.candidates))
        elif self._forming is not None:
            f = self._forming
            self._forming = replace(f, trucks=min(max(1, f.trucks + delta), max(1, self.state.idle_at(f.city))))
        elif self._lifted is not None:
            lifted = self._lifted
            base = self._transport_trucks(lifted.marker)
            top = base + self.state.idle_at(lifted.city)
            self._lifted = replace(lifted, trucks=min(max(base, lifted.trucks + delta), top))

    def _ok(self) -> None:
        modal = self._modal
        state = self.state
        if isinstance(modal, _Confirm):
            self._modal = None
            self._push(modal.command)
        elif isinstance(modal, _Menu):
            self._choose(modal.items[modal.index])
        elif isinstance(modal, _Select):
            self._build(modal.kind, modal.candidates[modal.index])
        elif self._lifted is None and self._forming is None and not self._blocked():
            ready = fulfillable(state, state.current.colour)
            if ready:
                self._modal = self._fulfil_offer(ready[0][0].id)
            else:
                prompt = self._text.text(
                    "prompt.confirm_pass", player=state.current.colour, steps=self._text.steps(state.steps_left)
                )
                self._modal = _Confirm(Pass(state.current.colour), prompt)

    def _choose(self, item: str) -> None:
        state = self.state
        colour = state.current.colour
        if item == "end_turn":
            self._modal = None
            self._push(Pass(colour))
            return
        if item == "language":
            self._toggle_language()
            self._modal = None
            return
        builds = legal_builds(state, colour)
        if item == "expand":
            candidates = tuple(sorted(b.city for b in builds if isinstance(b, Expand)))
        else:
            kind = Building(item.removeprefix("build_"))
            candidates = tuple(sorted(b.city for b in builds if isinstance(b, Build) and b.building is kind))
        if not candidates:
            self._explain_no_build(item)
            return
        self._modal = _Select(item, candidates)

    def _explain_no_build(self, item: str) -> None:
        """Let the engine say why nothing can be built: try the command on a plausible city."""
        state = self.state
        colour = state.current.colour
        names = state.board.names
        if item == "expand":
            city = next((c for c in names if state.building_at(c) is Building.WAREHOUSE), names[0])
            command: Command = Expand(colour, city)
        else:
            city = next((c for c in names if state.building_at(c) is None), names[0])
            command = Build(colour, city, Building(item.removeprefix("build_")))
        try:
            self.game.push(command)
        except IllegalAction as refusal:
            self._refuse(refusal.rule, refusal.message)
        else:  # cannot happen: legal_builds said no; keep the game unchanged regardless
            self.game.pop()

    def _build(self, kind: str, city: str) -> None:
        colour = self.state.current.colour
        command: Command = (
            Expand(colour, city) if kind == "expand" else Build(colour, city, Building(kind.removeprefix("build_")))
        )
        if self._push(command) is not None:
            self._modal = None

    def _on_city(self, city: str) -> None:
        if isinstance(self._modal, _Select):
            if city in self._modal.candidates:
                self._select(city)
            else:
                self._build(self._modal.kind, city)  # the engine says why not

    def _select(self, city: str) -> None:
        assert isinstance(self._modal, _Select)
        self._modal = replace(self._modal, index=self._modal.candidates.index(city))

    # -- state of the table ----------------------------------------------------------------
    def _problems(self) -> list[Problem]:
        forming = None if self._forming is None else (self._forming.marker, self._forming.city)
        return mismatches(
            expected_markers(self.state),
            self.tags,
            self._sensed,
            in_hand=None if self._lifted is None else self._lifted.marker,
            forming=forming,
            settling=frozenset(self._settling),
        )

    def _blocked(self, allow_event: bool = False, acting: MarkerTag | None = None) -> bool:
        """True while the table must be put right, or an event card is due (unless that is allowed).

        Problems about ``acting`` (the marker being lifted or placed right now) do not count.
        """
        state = self.state
        if state.finished:
            return True
        if state.awaiting_event and not allow_event:
            return True
        return any(p.marker != acting for p in self._problems())

    def _turn_key(self) -> Hashable:
        return self.state.turn.round, self.state.turn.seat

    def _on_new_turn(self) -> None:
        self._lifted = None
        self._modal = None

    def _compute_leds(self) -> LedFrame:
        return led_frame(self.state, self._ui)

    def _compute_ui(self) -> UiModel:
        if self._lifted is not None and self._transport_trucks(self._lifted.marker) == 0:
            self._lifted = None  # e.g. undone: that transport no longer exists
        return self._compute_otw_ui()

    def _compute_otw_ui(self) -> UiModel:
        state = self.state
        t = self._text
        colour = state.current.colour
        base = UiModel(
            language=t.language,
            player=colour,
            steps_left=state.steps_left,
            refusal=self._refusal,
            message=self._message,
        )
        if state.finished:
            names = winners(state)
            text = (
                t.text("message.winners_one", winner=t.player_name(names[0]))
                if len(names) == 1
                else t.text("message.winners_many", winners=", ".join(map(t.player_name, names)))
            )
            return replace(base, mode=Mode.GAME_OVER, prompt=t.text("prompt.game_over", winners=text))
        problems = self._problems()
        if problems:
            first = problems[0]
            prompt = _problem_text(t, first)
            expected = tuple(dict.fromkeys(p.city for p in problems))
            return replace(base, mode=Mode.MISMATCH, prompt=prompt, expected=expected)
        if state.awaiting_event:
            return replace(base, mode=Mode.EVENT_DUE, prompt=t.text("prompt.event_due", player=colour))
        modal = self._modal
        if isinstance(modal, _Confirm):
            return replace(base, mode=Mode.CONFIRM, prompt=modal.prompt, detail=t.text("prompt.confirm_detail"),
                           offer=modal.command.card if isinstance(modal.command, Fulfil) else None)  # fmt: skip
        if isinstance(modal, _Menu):
            labels = tuple(self._menu_label(item) for item in modal.items)
            return replace(base, mode=Mode.MENU, prompt=t.text("prompt.menu"), detail=t.text("prompt.menu_detail"),
                           choices=labels, choice_index=modal.index)  # fmt: skip
        if isinstance(modal, _Select):
            what = self._menu_label(modal.kind)
            return replace(base, mode=Mode.SELECT_CITY, prompt=t.text("prompt.select_city", what=what),
                           detail=t.text("prompt.select_city_detail"), choices=modal.candidates,
                           choice_index=modal.index, hints=frozenset(modal.candidates),
                           selected=modal.candidates[modal.index])  # fmt: skip
        if self._lifted is not None:
            lifted = self._lifted
            m = lifted.marker
            hints = frozenset(reachable_from_marker(state, m.colour, m.number, lifted.trucks))
            key = "prompt.lifted" if hints else "prompt.lifted_none"
            prompt = t.text(key, colour=m.colour, n=m.number, trucks=t.trucks(lifted.trucks), city=lifted.city)
            detail = t.text("prompt.lifted_detail", city=lifted.city)
            return replace(base, mode=Mode.LIFTED, prompt=prompt, detail=detail, hints=hints,
                           lifted=(m.colour, m.number), trucks=lifted.trucks)  # fmt: skip
        if self._forming is not None:
            f = self._forming
            hints = frozenset(reachable_new_transport(state, f.marker.colour, f.city, f.trucks))
            prompt = t.text("prompt.forming", colour=f.marker.colour, city=f.city, trucks=t.trucks(f.trucks))
            top = max(1, state.idle_at(f.city))
            return replace(base, mode=Mode.FORMING, prompt=prompt, detail=t.text("prompt.forming_detail"),
                           hints=hints, trucks=f.trucks, choices=tuple(t.trucks(n) for n in range(1, top + 1)),
                           choice_index=f.trucks - 1, lifted=(f.marker.colour, f.marker.number))  # fmt: skip
        prompt = t.text("prompt.turn", player=colour, steps=t.steps(state.steps_left))
        return replace(base, mode=Mode.IDLE, prompt=prompt, detail=t.text("prompt.turn_detail"))

    def _menu_label(self, item: str) -> str:
        state = self.state
        if item in ("build_warehouse", "build_logistics_centre"):
            cost, _ = build_cost(state, BUILD_COST[Building(item.removeprefix("build_"))])
            return self._text.text(f"menu.{item}", cost=money(cost))
        if item == "expand":
            return self._text.text("menu.expand", cost=money(build_cost(state, EXPAND_COST)[0]))
        return self._text.text(f"menu.{item}")


def _problem_text(t: Catalogue, problem: Problem) -> str:
    match problem:
        case PutBack(marker=m, city=city):
            return t.text("prompt.put_back", colour=m.colour, n=m.number, city=city)
        case TakeOff(marker=None, city=city):
            return t.text("prompt.take_off_unknown", city=city)
        case TakeOff(marker=m, city=city):
            assert m is not None
            return t.text("prompt.take_off", colour=m.colour, n=m.number, city=city)
    return ""


def _describe_command(command: object) -> str:
    from companion.games.on_the_way.engine.serialize import command_to_json

    try:
        data = command_to_json(command)  # type: ignore[arg-type]
    except TypeError:
        return repr(command)
    return " ".join(str(v) for k, v in data.items() if k != "player")
