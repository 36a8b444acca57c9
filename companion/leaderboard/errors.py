"""One root for everything the leaderboard raises (style point 5)."""

from __future__ import annotations


class LeaderboardError(Exception):
    """Root of the leaderboard's errors."""


class BadBrokerUrl(LeaderboardError, ValueError):
    """A ``--broker`` URL (or its TLS options) that cannot be used."""


class BadMessage(LeaderboardError, ValueError):
    """A message on the leaderboard's topics that does not follow the format: dropped and counted.

    ``reason`` is a short, stable key for the board's counters ("json", "version", "field", ...).
    """

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail


class BadTableId(LeaderboardError, ValueError):
    """A table id that cannot be a topic level."""


class BadTopicRoot(LeaderboardError, ValueError):
    """A topic root that cannot root the event's topics (a wildcard, an empty level, ...)."""
