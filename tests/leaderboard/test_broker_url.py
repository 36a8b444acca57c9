"""``--broker`` URLs: plain MQTT by default; user/password and TLS in the same URL."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.leaderboard import BadBrokerUrl, BrokerSettings


def test_plain_mqtt_with_defaults() -> None:
    s = BrokerSettings.from_url("mqtt://192.168.1.10", environ={})
    assert (s.host, s.port, s.tls, s.username, s.password) == ("192.168.1.10", 1883, False, None, None)
    assert BrokerSettings.from_url("laptop.local:1884", environ={}).port == 1884  # bare host:port


def test_user_and_password_are_decoded_and_never_shown() -> None:
    s = BrokerSettings.from_url("mqtt://table%201:p%40ss@broker:1883", environ={})
    assert (s.username, s.password) == ("table 1", "p@ss")
    assert str(s) == "mqtt://table 1:***@broker:1883"


def test_the_password_may_come_from_the_environment() -> None:
    s = BrokerSettings.from_url("mqtt://box@broker", environ={"COMPANION_MQTT_PASSWORD": "secret"})
    assert (s.username, s.password) == ("box", "secret")


def test_tls_with_a_ca_file(tmp_path: Path) -> None:
    ca = tmp_path / "ca.crt"
    ca.write_text("-----BEGIN CERTIFICATE-----\n", encoding="utf-8")
    s = BrokerSettings.from_url(f"mqtts://broker?ca={ca}", environ={})
    assert (s.tls, s.port, s.ca_file) == (True, 8883, ca)
    assert BrokerSettings.from_url("mqtts://broker:9883", ca_file=ca, environ={}).ca_file == ca


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("http://broker", "scheme 'http'"),
        ("mqtt://", "no host"),
        ("mqtt://broker:notaport", "Port could not be cast"),
        ("mqtt://broker/topic", "a path"),
        ("mqtt://broker?ca=/x", "needs mqtts"),
        ("mqtts://broker?ca=/no/such/ca.crt", "does not exist"),
        ("mqtt://broker?qos=2", "unknown option"),
        ("mqtt://:secret@broker", "needs a user name"),
    ],
)
def test_bad_urls_say_what_is_wrong_without_the_password(url: str, problem: str) -> None:
    with pytest.raises(BadBrokerUrl, match=problem) as info:
        BrokerSettings.from_url(url, environ={})
    assert "secret" not in str(info.value)
    assert isinstance(info.value, ValueError)
