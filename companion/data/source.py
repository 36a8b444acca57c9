"""A TOML data file as text and as data, with the line lookup that ``tomllib`` does not provide.

``tomllib`` returns plain dicts without positions, so problems are located in the raw text: the
n-th ``[[contracts]]`` header starts the n-th contract's block, and ``key =`` inside that block is the
line of that field. When a value cannot be found that way (inline tables, dotted keys), the line of
the block's header is the fallback, then line 1.

Lines are counted as TOML counts them: only LF (``\\n``) ends a line. ``str.splitlines`` would also
split at U+2028, U+0085, form feeds... that TOML allows in comments and strings, and shift every
line number after them.

A data file is owner-editable, so it is untrusted: at most ``MAX_FILE_BYTES`` are read, only a
regular file is read at all (``/dev/zero`` or a FIFO would never end), and values nested deeper
than ``MAX_DEPTH`` or numbers too long for Python (``tomllib`` raises ``ValueError``, or
``RecursionError`` for a deep array) become a Problem, not a traceback.
"""

from __future__ import annotations

import os
import re
import stat
import tomllib
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.data.problems import Problem

# A table header ``[name]`` or ``[[name]]`` with a bare (possibly dotted) key and an optional comment.
_HEADER = re.compile(r"^\s*(\[\[?)\s*([A-Za-z0-9_\-.]+)\s*(\]\]?)\s*(#.*)?$")
_SYNTAX_POSITION = re.compile(r"\(at line (\d+), column \d+\)")
MAX_FILE_BYTES = 1024 * 1024  # the reference files are 5-30 KB
MAX_DEPTH = 8  # a data file is tables of arrays of scalars: 4 levels at most


@dataclass(frozen=True, slots=True)
class Block:
    """The lines of one table (or the top level, ``table == ""``) of a TOML file, 1-based, inclusive."""

    table: str
    occurrence: int  # 1 for the first [[table]] block, 2 for the second, ...
    start: int
    end: int


@dataclass
class SourceFile:
    """A data file: its label (the path as given), text, parsed data and any read/syntax problem."""

    label: str
    text: str = ""
    data: dict[str, Any] | None = None
    problems: list[Problem] = field(default_factory=list)
    _lines: list[str] = field(default_factory=list, repr=False)
    _blocks: list[Block] = field(default_factory=list, repr=False)

    @classmethod
    def read(cls, path: Path | str) -> SourceFile:
        """Read and parse ``path``; unreadable files and TOML syntax errors become ``problems``."""
        label = str(path)
        try:
            raw = _read_bounded(Path(path))
        except _NotAFile as exc:
            return cls(label, problems=[Problem(label, 0, "file", str(exc))])
        except OSError as exc:
            return cls(label, problems=[Problem(label, 0, "file", f"cannot read: {exc.strerror or exc}")])
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = raw[: exc.start].count(b"\n") + 1
            return cls(label, problems=[Problem(label, line, "file", "not UTF-8 text")])
        return cls.parse(text, label)

    @classmethod
    def parse(cls, text: str, label: str) -> SourceFile:
        lines = text.split("\n")
        source = cls(label, text=text, _lines=lines)
        source._blocks = _blocks(lines)
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            message = str(exc)
            match = _SYNTAX_POSITION.search(message)
            line = int(match.group(1)) if match else max(1, len(lines))
            message = _SYNTAX_POSITION.sub("", message).strip()
            source.problems.append(Problem(label, line, "syntax", f"TOML syntax error: {message}"))
            return source
        except RecursionError:
            line = _first_line(lines, _deep_line)
            source.problems.append(Problem(label, line, "syntax", f"values nested more than {MAX_DEPTH} deep"))
            return source
        except ValueError:  # an integer of thousands of digits (Python's int limit), say
            line = _first_line(lines, _LONG_NUMBER.search)
            source.problems.append(Problem(label, line, "syntax", "a number with thousands of digits"))
            return source
        deep = _too_deep(data)
        if deep is not None:
            line = _first_line(lines, _deep_line, default=source.locate(deep))
            source.problems.append(Problem(label, line, deep, f"values nested more than {MAX_DEPTH} deep"))
            return source
        source.data = data
        return source

    def locate(self, table: str, key: str | None = None, occurrence: int = 1, needle: str | None = None) -> int:
        """The line of ``key`` in the ``occurrence``-th block of ``table`` (``""``: the top level).

        With ``needle``, the first line from the key's line on (within the block) that contains
        ``"needle"`` in quotes — for one entry of a multi-line list.
        """
        block = next((b for b in self._blocks if b.table == table and b.occurrence == occurrence), None)
        if block is None:
            # No header: perhaps an inline table or array at the top level (``setup = {...}``).
            top = self._blocks[0] if self._blocks else None
            if top is not None and table:
                found = self._find_key(top, table.split(".")[0])
                if found:
                    return found
            return 1
        line = block.start
        if key is not None:
            line = self._find_key(block, key) or block.start
        if needle is not None:
            quoted = f'"{needle}"'
            for number in range(line, block.end + 1):
                text = unicodedata.normalize("NFC", self._lines[number - 1])
                if quoted in text:
                    return number
        return line

    def _find_key(self, block: Block, key: str) -> int | None:
        pattern = re.compile(rf"^\s*(?:{re.escape(key)}|\"{re.escape(key)}\"|'{re.escape(key)}')\s*=")
        for number in range(block.start, block.end + 1):
            if pattern.match(self._lines[number - 1]):
                return number
        return None


class _NotAFile(OSError):
    pass


def _read_bounded(path: Path) -> bytes:
    """At most ``MAX_FILE_BYTES`` of a regular file (a device or a FIFO is refused before opening:
    opening a FIFO would block, and ``/dev/zero`` never ends)."""
    mode = os.stat(path).st_mode
    if not stat.S_ISREG(mode):
        kind = "a directory" if stat.S_ISDIR(mode) else "not a regular file (a device, FIFO or socket)"
        raise _NotAFile(f"cannot read: {kind}")
    with open(path, "rb") as handle:
        raw = handle.read(MAX_FILE_BYTES + 1)
    if len(raw) > MAX_FILE_BYTES:
        raise _NotAFile(f"cannot read: larger than {MAX_FILE_BYTES // 1024} KiB (a data file is a few KiB)")
    return raw


_LONG_NUMBER = re.compile(r"[0-9_]{200,}")


def _deep_line(text: str) -> bool:
    return text.count("[") + text.count("{") > MAX_DEPTH


def _first_line(lines: list[str], test: Any, default: int = 1) -> int:
    return next((n for n, text in enumerate(lines, 1) if test(text)), default)


def _too_deep(data: dict[str, Any]) -> str | None:
    """The top-level key under which values nest deeper than ``MAX_DEPTH``, without recursion."""
    stack: list[tuple[object, int, str]] = [(value, 2, key) for key, value in data.items()]
    while stack:
        value, depth, key = stack.pop()
        if isinstance(value, dict | list):
            if depth > MAX_DEPTH:
                return key
            items = value.values() if isinstance(value, dict) else value
            stack.extend((item, depth + 1, key) for item in items)
    return None


def _blocks(lines: list[str]) -> list[Block]:
    """Split the file at its table headers. The top level is the block before the first header."""
    starts: list[tuple[str, int, int]] = [("", 1, 1)]
    seen: dict[str, int] = {}
    in_multiline = False
    for number, text in enumerate(lines, 1):
        # Skip lines inside multi-line strings, where a "[header]" is only text.
        if text.count('"""') % 2 == 1 or text.count("'''") % 2 == 1:
            in_multiline = not in_multiline
            continue
        if in_multiline:
            continue
        match = _HEADER.match(text)
        if match is None or len(match.group(1)) != len(match.group(3)):
            continue
        name = match.group(2)
        seen[name] = seen.get(name, 0) + 1
        starts.append((name, seen[name], number))
    blocks = []
    for i, (name, occurrence, start) in enumerate(starts):
        end = starts[i + 1][2] - 1 if i + 1 < len(starts) else max(len(lines), start)
        blocks.append(Block(name, occurrence, start, end))
    return blocks


def nfc(name: str) -> str:
    """City names are compared in Unicode NFC, so a decomposed "Z + caron" still matches "Ž"."""
    return unicodedata.normalize("NFC", name)
