"""JSON in and out, shared by every game's scripted-play interface (``companion play``).

Commands arrive as JSON objects; a malformed one raises ``CommandFormatError`` naming the field.
Events leave as ``{"type": "snake_case_name", ...fields}``; a bank booking is ``{"type": "money", ...}``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict, is_dataclass
from enum import StrEnum
from typing import Any, TypeVar

from companion.engine.errors import GameError
from companion.engine.game import Undone
from companion.engine.ledger import MoneyBooked

E = TypeVar("E", bound=StrEnum)


class CommandFormatError(GameError, ValueError):
    """A script line is not a valid command; ``field`` names what is wrong."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message

    def to_json(self) -> dict[str, str]:
        return {"rule": "input", "field": self.field, "message": self.message}


def require_object(data: object) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise CommandFormatError("action", "a command must be a JSON object")
    return data


def text_field(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value:
        raise CommandFormatError(key, f"field {key!r} must be a non-empty string, not {value!r}")
    return value


def optional_text_field(data: Mapping[str, Any], key: str) -> str | None:
    return None if data.get(key) is None else text_field(data, key)


def optional_int_field(data: Mapping[str, Any], key: str) -> int | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise CommandFormatError(key, f"field {key!r} must be a whole number, not {value!r}")
    return value


def int_field(data: Mapping[str, Any], key: str) -> int:
    value = optional_int_field(data, key)
    if value is None:
        raise CommandFormatError(key, f"field {key!r} must be a whole number, not None")
    return value


def enum_field(data: Mapping[str, Any], key: str, enum: type[E]) -> E:
    value = text_field(data, key)
    try:
        return enum(value)
    except ValueError:
        choices = " or ".join(m.value for m in enum)
        raise CommandFormatError(key, f"{key} must be {choices}, not {value!r}") from None


def _snake(name: str) -> str:
    return "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")


def event_to_json(
    event: object, command_to_json: Callable[[Any], dict[str, object]] | None = None
) -> dict[str, object]:
    """``{"type": "contract_taken", ...fields}``; tuples become lists. An ``undone`` event carries the
    command taken back as the game's JSON command (``command_to_json``), as a script would send it."""
    if isinstance(event, MoneyBooked):
        return {"type": "money", **event.entry.to_json()}
    if isinstance(event, Undone):
        command: object = repr(event.command) if command_to_json is None else command_to_json(event.command)
        return {"type": "undone", "command": command, "reversals": event.reversals}
    if not is_dataclass(event) or isinstance(event, type):
        raise TypeError(f"not an event: {event!r}")
    out: dict[str, object] = {"type": _snake(type(event).__name__)}
    for key, value in asdict(event).items():
        out[key] = list(value) if isinstance(value, tuple) else value
    return out
