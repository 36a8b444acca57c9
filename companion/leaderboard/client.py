"""The board's connection: subscribes to the event's topics and queues what arrives.

paho's callbacks (its network thread) only put messages on a queue; the one loop that owns the
``BoardModel`` sleeps on that queue and applies what comes with ``drain``. paho reconnects on its
own; at every (re)connection the subscription is made again and the broker sends the retained
messages: the whole state.
"""

from __future__ import annotations

import logging
import queue
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType
from typing import TYPE_CHECKING

from companion.leaderboard.broker import BrokerSettings
from companion.leaderboard.model import BoardModel
from companion.leaderboard.topics import DEFAULT_ROOT, check_topic_root, subscription

if TYPE_CHECKING:
    import paho.mqtt.client as mqtt

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class _Message:
    topic: str
    payload: bytes


@dataclass(frozen=True, slots=True)
class _Connection:
    connected: bool
    reason: str
    failed: bool = False  # an attempt that failed: the broker said no (credentials, not authorised), or TLS/TCP


class BoardClient:
    """Subscribed to ``<root>/#`` on ``broker``; ``drain(model)`` applies what came. A context manager."""

    def __init__(
        self,
        broker: str | BrokerSettings,
        *,
        topic_root: str = DEFAULT_ROOT,
        keepalive: int = 15,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.settings = broker if isinstance(broker, BrokerSettings) else BrokerSettings.from_url(broker)
        self.root = check_topic_root(topic_root)
        self.clock = clock
        self.connected = False
        self.connections = 0
        self.failure = ""  # why the last attempt to connect failed ("": none since the last connection)
        self._queue: queue.SimpleQueue[_Message | _Connection] = queue.SimpleQueue()
        self._closed = False
        client = self.settings.client(f"companion-board-{secrets.token_hex(4)}")
        client.on_connect = self._on_connect
        client.on_disconnect = lambda _c, _u, _f, rc, _p: self._put(_Connection(False, str(rc)))
        client.on_connect_fail = lambda _c, _u: self._put(_Connection(False, "connection failed", failed=True))
        client.on_message = lambda _c, _u, m: self._put(_Message(m.topic, bytes(m.payload)))
        self._client = client
        client.connect_async(self.settings.host, self.settings.port, keepalive)
        client.loop_start()

    def _on_connect(self, client: mqtt.Client, _userdata: object, _flags: object, rc: object, _props: object) -> None:
        failed = bool(getattr(rc, "is_failure", False))
        if not failed:
            client.subscribe(subscription(self.root), qos=1)  # the callback's client: self's may not be set yet
        self._put(_Connection(not failed, str(rc), failed=failed))

    def _put(self, item: _Message | _Connection) -> None:
        self._queue.put(item)

    def drain(self, model: BoardModel, timeout: float = 0.0) -> bool:
        """Apply every queued message to ``model`` (waiting up to ``timeout`` for the first one).
        True if the model or the connection state changed."""
        changed = False
        block = timeout > 0
        while True:
            try:
                item = self._queue.get(block=block, timeout=timeout if block else None)
            except queue.Empty:
                return changed
            block = False
            match item:
                case _Message(topic, payload):
                    changed |= model.apply(topic, payload, self.clock())
                case _Connection(connected, reason, failed):
                    self.failure = reason if failed else ("" if connected else self.failure)
                    if connected != self.connected:
                        changed = True
                        if connected:
                            log.info("leaderboard board: connected to %s", self.settings)
                        else:
                            log.warning("leaderboard board: lost the broker %s (%s)", self.settings, reason)
                    self.connected = connected
                    self.connections += connected

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            self._client.disconnect()
        finally:
            self._client.loop_stop()

    def __enter__(self) -> BoardClient:
        return self

    def __exit__(self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None) -> None:
        self.close()
