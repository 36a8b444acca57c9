"""install/companion_install.py, the fast part (the full run in a Debian bookworm root built with
mmdebstrap is tests/install/full_run.sh, a few minutes and network: run by hand, its result goes in
the issue's closing note).

Here the installer runs for real on a temporary root — its files, modes, text edits, idempotence,
upgrade and removal — and only the system's commands are stand-ins (``FakeSystem``): each keeps the
state the real tool would (dpkg's package list, /etc/passwd and /etc/group, the venv, the unit's
enablement links), so a second run sees what the first one did, as it would on a Pi.
"""

from __future__ import annotations

import importlib.util
import io
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator, Sequence
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.doctor.box import parse_env_file
from companion.kiosk.admin import PUBLISHED_PINS, valid_pin

REPO = Path(__file__).resolve().parents[2]
INSTALLER = REPO / "install" / "companion_install.py"


def load_installer() -> ModuleType:
    spec = importlib.util.spec_from_file_location("companion_install", INSTALLER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["companion_install"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


ci = load_installer()


class FakeSystem(ci.Host):  # type: ignore[name-defined,misc]
    """The system's commands, keeping the state the real ones keep, inside ``root``."""

    def __init__(self, root: Path, *, booted: bool = False, raspi_config: bool = False) -> None:
        super().__init__(root=root, environ={})
        self.is_booted = booted
        self.commands: list[list[str]] = []
        self.packages: set[str] = {"python3", "ca-certificates"}
        self.active: set[str] = set()
        self.raspi: dict[str, str] = {"get_spi": "1", "get_serial_hw": "1", "get_serial_cons": "0"}
        self.fail_next: str | None = None  # a command to fail once (a network error during pip)
        self.chowns: dict[str, tuple[str, str]] = {}
        if raspi_config:
            (root / "usr/bin").mkdir(parents=True, exist_ok=True)
            (root / "usr/bin/raspi-config").write_text("#!/bin/sh\n")

    def booted(self) -> bool:
        return self.is_booted

    def chown(self, path: Path, user: str, group: str) -> None:
        ci.ids(self.root, "passwd", user), ci.ids(self.root, "group", group)  # they must exist
        self.chowns[str(path.relative_to(self.root))] = (user, group)
        if os.geteuid() == 0:
            super().chown(path, user, group)

    def run(self, argv: Sequence[str], *, check: bool = True) -> subprocess.CompletedProcess[str]:
        argv = list(argv)
        self.commands.append(argv)
        if self.fail_next and argv[0].endswith(self.fail_next):
            self.fail_next = None
            if check:
                raise ci.InstallError(f"`{' '.join(argv)}` failed (exit status 1):\nnetwork unreachable")
            return subprocess.CompletedProcess(argv, 1, "", "network unreachable")
        out = getattr(self, "_" + Path(argv[0]).name.replace("-", "_"))(argv[1:])
        return subprocess.CompletedProcess(argv, 0, out or "", "")

    # dpkg / apt
    def _dpkg_query(self, args: list[str]) -> str:
        return "".join(f"{p} installed\n" for p in args[3:] if p in self.packages)

    def _apt_get(self, args: list[str]) -> str:
        if args[0] == "install":
            self.packages.update(a for a in args[1:] if not a.startswith("-"))
        return ""

    def _raspi_config(self, args: list[str]) -> str:
        verb = args[1]
        if verb.startswith("get_"):
            return self.raspi[verb] + "\n"
        self.raspi[verb.replace("do_", "get_")] = args[2]
        return ""

    # users and groups, in the root's own files
    def _append(self, name: str, line: str) -> None:
        path = self.root / "etc" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as f:
            f.write(line + "\n")

    def _next_id(self) -> int:
        used = [int(line.split(":")[2]) for name in ("passwd", "group") if (self.root / "etc" / name).exists()
                for line in (self.root / "etc" / name).read_text().splitlines()]  # fmt: skip
        return max([990, *used]) + 1

    def _groupadd(self, args: list[str]) -> str:
        self._append("group", f"{args[-1]}:x:{self._next_id()}:")
        return ""

    def _useradd(self, args: list[str]) -> str:
        uid = self._next_id()
        home, shell = args[args.index("--home-dir") + 1], args[args.index("--shell") + 1]
        self._append("group", f"{args[-1]}:x:{uid}:")
        self._append("passwd", f"{args[-1]}:x:{uid}:{uid}::{home}:{shell}")
        return ""

    def _usermod(self, args: list[str]) -> str:
        user, groups = args[-1], args[args.index("--groups") + 1].split(",")
        path = self.root / "etc/group"
        lines = []
        for line in path.read_text().splitlines():
            fields = line.split(":")
            if fields[0] in groups:
                fields[3] = ",".join([m for m in fields[3].split(",") if m] + [user])
            lines.append(":".join(fields))
        path.write_text("\n".join(lines) + "\n")
        return ""

    def _userdel(self, args: list[str]) -> str:
        for name in ("passwd", "group"):
            path = self.root / "etc" / name
            kept = [line for line in path.read_text().splitlines() if line.split(":")[0] != args[-1]]
            path.write_text("".join(line + "\n" for line in kept))
        return ""

    # the venv and pip
    def _python3(self, args: list[str]) -> str:
        assert args[:2] == ["-m", "venv"]
        venv = self.root / args[2].lstrip("/")
        (venv / "bin").mkdir(parents=True)
        for tool in ("python", "pip"):
            (venv / "bin" / tool).write_text("#!/bin/sh\n")
        return ""

    def _pip(self, args: list[str]) -> str:
        (self.root / "opt/companion/venv/bin/companion").write_text("#!/bin/sh\n")
        (self.root / "opt/companion/src/build").mkdir(exist_ok=True)  # pip builds in the tree
        return ""

    # systemd: enablement is the [Install] link, as systemctl makes it
    def _wants(self, unit: str) -> Path:
        return self.root / "etc/systemd/system/multi-user.target.wants" / unit

    def _systemctl(self, args: list[str]) -> str:
        verb, units = args[0], [a for a in args[1:] if not a.startswith("--")]
        if verb == "is-enabled":
            unit = units[0]
            if self._wants(unit).is_symlink():
                return "enabled\n"
            return "disabled\n" if (self.root / "etc/systemd/system" / unit).exists() else "not-found\n"
        if verb == "is-active":
            return "active\n" if units[0] in self.active else "inactive\n"
        if verb == "enable":
            for unit in units:
                assert (self.root / "etc/systemd/system" / unit).exists(), f"enable {unit}: no such unit"
                self._wants(unit).parent.mkdir(parents=True, exist_ok=True)
                self._wants(unit).symlink_to(f"/etc/systemd/system/{unit}")
        elif verb == "disable":
            for unit in units:
                self._wants(unit).unlink(missing_ok=True)
                self.active.discard(unit) if "--now" in args else None
        elif verb in ("start", "restart"):
            assert self.is_booted, "systemctl start without a running systemd"
            self.active.update(units)
        elif verb != "daemon-reload":
            raise AssertionError(f"systemctl {verb}")
        return ""

    def _udevadm(self, args: list[str]) -> str:
        assert self.is_booted
        return ""


def source_copy(tmp_path: Path, extra_rule: bool = True) -> Path:
    """The repository's files the installer copies, plus the udev rule another branch adds."""
    source = tmp_path / "source"
    for item in ci.SOURCE_ITEMS:
        if (REPO / item).is_dir():
            shutil.copytree(REPO / item, source / item, ignore=shutil.ignore_patterns("__pycache__"))
        elif (REPO / item).exists():
            (source / item).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / item, source / item)
    if extra_rule:
        (source / "systemd" / "99-companion-pico.rules").write_text('SUBSYSTEM=="tty", GROUP="dialout"\n')
    return source


def pi_root(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    (root / "etc").mkdir(parents=True)
    (root / "etc/passwd").write_text("root:x:0:0:root:/root:/bin/bash\n")
    (root / "etc/group").write_text("root:x:0:\ndialout:x:20:\nvideo:x:44:\ninput:x:101:\n")
    (root / "boot/firmware").mkdir(parents=True)
    (root / "boot/firmware/config.txt").write_text("#dtparam=spi=on\ndtparam=audio=on\n[cm4]\notg_mode=1\n")
    (root / "boot/firmware/cmdline.txt").write_text("console=serial0,115200 console=tty1 root=PARTUUID=1-02 rootwait\n")
    return root


def install(system: FakeSystem, source: Path, *args: str) -> tuple[int, str]:
    out = io.StringIO()
    installer = ci.Installer(system, source=source, start="--no-start" not in args)
    with redirect_stdout(out), redirect_stderr(out):
        try:
            status = installer.uninstall("--purge" in args) if "--uninstall" in args else installer.install()
        except ci.InstallError as exc:
            print(exc)
            status = 1
    return status, out.getvalue()


def snapshot(root: Path) -> dict[str, tuple[int, int, bytes | str]]:
    """Every file and link of the root: mode, modification time, content."""
    found: dict[str, tuple[int, int, bytes | str]] = {}
    for path in sorted(root.rglob("*")):
        st = path.lstat()
        content: bytes | str = os.readlink(path) if path.is_symlink() else path.read_bytes() if path.is_file() else ""
        found[str(path.relative_to(root))] = (st.st_mode, st.st_mtime_ns, content)
    return found


@pytest.fixture
def setup(tmp_path: Path) -> Iterator[tuple[FakeSystem, Path]]:
    yield FakeSystem(pi_root(tmp_path)), source_copy(tmp_path)


def mode(path: Path) -> int:
    return path.stat().st_mode & 0o7777


# -- install, again, upgrade, remove ----------------------------------------------------------------


def test_the_first_run_does_everything(setup: tuple[FakeSystem, Path]) -> None:
    system, source = setup
    root = system.root
    status, out = install(system, source)
    assert status == 0, out
    assert set(ci.PACKAGES) <= system.packages
    assert ["apt-get", "update", "-q"] in system.commands
    # the user, in every group the unit names (the missing system groups made first)
    members = ci.group_members(root)
    assert all("companion" in members[g] for g in ci.DEVICE_GROUPS)
    assert re.search(
        r"^companion:x:\d+:\d+::/var/lib/companion:/usr/sbin/nologin$", (root / "etc/passwd").read_text(), re.M
    )
    # the program, the venv with the pi extra and mfrc522 without its dependencies
    pips = [c for c in system.commands if c[0].endswith("/pip")]
    assert pips[0][-1] == "/opt/companion/src[pi]" and pips[-1][-2:] == ["--no-deps", "mfrc522==0.0.7"]
    assert (root / "opt/companion/src/companion/cli/__init__.py").read_bytes() == (
        REPO / "companion/cli/__init__.py"
    ).read_bytes()
    assert not (root / "opt/companion/src/build").exists()  # pip's build folder is not left behind
    assert (root / "opt/companion/docs/pi-install.md").exists()  # the unit's Documentation=
    # settings, with a fresh PIN printed once, and the state folder
    env = parse_env_file((root / "etc/companion/kiosk.env").read_text())
    pin = env["COMPANION_ADMIN_PIN"]
    assert valid_pin(pin) and pin not in PUBLISHED_PINS and f"The admin PIN of this box: {pin}" in out
    assert (
        env["COMPANION_HARDWARE_FILE"] == "/etc/companion/hardware.toml"
        and (root / "etc/companion/hardware.toml").exists()
    )
    assert (mode(root / "etc/companion"), mode(root / "etc/companion/kiosk.env")) == (0o750, 0o640)
    assert mode(root / "var/lib/companion") == 0o700
    assert system.chowns["etc/companion/kiosk.env"] == ("root", "companion")
    assert system.chowns["var/lib/companion"] == ("companion", "companion")
    # units, udev rules (every systemd/*.rules), modules, logind; enabled, not started without systemd
    for target, name in [("etc/systemd/system/companion.service", "companion.service"),
                         ("etc/modules-load.d/companion.conf", "companion-modules.conf"),
                         ("etc/systemd/logind.conf.d/companion-kiosk.conf", "logind-kiosk.conf"),
                         ("etc/udev/rules.d/99-companion-pico.rules", "99-companion-pico.rules")]:  # fmt: skip
        assert (root / target).read_bytes() == (source / "systemd" / name).read_bytes() and mode(root / target) == 0o644
    assert not (root / "etc/systemd/system/companion-cage.service").exists()  # cage is not installed
    assert (root / "etc/systemd/system/multi-user.target.wants/companion.service").is_symlink()
    assert not any(c[:2] in (["systemctl", "start"], ["systemctl", "daemon-reload"]) for c in system.commands)
    assert "it starts at the next boot" in out
    # boot settings
    config = (root / "boot/firmware/config.txt").read_text()
    assert config == "dtparam=spi=on\ndtparam=audio=on\n[cm4]\notg_mode=1\n[all]\nenable_uart=1\n"
    cmdline = (root / "boot/firmware/cmdline.txt").read_text()
    assert "console=serial0" not in cmdline and "consoleblank=0" in cmdline and cmdline.count("\n") == 1
    assert "reboot once" in out


def test_a_second_run_changes_nothing(setup: tuple[FakeSystem, Path]) -> None:
    system, source = setup
    install(system, source)
    before = snapshot(system.root)
    system.commands.clear()
    status, out = install(system, source)
    assert status == 0 and "companion-install: nothing changed" in out, out
    assert "changed " not in out.replace("nothing changed", "") and "admin PIN" not in out
    assert snapshot(system.root) == before
    # only questions were asked: no apt-get, useradd, pip, enable
    asked = {(c[0], c[1]) for c in system.commands}
    assert asked <= {("dpkg-query", "-W"), ("systemctl", "is-enabled")}, asked


def test_an_upgrade_replaces_the_program_and_keeps_journal_data_and_settings(setup: tuple[FakeSystem, Path]) -> None:
    system, source = setup
    root = system.root
    install(system, source)
    kept = {
        "etc/companion/kiosk.env": "COMPANION_ADMIN_PIN=918273\nCOMPANION_LANGUAGE=de\n",
        "etc/companion/hardware.toml": '[hardware]\nbackend = "serial"\n',
        "var/lib/companion/journal.sqlite": "the games",
        "var/lib/companion/datasets/my-box/board.toml": "digitised",
        "var/lib/companion/admin-lock.json": "{}",
    }
    for name, text in kept.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    (source / "companion" / "__init__.py").write_text("# a newer release\n")
    (source / "companion" / "new_module.py").write_text("X = 1\n")
    (source / "companion" / "ledframe.py").unlink()  # a module the new release dropped
    system.commands.clear()
    status, out = install(system, source)
    assert status == 0 and "upgraded from" in out, out
    assert (root / "opt/companion/src/companion/__init__.py").read_text() == "# a newer release\n"
    assert (root / "opt/companion/src/companion/new_module.py").exists()
    assert not (root / "opt/companion/src/companion/ledframe.py").exists()
    assert any("--force-reinstall" in c for c in system.commands)  # same version number, new code
    assert {name: (root / name).read_text() for name in kept} == kept
    assert "admin PIN" not in out
    system.commands.clear()
    assert "nothing changed" in install(system, source)[1]


def test_on_a_running_system_it_starts_the_kiosk_and_restarts_it_after_an_upgrade(tmp_path: Path) -> None:
    system = FakeSystem(pi_root(tmp_path), booted=True)
    source = source_copy(tmp_path)
    status, _ = install(system, source)
    assert status == 0 and "companion.service" in system.active
    assert ["systemctl", "daemon-reload"] in system.commands and ["udevadm", "control", "--reload"] in system.commands
    system.commands.clear()
    install(system, source)
    assert not any(c[1] in ("start", "restart") for c in system.commands if c[0] == "systemctl")
    (source / "companion" / "__init__.py").write_text("# newer\n")
    install(system, source)
    assert ["systemctl", "restart", "companion.service"] in system.commands


def test_no_start_enables_without_starting(tmp_path: Path) -> None:
    system = FakeSystem(pi_root(tmp_path), booted=True)
    install(system, source_copy(tmp_path), "--no-start")
    assert (
        system.active == set()
        and (system.root / "etc/systemd/system/multi-user.target.wants/companion.service").is_symlink()
    )


def test_an_upgrade_keeps_the_cage_variant_the_admin_chose(tmp_path: Path) -> None:
    system = FakeSystem(pi_root(tmp_path))
    source = source_copy(tmp_path)
    (system.root / "usr/bin").mkdir(parents=True)
    (system.root / "usr/bin/cage").write_text("")
    install(system, source)
    assert (system.root / "etc/systemd/system/companion-cage.service").exists()
    system._systemctl(["disable", "companion.service"])  # docs/pi-install.md, "Display without kmsdrm"
    system._systemctl(["enable", "companion-cage.service"])
    (source / "companion" / "__init__.py").write_text("# newer\n")
    install(system, source)
    assert system._systemctl(["is-enabled", "companion.service"]) == "disabled\n"
    assert system._systemctl(["is-enabled", "companion-cage.service"]) == "enabled\n"


def test_raspi_config_is_used_where_it_exists(tmp_path: Path) -> None:
    system = FakeSystem(pi_root(tmp_path), raspi_config=True)
    before = (system.root / "boot/firmware/config.txt").read_text()
    status, out = install(system, source_copy(tmp_path))
    assert status == 0 and "raspi-config nonint" in out
    assert system.raspi == {"get_spi": "0", "get_serial_hw": "0", "get_serial_cons": "1"}
    assert (system.root / "boot/firmware/config.txt").read_text() == before  # raspi-config's job, not ours
    system.commands.clear()
    install(system, source_copy(tmp_path / "again"))
    assert not any(c[:2] == ["raspi-config", "nonint"] and c[2].startswith("do_") for c in system.commands)


def test_a_failed_step_stops_with_the_reason_and_a_second_run_finishes(setup: tuple[FakeSystem, Path]) -> None:
    system, source = setup
    system.fail_next = "pip"
    status, out = install(system, source)
    assert status == 1 and "network unreachable" in out
    assert not (system.root / "opt/companion/venv/companion-source").exists()  # not marked as done
    status, out = install(system, source)
    assert status == 0 and (system.root / "opt/companion/venv/bin/companion").exists()
    assert "The admin PIN" in out  # the settings step had not run yet


def test_uninstall_keeps_the_data_and_purge_removes_it(setup: tuple[FakeSystem, Path]) -> None:
    system, source = setup
    root = system.root
    install(system, source)
    (root / "var/lib/companion/journal.sqlite").write_text("the games")
    status, out = install(system, source, "--uninstall")
    assert status == 0, out
    for gone in ("opt/companion", "etc/systemd/system/companion.service", "etc/modules-load.d/companion.conf",
                 "etc/udev/rules.d/99-companion-pico.rules", "etc/systemd/logind.conf.d/companion-kiosk.conf",
                 "etc/systemd/system/multi-user.target.wants/companion.service"):  # fmt: skip
        assert not (root / gone).exists() and not (root / gone).is_symlink(), gone
    assert (root / "var/lib/companion/journal.sqlite").read_text() == "the games"
    assert (root / "etc/companion/kiosk.env").exists() and ci.has_user(root, "companion")
    pin = parse_env_file((root / "etc/companion/kiosk.env").read_text())["COMPANION_ADMIN_PIN"]
    status, out = install(system, source)  # back again: the kept settings and PIN are used
    assert parse_env_file((root / "etc/companion/kiosk.env").read_text())["COMPANION_ADMIN_PIN"] == pin
    assert "The admin PIN" not in out
    status, out = install(system, source, "--uninstall", "--purge")
    assert status == 0 and not (root / "etc/companion").exists() and not (root / "var/lib/companion").exists()
    assert not ci.has_user(root, "companion")


# -- the text edits ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("#dtparam=spi=on\n", "dtparam=spi=on\nenable_uart=1\n"),
        ("dtparam=spi=off\nenable_uart=0\n", "dtparam=spi=on\nenable_uart=1\n"),
        ("[pi4]\ndtparam=spi=on\n", "[pi4]\ndtparam=spi=on\n[all]\ndtparam=spi=on\nenable_uart=1\n"),
        ("[pi4]\narm_boost=1\n[all]\n#enable_uart=1\n", "[pi4]\narm_boost=1\n[all]\nenable_uart=1\ndtparam=spi=on\n"),
        ("", "dtparam=spi=on\nenable_uart=1\n"),
    ],
)
def test_config_txt_gets_spi_and_the_uart_in_all(before: str, after: str) -> None:
    assert ci.config_txt(before) == after


config_lines = st.lists(
    st.sampled_from(["[all]", "[pi4]", "[cm4]", "dtparam=spi=on", "#dtparam=spi=on", "dtparam=spi=off",
                     "enable_uart=1", "#enable_uart=1", "enable_uart=0", "dtparam=audio=on", "# comment", ""]),
    max_size=12,
)  # fmt: skip


def _setting(line: str) -> bool:
    return line.lstrip("#").startswith(("dtparam=spi", "enable_uart"))


def effective(text: str) -> dict[str, str]:
    """What the firmware applies on every model: the last active value of each key outside a model section."""
    section, values = "all", {}
    for line in text.splitlines():
        if line.startswith("["):
            section = line[1:-1]
        elif section == "all" and _setting(line) and not line.startswith("#"):
            key, value = line.rsplit("=", 1)
            values[key] = value
    return values


@given(config_lines)
def test_config_txt_edit_is_idempotent_and_only_touches_its_two_settings(lines: list[str]) -> None:
    text = "\n".join(lines) + "\n"
    once = ci.config_txt(text)
    assert ci.config_txt(once) == once
    assert effective(once) == {"dtparam=spi": "on", "enable_uart": "1"}
    others = [line for line in text.splitlines() if not _setting(line)]
    assert [line for line in once.splitlines() if not _setting(line)] in (others, [*others, "[all]"])


CMDLINE_WORDS = ["console=serial0,115200", "console=tty1", "root=PARTUUID=x", "rootwait", "quiet"]
CMDLINE_WORDS += ["console=ttyAMA0,115200", "consoleblank=0", "fsck.repair=yes"]


@given(st.lists(st.sampled_from(CMDLINE_WORDS), max_size=8))
def test_cmdline_txt_stays_one_line_without_a_serial_console(words: list[str]) -> None:
    once = ci.cmdline_txt(" ".join(words) + "\n")
    assert once.count("\n") == 1 and ci.cmdline_txt(once) == once
    assert not re.search(r"console=(serial|ttyAMA|ttyS)", once)
    assert all(w in once.split() for w in ci.KIOSK_CMDLINE)
    assert [w for w in once.split() if w in words] == [w for w in words if not re.match(r"console=(serial|ttyAMA)", w)]


def test_the_example_environment_file_gets_the_pin() -> None:
    example = (REPO / "systemd" / "kiosk.env.example").read_text()
    pin = ci.new_pin()
    env = parse_env_file(ci.kiosk_env(example, pin))
    assert env["COMPANION_ADMIN_PIN"] == pin and valid_pin(pin) and pin not in PUBLISHED_PINS
    assert {k: v for k, v in env.items() if k != "COMPANION_ADMIN_PIN"} == parse_env_file(example)
    assert ci.PUBLISHED_PINS == PUBLISHED_PINS  # the installer cannot import the kiosk's: same list


def test_pins_are_six_random_digits() -> None:
    pins = {ci.new_pin() for _ in range(200)}
    assert len(pins) > 190 and all(len(p) == 6 and p.isdigit() and len(set(p)) > 1 for p in pins)


# -- the command and the scripts --------------------------------------------------------------------


def test_it_refuses_to_run_without_root_on_the_real_system(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ci.os, "geteuid", lambda: 1000)
    out = io.StringIO()
    with redirect_stdout(out):
        status = ci.main([])
    assert status == 2 and "run it as root: sudo" in out.getvalue()


def test_purge_only_with_uninstall() -> None:
    proc = subprocess.run([sys.executable, str(INSTALLER), "--purge"], capture_output=True, text=True, check=False)
    assert proc.returncode == 2 and "--purge goes with --uninstall" in proc.stderr


def test_the_installer_needs_only_the_standard_library() -> None:
    """It runs with the system's python3 before the venv exists: no companion, no third-party import."""
    code = "import sys; sys.path = [p for p in sys.path if 'site-packages' not in p]; import runpy; "
    code += f"runpy.run_path({str(INSTALLER)!r}, run_name='not_main')"
    proc = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr


def test_the_installer_is_lint_and_type_clean() -> None:
    for args in (["ruff", "check", str(INSTALLER)], ["mypy", str(INSTALLER)]):
        proc = subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True, check=False, cwd=REPO)
        assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed (apt install shellcheck)")
def test_the_full_run_script_passes_shellcheck() -> None:
    proc = subprocess.run(["shellcheck", str(REPO / "tests/install/full_run.sh")], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout


def test_boot_files_are_rewritten_without_chmod_where_the_filesystem_refuses_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """/boot/firmware is FAT: every file shows the mount's mode and chmod fails; keeping the file's own
    mode means no chmod is needed."""
    config = tmp_path / "config.txt"
    config.write_text("#dtparam=spi=on\n")
    config.chmod(0o755)

    def refuse(*_args: object) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "fchmod", refuse)
    monkeypatch.setattr(os, "chmod", refuse)
    old_umask = os.umask(0o022)
    try:
        assert ci.write_file(config, ci.config_txt(config.read_text()).encode(), ci.file_mode(config))
    finally:
        os.umask(old_umask)
    assert config.read_text() == "dtparam=spi=on\nenable_uart=1\n" and ci.file_mode(config) == 0o755
