"""What a data-file check reports: a :class:`Problem` per fault, and the exception that carries them."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from companion.engine.errors import DataError


@dataclass(frozen=True, slots=True, order=True)
class Problem:
    """One fault in a data file, located well enough to fix it in an editor.

    ``line`` counts from 1 (0 when the file could not be read at all). ``field`` names the value:
    ``contracts[3].distance`` is the ``distance`` key of the 3rd ``[[contracts]]`` block (blocks
    count from 1, like lines), ``setup.players_3`` a key of the ``[setup]`` table.
    """

    file: str
    line: int
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.field}: {self.message}"


class DataFileError(DataError):
    """A board, contracts or events file is malformed. ``problems`` lists every fault found."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems: tuple[Problem, ...] = tuple(problems)
        if not self.problems:
            raise ValueError("DataFileError needs at least one Problem")
        super().__init__("\n".join(str(p) for p in self.problems))

    @property
    def file(self) -> str:
        return self.problems[0].file

    @property
    def line(self) -> int:
        return self.problems[0].line

    @property
    def field(self) -> str:
        return self.problems[0].field
