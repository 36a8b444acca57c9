"""The shipped Mosquitto configuration (systemd/mosquitto/), run as shipped by a real Mosquitto:
each table writes only its own topics, the board only reads, nobody logs in without a password."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest

from companion.leaderboard import BoardModel, Publisher
from companion.leaderboard.client import BoardClient
from tests.leaderboard.broker import free_port, mosquitto_binary
from tests.leaderboard.helpers import FakeGame
from tests.leaderboard.test_secure import ROWS, never_connects, received

pytestmark = pytest.mark.skipif(mosquitto_binary() is None, reason="needs Mosquitto (installed by .ci/run)")
SHIPPED = Path(__file__).resolve().parents[2] / "systemd" / "mosquitto"
USERS = {"board": "b0ard", "table-a": "aaa-secret", "table-b": "bbb-secret"}


@pytest.fixture
def event_broker(tmp_path: Path) -> object:
    passwords = tmp_path / "companion.passwd"
    for n, (user, password) in enumerate(USERS.items()):
        subprocess.run(["mosquitto_passwd", *(["-c"] if n == 0 else []), "-b", str(passwords), user, password],
                       check=True, capture_output=True)  # fmt: skip
    (tmp_path / "companion.acl").write_text((SHIPPED / "companion-event.acl").read_text())
    port = free_port()
    conf = (SHIPPED / "companion-event.conf").read_text()
    conf = conf.replace("/etc/mosquitto/", f"{tmp_path}/").replace("listener 1883", f"listener {port} 127.0.0.1")
    conf = conf.replace("persistence true", "persistence false")
    if os.geteuid() == 0:
        conf += "user root\n"  # else it drops to "mosquitto", who cannot read the test's files
    (tmp_path / "event.conf").write_text(conf)
    binary = mosquitto_binary()
    assert binary is not None
    with open(tmp_path / "broker.log", "wb") as log:
        process = subprocess.Popen([binary, "-c", str(tmp_path / "event.conf")], stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        probe = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
        try:
            probe.connect("127.0.0.1", port)
            probe.disconnect()
            break
        except OSError:
            time.sleep(0.1)
    yield port
    process.terminate()
    process.wait(timeout=10)


def forge(port: int, user: str, topic: str, payload: bytes) -> None:
    """A client that logs in as ``user`` and publishes (QoS 1, retained) as any program could."""
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv311)
    client.username_pw_set(user, USERS[user])
    client.connect("127.0.0.1", port)
    client.loop_start()
    client.publish(topic, payload, qos=1, retain=True).wait_for_publish(5)
    time.sleep(0.2)
    client.loop_stop()
    client.disconnect()


def test_each_table_writes_only_its_own_topics_and_the_board_only_reads(tmp_path: Path, event_broker: int) -> None:
    port = event_broker
    url = f"127.0.0.1:{port}"
    board, model = BoardClient(f"mqtt://board:{USERS['board']}@{url}"), BoardModel()
    with Publisher(f"mqtt://table-b:{USERS['table-b']}@{url}", "table-b", tmp_path / "b.sqlite") as box:
        box.publish_result(1, FakeGame(), ROWS)
        assert received(board, model, "table-b/1")
    genuine = model.results["table-b/1"]
    forged = genuine.to_json() | {"standings": [{"place": 1, "colour": "blue", "score": 99, "money": 0,
                                                 "money_text": "0"}]}  # fmt: skip
    forge(port, "table-a", "companion/v1/results/table-b/1", json.dumps(forged).encode())  # overwrite b's result
    forge(port, "table-a", "companion/v1/results/table-b/2", json.dumps(forged | {"id": "table-b/2"}).encode())
    forge(port, "table-a", "companion/v1/tables/table-b/online", b'{"v":1,"kind":"online","table":"table-b",'
                                                                   b'"online":true}')  # fmt: skip
    forge(port, "board", "companion/v1/results/table-b/1", b"")  # the board withdrawing a result
    late = BoardModel()  # a board that starts now sees exactly what the broker retained
    late_client = BoardClient(f"mqtt://board:{USERS['board']}@{url}")
    assert received(late_client, late, "table-b/1")
    board.drain(model, timeout=1.0)
    for seen in (model, late):
        assert seen.results["table-b/1"] == genuine and "table-b/2" not in seen.results
        assert seen.online["table-b"] is False  # the genuine box went offline; table-a cannot say otherwise
    with Publisher(f"mqtt://table-a:{USERS['table-a']}@{url}", "table-a", tmp_path / "a.sqlite") as own:
        own.publish_result(7, FakeGame(), ROWS)  # a table's own topics: allowed
        assert received(late_client, late, "table-a/7")
    with Publisher(f"mqtt://table-a:{USERS['table-a']}@{url}", "table-b", tmp_path / "c.sqlite") as pretend:
        pretend.publish_result(9, FakeGame(), ROWS)  # table-a's login publishing as table-b: dropped
        time.sleep(1.5)
    late_client.drain(late, timeout=0.5)
    assert "table-b/9" not in late.results
    anonymous = BoardClient(f"mqtt://{url}")
    assert never_connects(anonymous)
    for client in (board, late_client, anonymous):
        client.close()
