"""A box's side of the leaderboard: its finished games and its live table, to the event's broker.

The game loop calls ``publish_result`` / ``publish_progress`` / ``publish_idle``: they build the message
(cheap: a few dicts and one ``json.dumps``), put it on a queue and return — no disk, no network, and
never an exception. One worker thread applies the queue (style point 10: paho's callbacks only put
intents on the same queue): it writes each message to the durable outbox, then hands the outbox's
pending messages to paho (QoS 1, retained) while connected and marks them delivered on PUBACK. A box
that loses the broker keeps queueing; paho reconnects on its own and everything pending goes out,
newest state per topic. After every (re)connection the box publishes its results of the last day
again: the broker may have restarted without them, and the board dedupes by result id.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Protocol

from companion.leaderboard.broker import BrokerSettings
from companion.leaderboard.errors import BadMessage
from companion.leaderboard.outbox import LIVE, RESULT, Outbox
from companion.leaderboard.topics import (
    _GAME_NUMBER,
    DEFAULT_ROOT,
    GameInfo,
    LiveGame,
    PlayerLine,
    Result,
    TableLive,
    TableOnline,
    check_table_id,
    check_topic_root,
    encode,
    live_topic,
    online_topic,
    player_lines,
    result_topic,
)

if TYPE_CHECKING:
    import paho.mqtt.client as mqtt

log = logging.getLogger(__name__)

DAY = 24 * 3600.0


class GameLike(Protocol):
    """What the publisher reads of a game: a ``companion.games`` plug-in fits as it is."""

    @property
    def name(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def score_label(self) -> str: ...

    @property
    def currency(self) -> str: ...

    def money(self, amount: int, *, signed: bool = False) -> str: ...


@dataclass(frozen=True, slots=True)
class PublisherStatus:
    connected: bool = False
    pending: int = 0  # messages in the outbox the broker has not acknowledged
    delivered: int = 0  # acknowledgements received since start
    refused: int = 0  # publish_* calls whose arguments could not make a message (logged)
    failures: int = 0  # outbox or client errors (logged); the worker carries on
    outbox_path: str = ""


# -- the worker's intents ------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class _Put:
    topic: str
    payload: bytes
    kind: str


@dataclass(frozen=True, slots=True)
class _Live:
    game: LiveGame | None
    at: float


@dataclass(frozen=True, slots=True)
class _Connected:
    ok: bool
    reason: str


@dataclass(frozen=True, slots=True)
class _Disconnected:
    reason: str


@dataclass(frozen=True, slots=True)
class _Acked:
    mid: int


@dataclass(frozen=True, slots=True)
class _Stop:
    drain_until: float


_Intent = _Put | _Live | _Connected | _Disconnected | _Acked | _Stop


@dataclass
class _Worker:
    outbox: Outbox
    session: str
    inflight: dict[int, tuple[str, int]] = field(default_factory=dict)  # paho mid -> (topic, version)
    connected: bool = False
    last_game: LiveGame | None = None  # the table's last live game: a finished one keeps its round
    refusal: str = ""  # the broker's last refusal, logged once (paho retries every few seconds)


class Publisher:
    """``Publisher(broker_url, table_id, outbox_path)``: starts its worker at once.

    A context manager; ``close()`` is safe twice. ``broker`` is a URL (``mqtt://user:pass@host:1883``,
    ``mqtts://host?ca=/etc/companion/ca.crt``) or ``BrokerSettings``; a bad URL or table id raises
    here (``LeaderboardError``), at start-up, never later.
    """

    def __init__(
        self,
        broker: str | BrokerSettings,
        table_id: str,
        outbox_path: Path | str,
        *,
        topic_root: str = DEFAULT_ROOT,
        keepalive: int = 15,
        resend_window: float = DAY,
        clock: Callable[[], float] = time.time,
        journal_id: str | None = None,
    ) -> None:
        self.settings = broker if isinstance(broker, BrokerSettings) else BrokerSettings.from_url(broker)
        self.table = check_table_id(table_id)
        # The journal's own random id (``JournalStore.journal_id``) goes into every result's number, so
        # a new journal (the old one moved aside) restarting its game ids at 1 never overwrites the
        # event's earlier results: a result id cannot repeat.
        if journal_id is not None and not _GAME_NUMBER.fullmatch(f"{journal_id}-1"):
            raise BadMessage("field", f"journal id {journal_id!r} cannot be part of a topic level")
        self.journal_id = journal_id
        self.root = check_topic_root(topic_root)
        self.outbox_path = Path(outbox_path)
        self.keepalive = keepalive
        self.resend_window = resend_window
        self.clock = clock
        self._intents: queue.SimpleQueue[_Intent] = queue.SimpleQueue()
        self._changed = threading.Condition()
        self._status = PublisherStatus(outbox_path=str(self.outbox_path))
        self._refused = 0
        self._closed = False
        self._thread = threading.Thread(target=self._run, name=f"leaderboard-publisher-{self.table}", daemon=True)
        self._thread.start()

    # -- the game loop's side: never blocks, never raises -----------------------------------------
    def publish_result(
        self, game_id: int | str, game: GameLike, standings: Sequence[object], finished_at: float | None = None
    ) -> None:
        """A finished game: ``game_id`` is the journal's id (the result's id is "<table>/<game_id>"),
        ``game`` its plug-in, ``standings`` the journal's ``result`` rows (or ``Standing`` objects)."""
        try:
            number = self._number(game_id)
            info = _info(game)
            lines = player_lines(standings, game.money)
            if not lines:
                raise BadMessage("field", "no standings")
            result_id = f"{self.table}/{number}"
            at = self.clock() if finished_at is None else float(finished_at)
            payload = encode(Result(result_id, self.table, info, at, lines))
            self._intents.put(_Put(result_topic(self.root, self.table, number), payload, RESULT))
            self._intents.put(_Live(LiveGame(result_id, info, None, None, lines, finished=True), self.clock()))
        except Exception as exc:
            self._refuse("result", game_id, exc)

    def publish_progress(
        self, game_id: int | str, game: GameLike, progress: Mapping[str, object], standings: Sequence[object]
    ) -> None:
        """The table's game now: ``progress`` is the plug-in's ``progress(state)`` (``round``, ``player``),
        ``standings`` its ``standings(state)``. Only the newest state per table is kept and sent."""
        try:
            number = self._number(game_id)
            round_ = progress.get("round")
            turn = progress.get("player")
            live = LiveGame(
                id=f"{self.table}/{number}",
                game=_info(game),
                round=round_ if isinstance(round_, int) and not isinstance(round_, bool) else None,
                turn=turn if isinstance(turn, str) and turn else None,
                players=player_lines(standings, game.money),
                finished=False,
            )
            self._intents.put(_Live(live, self.clock()))
        except Exception as exc:
            self._refuse("progress", game_id, exc)

    def publish_idle(self) -> None:
        """No game at this table (set-up, attract screen)."""
        try:
            self._intents.put(_Live(None, self.clock()))
        except Exception as exc:  # pragma: no cover - a SimpleQueue put does not fail
            self._refuse("idle", None, exc)

    def _number(self, game_id: int | str) -> str:
        """The result's topic level: "<journal id>-<game id>" (just the game id without a journal id)."""
        number = str(game_id) if self.journal_id is None else f"{self.journal_id}-{game_id}"
        if not _GAME_NUMBER.fullmatch(number):
            raise BadMessage("field", f"game id {number!r} cannot be a topic level")
        return number

    def _refuse(self, what: str, game_id: object, exc: Exception) -> None:
        self._refused += 1
        log.warning("leaderboard: %s of game %r not published: %s: %s", what, game_id, type(exc).__name__, exc)

    # -- status, waiting, closing ----------------------------------------------------------------
    @property
    def status(self) -> PublisherStatus:
        s = self._status
        return PublisherStatus(s.connected, s.pending, s.delivered, self._refused, s.failures, s.outbox_path)

    def wait_delivered(self, timeout: float) -> bool:
        """Block (not from the game loop!) until everything queued was acknowledged by the broker."""
        with self._changed:
            return self._changed.wait_for(
                lambda: self._intents.empty() and self._status.pending == 0 and not self._thread_busy, timeout
            )

    def close(self, drain: float = 2.0) -> None:
        """Stop: wait up to ``drain`` seconds for pending messages, say the table is offline, close the
        outbox. What was not delivered stays in the outbox for the next start. Safe twice."""
        if self._closed:
            return
        self._closed = True
        self._intents.put(_Stop(time.monotonic() + drain))
        self._thread.join(drain + 5.0)

    def __enter__(self) -> Publisher:
        return self

    def __exit__(self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    # -- the worker ------------------------------------------------------------------------------
    _thread_busy = True

    def _run(self) -> None:
        try:
            outbox = Outbox.open(self.outbox_path, now=self.clock())
        except Exception as exc:  # not even a fresh file: keep the messages in memory while running
            log.warning("leaderboard outbox %s cannot be opened (%s): queueing in memory", self.outbox_path, exc)
            outbox = Outbox.open(":memory:")
        work = _Worker(outbox, outbox.session())
        client = self._client(work)
        try:
            self._loop(work, client)
        finally:
            with _quiet("stopping the MQTT client"):
                client.loop_stop()
            outbox.close()
            self._thread_busy = False
            self._publish_status(work, connected=False)

    def _client(self, work: _Worker) -> mqtt.Client:
        put = self._intents.put
        client = self.settings.client(f"companion-{self.table}-{work.session}")
        client.will_set(online_topic(self.root, self.table), encode(TableOnline(self.table, False)), 1, True)
        client.on_connect = lambda _c, _u, _f, rc, _p: put(_Connected(not rc.is_failure, str(rc)))
        client.on_connect_fail = lambda _c, _u: put(_Disconnected("connection failed"))
        client.on_disconnect = lambda _c, _u, _f, rc, _p: put(_Disconnected(str(rc)))
        client.on_publish = lambda _c, _u, mid, _rc, _p: put(_Acked(mid))
        client.max_inflight_messages_set(50)
        client.connect_async(self.settings.host, self.settings.port, self.keepalive)
        client.loop_start()
        return client

    def _loop(self, work: _Worker, client: mqtt.Client) -> None:
        stopping: _Stop | None = None
        last_prune = 0.0
        while True:
            self._thread_busy = False
            self._publish_status(work)
            timeout = 1.0 if stopping is None else max(0.0, stopping.drain_until - time.monotonic())
            try:
                intent = self._intents.get(timeout=timeout)
            except queue.Empty:
                if stopping is not None:
                    break
                if self.clock() - last_prune > 3600:
                    last_prune = self.clock()
                    with _quiet("pruning the outbox", self):
                        work.outbox.prune(self.clock() - self.resend_window)
                continue
            self._thread_busy = True
            with _quiet(f"handling {type(intent).__name__}", self):
                match intent:
                    case _Put(topic, payload, kind):
                        if work.outbox.put(topic, payload, kind, self.clock()):
                            self._send_pending(work, client)
                    case _Live(game, at):
                        held = work.last_game
                        if game is not None and game.round is None and held is not None and held.id == game.id:
                            game = replace(game, round=held.round, turn=held.turn)
                        work.last_game = game
                        live = TableLive(self.table, work.session, work.outbox.next_seq(), at, game)
                        work.outbox.put(live_topic(self.root, self.table), encode(live), LIVE, self.clock())
                        self._send_pending(work, client)
                    case _Connected(ok, reason):
                        work.connected = ok
                        if ok:
                            log.info("leaderboard: connected to %s", self.settings)
                            client.publish(online_topic(self.root, self.table),
                                           encode(TableOnline(self.table, True)), 1, True)  # fmt: skip
                            work.outbox.send_again(self.clock() - self.resend_window)
                            self._send_pending(work, client)
                        elif reason != work.refusal:
                            log.warning("leaderboard: the broker %s refused the connection: %s", self.settings, reason)
                        work.refusal = "" if ok else reason
                    case _Disconnected(reason):
                        if work.connected:
                            log.warning("leaderboard: lost the broker %s (%s); queueing", self.settings, reason)
                        work.connected = False
                    case _Acked(mid):
                        key = work.inflight.pop(mid, None)
                        if key is not None:
                            work.outbox.delivered(key[0], key[1], self.clock())
                            self._status = replace(self._status, delivered=self._status.delivered + 1)
                    case _Stop():
                        stopping = intent
            if stopping is not None and (not work.connected or (not work.inflight and not work.outbox.pending_count())):
                break
        if work.connected:
            with _quiet("saying goodbye"):
                client.publish(online_topic(self.root, self.table), encode(TableOnline(self.table, False)), 1, True)
                client.disconnect()

    def _send_pending(self, work: _Worker, client: mqtt.Client) -> None:
        if not work.connected:
            return
        flying = set(work.inflight.values())
        for message in work.outbox.pending():
            if (message.topic, message.version) in flying:
                continue
            info = client.publish(message.topic, message.payload, qos=1, retain=True)
            if info.rc != 0 and info.mid == 0:  # not even queued by paho: try again at the next connection
                break
            work.inflight[info.mid] = (message.topic, message.version)

    def _publish_status(self, work: _Worker, *, connected: bool | None = None) -> None:
        try:
            pending = work.outbox.pending_count()
        except Exception:
            pending = self._status.pending
        self._status = replace(
            self._status, connected=work.connected if connected is None else connected, pending=pending
        )
        with self._changed:
            self._changed.notify_all()


def _info(game: GameLike) -> GameInfo:
    return GameInfo(str(game.name), str(game.title)[:60], str(game.score_label)[:12], str(game.currency)[:12])


class _quiet:
    """Log (warning) and swallow what goes wrong in the worker: it must keep running."""

    def __init__(self, what: str, publisher: Publisher | None = None) -> None:
        self.what = what
        self.publisher = publisher

    def __enter__(self) -> None:
        return None

    def __exit__(self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None) -> bool:
        if e is None or not isinstance(e, Exception):
            return False
        log.warning("leaderboard: %s failed: %s: %s", self.what, type(e).__name__, e)
        if self.publisher is not None:
            p = self.publisher
            p._status = replace(p._status, failures=p._status.failures + 1)
        return True


__all__ = ["GameLike", "PlayerLine", "Publisher", "PublisherStatus"]
