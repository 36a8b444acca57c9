"""House-rule options from text (``--rule NAME=VALUE``, a kiosk config): one parser for every game.

Each game's options are a frozen dataclass of ``bool`` and ``StrEnum`` fields; the field's type says
how a value is read, so a new option needs no parsing code.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from dataclasses import fields
from enum import StrEnum
from typing import Any, TypeVar

T = TypeVar("T")

_TRUE = ("true", "1", "yes", "on")
_FALSE = ("false", "0", "no", "off")


def parse_house_rules(cls: type[T], values: Mapping[str, object]) -> T:
    """``cls(**values)`` with each value checked and converted; ValueError names the bad option."""
    hints = typing.get_type_hints(cls)
    names = [f.name for f in fields(cls)]  # type: ignore[arg-type]
    unknown = set(values) - set(names)
    if unknown:
        raise ValueError(f"unknown house rule(s): {', '.join(sorted(unknown))}; known: {', '.join(names)}")
    converted: dict[str, Any] = {}
    for key, value in values.items():
        kind = hints[key]
        if isinstance(kind, type) and issubclass(kind, StrEnum):
            try:
                converted[key] = kind(str(value))
            except ValueError:
                choices = " | ".join(m.value for m in kind)
                raise ValueError(f"house rule {key} wants {choices}, not {value!r}") from None
        elif isinstance(value, bool):
            converted[key] = value
        elif isinstance(value, str) and value.lower() in (*_TRUE, *_FALSE):
            converted[key] = value.lower() in _TRUE
        else:
            raise ValueError(f"house rule {key} wants true or false, not {value!r}")
    return cls(**converted)
