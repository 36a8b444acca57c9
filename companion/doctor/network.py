"""The event leaderboard's broker: the URL, an MQTT CONNECT answered, and an address the unit may reach."""

from __future__ import annotations

import contextlib
import ipaddress
import os
import socket
import time
from collections.abc import Iterator

from companion.doctor.box import ENV_FILE, Box
from companion.doctor.result import Findings, Result, fail, na, ok

# The unit's IPAddressAllow= (systemd/companion.service): localhost, link-local and private networks.
UNIT_NETWORKS = tuple(
    ipaddress.ip_network(n)
    for n in (
        "127.0.0.0/8",
        "::1/128",
        "169.254.0.0/16",
        "fe80::/10",
        "224.0.0.0/4",
        "ff00::/8",
        "10.0.0.0/8",
        "172.16.0.0/12",
        "192.168.0.0/16",
        "fc00::/7",
    )
)


def broker(box: Box, found: Findings) -> Iterator[Result]:
    from companion.leaderboard.broker import BrokerSettings
    from companion.leaderboard.errors import BadBrokerUrl

    url = box.settings().get("COMPANION_MQTT_BROKER", "").strip()
    if not url:
        yield na("broker", "no COMPANION_MQTT_BROKER: no event leaderboard")
        return
    try:
        broker_settings = BrokerSettings.from_url(url, environ=dict(box.settings()))
    except BadBrokerUrl as exc:
        yield fail("broker", str(exc), f"correct COMPANION_MQTT_BROKER in {ENV_FILE}")
        return
    answer = mqtt_connect(broker_settings, box.broker_timeout_s)
    if answer:
        yield fail("broker", f"{broker_settings}: {answer}", "is the broker running, and this box on its network?")
        return
    yield ok("broker", f"{broker_settings} accepts this box")
    if found.pi or box.installed:
        outside = outside_unit_networks(broker_settings.host, broker_settings.port)
        if outside:
            yield fail(
                "broker network",
                f"{broker_settings.host} is {outside}, outside the local networks the unit allows (IPAddressAllow=)",
                f"sudo systemctl edit companion: [Service] IPAddressAllow={outside}",
            )


def mqtt_connect(settings: object, timeout_s: float) -> str | None:
    """Connect as an MQTT client and wait for the broker's CONNACK: None if accepted, else why not."""
    from companion.leaderboard.broker import BrokerSettings

    assert isinstance(settings, BrokerSettings)
    client = settings.client(f"companion-doctor-{os.getpid()}")
    answer: list[str | None] = []

    def on_connect(_client: object, _userdata: object, _flags: object, reason: object, _props: object) -> None:
        failed = getattr(reason, "is_failure", False)
        answer.append(f"refused the connection: {reason}" if failed else None)

    client.on_connect = on_connect
    try:
        client.connect(settings.host, settings.port, keepalive=10)
    except (OSError, ValueError) as exc:
        return f"cannot connect: {exc}"
    try:
        until = time.monotonic() + timeout_s
        while not answer and time.monotonic() < until:
            client.loop(timeout=0.1)
    finally:
        with contextlib.suppress(Exception):
            client.disconnect()
    if not answer:
        return f"no answer to CONNECT in {timeout_s:g} s"
    return answer[0]


def outside_unit_networks(host: str, port: int) -> str | None:
    try:
        addresses = {str(info[4][0]) for info in socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)}
    except OSError:
        return None
    for address in sorted(addresses):
        ip = ipaddress.ip_address(address.split("%")[0])
        if not any(ip in network for network in UNIT_NETWORKS if network.version == ip.version):
            return address
    return None
