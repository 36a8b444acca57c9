"""``evolve`` is ``dataclasses.replace`` for the engines' value types, only faster.

The reference is the standard library itself: for states from real games of both engines and any
field changes, ``evolve`` and ``dataclasses.replace`` give equal values of the same type, the old
value is untouched, a memo stays with its own state, and an unknown field is refused the same way.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.values import _evolve
from companion.games.auf_achse.engine.movement import destinations


def _random_states(game: str, seed: int, steps: int = 150) -> list[Any]:
    """The states of a random legal game (each engine's own ``legal_commands``)."""
    if game == "auf-achse":
        from companion.games.auf_achse.engine import new_game
        from companion.games.auf_achse.engine.queries import legal_commands
        from tests.aa.conftest import config as aa_config

        played = new_game(aa_config(("red", "blue", "green"), seed=seed))
    else:
        from companion.games.on_the_way.engine import new_game  # type: ignore[assignment]
        from companion.games.on_the_way.engine.queries import legal_commands  # type: ignore[assignment]
        from tests.otw.conftest import config as otw_config

        played = new_game(otw_config(("red", "blue", "green")))  # type: ignore[arg-type]
    rng = random.Random(seed)
    states = [played.state]
    while len(states) < steps and not played.state.finished:
        played.push(rng.choice(list(legal_commands(played.state))))  # type: ignore[arg-type]
        states.append(played.state)
    return states


def _values_of_a_game(game: str, seed: int) -> list[Any]:
    """Every dataclass value reachable from the states of a random legal game (players, turns, ...)."""
    found: dict[int, Any] = {}
    for state in _random_states(game, seed):
        stack = [state]
        while stack:
            value = stack.pop()
            if dataclasses.is_dataclass(value) and not isinstance(value, type):
                if id(value) not in found:
                    found[id(value)] = value
                    stack.extend(getattr(value, f.name) for f in dataclasses.fields(value))
            elif isinstance(value, tuple):
                stack.extend(value)
    return list(found.values())


def _by_type(values: list[Any]) -> dict[type, list[Any]]:
    grouped: dict[type, list[Any]] = {}
    for value in values:
        grouped.setdefault(type(value), []).append(value)
    return grouped


VALUES = {game: _by_type(_values_of_a_game(game, 3)) for game in ("on-the-way", "auf-achse")}


@settings(max_examples=150, deadline=None)
@given(data=st.data())
@pytest.mark.parametrize("game", ["on-the-way", "auf-achse"])
def test_evolve_equals_replace_for_every_value_of_a_real_game(game: str, data: st.DataObject) -> None:
    kind = data.draw(st.sampled_from(sorted(VALUES[game], key=lambda t: t.__name__)))  # each type as often
    value = data.draw(st.sampled_from(VALUES[game][kind]))
    donor = data.draw(st.sampled_from(VALUES[game][kind]))  # new field values of the right types
    fields = dataclasses.fields(value)
    names = data.draw(st.sets(st.sampled_from([f.name for f in fields if f.init])))
    changes = {name: getattr(donor, name) for name in names}
    before = dataclasses.astuple(value) if not _has_unhashable(value) else None
    made = _evolve(value, **changes)
    expected = dataclasses.replace(value, **changes)
    assert type(made) is type(expected)
    assert made == expected
    if not hasattr(value, "__post_init__"):  # (a type that checks its fields goes through replace)
        assert all(getattr(made, f.name) is getattr(value if f.name not in changes else donor, f.name) for f in fields)
    if before is not None:
        assert dataclasses.astuple(value) == before  # the old value is untouched


def _has_unhashable(value: Any) -> bool:
    try:
        dataclasses.astuple(value)
    except TypeError:
        return True
    return False


def test_a_memo_stays_with_its_own_state() -> None:
    state = next(s for s in _random_states("auf-achse", 1) if s.turn.roll is not None and s.current.space)
    destinations(state, state.current.colour, 1)
    assert "_destinations" in state.__dict__
    moved = _evolve(state, rolls=state.rolls + 1)
    assert "_destinations" not in moved.__dict__
    otw = _random_states("on-the-way", 1)[-1]
    otw.memo()["answer"] = 42
    assert "_memo" not in otw.evolve(finished=otw.finished).__dict__


@dataclass(frozen=True, slots=True)
class _Slots:
    a: int
    b: str = "b"


@dataclass(frozen=True)
class _Checked:
    a: int

    def __post_init__(self) -> None:
        if self.a < 0:
            raise ValueError("a must not be negative")


@pytest.mark.parametrize("value", [_Slots(1), _Checked(1)])
def test_an_unknown_field_is_refused_like_replace_does(value: Any) -> None:
    with pytest.raises(TypeError):
        dataclasses.replace(value, c=1)
    with pytest.raises(TypeError, match="c"):
        _evolve(value, c=1)


def test_a_type_that_checks_its_fields_is_still_checked() -> None:
    with pytest.raises(ValueError, match="negative"):
        _evolve(_Checked(1), a=-1)


def test_only_dataclasses() -> None:
    with pytest.raises(TypeError, match="dataclass"):
        _evolve((1, 2), a=1)


@dataclass(frozen=True, slots=True)
class _Base:
    a: int


@dataclass(frozen=True)
class _DictOnSlots(_Base):
    b: int = 0


class _PlainSubclass(_Base):  # not decorated: _Base's __init__
    pass


@dataclass(frozen=True)
class _OwnInit:
    a: int

    def __init__(self, a: int) -> None:
        object.__setattr__(self, "a", abs(a))


@dataclass(frozen=True)
class _WithInitVar:
    a: int
    scale: dataclasses.InitVar[int] = 1


@pytest.mark.parametrize(
    ("value", "changes"),
    [
        (_DictOnSlots(1, 2), {"a": 3}),
        (_PlainSubclass(1), {"a": 4}),
        (_OwnInit(1), {"a": -5}),
        (_WithInitVar(1), {"a": 2, "scale": 3}),
    ],
    ids=["dict-on-slots", "plain-subclass", "own-init", "initvar"],
)
def test_unusual_dataclasses_give_what_replace_gives(value: Any, changes: dict[str, Any]) -> None:
    made = _evolve(value, **changes)
    expected = dataclasses.replace(value, **changes)
    assert type(made) is type(expected) and made == expected
