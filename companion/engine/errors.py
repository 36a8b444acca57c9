"""The engine's exceptions: one root, families that also subclass builtins (style point 5)."""

from __future__ import annotations


class GameError(Exception):
    """Root of everything the engine raises."""


class DataError(GameError, ValueError):
    """A board or deck is inconsistent (unknown city, duplicate id, ...)."""


class IllegalAction(GameError, ValueError):
    """A command is refused. ``rule`` is the rule id it breaks; the message is one plain sentence."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} ({rule})")
        self.rule = rule
        self.message = message

    def to_json(self) -> dict[str, str]:
        return {"rule": self.rule, "message": self.message}
