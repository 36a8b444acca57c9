"""The hardware layer's exceptions: one root, families that also subclass builtins."""

from __future__ import annotations


class HardwareError(Exception):
    """Root of everything ``companion.hardware`` raises."""


class ConfigError(HardwareError, ValueError):
    """The hardware TOML is wrong; the message names the file, the line and the field."""

    def __init__(self, path: str, line: int | None, field: str, problem: str) -> None:
        where = f"{path}:{line}" if line is not None else path
        super().__init__(f"{where}: {field}: {problem}")
        self.path, self.line, self.field, self.problem = path, line, field, problem
