"""What ``companion doctor`` looks at: the machine, the kiosk's settings as the unit sees them, and the
ways to reach the devices. Everything reaches the outside world through this object, so the tests
point it at a temporary root, an emulated table, a bridge peer and a fake clock.

The unit's view (``systemd/companion.service``): ``EnvironmentFile=/etc/companion/kiosk.env``,
``Environment=SDL_VIDEODRIVER=kmsdrm``, ``StateDirectory=companion`` (→ ``STATE_DIRECTORY``). An admin
runs the doctor from a shell that has none of these, so on an installed box (kiosk.env exists) the
doctor reads them as the unit would; elsewhere (a laptop, a development checkout) it uses its own
environment.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from companion.hardware.config import HardwareConfig
from companion.hardware.protocols import IntentSink
from companion.hardware.rig import HardwareRig

ENV_FILE = "/etc/companion/kiosk.env"
DEFAULT_HARDWARE_FILE = "/etc/companion/hardware.toml"
SERVICE_USER = "companion"
# Environment= and StateDirectory= of systemd/companion.service (tests/doctor checks they match).
UNIT_ENVIRONMENT = {"SDL_VIDEODRIVER": "kmsdrm", "STATE_DIRECTORY": "/var/lib/companion"}
UNITS = ("companion.service", "companion-cage.service")


def parse_env_file(text: str) -> dict[str, str]:
    """systemd's EnvironmentFile= syntax, as far as kiosk.env uses it: ``KEY=value`` lines, ``#`` and
    ``;`` comments, optional single or double quotes around the value."""
    values: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")) or "=" not in line:
            continue
        key, value = line.split("=", 1)
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key.strip()] = value
    return values


def build_rig(config: HardwareConfig, sink: IntentSink) -> HardwareRig:
    from companion.hardware.factory import build_rig as factory_build_rig

    return factory_build_rig(config, sink)


def run_tool(command: Sequence[str]) -> str | None:
    """The output of a system tool (``systemctl``, ``timedatectl``), or None where there is none to ask."""
    if shutil.which(command[0]) is None:
        return None
    try:
        proc = subprocess.run(list(command), capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout.strip()


@dataclass
class Box:
    sysroot: Path = Path("/")  # where /dev, /proc, /boot and /etc are
    environ: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))
    hardware_file: str | None = None  # --hardware; else the environment's, else /etc/companion/hardware.toml
    journal: Path | None = None  # --journal; else the state directory's journal.sqlite
    clock: Callable[[], float] = time.monotonic
    sleep: Callable[[float], None] = time.sleep
    wall_clock: Callable[[], float] = time.time
    open_rig: Callable[[HardwareConfig, IntentSink], HardwareRig] = build_rig
    probe_video: Callable[[str], str] | None = None  # None: the kiosk's own probe (opens the display)
    ask: Callable[[Sequence[str]], str | None] = run_tool
    free_space: Callable[[Path], int] = lambda folder: shutil.disk_usage(folder).free
    link_timeout_s: float = 3.0  # how long the bridge may take to answer HELLO
    listen_s: float = 1.0  # after the link: reader faults the bridge reports
    broker_timeout_s: float = 5.0
    compiled_root: Path | None = None  # where ``companion`` (its compiled modules) lies; None: the installed one
    _settings: dict[str, str] | None = None
    _settings_error: str | None = None
    _unit_only: dict[str, str] | None = None

    def path(self, absolute: str) -> Path:
        return self.sysroot / absolute.lstrip("/")

    # -- the kiosk's environment --------------------------------------------------------------------
    @property
    def installed(self) -> bool:
        """A box set up by install/companion_install.py (or by hand as docs/pi-install.md says)."""
        return self.path(ENV_FILE).exists()

    def settings(self) -> dict[str, str]:
        """The environment the kiosk runs with: the unit's on an installed box, else ours."""
        if self._settings is None:
            env = dict(self.environ)
            if self.installed:
                try:
                    from_file = parse_env_file(self.path(ENV_FILE).read_text(encoding="utf-8"))
                except (OSError, UnicodeDecodeError) as exc:
                    self._settings_error = f"cannot read {ENV_FILE}: {getattr(exc, 'strerror', None) or exc}"
                    from_file = {}
                env = {**env, **UNIT_ENVIRONMENT, **from_file}
                env["STATE_DIRECTORY"] = str(self.path(UNIT_ENVIRONMENT["STATE_DIRECTORY"]))
                self._unit_only = {**UNIT_ENVIRONMENT, **from_file}
            self._settings = env
        return self._settings

    def kiosk_environment(self) -> Mapping[str, str]:
        """Only what the kiosk's process gets: on an installed box the unit's environment and its file,
        not the shell's that runs the doctor; elsewhere ours (the simulator's)."""
        self.settings()
        return self.environ if self._unit_only is None else self._unit_only

    @property
    def settings_error(self) -> str | None:
        self.settings()
        return self._settings_error

    def hardware_path(self) -> Path | None:
        """The hardware file the kiosk uses: --hardware, $COMPANION_HARDWARE_FILE, or the default on a Pi."""
        if self.hardware_file:
            return Path(self.hardware_file)
        named = self.settings().get("COMPANION_HARDWARE_FILE", "").strip()
        if named:
            return self.path(named) if named.startswith("/") else Path(named)
        default = self.path(DEFAULT_HARDWARE_FILE)
        return default if default.exists() else None

    # -- the machine --------------------------------------------------------------------------------
    def model(self) -> str | None:
        """The Raspberry Pi model, or None on any other machine."""
        try:
            text = self.path("/proc/device-tree/model").read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None
        text = text.strip("\x00 \n")
        return text if "Raspberry Pi" in text else None

    def boot_config(self) -> tuple[Path, str] | None:
        for name in ("/boot/firmware/config.txt", "/boot/config.txt"):
            try:
                return self.path(name), self.path(name).read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
        return None

    def user_ids(self, name: str) -> tuple[int, set[int]] | None:
        """uid and the gids of ``name`` (primary and supplementary) from the box's own files, or None."""
        try:
            passwd = self.path("/etc/passwd").read_text(encoding="utf-8")
            group = self.path("/etc/group").read_text(encoding="utf-8")
        except OSError:
            return None
        for line in passwd.splitlines():
            fields = line.split(":")
            if fields[0] == name and len(fields) > 3:
                gids = {int(fields[3])}
                for entry in group.splitlines():
                    parts = entry.split(":")
                    if len(parts) == 4 and name in parts[3].split(","):
                        gids.add(int(parts[2]))
                return int(fields[2]), gids
        return None

    def group_name(self, gid: int) -> str:
        try:
            for entry in self.path("/etc/group").read_text(encoding="utf-8").splitlines():
                parts = entry.split(":")
                if len(parts) > 2 and parts[2] == str(gid):
                    return parts[0]
        except OSError:
            pass
        return str(gid)

    def unit_state(self, unit: str) -> tuple[str, str] | None:
        """(is-enabled, is-active) of ``unit``, or None without systemd."""
        enabled = self.ask(["systemctl", "is-enabled", unit])
        active = self.ask(["systemctl", "is-active", unit])
        if enabled is None or active is None:
            return None
        return enabled or "not-found", active or "unknown"
