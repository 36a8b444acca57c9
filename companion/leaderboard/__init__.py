"""The event leaderboard: boxes publish their games to an MQTT broker, a big screen shows them all.

    Publisher     a box's side: durable outbox + paho worker thread (publisher.py, outbox.py)
    topics        the topic tree and the message formats (topics.py; docs/leaderboard.md)
    BoardModel    the board's state rebuilt from messages, pure (model.py)
    BoardClient   the board's subscription (client.py)
    screen/app    the 1920×1080 picture and its loop (screen.py, app.py)

The package imports no other part of companion: a message carries everything the board shows (a
game's title, score label, money as the game writes it), so a board needs no game plug-ins.
"""

from __future__ import annotations

from companion.leaderboard.broker import BrokerSettings
from companion.leaderboard.errors import BadBrokerUrl, BadMessage, BadTableId, LeaderboardError
from companion.leaderboard.model import BoardModel
from companion.leaderboard.publisher import GameLike, Publisher, PublisherStatus
from companion.leaderboard.topics import DEFAULT_ROOT

__all__ = [
    "DEFAULT_ROOT",
    "BadBrokerUrl",
    "BadMessage",
    "BadTableId",
    "BoardModel",
    "BrokerSettings",
    "GameLike",
    "LeaderboardError",
    "Publisher",
    "PublisherStatus",
]
