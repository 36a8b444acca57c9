"""``companion doctor`` against a box made of parts: a temporary root laid out like Raspberry Pi OS
with the installer's files, the emulated table (``EmulatedTable``, dead readers), the bridge's test
peer speaking the real protocol over a socket (``BridgePeer``), a real MQTT broker process, and
systemd's answers. A healthy box passes; each fault injected alone makes exactly its check fail.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from companion.doctor import Box, Result, Status, run
from companion.doctor.box import UNIT_ENVIRONMENT, parse_env_file
from companion.doctor.network import UNIT_NETWORKS
from companion.hardware.config import HardwareConfig
from companion.hardware.emulated import EmulatedTable
from companion.hardware.protocols import IntentSink
from companion.hardware.rig import HardwareRig
from companion.hardware.serial_peer import BridgePeer
from companion.hardware.serial_protocol import rf_digest
from tests.bots.helpers import fake_kernel_install

REPO = Path(__file__).resolve().parents[2]
JUNE_2026 = 1780272000.0
PIN = "COMPANION_ADMIN_PIN=583920\n"
CONFIG_TXT = "#dtparam=i2c_arm=on\ndtparam=spi=on\n[cm4]\notg_mode=1\n[all]\nenable_uart=1\n"
ENV = "/etc/companion/kiosk.env"


def passwd_line(uid: int, gid: int) -> str:
    return f"companion:x:{uid}:{gid}::/var/lib/companion:/usr/sbin/nologin\n"


CITIES = ["Amsterdam", "Berlin", "Cologne"]


def hardware_toml(backend: str, url: str = "/dev/ttyACM0", readers: Sequence[str] = CITIES) -> str:
    lines = ["[hardware]", f'backend = "{backend}"', "", "[serial]", f'url = "{url}"', "", "[spi]"]
    lines += ["address_pins = [5, 6, 13]", "", "[readers]"]
    lines += [f'{i} = "{city}"' for i, city in enumerate(readers)]
    lines += ["", "[card_reader]", f"channel = {len(readers)}", ""]
    return "\n".join(lines)


@dataclass
class Systemd:
    """What ``systemctl`` / ``timedatectl`` answer on the box."""

    states: dict[str, tuple[str, str]] = field(
        default_factory=lambda: {
            "companion.service": ("enabled", "inactive"),
            "companion-cage.service": ("not-found", "inactive"),
        }
    )
    ntp: str = "yes"

    def __call__(self, command: Sequence[str]) -> str | None:
        if command[0] == "timedatectl":
            return self.ntp
        verb, unit = command[1], command[2]
        enabled, active = self.states[unit]
        return enabled if verb == "is-enabled" else active


@dataclass
class PiRoot:
    """A Raspberry Pi OS root after install/companion_install.py, with the devices present."""

    root: Path
    systemd: Systemd = field(default_factory=Systemd)
    peer: BridgePeer | None = None
    dead_readers: tuple[str, ...] = ()
    free: int = 10 * 10**9
    now: float = JUNE_2026
    video: Callable[[str], str] = lambda driver: driver

    @property
    def kernel(self) -> Path:
        """The bots' package as an install that compiled the playout kernel leaves it (under its root)."""
        return fake_kernel_install(self.packages) if not (self.packages / "companion").exists() else self.bots

    @property
    def packages(self) -> Path:
        return self.root / "opt/companion/venv/site-packages"

    @property
    def bots(self) -> Path:
        return self.packages / "companion/games/on_the_way/bots"

    def file(self, path: str, text: str = "", mode: int = 0o644) -> Path:
        target = self.root / path.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        target.chmod(mode)
        return target

    def open_rig(self, config: HardwareConfig, sink: IntentSink) -> HardwareRig:
        table = EmulatedTable(config=config, sink=sink, dead=self.dead_readers)
        return HardwareRig(readers=table.readers, card_reader=table.readers, extra_close=table.close)

    def sleep(self, seconds: float) -> None:
        # The bridge runs while the doctor waits, and the wait lasts as long as a real one: a peer that
        # is dead or absent must not turn the doctor's loop into a busy one (as no Pi would).
        until = time.monotonic() + seconds
        if self.peer is not None:
            self.peer.pump(min(seconds, 0.02))
        time.sleep(max(0.0, until - time.monotonic()))

    def box(self, **overrides: object) -> Box:
        settings: dict[str, object] = {
            "sysroot": self.root,
            "environ": {},
            "open_rig": self.open_rig,
            "probe_video": self.video,
            "ask": self.systemd,
            "sleep": self.sleep,
            "wall_clock": lambda: self.now,
            "free_space": lambda _folder: self.free,
            "link_timeout_s": 1.5,
            "listen_s": 0.4,
            "broker_timeout_s": 3.0,
            "compiled_root": self.kernel.parents[3],
        }
        settings.update(overrides)
        return Box(**settings)  # type: ignore[arg-type]

    def results(self) -> dict[str, Result]:
        results = run(self.box())
        return {r.name: r for r in results}


@pytest.fixture
def pi(tmp_path: Path) -> PiRoot:
    """Healthy: a Pi 4, SPI and the UART on, the devices' nodes in groups the kiosk's user is in."""
    box = PiRoot(tmp_path)
    gid, uid = os.getgid(), os.getuid()
    box.file("/proc/device-tree/model", "Raspberry Pi 4 Model B Rev 1.4\0")
    box.file("/boot/firmware/config.txt", CONFIG_TXT)
    box.file("/etc/passwd", f"root:x:0:0::/root:/bin/bash\n{passwd_line(uid, gid)}")
    # The test's own ids stand for the kiosk user's: the files the test makes are then "its" files.
    box.file("/etc/group", f"root:x:0:\ncompanion:x:{gid}:\nspi:x:{gid}:companion\ndialout:x:{gid}:companion\n")
    for node in ("/dev/spidev0.0", "/dev/ttyACM0", "/dev/serial0", "/dev/dri/card0"):
        box.file(node, mode=0o660)
    box.file("/etc/companion/kiosk.env", f"{PIN}COMPANION_HARDWARE_FILE=/etc/companion/hardware.toml\n")
    box.file("/etc/companion/hardware.toml", hardware_toml("emulated"))
    (tmp_path / "var/lib/companion").mkdir(parents=True)
    return box


def statuses(results: dict[str, Result]) -> dict[str, Status]:
    return {name: r.status for name, r in results.items()}


def problems(results: dict[str, Result]) -> dict[str, str]:
    return {name: r.line() for name, r in results.items() if r.status in (Status.FAIL, Status.WARN)}


# -- healthy boxes --------------------------------------------------------------------------------


def test_a_healthy_emulated_box_has_nothing_to_fix(pi: PiRoot) -> None:
    results = pi.results()
    assert problems(results) == {}
    assert results["readers"].line() == "ok    readers: 4 of 4 answer (emulated)"
    assert results["admin pin"].status is Status.OK and "583920" not in results["admin pin"].line()  # never shown
    assert results["display"].message == "SDL video driver kmsdrm opens"  # the unit's driver, not ours
    assert results["service"].message == "companion.service enabled, inactive"
    assert results["playout kernel"].message.startswith("compiled (mypyc)")


def test_a_healthy_bridge_box_reports_the_firmware(pi: PiRoot) -> None:
    with BridgePeer(readers=4, firmware="rp2040/2.0") as peer:
        pi.peer = peer
        pi.file("/etc/companion/hardware.toml", hardware_toml("serial", peer.url))
        results = pi.results()
    assert problems(results) == {}
    assert results["bridge"].line() == f"ok    bridge: answers on {peer.url}: firmware rp2040/2.0, 4 readers"
    assert results["readers"].status is Status.OK and "4 of 4" in results["readers"].message
    assert results["serial"].status is Status.NA  # a socket:// link has no device node


def test_on_a_laptop_it_says_what_does_not_apply(tmp_path: Path) -> None:
    laptop = PiRoot(tmp_path)
    results = run(laptop.box(environ={"COMPANION_STATE_DIR": str(tmp_path / "state")}))
    by_name = {r.name: r for r in results}
    not_here = {name for name, r in by_name.items() if r.status is Status.NA}
    assert {"platform", "settings", "spi", "serial", "bridge", "readers", "display", "admin pin", "service"} <= not_here
    assert by_name["platform"].message.startswith("not a Raspberry Pi")
    assert all(r.status is not Status.FAIL for r in results)


# -- each fault alone fails its own check -----------------------------------------------------------


def spi_box(pi: PiRoot) -> None:
    pi.file("/etc/companion/hardware.toml", hardware_toml("spi"))
    pi.open_rig = lambda config, sink: (_ for _ in ()).throw(AssertionError("readers opened"))  # type: ignore[method-assign]


def _spi_off_in_config(pi: PiRoot) -> None:
    spi_box(pi)
    pi.file("/boot/firmware/config.txt", "#dtparam=spi=on\n[pi5]\ndtparam=spi=on\n")


def _no_spi_device_node(pi: PiRoot) -> None:
    spi_box(pi)
    (pi.root / "dev/spidev0.0").unlink()


def _spi_node_in_another_group(pi: PiRoot) -> None:
    spi_box(pi)
    pi.file("/etc/passwd", f"companion:x:{os.getuid()}:{os.getgid() + 1}::/:/usr/sbin/nologin\n")
    pi.file("/etc/group", f"companion:x:{os.getgid() + 1}:\nspi:x:{os.getgid()}:\n")
    # As the real node (crw-rw---- root spi): the owner is not the kiosk's user.
    (pi.root / "dev/spidev0.0").chmod(0o060)


def _bridge_unplugged(pi: PiRoot) -> None:
    pi.file("/etc/companion/hardware.toml", hardware_toml("serial"))
    (pi.root / "dev/ttyACM0").unlink()


FAULTS: dict[str, tuple[Callable[[PiRoot], object], str, str]] = {
    "SPI off in config.txt": (_spi_off_in_config, "spi", "SPI is off"),
    "no SPI device node": (_no_spi_device_node, "spi", "no "),
    "SPI node in a group the user is not in": (
        _spi_node_in_another_group,
        "spi",
        "which the user companion is not in",
    ),
    "bridge unplugged": (_bridge_unplugged, "serial", "no /dev/ttyACM0"),
    "GPIO UART off": (
        lambda pi: (
            pi.file("/etc/companion/hardware.toml", hardware_toml("serial", "/dev/serial0")),
            pi.file("/boot/firmware/config.txt", "dtparam=spi=on\n#enable_uart=1\n"),
        ),
        "serial",
        "UART, which is off",
    ),
    "dead reader": (lambda pi: setattr(pi, "dead_readers", ("Berlin",)), "readers", "not answering: 1 (Berlin)"),
    "broken hardware file": (
        lambda pi: pi.file("/etc/companion/hardware.toml", '[hardware]\nbackend = "spi"\n\n[spi]\ndevice = 3\n'),
        "hardware file",
        "hardware.toml:5: [spi] device",
    ),
    "no display driver": (lambda pi: setattr(pi, "video", _no_kmsdrm), "display", "cannot start"),
    "no /dev/dri": (lambda pi: (pi.root / "dev/dri/card0").unlink(), "display", "no /dev/dri/card*"),
    "journal folder missing": (lambda pi: (pi.root / "var/lib/companion").rmdir(), "journal", "no folder"),
    "journal folder of another user": (
        lambda pi: pi.file("/etc/passwd", f"companion:x:{os.getuid() + 1}:{os.getgid()}::/:/usr/sbin/nologin\n"),
        "journal",
        "not owned by companion",
    ),
    "disk full": (lambda pi: setattr(pi, "free", 10 * 10**6), "journal", "only 10 MB free"),
    "published PIN": (lambda pi: pi.file(ENV, "COMPANION_ADMIN_PIN=2468\n"), "admin pin", "published"),
    "PIN not digits": (lambda pi: pi.file(ENV, "COMPANION_ADMIN_PIN=12a4\n"), "admin pin", "4+ digits"),
    "no PIN at all": (lambda pi: pi.file(ENV, "# nothing\n"), "admin pin", "none set"),
    "bad broker URL": (
        lambda pi: pi.file(ENV, PIN + "COMPANION_MQTT_BROKER=ftp://x\n"),
        "broker",
        "scheme 'ftp'",
    ),
    "broker down": (
        lambda pi: pi.file(ENV, PIN + f"COMPANION_MQTT_BROKER=mqtt://127.0.0.1:{_closed_port()}\n"),
        "broker",
        "cannot connect",
    ),
    "clock never set": (lambda pi: setattr(pi, "now", 86400.0 * 365), "clock", "never set"),
    "clock went back": (
        lambda pi: os.utime(pi.file("/var/lib/companion/journal.sqlite", "x"), (JUNE_2026 + 86400,) * 2),
        "clock",
        "went back",
    ),
    "service not enabled": (
        lambda pi: pi.systemd.states.update({"companion.service": ("disabled", "inactive")}),
        "service",
        "not enabled",
    ),
    "service failed": (
        lambda pi: pi.systemd.states.update({"companion.service": ("enabled", "failed")}),
        "service",
        "failed",
    ),
}


def _no_kmsdrm(driver: str) -> str:
    raise RuntimeError(f"{driver} not available")


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# The kiosk's display check logs its finding as an error too (companion/kiosk/display_env.py).
LOGS_AN_ERROR = {"no display driver"}


@pytest.mark.parametrize(
    "fault",
    [pytest.param(f, marks=[pytest.mark.allow_error_logs] if f in LOGS_AN_ERROR else []) for f in sorted(FAULTS)],
)
def test_each_fault_fails_its_own_check_and_only_that(pi: PiRoot, fault: str) -> None:
    inject, check, words = FAULTS[fault]
    healthy = statuses(pi.results())
    inject(pi)
    results = pi.results()
    assert results[check].status is Status.FAIL, results[check].line()
    assert words in results[check].message, results[check].line()
    assert results[check].fix, "a failed check says what to do"
    # Checks that depend on the broken part say so instead of failing too; nothing else fails.
    others = {name for name, r in results.items() if r.status is Status.FAIL and name != check}
    assert others == set(), [results[n].line() for n in others]
    assert healthy[check] in (Status.OK, Status.NA)


def test_a_playout_kernel_older_than_its_sources_is_a_warning_on_a_pi(pi: PiRoot, tmp_path: Path) -> None:
    """An update of the sources without a reinstall: the plain-Python kernel runs (companion/native.py), the
    same moves, slower. Worth a look, not a failure."""
    healthy = statuses(pi.results())
    (pi.kernel / "kernel.py").write_text("# kernel, updated after the install\n", encoding="utf-8")
    results = pi.results()
    line = results["playout kernel"].line()
    assert results["playout kernel"].status is Status.WARN, line
    assert "plain Python" in line and "sources changed" in line and "companion_install.py" in line
    assert {n: s for n, s in statuses(results).items() if n != "playout kernel"} == {
        n: s for n, s in healthy.items() if n != "playout kernel"
    }
    laptop = PiRoot(tmp_path / "laptop")
    (laptop.kernel / "policy.py").write_text("# policy, edited\n", encoding="utf-8")
    on_laptop = {r.name: r for r in run(laptop.box(environ={"COMPANION_STATE_DIR": str(tmp_path / "state")}))}
    assert on_laptop["playout kernel"].status is Status.OK  # a simulator needs no speed: nothing to fix
    assert "sources changed" in on_laptop["playout kernel"].message


def test_the_playout_kernel_is_judged_in_the_kiosks_environment(pi: PiRoot) -> None:
    """COMPANION_PURE_PYTHON in kiosk.env makes the kiosk run plain Python: the fix is to remove it (a
    reinstall would not help); in the shell that runs the doctor it says nothing about the kiosk."""
    pi.file("/etc/companion/kiosk.env", f"{PIN}COMPANION_HARDWARE_FILE=/etc/companion/hardware.toml\n")
    shell = {r.name: r for r in run(pi.box(environ={"COMPANION_PURE_PYTHON": "1"}))}
    assert shell["playout kernel"].status is Status.OK, shell["playout kernel"].line()
    pi.file(
        "/etc/companion/kiosk.env",
        f"{PIN}COMPANION_HARDWARE_FILE=/etc/companion/hardware.toml\nCOMPANION_PURE_PYTHON=1\n",
    )
    kiosk = pi.results()["playout kernel"]
    assert kiosk.status is Status.WARN and "COMPANION_PURE_PYTHON is set" in kiosk.message
    assert kiosk.fix == "remove COMPANION_PURE_PYTHON from /etc/companion/kiosk.env"


def test_a_bridge_that_does_not_answer(pi: PiRoot) -> None:
    with socket.socket() as silent:  # accepts the connection, never answers HELLO
        silent.bind(("127.0.0.1", 0))
        silent.listen(1)
        pi.file(
            "/etc/companion/hardware.toml", hardware_toml("serial", f"socket://127.0.0.1:{silent.getsockname()[1]}")
        )
        results = pi.results()
    assert results["bridge"].status is Status.FAIL and "HELLO unanswered" in results["bridge"].message
    assert results["readers"].status is Status.NA and results["readers"].message == "the bridge did not answer"


GROUPS = '[rf]\ngroups = [["Amsterdam", "Cologne"], ["Berlin", "card"]]\n'  # channels [[0, 2], [1, 3]]


@pytest.mark.parametrize(
    ("flashed", "status", "said"),
    [
        ([[2, 0], [3, 1]], Status.OK, "sweeps this file's 2 RF groups"),  # the same groups, in any order
        ([[0, 1], [2, 3]], Status.FAIL, "other RF groups than this file's"),  # Amsterdam and Berlin together
        ([[0], [1], [2], [3]], Status.FAIL, "one reader at a time, but this file has RF groups"),
        (None, Status.FAIL, "one reader at a time, but this file has RF groups"),  # flashed before groups
    ],
)
def test_the_rf_groups_the_bridge_was_flashed_with(
    pi: PiRoot, flashed: list[list[int]] | None, status: Status, said: str
) -> None:
    """Protocol 4: the bridge names its RF groups in HELLO; the doctor compares them with the file's."""
    with BridgePeer(readers=4, rf=rf_digest(flashed)) as peer:
        pi.peer = peer
        pi.file("/etc/companion/hardware.toml", hardware_toml("serial", peer.url) + GROUPS)
        result = pi.results()["rf groups"]
    assert result.status is status and said in result.message, result.line()
    if status is Status.FAIL:
        assert re.search(r"fix: companion hardware flash --config \S*/etc/companion/hardware\.toml$", result.line())


def test_a_bridge_without_groups_for_a_file_without_groups_is_safe(pi: PiRoot) -> None:
    with BridgePeer(readers=4) as peer:  # one reader at a time, as a file without [rf] groups flashes
        pi.peer = peer
        pi.file("/etc/companion/hardware.toml", hardware_toml("serial", peer.url))
        result = pi.results()["rf groups"]
    assert result.status is Status.OK and "one reader at a time (safe" in result.message


def test_a_bridge_flashed_for_another_box(pi: PiRoot) -> None:
    with BridgePeer(readers=2) as peer:  # the file needs channels 0..3
        pi.peer = peer
        pi.file("/etc/companion/hardware.toml", hardware_toml("serial", peer.url))
        results = pi.results()
    assert results["bridge"].status is Status.FAIL
    assert "scans 2 readers; this hardware file needs 4" in results["bridge"].message


def test_a_reader_the_bridge_reports_as_not_answering(pi: PiRoot) -> None:
    with BridgePeer(readers=4) as peer:
        peer.fault(1, "no answer (version 0x00)")
        pi.peer = peer
        pi.file("/etc/companion/hardware.toml", hardware_toml("serial", peer.url))
        results = pi.results()
    assert results["bridge"].status is Status.OK
    assert results["readers"].status is Status.FAIL
    assert "3 of 4 answer; not answering: bridge reader 1 (Berlin)" in results["readers"].message


def test_while_the_kiosk_runs_the_bridge_is_left_alone(pi: PiRoot) -> None:
    pi.systemd.states["companion.service"] = ("enabled", "active")
    with BridgePeer(readers=4) as peer:
        pi.file("/etc/companion/hardware.toml", hardware_toml("serial", peer.url))
        results = pi.results()
        peer.pump(0.1)
        assert not peer.connected and peer.host_lines == []  # never connected: the kiosk keeps its session
    assert results["bridge"].status is Status.NA and "running kiosk" in results["bridge"].message
    assert results["display"].message == "SDL video driver kmsdrm, in use by the running kiosk"


def test_the_broker_answering(pi: PiRoot, tmp_path: Path) -> None:
    from tests.leaderboard.broker import TestBroker

    (tmp_path / "broker").mkdir()
    broker = TestBroker(tmp_path / "broker")
    broker.start()
    try:
        pi.file(ENV, PIN + f"COMPANION_MQTT_BROKER=mqtt://127.0.0.1:{broker.port}\n")
        results = pi.results()
    finally:
        broker.stop()
    assert results["broker"].line() == f"ok    broker: mqtt://127.0.0.1:{broker.port} accepts this box"
    assert "broker network" not in results  # loopback is inside the unit's IPAddressAllow=


def test_the_unit_network_check_flags_a_public_broker() -> None:
    from companion.doctor.network import outside_unit_networks

    assert outside_unit_networks("127.0.0.1", 1883) is None
    assert outside_unit_networks("192.168.1.20", 1883) is None
    assert outside_unit_networks("203.0.113.7", 1883) == "203.0.113.7"


def test_unsynchronised_clock_is_a_warning_not_a_failure(pi: PiRoot) -> None:
    pi.systemd.ntp = "no"
    results = pi.results()
    assert results["clock"].status is Status.WARN and "not synchronised" in results["clock"].message


def test_a_pin_generated_by_the_kiosk_counts(pi: PiRoot) -> None:
    pi.file(ENV, "COMPANION_HARDWARE_FILE=/etc/companion/hardware.toml\n")
    pi.file("/var/lib/companion/admin-pin", "402913\n", mode=0o600)
    result = pi.results()["admin pin"]
    assert result.status is Status.OK and "generated at the first start" in result.message


# -- the doctor's view matches the unit's ------------------------------------------------------------


def unit_directives(name: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for line in (REPO / "systemd" / name).read_text(encoding="utf-8").splitlines():
        if "=" in line and not line.startswith("#"):
            key, value = line.split("=", 1)
            found.setdefault(key.strip(), []).append(value.strip())
    return found


def test_the_doctor_sees_the_environment_the_unit_gives_the_kiosk() -> None:
    unit = unit_directives("companion.service")
    environment = dict(item.split("=", 1) for value in unit["Environment"] for item in value.split())
    assert environment["SDL_VIDEODRIVER"] == UNIT_ENVIRONMENT["SDL_VIDEODRIVER"]
    assert f"/var/lib/{unit['StateDirectory'][0]}" == UNIT_ENVIRONMENT["STATE_DIRECTORY"]
    assert unit["EnvironmentFile"] == ["-/etc/companion/kiosk.env"]
    allowed = {n for value in unit["IPAddressAllow"] for n in value.split() if "/" in n}
    assert allowed <= {str(n) for n in UNIT_NETWORKS}


def test_env_file_parsing() -> None:
    text = "# c\n; c\nA=1\nB = 'two words'\nC=\"x\"\nD\n  E=5  \n"
    assert parse_env_file(text) == {"A": "1", "B": "two words", "C": "x", "E": "5"}


# -- the command ----------------------------------------------------------------------------------------


def doctor(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion", "doctor", *args], capture_output=True, text=True, env=env, timeout=120
    )


def test_the_command_prints_one_line_per_check_and_exits_non_zero_on_a_failure(tmp_path: Path) -> None:
    env = {**os.environ, "COMPANION_STATE_DIR": str(tmp_path), "SDL_VIDEODRIVER": "dummy"}
    good = doctor(env=env)
    lines = good.stdout.splitlines()
    assert all(re.match(r"^(ok|warn|FAIL|n/a) +[a-z ]+: ", line) for line in lines), good.stdout
    names = [line.split(":")[0].split(maxsplit=1)[1] for line in lines]
    assert names[:3] == ["platform", "settings", "hardware file"] and "clock" in names and len(names) == len(set(names))
    bad = tmp_path / "bad.toml"
    bad.write_text('[hardware]\nbackend = "nonsense"\n', encoding="utf-8")
    broken = doctor("--hardware", str(bad), env=env)
    assert broken.returncode == 1, broken.stdout + broken.stderr
    assert re.search(r"^FAIL  hardware file: .*bad.toml:2: \[hardware\] backend", broken.stdout, re.M), broken.stdout
    assert "1 to fix" in broken.stderr


@pytest.mark.parametrize(
    ("config_txt", "on"),
    [
        ("dtparam=spi=on\n", True),
        ("dtparam=audio=on,spi=on\n", True),
        ("[pi4]\ndtparam=spi=on\n", True),  # this box is a Pi 4
        ("[pi5]\ndtparam=spi=on\n", False),
        ("dtparam=spi=on\ndtparam=spi=off\n", False),  # the last one wins
        ("#dtparam=spi=on\n", False),
        ("[none]\ndtparam=spi=on\n[all]\n", False),
    ],
)
def test_spi_is_read_from_config_txt_as_the_firmware_reads_it(pi: PiRoot, config_txt: str, on: bool) -> None:
    pi.file("/etc/companion/hardware.toml", hardware_toml("spi"))
    pi.file("/boot/firmware/config.txt", config_txt)
    result = pi.results()["spi"]
    assert (result.status is Status.OK) is on, result.line()
    assert on or "SPI is off" in result.message
