"""A real MQTT broker process for the tests, on a free loopback port.

Mosquitto where it is installed (``.ci/run`` installs it), else amqtt (pure Python, from the dev
extra). ``COMPANION_TEST_BROKER=amqtt`` forces the fallback. No persistence: a killed broker comes
back empty, the worst case for the publishers (they must publish their results again).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path


def mosquitto_binary() -> str | None:
    if os.environ.get("COMPANION_TEST_BROKER", "").lower() == "amqtt":
        return None
    found = shutil.which("mosquitto")
    if found:
        return found
    return "/usr/sbin/mosquitto" if os.access("/usr/sbin/mosquitto", os.X_OK) else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class TestBroker:
    """``start()``, ``kill()`` (SIGKILL: no goodbye), ``start()`` again on the same port."""

    __test__ = False  # not a test class for pytest

    def __init__(self, folder: Path, *, extra_config: str = "", password_file: Path | None = None) -> None:
        self.folder = folder
        self.port = free_port()
        self.binary = mosquitto_binary()
        self.kind = "mosquitto" if self.binary else "amqtt"
        self.extra_config = extra_config
        self.password_file = password_file
        self.process: subprocess.Popen[bytes] | None = None
        self.log = folder / f"broker-{self.port}.log"

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def _command(self) -> list[str]:
        if self.binary:
            config = self.folder / f"mosquitto-{self.port}.conf"
            lines = [f"listener {self.port} 127.0.0.1", "persistence false", "log_dest stderr", "log_type error",
                     "log_type warning", "max_queued_messages 100000"]  # fmt: skip
            if os.geteuid() == 0:
                lines.append("user root")  # else it drops to "mosquitto", who cannot read the test's files
            if self.password_file:
                lines += ["allow_anonymous false", f"password_file {self.password_file}"]
            else:
                lines.append("allow_anonymous true")
            config.write_text("\n".join(lines) + "\n" + self.extra_config, encoding="utf-8")
            return [self.binary, "-c", str(config)]
        config = self.folder / f"amqtt-{self.port}.yaml"
        config.write_text(
            "listeners:\n  default:\n    type: tcp\n"
            f"    bind: 127.0.0.1:{self.port}\n"
            "plugins:\n  amqtt.plugins.authentication.AnonymousAuthPlugin:\n    allow_anonymous: true\n",
            encoding="utf-8",
        )
        script = Path(sys.executable).with_name("amqtt")
        return [str(script), "-c", str(config)]

    def start(self, timeout: float = 15.0) -> None:
        assert self.process is None or self.process.poll() is not None
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(self._command(), stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.kind} exited: {self.log.read_text(errors='replace')[-2000:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"{self.kind} did not listen on {self.port} within {timeout} s")

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
