"""Typed access to one TOML table, turning every wrong or missing value into a located Problem."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from companion.data.problems import Problem
from companion.data.source import SourceFile, nfc
from companion.text import bad_character, shown

MAX_BLOCKS = 1000  # [[cities]], [[contracts]]... per file: the printed games have fewer than 100
MAX_TEXT = 200  # characters of a name, id or card text: a printed card has far fewer


class TableReader:
    """Reads the keys of one table: ``[board]`` (``occurrence=None``) or the n-th ``[[contracts]]``.

    Each getter returns the value, or None after recording a Problem in ``problems``.
    """

    def __init__(
        self,
        source: SourceFile,
        problems: list[Problem],
        table: str,
        values: dict[str, Any],
        occurrence: int | None = None,
    ) -> None:
        self.source = source
        self.problems = problems
        self.table = table
        self.values = values
        self.occurrence = occurrence

    def name(self, key: str | None = None) -> str:
        """The field name for messages: ``contracts[3].to``, ``setup.players_2``, ``board``."""
        base = self.table if self.occurrence is None else f"{self.table}[{self.occurrence}]"
        return base if key is None else f"{base}.{key}"

    def line(self, key: str | None = None, needle: str | None = None) -> int:
        if key is not None and key not in self.values:
            key = None  # a missing key: point at the block's header
        return self.source.locate(self.table, key, self.occurrence or 1, needle)

    def problem(self, key: str | None, message: str, needle: str | None = None) -> None:
        self.problems.append(Problem(self.source.label, self.line(key, needle), self.name(key), message))

    def unknown_keys(self, allowed: Collection[str]) -> None:
        for key in self.values:
            if key not in allowed:
                expected = ", ".join(sorted(allowed))
                self.problem(key, f"unknown key {shown(key)} (expected: {expected})")

    def string(self, key: str, required: bool = True) -> str | None:
        if key not in self.values:
            if required:
                self.problem(key, f"missing {key!r}")
            return None
        value = self.values[key]
        if not isinstance(value, str) or not value.strip():
            self.problem(key, f"must be a non-empty string, not {shown(value)}")
            return None
        if len(value.strip()) > MAX_TEXT:
            self.problem(key, f"must be at most {MAX_TEXT} characters, not {len(value.strip())}")
            return None
        bad = bad_character(value.strip())
        if bad is not None:  # a NUL, a newline, a zero-width or bidi character: it cannot be shown or typed
            self.problem(key, f"must not hold {bad}: it cannot be shown or typed")
            return None
        return value.strip()

    def city(self, key: str) -> str | None:
        value = self.string(key)
        return None if value is None else nfc(value)

    def integer(
        self, key: str, minimum: int, default: int | None = None, multiple: int = 1, maximum: int | None = None
    ) -> int | None:
        """A whole number from ``minimum`` to ``maximum`` (docs/data.md lists each field's limits)."""
        if key not in self.values:
            if default is None:
                self.problem(key, f"missing {key!r}")
            return default
        value = self.values[key]
        if isinstance(value, bool) or not isinstance(value, int):
            self.problem(key, f"must be a whole number, not {shown(value)}")
            return None
        if maximum is not None and value > maximum:
            self.problem(key, f"must be at most {maximum}, not {shown(value)}")
            return None
        if value < minimum:
            self.problem(key, f"must be at least {minimum}, not {shown(value)}")
            return None
        if value % multiple:
            self.problem(key, f"must be a multiple of {multiple}, not {value}")
            return None
        return value

    def fraction(self, key: str) -> float | None:
        """A number in 0..1 (a position on the printed map)."""
        if key not in self.values:
            self.problem(key, f"missing {key!r}")
            return None
        value = self.values[key]
        if isinstance(value, bool) or not isinstance(value, int | float):
            self.problem(key, f"must be a number from 0 to 1, not {shown(value)}")
            return None
        if not 0.0 <= value <= 1.0:
            self.problem(key, f"must be from 0 to 1 (a position on the printed map), not {shown(value)}")
            return None
        return float(value)

    def city_list(self, key: str, length: int | None = None) -> list[str] | None:
        """A list of city names (NFC), exactly ``length`` long if given."""
        if key not in self.values:
            self.problem(key, f"missing {key!r}")
            return None
        value = self.values[key]
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            self.problem(key, f"must be a list of city names, not {shown(value)}")
            return None
        if any(len(v.strip()) > MAX_TEXT for v in value):
            self.problem(key, f"a city name must be at most {MAX_TEXT} characters")
            return None
        bad = next((b for v in value if (b := bad_character(v.strip())) is not None), None)
        if bad is not None:
            self.problem(key, f"a city name must not hold {bad}: it cannot be shown or typed")
            return None
        if length is not None and len(value) != length:
            self.problem(key, f"must name {length} cities, not {len(value)}")
            return None
        return [nfc(v.strip()) for v in value]


def table_reader(source: SourceFile, problems: list[Problem], data: dict[str, Any], key: str) -> TableReader:
    """The reader of the ``[key]`` table; a missing or malformed table is a Problem."""
    values = data.get(key)
    if not isinstance(values, dict):
        message = f"missing [{key}] table" if values is None else f"[{key}] must be a table"
        problems.append(Problem(source.label, source.locate(key), key, message))
        values = {}
    return TableReader(source, problems, key, values)


def array_readers(source: SourceFile, problems: list[Problem], data: dict[str, Any], key: str) -> list[TableReader]:
    """One reader per ``[[key]]`` block; a missing or malformed array is a Problem."""
    items = data.get(key)
    if items is None:
        problems.append(Problem(source.label, 1, key, f"no [[{key}]] in the file"))
        return []
    if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
        problems.append(Problem(source.label, source.locate(key), key, f"{key} must be [[{key}]] tables"))
        return []
    if len(items) > MAX_BLOCKS:
        problems.append(Problem(source.label, source.locate(key), key, f"more than {MAX_BLOCKS} [[{key}]] blocks"))
        return []
    return [TableReader(source, problems, key, item, n) for n, item in enumerate(items, 1)]
