#!/usr/bin/python3
"""Install, upgrade or remove the companion kiosk on Raspberry Pi OS (Debian bookworm), in one command.

    sudo ./install/companion_install.py                 # install, or upgrade in place (run it again)
    sudo ./install/companion_install.py --uninstall     # remove it, keep journals, data sets, settings
    sudo ./install/companion_install.py --uninstall --purge          # ... and those too, and the user

Run from a copy of the repository (a clone or a release tarball). What it does, step by step, is in
docs/pi-install.md. Every step first looks whether its result is already there and only then acts,
so a second run changes nothing and an upgrade only replaces the program: the settings in
/etc/companion and the state in /var/lib/companion (journal, admin PIN, data sets) are never
overwritten. Each step prints one line: ``changed`` or ``ok``.

A script and not a Debian package: the program runs from a virtual environment filled from PyPI
(pygame-ce with its bundled SDL, rpi-lgpio, spidev), which a package's maintainer scripts must not
download; and the boot settings belong to raspi-config, which a package must not call. The script
runs with the system's Python 3.11 and its standard library only, before the venv exists.

Without a running systemd (a chroot, an image being prepared, ``--root``) the units are enabled but
not started, and the kiosk starts at the next boot.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import secrets
import shutil
import stat
import subprocess
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[1]
USER = "companion"
# The groups the unit's SupplementaryGroups= names; a missing one stops the unit from starting.
DEVICE_GROUPS = ("gpio", "spi", "dialout", "video", "render", "input")
SYSTEM_GROUPS = ("gpio", "spi", "render")  # made if the OS has not (Pi OS has; plain Debian lacks gpio, spi)
# python3-dev, gcc: spidev is a source distribution, and the install compiles the playout kernel (setup.py, mypyc).
# libgbm1, libdrm2: SDL's kmsdrm display.
PACKAGES = ("python3-venv", "python3-dev", "gcc", "libc6-dev", "ca-certificates", "libgbm1", "libdrm2", "sqlite3")
MFRC522 = "mfrc522==0.0.7"  # without its dependencies: it pulls RPi.GPIO, which clashes with rpi-lgpio
# What is copied to /opt/companion/src: the package, its build files, the units, the docs, the firmware.
SOURCE_ITEMS = (
    "pyproject.toml",
    "setup.py",
    "README.md",
    "wiring.md",
    "companion",
    "systemd",
    "docs",
    "firmware",
    "install",
)
# Build leftovers of a checkout are not sources: the kernel compiled for another machine (setup.py) least.
SKIPPED = ("__pycache__", ".pyc", ".egg-info", ".mypy_cache", ".ruff_cache", ".pytest_cache", ".so", ".sha256")
# Kernel command line for a kiosk (docs/pi-install.md): no console blanking, no cursor, a quiet boot.
KIOSK_CMDLINE = ("consoleblank=0", "vt.global_cursor_default=0", "quiet", "loglevel=3", "logo.nologo")
# A login console on the GPIO UART would read the card reader's bytes as a login name.
SERIAL_CONSOLES = ("console=serial0", "console=serial1", "console=ttyAMA", "console=ttyS")
PIN_LENGTH = 6
PUBLISHED_PINS = frozenset({"2468"})  # as companion/kiosk/admin.py: the old example, never accepted


class InstallError(Exception):
    pass


# --- the machine --------------------------------------------------------------------------------


@dataclass
class Host:
    """Runs the system's commands in ``root`` (``chroot`` when it is not /) and owns files there.

    The fast tests replace it with a recording one; the full test (tests/install/full_run.sh) uses
    this one in a real Debian bookworm root."""

    root: Path = Path("/")
    environ: dict[str, str] = field(default_factory=lambda: dict(os.environ))

    def run(self, argv: Sequence[str], *, check: bool = True) -> subprocess.CompletedProcess[str]:
        command = list(argv) if self.root == Path("/") else ["chroot", str(self.root), *argv]
        env = {**self.environ, "DEBIAN_FRONTEND": "noninteractive", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
        proc = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
        if check and proc.returncode != 0:
            tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-25:])
            raise InstallError(f"`{' '.join(argv)}` failed (exit status {proc.returncode}):\n{tail}")
        return proc

    def has_command(self, name: str) -> bool:
        return any((self.root / d.lstrip("/") / name).exists() for d in ("/usr/sbin", "/usr/bin", "/sbin", "/bin"))

    def booted(self) -> bool:
        """systemd runs this system (not a chroot or an image): units can be started now."""
        return self.root == Path("/") and Path("/run/systemd/system").is_dir() and not _in_chroot()

    def chown(self, path: Path, user: str, group: str) -> None:
        os.chown(path, ids(self.root, "passwd", user), ids(self.root, "group", group), follow_symlinks=False)


def _in_chroot() -> bool:
    try:
        return os.stat("/").st_ino != os.stat("/proc/1/root/.").st_ino
    except OSError:
        return False


def ids(root: Path, database: str, name: str) -> int:
    """The uid (``passwd``) or gid (``group``) of ``name`` in the installed system's own files."""
    for line in (root / "etc" / database).read_text(encoding="utf-8").splitlines():
        fields = line.split(":")
        if fields[0] == name and len(fields) > 2:
            return int(fields[2])
    raise InstallError(f"no {'user' if database == 'passwd' else 'group'} {name} in {root / 'etc' / database}")


def group_members(root: Path) -> dict[str, set[str]]:
    members: dict[str, set[str]] = {}
    path = root / "etc" / "group"
    for line in path.read_text(encoding="utf-8").splitlines() if path.exists() else []:
        fields = line.split(":")
        if len(fields) == 4:
            members[fields[0]] = {m for m in fields[3].split(",") if m}
    return members


def has_user(root: Path, name: str) -> bool:
    path = root / "etc" / "passwd"
    return path.exists() and any(line.split(":")[0] == name for line in path.read_text(encoding="utf-8").splitlines())


# --- reporting ----------------------------------------------------------------------------------


@dataclass
class Report:
    changes: int = 0
    notes: list[str] = field(default_factory=list)

    def step(self, changed: bool, what: str) -> None:
        self.changes += changed
        print(f"  {'changed' if changed else 'ok':8}{what}", flush=True)

    def note(self, text: str) -> None:
        self.notes.append(text)


# --- files --------------------------------------------------------------------------------------


def write_file(path: Path, data: bytes, mode: int) -> bool:
    """Write ``data`` with ``mode`` unless it is already so; atomic (a power cut leaves old or new)."""
    try:
        if path.read_bytes() == data and stat.S_IMODE(path.stat().st_mode) == mode and not path.is_symlink():
            return False
    except OSError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.companion-install")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    try:
        os.write(fd, data)
        # Only when the umask changed it: the FAT boot partition has no modes and refuses chmod.
        if stat.S_IMODE(os.fstat(fd).st_mode) != mode:
            os.fchmod(fd, mode)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
    return True


def file_mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def ensure_dir(host: Host, path: Path, mode: int, owner: tuple[str, str] | None = None) -> bool:
    changed = not path.is_dir()
    path.mkdir(parents=True, exist_ok=True)
    if stat.S_IMODE(path.stat().st_mode) != mode:
        os.chmod(path, mode)
        changed = True
    if owner is not None:
        st = path.stat()
        want = (ids(host.root, "passwd", owner[0]), ids(host.root, "group", owner[1]))
        if (st.st_uid, st.st_gid) != want:
            host.chown(path, *owner)
            changed = True
    return changed


def ensure_owner(host: Host, path: Path, user: str, group: str) -> bool:
    st = path.stat()
    if (st.st_uid, st.st_gid) == (ids(host.root, "passwd", user), ids(host.root, "group", group)):
        return False
    host.chown(path, user, group)
    return True


def source_files(source: Path) -> Iterator[Path]:
    """The files copied to /opt/companion/src, relative to ``source``, in a stable order."""
    for item in SOURCE_ITEMS:
        top = source / item
        if top.is_file():
            yield Path(item)
        elif top.is_dir():
            for path in sorted(top.rglob("*")):
                rel = path.relative_to(source)
                if path.is_file() and not any(part.endswith(SKIPPED) for part in rel.parts):
                    yield rel


def source_digest(source: Path) -> str:
    digest = hashlib.sha256()
    for rel in source_files(source):
        digest.update(str(rel).encode() + b"\0" + (source / rel).read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def sync_tree(source: Path, target: Path) -> int:
    """Make ``target`` hold exactly the source files (root-owned, world-readable); the number changed."""
    wanted = set(source_files(source))
    changed = 0
    for rel in wanted:
        mode = 0o755 if file_mode(source / rel) & 0o111 else 0o644
        changed += write_file(target / rel, (source / rel).read_bytes(), mode)
    if target.is_dir():
        for path in sorted(target.rglob("*"), reverse=True):  # files before their folders
            rel = path.relative_to(target)
            if any(part.endswith(SKIPPED) for part in rel.parts) or rel.parts[0] == "build":
                continue  # pip's own build leftovers
            if path.is_file() or path.is_symlink():
                if rel not in wanted:
                    path.unlink()
                    changed += 1
            elif path.is_dir() and not any(path.iterdir()):
                path.rmdir()
    return changed


# --- the installation ---------------------------------------------------------------------------


@dataclass
class Installer:
    host: Host
    source: Path = SOURCE
    start: bool = True
    report: Report = field(default_factory=Report)
    upgraded: bool = False  # the program was (re)installed: a running kiosk restarts
    units_changed: bool = False

    def path(self, absolute: str) -> Path:
        return self.host.root / absolute.lstrip("/")

    # The places, as the unit and the docs name them.
    @property
    def opt(self) -> Path:
        return self.path("/opt/companion")

    @property
    def venv(self) -> Path:
        return self.path("/opt/companion/venv")

    def install(self) -> int:
        print(f"companion-install: from {self.source} into {self.host.root}", flush=True)
        self.packages()
        self.boot_settings()
        self.user()
        self.program()
        self.settings()
        self.units()
        self.service()
        print(f"companion-install: {self.report.changes or 'nothing'} changed", flush=True)
        for note in self.report.notes:
            print(note, flush=True)
        return 0

    # 1. system packages
    def packages(self) -> None:
        proc = self.host.run(["dpkg-query", "-W", "-f", "${Package} ${db:Status-Status}\\n", *PACKAGES], check=False)
        installed = {line.split()[0] for line in proc.stdout.splitlines() if line.endswith(" installed")}
        missing = [p for p in PACKAGES if p not in installed]
        if missing:
            self.host.run(["apt-get", "update", "-q"])
            self.host.run(["apt-get", "install", "-y", "-q", "--no-install-recommends", *missing])
        self.report.step(bool(missing), f"system packages ({', '.join(missing) or 'all there'})")

    # 2. SPI, UART, console
    def boot_settings(self) -> None:
        if self.host.has_command("raspi-config"):
            changed = self._raspi_config()
            how = "raspi-config nonint"
        else:
            config = next(
                (p for p in (self.path("/boot/firmware/config.txt"), self.path("/boot/config.txt")) if p.exists()), None
            )
            if config is None:
                self.report.step(False, "SPI and UART: no /boot/firmware/config.txt (not a Raspberry Pi?): skipped")
                self.report.note("No Raspberry Pi boot partition was found: SPI and the UART were not switched on.")
                return
            changed = write_file(config, config_txt(config.read_text(encoding="utf-8")).encode(), file_mode(config))
            how = str(config.relative_to(self.host.root))
        cmdline = next(
            (p for p in (self.path("/boot/firmware/cmdline.txt"), self.path("/boot/cmdline.txt")) if p.exists()), None
        )
        if cmdline is not None:
            text = cmdline_txt(cmdline.read_text(encoding="utf-8"))
            changed |= write_file(cmdline, text.encode(), file_mode(cmdline))
        self.report.step(changed, f"SPI on, UART on, no login on the UART, kiosk console ({how})")
        if changed:
            self.report.note("The boot settings changed: reboot once (sudo reboot) for SPI and the UART.")

    def _raspi_config(self) -> bool:
        changed = False
        # get_* print 0 for "enabled" (raspi-config's shell convention); get_serial_cons 1: no console.
        for getter, want, setter in (
            ("get_spi", "0", ["do_spi", "0"]),
            ("get_serial_hw", "0", ["do_serial_hw", "0"]),
            ("get_serial_cons", "1", ["do_serial_cons", "1"]),
        ):
            if self.host.run(["raspi-config", "nonint", getter], check=False).stdout.strip() != want:
                self.host.run(["raspi-config", "nonint", *setter])
                changed = True
        return changed

    # 3. the user
    def user(self) -> None:
        changed = False
        members = group_members(self.host.root)
        for group in SYSTEM_GROUPS:
            if group not in members:
                self.host.run(["groupadd", "--system", group])
                changed = True
        if not has_user(self.host.root, USER):
            self.host.run(
                [
                    "useradd",
                    "--system",
                    "--home-dir",
                    "/var/lib/companion",
                    "--no-create-home",
                    "--shell",
                    "/usr/sbin/nologin",
                    "--user-group",
                    USER,
                ]
            )
            changed = True
        members = group_members(self.host.root)
        missing = [g for g in DEVICE_GROUPS if USER not in members.get(g, set())]
        if missing:
            self.host.run(["usermod", "--append", "--groups", ",".join(missing), USER])
            changed = True
        self.report.step(changed, f"system user {USER} in {', '.join(DEVICE_GROUPS)}")

    # 4. the program
    def program(self) -> None:
        digest = source_digest(self.source)
        ensure_dir(self.host, self.opt, 0o755)
        copied = sync_tree(self.source, self.opt / "src")
        docs = self.opt / "docs"
        if not docs.is_symlink():
            if docs.exists():
                shutil.rmtree(docs)
            docs.symlink_to("src/docs")  # the unit's Documentation=file:///opt/companion/docs/pi-install.md
            copied += 1
        self.report.step(bool(copied), f"program files in /opt/companion/src ({copied} changed, version {digest})")
        stamp = self.venv / "companion-source"
        current = stamp.read_text(encoding="utf-8").strip() if stamp.exists() else None
        works = (self.venv / "bin" / "companion").exists() and (self.venv / "bin" / "python").exists()
        if current == digest and works:
            self.report.step(False, f"virtual environment /opt/companion/venv (version {digest})")
            return
        if not (self.venv / "bin" / "python").exists():
            self.host.run(["python3", "-m", "venv", "/opt/companion/venv"])
        pip = ["/opt/companion/venv/bin/pip", "install", "--no-cache-dir", "-q"]
        print("  ...     pip: the pi extra and its dependencies (a few minutes on a Pi)", flush=True)
        self.host.run([*pip, "/opt/companion/src[pi]"])
        # The same version number over new code (an upgrade from a newer checkout): replace it anyway.
        self.host.run([*pip, "--no-deps", "--force-reinstall", "/opt/companion/src"])
        self.host.run([*pip, "--no-deps", MFRC522])
        shutil.rmtree(self.opt / "src" / "build", ignore_errors=True)  # pip's in-tree build
        write_file(stamp, f"{digest}\n".encode(), 0o644)
        was = f"upgraded from {current}" if current else "new"
        self.report.step(True, f"virtual environment /opt/companion/venv ({was}, version {digest})")
        self.upgraded = True

    # 5. settings and state
    def settings(self) -> None:
        changed = ensure_dir(self.host, self.path("/etc/companion"), 0o750, ("root", USER))
        env = self.path("/etc/companion/kiosk.env")
        if not env.exists():
            pin = new_pin()
            example = (self.source / "systemd" / "kiosk.env.example").read_text(encoding="utf-8")
            write_file(env, kiosk_env(example, pin).encode(), 0o640)
            self.host.chown(env, "root", USER)
            changed = True
            self.report.note(
                f"\n    The admin PIN of this box: {pin}\n"
                "    Shown once. It is COMPANION_ADMIN_PIN in /etc/companion/kiosk.env (readable by root and the\n"
                "    kiosk's user only): change it there, then sudo systemctl restart companion.\n"
            )
        else:
            changed |= ensure_owner(self.host, env, "root", USER)
        hardware = self.path("/etc/companion/hardware.toml")
        if not hardware.exists():
            reference = self.source / "companion" / "hardware" / "examples" / "reference.toml"
            write_file(hardware, reference.read_bytes(), 0o640)
            self.host.chown(hardware, "root", USER)
            changed = True
        self.report.step(changed, "settings /etc/companion (kiosk.env, hardware.toml; existing ones kept)")
        state = ensure_dir(self.host, self.path("/var/lib/companion"), 0o700, (USER, USER))
        self.report.step(state, "state /var/lib/companion (journal, PIN lock, data sets; kept)")

    # 6. systemd units, udev rules, modules, logind
    def units(self) -> None:
        systemd = self.opt / "src" / "systemd"
        placed = {
            "/etc/systemd/system/companion.service": systemd / "companion.service",
            "/etc/modules-load.d/companion.conf": systemd / "companion-modules.conf",
            "/etc/systemd/logind.conf.d/companion-kiosk.conf": systemd / "logind-kiosk.conf",
        }
        if self.host.has_command("cage"):  # the variant for pygame-ce without kmsdrm (apt install cage seatd)
            placed["/etc/systemd/system/companion-cage.service"] = systemd / "companion-cage.service"
        placed.update({f"/etc/udev/rules.d/{rule.name}": rule for rule in sorted(systemd.glob("*.rules"))})
        changed = [target for target, src in placed.items() if write_file(self.path(target), src.read_bytes(), 0o644)]
        manifest = "".join(f"{target}\n" for target in placed).encode()
        write_file(self.opt / "installed-files", manifest, 0o644)
        self.units_changed = bool(changed)
        if self.host.booted() and changed:
            self.host.run(["systemctl", "daemon-reload"])
            if any(t.endswith(".rules") for t in changed):
                self.host.run(["udevadm", "control", "--reload"])
                self.host.run(["udevadm", "trigger", "--subsystem-match=tty"])
        if "/etc/systemd/logind.conf.d/companion-kiosk.conf" in changed and self.host.booted():
            self.report.note("No login prompt on the other consoles: from the next reboot (logind reads it at start).")
        rules = ", ".join(Path(t).name for t in placed if t.endswith(".rules")) or "none in systemd/"
        self.report.step(bool(changed), f"systemd units, modules-load, logind, udev rules ({rules})")

    # 7. enabled and running
    def service(self) -> None:
        enabled = {
            unit: self.host.run(["systemctl", "is-enabled", unit], check=False).stdout.strip() == "enabled"
            for unit in ("companion.service", "companion-cage.service")
        }
        # The admin may have chosen the cage variant (docs/pi-install.md): an upgrade keeps that choice.
        unit = "companion-cage.service" if enabled["companion-cage.service"] else "companion.service"
        changed = not enabled[unit]
        if changed:
            self.host.run(["systemctl", "enable", unit])
        if not self.host.booted():
            self.report.step(changed, f"{unit} enabled (no running systemd here: it starts at the next boot)")
            return
        active = self.host.run(["systemctl", "is-active", unit], check=False).stdout.strip() == "active"
        if self.start and (not active or self.upgraded or self.units_changed):
            self.host.run(["systemctl", "restart" if active else "start", unit])
            changed = True
        self.report.step(changed, f"{unit} enabled and {'running' if self.start else 'not started (--no-start)'}")

    # --- removal --------------------------------------------------------------------------------
    def uninstall(self, purge: bool) -> int:
        print(f"companion-install: removing from {self.host.root}{' (purge)' if purge else ''}", flush=True)
        units = ("companion.service", "companion-cage.service")
        if self.host.booted():
            self.host.run(["systemctl", "disable", "--now", *units], check=False)
        else:
            self.host.run(["systemctl", "disable", *units], check=False)
        manifest = self.opt / "installed-files"
        placed = manifest.read_text(encoding="utf-8").split() if manifest.exists() else []
        removed = 0
        for target in placed:
            path = self.path(target)
            if path.exists() or path.is_symlink():
                path.unlink()
                removed += 1
        self.report.step(bool(removed), f"units, udev rules, modules-load, logind settings ({removed} files)")
        if self.host.booted():
            self.host.run(["systemctl", "daemon-reload"], check=False)
        had_program = self.opt.exists()
        shutil.rmtree(self.opt, ignore_errors=True)
        self.report.step(had_program, "program /opt/companion")
        kept = (self.path("/etc/companion"), self.path("/var/lib/companion"))
        if purge:
            for path in kept:
                existed = path.exists()
                shutil.rmtree(path, ignore_errors=True)
                self.report.step(existed, f"{path.relative_to(self.host.root).as_posix()} removed (--purge)")
            if has_user(self.host.root, USER):
                self.host.run(["userdel", USER])
                self.report.step(True, f"user {USER} removed (--purge)")
        else:
            print(
                f"  kept    {', '.join('/' + str(p.relative_to(self.host.root)) for p in kept)} and the user "
                f"{USER} (--purge removes them)"
            )
        print("  kept    the system packages and the SPI/UART boot settings (other programs may use them)")
        print(f"companion-install: {self.report.changes or 'nothing'} changed", flush=True)
        return 0


# --- pure text edits (tested directly) ---------------------------------------------------------


def new_pin() -> str:
    while True:
        pin = "".join(str(secrets.randbelow(10)) for _ in range(PIN_LENGTH))
        if pin not in PUBLISHED_PINS and len(set(pin)) > 1:  # never 000000 and the like
            return pin


def kiosk_env(example: str, pin: str) -> str:
    """The example environment file with the box's own PIN set (the commented line becomes the setting)."""
    lines = example.splitlines()
    for i, line in enumerate(lines):
        if line.strip().replace(" ", "") in ("#COMPANION_ADMIN_PIN=", "COMPANION_ADMIN_PIN="):
            lines[i] = f"COMPANION_ADMIN_PIN={pin}"
            break
    else:
        lines += ["# Generated by companion-install:", f"COMPANION_ADMIN_PIN={pin}"]
    return "\n".join(lines) + "\n"


def config_txt(text: str) -> str:
    """config.txt with SPI and the UART on: a setting in a model section ([pi4]) does not count, so the
    lines go to [all] (appended at the end with an [all] header when the file ends in another section)."""
    wanted = {"dtparam=spi": "dtparam=spi=on", "enable_uart": "enable_uart=1"}
    lines = text.splitlines()
    section = "all"
    found: dict[str, int] = {}
    for i, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith("[") and stripped.endswith("]"):
            section = stripped[1:-1].strip().lower()
            continue
        key = stripped.lstrip("#").rsplit("=", 1)[0].strip()  # "dtparam=spi=on" → "dtparam=spi"
        if key in wanted and section == "all":
            active = not stripped.startswith("#")
            if active or key not in found:
                found[key] = i
    for key, setting in wanted.items():
        if key in found:
            lines[found[key]] = setting
    missing = [setting for key, setting in wanted.items() if key not in found]
    if missing:
        if section != "all":
            lines.append("[all]")
        lines += missing
    return "\n".join(lines) + "\n"


def cmdline_txt(text: str) -> str:
    """cmdline.txt (one line) without a login console on the UART and with the kiosk's console settings."""
    words = text.split()
    words = [w for w in words if not w.startswith(SERIAL_CONSOLES)]
    words += [w for w in KIOSK_CMDLINE if w not in words]
    return " ".join(words) + "\n"


def main(argv: Sequence[str] | None = None, host: Host | None = None) -> int:
    parser = argparse.ArgumentParser(prog="companion_install.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--uninstall", action="store_true", help="remove the companion (keeps its data)")
    parser.add_argument("--purge", action="store_true", help="with --uninstall: the settings, data and user too")
    parser.add_argument("--no-start", action="store_true", help="enable the kiosk but do not start it now")
    parser.add_argument("--root", type=Path, default=Path("/"), help="install into this system image (chroot)")
    args = parser.parse_args(argv)
    if args.purge and not args.uninstall:
        parser.error("--purge goes with --uninstall")
    host = host or Host(root=args.root)
    if host.root == Path("/") and os.geteuid() != 0:
        print("companion-install: run it as root: sudo " + " ".join([sys.argv[0], *(argv or sys.argv[1:])]))
        return 2
    installer = Installer(host, start=not args.no_start)
    try:
        return installer.uninstall(args.purge) if args.uninstall else installer.install()
    except InstallError as exc:
        print(
            f"companion-install: {exc}\nNothing is half-done that a second run does not finish: run it again "
            "once the cause is fixed.",
            file=sys.stderr,
        )
        return 1


if __name__ == "__main__":
    sys.exit(main())
