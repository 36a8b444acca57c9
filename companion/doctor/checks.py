"""The checks of ``companion doctor``: one function per line of its report, in the order a box is
built (the Pi, its settings, the hardware file, SPI and serial, the bridge, the readers, the screen,
the journal, the PIN, the broker, the clock, the service).

Each check returns a ``Result``: ``ok``, ``warn`` (works, but look), ``FAIL`` (the kiosk will not work
as it should; ``fix`` says what to do) or ``n/a`` (does not apply here, and why — e.g. on a laptop).
Checks only read: the one exception is the journal check, which writes and removes a scratch file
beside the journal to prove the folder is writable. The bridge and the readers are opened only
when the kiosk is not running (two programs on one serial port steal each other's lines).
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import queue
import socket
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from companion.doctor.box import ENV_FILE, SERVICE_USER, UNITS, Box
from companion.hardware.config import HardwareConfig, load
from companion.hardware.errors import ConfigError
from companion.hardware.serial_bridge import SerialBridge
from companion.intents import DeviceFault, Intent
from companion.journal.paths import default_journal_path
from companion.kiosk.admin import PIN_FILE, PUBLISHED_PINS, valid_pin
from companion.kiosk.display_env import check_video_driver, kiosk_environment

MIN_FREE_BYTES = 50 * 1024 * 1024  # below this the journal may fail mid-game: FAIL
LOW_FREE_BYTES = 200 * 1024 * 1024  # below this: warn
# No clock reads earlier than this on a box running this code: 1 Jan 2026, 00:00 UTC.
EARLIEST_SANE_TIME = 1767225600
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


class Status(Enum):
    OK = "ok"
    WARN = "warn"
    FAIL = "FAIL"
    NA = "n/a"


@dataclass(frozen=True)
class Result:
    name: str
    status: Status
    message: str
    fix: str = ""

    def line(self) -> str:
        fix = f" — fix: {self.fix}" if self.fix else ""
        return f"{self.status.value:<5} {self.name}: {self.message}{fix}"


def ok(name: str, message: str) -> Result:
    return Result(name, Status.OK, message)


def warn(name: str, message: str, fix: str = "") -> Result:
    return Result(name, Status.WARN, message, fix)


def fail(name: str, message: str, fix: str) -> Result:
    return Result(name, Status.FAIL, message, fix)


def na(name: str, message: str) -> Result:
    return Result(name, Status.NA, message)


@dataclass
class Findings:
    """What the checks learn on the way, for the checks after them."""

    pi: str | None = None
    config: HardwareConfig | None = None
    config_error: bool = False
    kiosk_running: bool = False
    serial_port_missing: bool = False  # the serial check failed: the bridge cannot be reached
    spi_missing: bool = False  # the spi check failed: the readers cannot be reached
    bridge: SerialBridge | None = None
    bridge_faults: dict[str, str] = field(default_factory=dict)


Check = Callable[[Box, Findings], Iterator[Result]]


# -- the machine and its settings -----------------------------------------------------------------


def platform(box: Box, found: Findings) -> Iterator[Result]:
    found.pi = box.model()
    states = [box.unit_state(unit) for unit in UNITS]
    found.kiosk_running = any(state is not None and state[1] == "active" for state in states)
    if found.pi:
        yield ok("platform", found.pi)
    else:
        yield na("platform", "not a Raspberry Pi: the checks of the box's devices do not apply here")


def settings(box: Box, found: Findings) -> Iterator[Result]:
    if not box.installed:
        if found.pi:
            yield fail("settings", f"no {ENV_FILE}: the kiosk is not installed", "sudo ./install/companion_install.py")
        else:
            yield na("settings", f"no {ENV_FILE}: not installed as a kiosk here (the simulator needs none)")
        return
    if box.settings_error:
        yield fail("settings", box.settings_error, "run it as root: sudo companion doctor")
    else:
        yield ok("settings", f"{ENV_FILE} read (the kiosk's environment, as its unit sets it)")


def hardware_file(box: Box, found: Findings) -> Iterator[Result]:
    path = box.hardware_path()
    if path is None:
        if found.pi:
            yield warn(
                "hardware file",
                "none: the kiosk runs with the screen only (no readers, LEDs, buttons)",
                "set COMPANION_HARDWARE_FILE in kiosk.env (docs/hardware.md)",
            )
        else:
            yield na("hardware file", "none: the simulator emulates the table")
        return
    try:
        found.config = load(path, env=box.settings())
    except ConfigError as exc:
        found.config_error = True
        yield fail("hardware file", str(exc), "correct that line (docs/hardware.md)")
        return
    config = found.config
    card = " + card reader" if config.card_channel is not None else ""
    yield ok("hardware file", f"{path}: backend {config.backend}, {len(config.readers)} city readers{card}")


# -- devices ----------------------------------------------------------------------------------------


def _section_applies(section: str, model: str) -> bool:
    """Does a config.txt filter section apply to this model? ``[all]`` and ``[pi4]`` on a Pi 4 do, ``[pi5]``
    and ``[none]`` do not; other filters (``[hdmi:0]``, ``[edid=...]``) are taken as applying."""
    if section in ("all", "none"):
        return section == "all"
    if section.startswith("pi") and section[2:].isdigit():
        return f"Pi {section[2:]}" in model
    if section.startswith("cm") and section[2:].isdigit():
        return f"Compute Module {section[2:]}" in model
    return True


def _boot_setting(box: Box, key: str, model: str) -> str | None:
    """The value config.txt gives ``key`` (``dtparam=spi``, ``enable_uart``) on this model: the last one
    that applies wins, ``dtparam=a=on,b=on`` sets both. None: not set, or no config.txt."""
    boot = box.boot_config()
    if boot is None:
        return None
    section, value = "all", None
    for raw in boot[1].splitlines():
        line = raw.split("#", 1)[0].strip().replace(" ", "")
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].lower()
            continue
        if not _section_applies(section, model):
            continue
        settings = [f"dtparam={p}" for p in line[8:].split(",")] if line.startswith("dtparam=") else [line]
        for setting in settings:
            name, _, given = setting.rpartition("=")
            if name == key:
                value = given
    return value


def _boot_off(box: Box, found: Findings, key: str, on: tuple[str, ...]) -> bool:
    """config.txt exists and leaves ``key`` off (not set, or set to something other than ``on``)."""
    if box.boot_config() is None:
        return False
    return _boot_setting(box, key, found.pi or "") not in on


def _node_access(box: Box, node: Path, what: str) -> Result | None:
    """FAIL if the kiosk's user cannot open ``node`` (by owner or group), else None."""
    ids = box.user_ids(SERVICE_USER)
    if ids is None:
        return None  # no kiosk user here (a development machine): who runs it decides
    uid, gids = ids
    st = node.stat()
    if (st.st_uid == uid and st.st_mode & 0o600 == 0o600) or (st.st_gid in gids and st.st_mode & 0o060 == 0o060):
        return None
    if st.st_mode & 0o006 == 0o006:
        return None
    group = box.group_name(st.st_gid)
    return fail(
        what,
        f"{node} belongs to group {group}, which the user {SERVICE_USER} is not in",
        f"sudo usermod -aG {group} {SERVICE_USER}",
    )


def spi(box: Box, found: Findings) -> Iterator[Result]:
    config = found.config
    if config is None or config.backend != "spi":
        reason = (
            "the readers are on the bridge (serial)"
            if config and config.backend == "serial"
            else ("the readers are emulated" if config else "no hardware file")
        )
        yield na("spi", f"not used: {reason}")
        return
    if not found.pi:
        yield na("spi", "not a Raspberry Pi")
        return
    found.spi_missing = True  # until the checks below pass
    if _boot_off(box, found, "dtparam=spi", ("on", "true", "yes", "1")):
        yield fail("spi", "SPI is off (no dtparam=spi=on in config.txt)", "sudo raspi-config nonint do_spi 0; reboot")
        return
    node = box.path(f"/dev/spidev{config.spi.bus}.{config.spi.device}")
    if not node.exists():
        yield fail("spi", f"no {node}", "reboot after switching SPI on (sudo raspi-config nonint do_spi 0)")
        return
    access = _node_access(box, node, "spi")
    found.spi_missing = access is not None
    yield access or ok("spi", f"on, {node} present")


def serial(box: Box, found: Findings) -> Iterator[Result]:
    config = found.config
    if config is None or config.backend != "serial":
        yield na("serial", "not used: " + (f"backend {config.backend}" if config else "no hardware file"))
        return
    url = config.serial.url
    if "://" in url:
        yield na("serial", f"{url} is a network link: no device node")
        return
    node = box.path(url)
    uart = any(name in url for name in ("serial0", "serial1", "ttyS", "ttyAMA"))
    found.serial_port_missing = True  # until the checks below pass
    if uart and found.pi and _boot_off(box, found, "enable_uart", ("1",)):
        yield fail(
            "serial",
            f"{url} is the GPIO UART, which is off (no enable_uart=1 in config.txt)",
            "sudo raspi-config nonint do_serial_hw 0; reboot",
        )
        return
    if not node.exists():
        fix = (
            "plug the bridge (the Pico) into USB; `ls /dev/ttyACM*` shows it"
            if "ACM" in url
            else ("check [serial] url in the hardware file")
        )
        yield fail("serial", f"no {url}", fix)
        return
    access = _node_access(box, node, "serial")
    found.serial_port_missing = access is not None
    yield access or ok("serial", f"{url} present")


def _drain(intents: queue.Queue[Intent]) -> Iterator[Intent]:
    while True:
        try:
            yield intents.get_nowait()
        except queue.Empty:
            return


def bridge(box: Box, found: Findings) -> Iterator[Result]:
    config = found.config
    if config is None or config.backend != "serial":
        yield na("bridge", "not used: " + (f"backend {config.backend}" if config else "no hardware file"))
        return
    if found.kiosk_running:
        yield na("bridge", "the running kiosk holds the link (stop it to test: sudo systemctl stop companion)")
        return
    if found.serial_port_missing:
        yield na("bridge", f"not tested: {config.serial.url} is not usable (see serial)")
        return
    intents: queue.Queue[Intent] = queue.Queue()
    link = SerialBridge(
        intents.put,
        config.serial.url,
        cities=config.readers,
        card_channel=config.card_channel,
        baudrate=config.serial.baudrate,
        retry_interval_s=0.5,
    )
    found.bridge = link
    link.open(box.clock())
    until = box.clock() + box.link_timeout_s
    while not link.linked and box.clock() < until:
        link.poll(box.clock())
        box.sleep(0.02)
    if not link.linked:
        yield fail(
            "bridge",
            f"no answer on {config.serial.url} in {box.link_timeout_s:g} s (HELLO unanswered)",
            "is the Pico flashed? companion hardware flash; then unplug and plug it in",
        )
        return
    until = box.clock() + box.listen_s  # the bridge's first snapshot carries its readers' faults
    while box.clock() < until:
        link.poll(box.clock())
        box.sleep(0.02)
    for intent in _drain(intents):
        if isinstance(intent, DeviceFault):
            if intent.recovered:
                found.bridge_faults.pop(intent.device, None)
            else:
                found.bridge_faults[intent.device] = intent.message
    stats = link.stats
    channels = [*config.readers, *([config.card_channel] if config.card_channel is not None else [])]
    needed = max(channels, default=-1) + 1
    if stats.readers < needed:
        yield fail(
            "bridge",
            f"firmware {stats.firmware} scans {stats.readers} readers; this hardware file needs "
            f"{needed}: flashed for another box",
            f"companion hardware flash --config {config.path}",
        )
        return
    yield ok("bridge", f"answers on {config.serial.url}: firmware {stats.firmware}, {stats.readers} readers")
    # Protocol 2 does not tell which RF groups the bridge was flashed with; its reader count is what
    # `companion hardware flash` wrote from this file (checked above).
    yield na(
        "rf groups",
        "the bridge does not report its RF groups (protocol 2); its reader count matches this "
        "file. After changing [rf] or the readers: companion hardware flash",
    )


def readers(box: Box, found: Findings) -> Iterator[Result]:
    config = found.config
    if config is None:
        yield na("readers", "no hardware file")
        return
    wanted = {**config.readers, **({config.card_channel: "card reader"} if config.card_channel is not None else {})}
    if config.backend == "serial":
        if found.bridge is None or not found.bridge.linked:
            yield na("readers", "the bridge did not answer" if found.bridge else "the bridge was not tested")
            return
        bad = sorted(found.bridge_faults.items())
        total = len(wanted)
        if bad:
            listed = "; ".join(f"{device}: {message}" for device, message in bad)
            yield fail(
                "readers",
                f"{total - len(bad)} of {total} answer; not answering: {listed}",
                "check that reader's cable and solder joints (companion hardware test)",
            )
        else:
            yield ok("readers", f"{total} of {total} answer (the bridge reports no reader fault)")
        return
    if found.kiosk_running:
        yield na("readers", "the running kiosk drives them (stop it to test: sudo systemctl stop companion)")
        return
    if config.backend == "spi" and not found.pi:
        yield na("readers", "SPI readers need the Pi")
        return
    if found.spi_missing:
        yield na("readers", "not tested: SPI is not usable (see spi)")
        return
    try:
        rig = box.open_rig(config, lambda _intent: None)
    except Exception as exc:  # the hardware libraries raise their own kinds (lgpio, spidev, OSError)
        yield fail(
            "readers",
            f"the devices do not open: {type(exc).__name__}: {exc}",
            "companion hardware test --config FILE shows more",
        )
        return
    with contextlib.closing(rig):
        answering = getattr(rig.readers, "answering", None)
        found_versions = answering() if answering is not None else {}
    silent = [f"{channel} ({name})" for channel, name in sorted(wanted.items()) if channel not in found_versions]
    if silent:
        yield fail(
            "readers",
            f"{len(wanted) - len(silent)} of {len(wanted)} answer; not answering: {', '.join(silent)}",
            "check those readers' wiring (companion hardware test)",
        )
    else:
        yield ok("readers", f"{len(wanted)} of {len(wanted)} answer ({config.backend})")


def display(box: Box, found: Findings) -> Iterator[Result]:
    if not found.pi:
        yield na("display", "the kiosk's display is the Pi's; here the simulator opens a window")
        return
    cage = box.unit_state("companion-cage.service")
    if cage is not None and cage[0] == "enabled":
        if not box.path("/usr/bin/cage").exists():
            yield fail(
                "display", "companion-cage.service is enabled but cage is not installed", "sudo apt install cage seatd"
            )
        else:
            yield ok("display", "wayland inside cage (companion-cage.service)")
        return
    driver = kiosk_environment(box.settings())["SDL_VIDEODRIVER"]
    if driver == "kmsdrm" and not any(box.path("/dev/dri").glob("card*")):
        yield fail(
            "display",
            "no /dev/dri/card*: the KMS graphics driver is not loaded",
            "dtoverlay=vc4-kms-v3d in config.txt; reboot",
        )
        return
    if found.kiosk_running:
        yield ok("display", f"SDL video driver {driver}, in use by the running kiosk")
        return
    check = check_video_driver(driver, box.probe_video) if box.probe_video else check_video_driver(driver)
    if check.ok:
        yield ok("display", f"SDL video driver {driver} opens")
    else:
        yield fail("display", check.message, 'see docs/pi-install.md, "Display without kmsdrm"')


# -- state, PIN, network, time, service --------------------------------------------------------------


def journal(box: Box, found: Findings) -> Iterator[Result]:
    path = box.journal or default_journal_path(box.settings())
    folder = path.parent
    if not folder.is_dir():
        if box.installed:
            yield fail("journal", f"no folder {folder}", f"sudo install -d -m 0700 -o {SERVICE_USER} {folder}")
        else:
            yield na("journal", f"no {folder} yet: made at the first game")
        return
    scratch = folder / f".doctor-{os.getpid()}.tmp"
    try:
        fd = os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(fd, b"\0" * 4096)
            os.fsync(fd)
        finally:
            os.close(fd)
            scratch.unlink()
    except OSError as exc:
        yield fail(
            "journal", f"{folder} is not writable: {exc.strerror or exc}", f"sudo chown {SERVICE_USER}: {folder}"
        )
        return
    if path.exists() and not os.access(path, os.W_OK):
        yield fail("journal", f"{path} is read-only", f"sudo chown {SERVICE_USER}: {path}")
        return
    ids = box.user_ids(SERVICE_USER) if box.installed else None
    if ids is not None:
        for item in (folder, path):
            if item.exists() and item.stat().st_uid != ids[0]:
                yield fail(
                    "journal",
                    f"{item} is not owned by {SERVICE_USER}: the kiosk cannot write it",
                    f"sudo chown -R {SERVICE_USER}: {folder}",
                )
                return
    free = box.free_space(folder)
    size = f"{free / 1e9:.1f} GB free" if free >= 1e9 else f"{free / 1e6:.0f} MB free"
    if free < MIN_FREE_BYTES:
        yield fail("journal", f"{folder}: only {size}", "free space on that file system (sudo apt clean, old logs)")
    elif free < LOW_FREE_BYTES:
        yield warn("journal", f"{path} writable, but only {size}", "free some space")
    else:
        yield ok("journal", f"{path} writable, {size}")


def admin_pin(box: Box, found: Findings) -> Iterator[Result]:
    if not (box.installed or found.pi):
        yield na("admin pin", "guards the kiosk's admin menu: no kiosk installed here")
        return
    env_pin = box.settings().get("COMPANION_ADMIN_PIN", "").strip()
    if env_pin:
        if env_pin in PUBLISHED_PINS:
            yield fail(
                "admin pin",
                "COMPANION_ADMIN_PIN is the published example PIN: the kiosk ignores it",
                f"choose another in {ENV_FILE}",
            )
        elif not valid_pin(env_pin):
            yield fail(
                "admin pin", "COMPANION_ADMIN_PIN is not 4+ digits: the kiosk ignores it", f"correct it in {ENV_FILE}"
            )
        else:
            yield ok("admin pin", f"set ({len(env_pin)} digits, COMPANION_ADMIN_PIN in {ENV_FILE})")
        return
    state = default_journal_path(box.settings()).parent if box.journal is None else box.journal.parent
    pin_file = state / PIN_FILE
    try:
        stored = pin_file.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        yield fail(
            "admin pin",
            "none set, and the kiosk has not generated one yet",
            f"set COMPANION_ADMIN_PIN in {ENV_FILE}, or start the kiosk once",
        )
        return
    except (OSError, UnicodeDecodeError) as exc:
        yield warn("admin pin", f"{pin_file} cannot be read here ({exc})", "run it as root: sudo companion doctor")
        return
    if valid_pin(stored):
        yield ok("admin pin", f"generated at the first start ({pin_file}; companion kiosk --show-pin)")
    else:
        yield fail(
            "admin pin",
            f"{pin_file} holds no 4+ digit PIN: only the admin card opens the menu",
            f"set COMPANION_ADMIN_PIN in {ENV_FILE}",
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
    answer = _mqtt_connect(broker_settings, box.broker_timeout_s)
    if answer:
        yield fail("broker", f"{broker_settings}: {answer}", "is the broker running, and this box on its network?")
        return
    yield ok("broker", f"{broker_settings} accepts this box")
    if found.pi or box.installed:
        outside = _outside_unit_networks(broker_settings.host, broker_settings.port)
        if outside:
            yield fail(
                "broker network",
                f"{broker_settings.host} is {outside}, outside the local networks the unit allows (IPAddressAllow=)",
                f"sudo systemctl edit companion: [Service] IPAddressAllow={outside}",
            )


def _mqtt_connect(settings: object, timeout_s: float) -> str | None:
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


def _outside_unit_networks(host: str, port: int) -> str | None:
    try:
        addresses = {str(info[4][0]) for info in socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)}
    except OSError:
        return None
    for address in sorted(addresses):
        ip = ipaddress.ip_address(address.split("%")[0])
        if not any(ip in network for network in UNIT_NETWORKS if network.version == ip.version):
            return address
    return None


def clock(box: Box, found: Findings) -> Iterator[Result]:
    now = box.wall_clock()
    shown = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(now))
    if now < EARLIEST_SANE_TIME:
        yield fail(
            "clock",
            f"{shown} is before this software was written: the time was never set",
            "connect the box to a network once (network time), or: sudo date -s 'YYYY-MM-DD HH:MM'",
        )
        return
    state = (box.journal or default_journal_path(box.settings())).parent
    newest = 0.0
    with contextlib.suppress(OSError):
        newest = max((p.stat().st_mtime for p in state.iterdir()), default=0.0)
    if newest > now + 60:
        last = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(newest))
        yield fail(
            "clock",
            f"{shown} is before the journal's last write ({last}): the clock went back",
            "connect the box to a network (network time), or set the date: sudo date -s ...",
        )
        return
    synced = box.ask(["timedatectl", "show", "--property=NTPSynchronized", "--value"])
    if synced == "no" and found.pi:
        yield warn(
            "clock",
            f"{shown}, not synchronised with network time (the Pi has no battery clock)",
            "give the box a network once a day, or a real-time clock",
        )
    else:
        yield ok("clock", shown + (", synchronised" if synced == "yes" else ""))


def service(box: Box, found: Findings) -> Iterator[Result]:
    if not box.installed:
        yield na("service", "the kiosk's systemd unit is not installed here")
        return
    states = {unit: box.unit_state(unit) for unit in UNITS}
    if all(state is None for state in states.values()):
        yield na("service", "no systemd to ask (a container or chroot)")
        return
    enabled = [unit for unit, state in states.items() if state and state[0] == "enabled"]
    if not enabled:
        yield fail(
            "service",
            "companion.service is not enabled: the kiosk does not start at boot",
            "sudo systemctl enable --now companion",
        )
        return
    unit = enabled[0]
    state = states[unit]
    assert state is not None
    if state[1] == "failed":
        yield fail("service", f"{unit} failed", f"journalctl -u {unit} -n 50; sudo systemctl restart {unit}")
    elif state[1] in ("unknown", "offline", ""):
        yield ok("service", f"{unit} enabled (systemd is not running here: it starts at boot)")
    else:
        yield ok("service", f"{unit} enabled, {state[1]}")


CHECKS: tuple[Check, ...] = (
    platform,
    settings,
    hardware_file,
    spi,
    serial,
    bridge,
    readers,
    display,
    journal,
    admin_pin,
    broker,
    clock,
    service,
)


def run(box: Box, checks: tuple[Check, ...] = CHECKS) -> list[Result]:
    found = Findings()
    results: list[Result] = []
    try:
        for check in checks:
            results.extend(check(box, found))
    finally:
        if found.bridge is not None:
            found.bridge.close()
    return results
