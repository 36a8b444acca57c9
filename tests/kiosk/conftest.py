"""A kiosk driven by intents and a fake clock, on a temporary journal and the reference data."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.games.on_the_way.data import load_reference
from companion.intents import ButtonName, ButtonPressed, CardScanned, TagLifted, TagPlaced
from companion.journal import JournalStore
from companion.kiosk import Kiosk, KioskSettings, OptionTapped, Screen
from companion.table.tags import AdminTag, CardTag, MarkerTag, TagDirectory

BOARD, DECK = load_reference()
COLOURS = ("red", "blue", "green", "yellow")
TAGS = TagDirectory.simulated(COLOURS, [c.id for c in DECK.contracts] + [e.id for e in DECK.events])
SETTINGS = KioskSettings(
    pin="2468",
    games=("on-the-way",),
    lengths=(None, 8, 4),
    ranking_s=60.0,
    admin_idle_s=30.0,
    pin_lockout_s=100.0,
    replay_step_s=0.0,  # the attract replay has tests of its own (test_kiosk_games.py)
)


class WallClock:
    """Wall-clock time for the journal's records (started at 14:02 ...), advanced by hand."""

    def __init__(self) -> None:
        self.now = 1_790_000_000.0

    def __call__(self) -> float:
        return self.now


class Box:
    """The kiosk as the main loop drives it: intents in, a monotonic ``now``, the view out."""

    def __init__(self, path: Path, settings: KioskSettings = SETTINGS) -> None:
        self.wall = WallClock()
        self.store = JournalStore.open(path, clock=self.wall)
        self.now = 1000.0
        self.kiosk = Kiosk(self.store, TAGS, now=self.now, settings=settings, wall_time=lambda t: "14:02")

    @property
    def screen(self) -> Screen:
        return self.kiosk.screen

    @property
    def view(self):  # type: ignore[no-untyped-def]
        return self.kiosk.view

    def later(self, seconds: float = 0.5) -> None:
        self.now += seconds
        self.wall.now += seconds
        self.kiosk.tick(self.now)

    def press(self, *buttons: str, long: bool = False) -> None:
        for b in buttons:
            self.kiosk.handle(ButtonPressed(ButtonName(b), long), self.now)

    def tap(self, index: int) -> None:
        self.kiosk.handle(OptionTapped(index), self.now)

    def scan(self, card: str) -> None:
        uid = TAGS.uid_of(CardTag(card))
        assert uid is not None
        self.kiosk.handle(CardScanned(uid), self.now)

    def admin_card(self) -> None:
        uid = TAGS.uid_of(AdminTag())
        assert uid is not None
        self.kiosk.handle(CardScanned(uid), self.now)

    def place(self, colour: str, n: int, city: str) -> None:
        uid = TAGS.uid_of(MarkerTag(colour, n))
        assert uid is not None
        self.kiosk.handle(TagPlaced(city, uid), self.now)
        self.later()

    def lift(self, colour: str, n: int, city: str) -> None:
        uid = TAGS.uid_of(MarkerTag(colour, n))
        assert uid is not None
        self.kiosk.handle(TagLifted(city, uid), self.now)

    def enter_pin(self, pin: str) -> None:
        """MENU long press, then each digit: PLUS n times (or MINUS for 6..9), OK."""
        self.press("menu", long=True)
        for digit in pin:
            d = int(digit)
            self.press(*(["plus"] * d if d <= 5 else ["minus"] * (10 - d)))
            self.press("ok")

    def new_game(self, players: int, colour_steps: list[int], length_steps: int = 0) -> None:
        """From attract: OK, PLUS to the player count, one colour per seat (PLUS steps), length, start."""
        self.press("ok")
        self.press(*["plus"] * (players - 2), "ok")
        for steps in colour_steps:
            self.press(*["plus"] * steps, "ok")
        self.press(*["plus"] * length_steps, "ok")
        assert self.screen is Screen.SETUP_CONFIRM
        self.press("ok")

    def close(self) -> None:
        self.kiosk.close()


@pytest.fixture
def box(tmp_path: Path) -> Iterator[Box]:
    b = Box(tmp_path / "journal.sqlite")
    yield b
    b.close()
