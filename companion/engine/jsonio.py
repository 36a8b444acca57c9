"""JSON in and out, shared by every game's scripted-play interface (``companion play``).

Commands arrive as JSON objects; a malformed one raises ``CommandFormatError`` naming the field.
Events leave as ``{"type": "snake_case_name", ...fields}``; a bank booking is ``{"type": "money", ...}``.

A script line is untrusted bytes: ``parse_command_line`` turns any line into a JSON value or a
``ScriptLineError`` (never another exception): invalid UTF-8, lone surrogates, NaN, duplicate keys,
integers longer than ``MAX_INT_DIGITS`` digits, nesting deeper than ``MAX_DEPTH`` and lines longer
than ``MAX_LINE_BYTES`` are refused before any game sees them.
"""

from __future__ import annotations

import json
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


# Limits of one script line (docs/scripted-play.md): far above any valid command, far below harm.
MAX_LINE_BYTES = 64 * 1024
MAX_DEPTH = 16  # a command is an object of scalars; queries nest no deeper either
MAX_INT_DIGITS = 18  # below 2**63; no count, marker or level of a game comes near


class ScriptLineError(GameError, ValueError):
    """A script line is not a JSON value a command could be (encoding, syntax, limits)."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field
        self.message = message

    def to_json(self) -> dict[str, str]:
        out = {"rule": "input"}
        if self.field is not None:
            out["field"] = self.field
        out["message"] = self.message
        return out


def parse_command_line(line: bytes | str) -> object:
    """One script line (already stripped of its line break) as a JSON value; ``ScriptLineError`` if
    it cannot be one. Only this exception leaves: every decoder failure is turned into it."""
    if isinstance(line, bytes):
        if len(line) > MAX_LINE_BYTES:
            raise ScriptLineError(f"line longer than {MAX_LINE_BYTES} bytes")
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ScriptLineError(f"not UTF-8 text: byte 0x{line[exc.start]:02x} at byte {exc.start + 1}") from None
    else:
        text = line
        if len(text) > MAX_LINE_BYTES:
            raise ScriptLineError(f"line longer than {MAX_LINE_BYTES} bytes")
    text = text.strip()
    try:
        data = json.loads(text, parse_int=_parse_int, parse_constant=_refuse_constant, object_pairs_hook=_object)
    except json.JSONDecodeError as exc:
        raise ScriptLineError(f"not JSON: {exc.msg} at column {exc.colno}") from None
    except RecursionError:
        raise ScriptLineError(f"not a command: nested more than {MAX_DEPTH} deep") from None
    except ValueError as exc:  # what a hook refused, or a number the decoder could not take
        if isinstance(exc, ScriptLineError):
            raise
        raise ScriptLineError(f"not JSON: {exc}") from None
    _check_value(data)
    return data


def _parse_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise ScriptLineError(f"number with {len(digits.lstrip('-'))} digits; at most {MAX_INT_DIGITS}")
    return int(digits)


def _refuse_constant(name: str) -> object:
    raise ScriptLineError(f"not JSON: {name} is not a JSON number")


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ScriptLineError(f"field {_clip(key)!r} is given twice", _field_name(key))
        out[key] = value
    return out


def _check_value(data: object) -> None:
    """Depth and text of a decoded value, without recursion: lone surrogates cannot be written out."""
    stack: list[tuple[object, int, str | None]] = [(data, 1, None)]
    while stack:
        value, depth, field = stack.pop()
        if isinstance(value, dict | list) and depth > MAX_DEPTH:
            raise ScriptLineError(f"not a command: nested more than {MAX_DEPTH} deep", field)
        if isinstance(value, str):
            if _has_surrogate(value):
                raise ScriptLineError("text with a lone surrogate (\\ud800-\\udfff) is not Unicode", field)
        elif isinstance(value, dict):
            for key, item in value.items():
                if _has_surrogate(key):
                    raise ScriptLineError("a field name with a lone surrogate is not Unicode", field)
                stack.append((item, depth + 1, field if field is not None else key))
        elif isinstance(value, list):
            stack.extend((item, depth + 1, field) for item in value)


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _field_name(key: str) -> str | None:
    return None if _has_surrogate(key) else _clip(key)


def _clip(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


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
