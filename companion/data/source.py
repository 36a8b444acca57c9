"""A TOML data file as text and as data, with the line lookup that ``tomllib`` does not provide.

``tomllib`` returns plain dicts without positions, so problems are located in the raw text: the
n-th ``[[contracts]]`` header starts the n-th contract's block, and ``key =`` inside that block is the
line of that field. When a value cannot be found that way (inline tables, dotted keys), the line of
the block's header is the fallback, then line 1.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.data.problems import Problem

# A table header ``[name]`` or ``[[name]]`` with a bare (possibly dotted) key and an optional comment.
_HEADER = re.compile(r"^\s*(\[\[?)\s*([A-Za-z0-9_\-.]+)\s*(\]\]?)\s*(#.*)?$")
_SYNTAX_POSITION = re.compile(r"\(at line (\d+), column \d+\)")


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
            raw = Path(path).read_bytes()
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
        source = cls(label, text=text, _lines=text.splitlines())
        source._blocks = _blocks(source._lines)
        try:
            source.data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            message = str(exc)
            match = _SYNTAX_POSITION.search(message)
            line = int(match.group(1)) if match else max(1, len(source._lines))
            message = _SYNTAX_POSITION.sub("", message).strip()
            source.problems.append(Problem(label, line, "syntax", f"TOML syntax error: {message}"))
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
