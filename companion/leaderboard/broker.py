"""Where the broker is and how to reach it: ``mqtt://user:pass@host:1883`` or ``mqtts://...``.

Plain MQTT on a trusted event network is the default; a username/password and TLS are options of the
same URL. The password may also come from the environment (``COMPANION_MQTT_PASSWORD``) so that it
does not show in the process list. The paho client is built here and only here.
"""

from __future__ import annotations

import ipaddress
import os
import re
import ssl
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, parse_qsl, unquote, urlsplit

from companion.leaderboard.errors import BadBrokerUrl
from companion.text import bad_character, printable

if TYPE_CHECKING:
    import paho.mqtt.client as mqtt

PASSWORD_ENV = "COMPANION_MQTT_PASSWORD"
MAX_URL = 2048  # characters: a broker URL with a user, password and CA path is far shorter
SCHEMES = {"mqtt": (False, 1883), "tcp": (False, 1883), "mqtts": (True, 8883), "ssl": (True, 8883)}


@dataclass(frozen=True, slots=True)
class BrokerSettings:
    host: str
    port: int = 1883
    tls: bool = False
    username: str | None = None
    password: str | None = None
    ca_file: Path | None = None  # TLS: the CA that signed the broker's certificate (None: the system's CAs)
    cert_file: Path | None = None  # TLS client certificate, if the broker asks for one
    key_file: Path | None = None

    @classmethod
    def from_url(
        cls,
        url: str,
        *,
        ca_file: str | Path | None = None,
        cert_file: str | Path | None = None,
        key_file: str | Path | None = None,
        environ: dict[str, str] | None = None,
    ) -> BrokerSettings:
        """``mqtt://[user[:pass]@]host[:port]`` or ``mqtts://...[?ca=/path/ca.crt]``.

        Raises ``BadBrokerUrl`` naming the URL (without its password) and what is wrong.
        """
        env = os.environ if environ is None else environ
        if not isinstance(url, str) or len(url) > MAX_URL:
            raise BadBrokerUrl(f"a broker URL is text of at most {MAX_URL} characters")
        # Checked before urlsplit, which silently drops tabs and newlines (a host "a\nb" would become "ab").
        bad = next((c for c in url if c.isspace() or bad_character(c)), None)
        if bad is not None:
            raise BadBrokerUrl(f"broker URL {printable(url, 80)!r}: holds {bad!r}, which no URL may hold")
        if "://" not in url:
            url = f"mqtt://{url}"  # a bare "host[:port]" means plain MQTT
        shown = printable(url, 200)
        try:
            parts = urlsplit(url)
            shown = _without_password(url)
            hostname = parts.hostname
            port = parts.port
        except ValueError as exc:  # "Invalid IPv6 URL", a port out of range or not a number
            raise BadBrokerUrl(f"broker URL {shown}: {exc}") from None
        scheme = parts.scheme.lower()
        if scheme not in SCHEMES:
            raise BadBrokerUrl(f"broker URL {shown}: scheme {parts.scheme!r} is not one of mqtt, mqtts")
        tls, default_port = SCHEMES[scheme]
        if not hostname:
            raise BadBrokerUrl(f"broker URL {shown}: no host")
        if not _valid_host(hostname):
            raise BadBrokerUrl(f"broker URL {shown}: {hostname!r} is not a host name or IP address")
        if port == 0:
            raise BadBrokerUrl(f"broker URL {shown}: port 0 is no port")
        port = port or default_port
        if parts.path not in ("", "/"):
            raise BadBrokerUrl(f"broker URL {shown}: a path ({parts.path}) means nothing to MQTT")
        if parts.fragment:
            raise BadBrokerUrl(f"broker URL {shown}: a fragment (#...) means nothing to MQTT")
        try:
            pairs = parse_qsl(parts.query, keep_blank_values=True, strict_parsing=bool(parts.query))
        except ValueError as exc:
            raise BadBrokerUrl(f"broker URL {shown}: options: {exc}") from None
        query = parse_qs(parts.query)
        unknown = {k for k, _ in pairs} - {"ca", "cert", "key"}
        if unknown:
            raise BadBrokerUrl(f"broker URL {shown}: unknown option(s) {', '.join(sorted(unknown))}")
        if len(pairs) != len({k for k, _ in pairs}) or any(not v for _, v in pairs):
            raise BadBrokerUrl(f"broker URL {shown}: each option once, with a value")
        ca = ca_file or (query["ca"][0] if "ca" in query else None)
        cert = cert_file or (query["cert"][0] if "cert" in query else None)
        key = key_file or (query["key"][0] if "key" in query else None)
        if (ca or cert) and not tls:
            raise BadBrokerUrl(f"broker URL {shown}: a CA or certificate file needs mqtts://")
        for label, path in (("CA file", ca), ("certificate file", cert), ("key file", key)):
            if path is not None and not Path(path).is_file():
                raise BadBrokerUrl(f"broker URL {shown}: the {label} {path} does not exist")
        username = unquote(parts.username) if parts.username else None
        password = unquote(parts.password) if parts.password is not None else env.get(PASSWORD_ENV) or None
        for label, value in (("user name", username), ("password", password)):
            if value is not None and (len(value) > 256 or bad_character(value)):
                raise BadBrokerUrl(
                    f"broker URL {shown}: the {label} holds a character no user name or password may hold"
                )
        if password and not username:
            raise BadBrokerUrl(f"broker URL {shown}: a password needs a user name")
        return cls(
            host=hostname,
            port=port,
            tls=tls,
            username=username,
            password=password if username else None,
            ca_file=Path(ca) if ca else None,
            cert_file=Path(cert) if cert else None,
            key_file=Path(key) if key else None,
        )

    def __str__(self) -> str:
        user = (
            f"{self.username}:***@" if self.username and self.password else f"{self.username}@" if self.username else ""
        )
        return f"{'mqtts' if self.tls else 'mqtt'}://{user}{self.host}:{self.port}"

    def client(self, client_id: str) -> mqtt.Client:
        """A paho client (2.x callback API, MQTT 3.1.1, clean session) set up with these credentials."""
        import paho.mqtt.client as mqtt

        client = mqtt.Client(
            mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=True, protocol=mqtt.MQTTv311
        )
        if self.username:
            client.username_pw_set(self.username, self.password)
        if self.tls:
            client.tls_set(
                ca_certs=str(self.ca_file) if self.ca_file else None,
                certfile=str(self.cert_file) if self.cert_file else None,
                keyfile=str(self.key_file) if self.key_file else None,
                cert_reqs=ssl.CERT_REQUIRED,
                tls_version=ssl.PROTOCOL_TLS_CLIENT,
            )
        client.reconnect_delay_set(min_delay=1, max_delay=8)
        return client


_LABEL = re.compile(r"^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$")


def _valid_host(host: str) -> bool:
    """A DNS name (letters, digits, '-', dots; at most 253 characters) or an IPv4/IPv6 address."""
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        pass
    name = host[:-1] if host.endswith(".") else host
    return 0 < len(name) <= 253 and all(_LABEL.match(label) for label in name.split("."))


def _without_password(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return parts._replace(netloc=netloc).geturl()
