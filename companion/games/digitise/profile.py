"""What the wizard must know of a game: its card forms, its printed scales (for the prefills), its
rulebook facts, and how its TOML files are spelt (docs/data.md, docs/auf-achse.md).

The wizard itself is game-neutral; each game gives its ``GameProfile`` through its plug-in
(``plugin.setup_profile()``, e.g. ``companion/games/on_the_way/setup_profile.py``).
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.games.digitise.model import CardEntry, Value, WizardState

Values = Mapping[str, Value]


@dataclass(frozen=True, slots=True)
class FieldSpec:
    """One thing printed on a card. ``kind``: city (a marker or a touch), pair (two cities: a road),
    int (PLUS/MINUS by ``step``, long press by ``fine``), choice (PLUS/MINUS cycle), text (typed)."""

    name: str
    label: str
    kind: str
    step: int = 1
    fine: int = 1
    minimum: int = 0
    maximum: int = 1_000_000
    choices: tuple[str, ...] = ()
    optional: bool = False


@dataclass(frozen=True)
class CardKind:
    """A kind of card (a TOML section): its fields for given values, the prefill, the id, the TOML."""

    section: str  # "contracts", "events", "actions"
    label: str  # "contract card"
    fields: Callable[[Values], tuple[FieldSpec, ...]]
    prefill: Callable[[Values, WizardState, CardEntry | None], dict[str, Value]]  # (values, state, previous)
    id_prefix: Callable[[Values], str]
    to_toml: Callable[[str, Values, WizardState], dict[str, Any]]
    from_toml: Callable[[Mapping[str, Any]], dict[str, Value]]
    problem: Callable[[Values, WizardState], str | None] = lambda values, state: None  # why it cannot be confirmed
    check: Callable[[Values, WizardState], str | None] = lambda values, state: None  # found by the check step
    messages: str = ""  # the game's package: its catalogue's wizard.choice_<field>_<value> name the choices


@dataclass(frozen=True)
class GameProfile:
    game: str
    files: Mapping[str, str]  # role -> file name in a data set (the reference files' names)
    contracts: CardKind
    events: CardKind
    road_details: bool  # Auf Achse: spaces, triangles, signs per road
    default_spaces: int = 2
    setup_sizes: Mapping[int, int] = field(default_factory=dict)  # players -> start cities (OTW-8)
    default_setup: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    facts: Callable[[WizardState], list[str]] = lambda state: []  # warnings: the rulebook's facts
    reference: Mapping[str, Path] = field(default_factory=dict)  # role -> the shipped file

    def kind(self, section: str) -> CardKind:
        return self.contracts if section == self.contracts.section else self.events


def profile(game: str) -> GameProfile:
    """The profile of ``game`` from its plug-in; ValueError names the games that have one."""
    from companion import games

    found = games.get(game).setup_profile()
    if not isinstance(found, GameProfile):
        raise ValueError(f"the set-up wizard does not know the game {game!r} (it knows {', '.join(profiles())})")
    return found


def profiles() -> tuple[str, ...]:
    """The games that can be digitised with the wizard."""
    from companion import games

    return tuple(sorted(g.name for g in games.all_games() if isinstance(g.setup_profile(), GameProfile)))


def reference_files(game: str) -> dict[str, Path]:
    """The reference data files of ``game`` by role (board, contracts, events)."""
    from companion import games

    return {role.field: role.reference for role in games.get(game).data_roles}


def _int(values: Values, name: str, default: int = 0) -> int:
    value = values.get(name)
    return value if isinstance(value, int) else default


def _str(values: Values, name: str) -> str | None:
    value = values.get(name)
    return value if isinstance(value, str) else None


def _pair(values: Values, name: str) -> tuple[str, ...]:
    value = values.get(name)
    return value if isinstance(value, tuple) else ()


# -- reading a game's files (seeding the wizard, comparing in tests) ----------------------------------


def read_toml(path: Path) -> dict[str, Any]:
    with path.open("rb") as handle:
        return tomllib.load(handle)


def reference_cities(game: str) -> tuple[str, ...]:
    """The reference board's city names, in file order: what the readers step proposes."""
    board = read_toml(profile(game).reference["board"])
    return tuple(c["name"] for c in board.get("cities", ()))
