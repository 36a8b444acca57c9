"""Username/password and TLS, against a real Mosquitto (skipped where only the fallback broker runs)."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import pytest

from companion.leaderboard import BoardModel, BrokerSettings, Publisher
from companion.leaderboard.client import BoardClient
from tests.leaderboard.broker import TestBroker, mosquitto_binary
from tests.leaderboard.helpers import FakeGame

pytestmark = pytest.mark.skipif(mosquitto_binary() is None, reason="needs Mosquitto (installed by .ci/run)")
ROWS = [{"place": 1, "colour": "red", "score": 5, "money": 50}, {"place": 2, "colour": "blue", "score": 2, "money": 0}]


def received(client: BoardClient, model: BoardModel, result_id: str, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while result_id not in model.results and time.monotonic() < deadline:
        client.drain(model, timeout=0.05)
    return result_id in model.results


def never_connects(client: BoardClient, seconds: float = 5.0) -> bool:
    """An attempt of ``client`` failed (the broker's CONNACK said no, or TLS did), and it was never
    connected meanwhile: waited for as the failure itself, not as a fixed time."""
    model = BoardModel()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not client.failure:
        client.drain(model, timeout=0.05)
        if client.connected:
            return False
    return bool(client.failure) and not client.connected


def test_tls_with_the_event_ca(tmp_path: Path) -> None:
    if shutil.which("openssl") is None:
        pytest.skip("needs openssl to make the test certificates")
    ca, cert, key = make_certificates(tmp_path)
    broker = TestBroker(tmp_path, extra_config=f"cafile {ca}\ncertfile {cert}\nkeyfile {key}\n")
    broker.start()
    url = f"mqtts://127.0.0.1:{broker.port}"
    try:
        client, model = BoardClient(BrokerSettings.from_url(url, ca_file=ca)), BoardModel()
        with Publisher(f"{url}?ca={ca}", "A", tmp_path / "o.sqlite") as box:
            box.publish_result(1, FakeGame(), ROWS)
            assert received(client, model, "A/1")
        client.close()
        stranger = BoardClient(url)  # the system's CAs do not know the event's CA
        assert never_connects(stranger)
        stranger.close()
    finally:
        broker.stop()


def test_user_and_password(tmp_path: Path) -> None:
    passwords = tmp_path / "passwords"
    subprocess.run(["mosquitto_passwd", "-c", "-b", str(passwords), "table-a", "s3cret"], check=True,
                   capture_output=True)  # fmt: skip
    subprocess.run(["mosquitto_passwd", "-b", str(passwords), "board", "b0ard"], check=True, capture_output=True)
    broker = TestBroker(tmp_path, password_file=passwords)
    broker.start()
    try:
        client, model = BoardClient(f"mqtt://board:b0ard@127.0.0.1:{broker.port}"), BoardModel()
        with Publisher(f"mqtt://table-a:s3cret@127.0.0.1:{broker.port}", "A", tmp_path / "o.sqlite") as box:
            box.publish_result(1, FakeGame(), ROWS)
            assert received(client, model, "A/1")
        client.close()
        anonymous = BoardClient(broker.url)
        assert never_connects(anonymous)
        anonymous.close()
        with Publisher(f"mqtt://table-a:wrong@127.0.0.1:{broker.port}", "B", tmp_path / "b.sqlite") as refused:
            refused.publish_result(1, FakeGame(), ROWS)
            time.sleep(1.0)
            assert not refused.status.connected and refused.status.pending == 2  # kept for when it is fixed
    finally:
        broker.stop()


def make_certificates(folder: Path) -> tuple[Path, Path, Path]:
    """A throw-away CA and a server certificate for 127.0.0.1 (openssl, two days)."""
    ca_key, ca, key, csr, cert = (folder / n for n in ("ca.key", "ca.crt", "server.key", "server.csr", "server.crt"))
    ext = folder / "san.cnf"
    ext.write_text("subjectAltName=IP:127.0.0.1\n", encoding="utf-8")

    def openssl(*args: str) -> None:
        subprocess.run(["openssl", *args], check=True, capture_output=True, cwd=folder)

    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(ca_key), "-out", str(ca), "-days", "2",
            "-subj", "/CN=companion test CA")  # fmt: skip
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(csr), "-subj", "/CN=127.0.0.1")
    openssl("x509", "-req", "-in", str(csr), "-CA", str(ca), "-CAkey", str(ca_key), "-CAcreateserial", "-out",
            str(cert), "-days", "2", "-extfile", str(ext))  # fmt: skip
    return ca, cert, key
