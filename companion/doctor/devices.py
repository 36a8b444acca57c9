"""The box's devices: SPI and serial (switched on, nodes present, reachable by the kiosk's user), the
bridge, every reader, the display. The bridge and the readers are opened only while the kiosk is
stopped: two programs on one serial port steal each other's lines."""

from __future__ import annotations

import contextlib
import queue
from collections.abc import Iterator
from pathlib import Path

from companion.doctor.boot_config import boot_setting
from companion.doctor.box import SERVICE_USER, Box
from companion.doctor.result import Findings, Result, fail, na, ok
from companion.hardware.config import HardwareConfig
from companion.hardware.flash_plan import NoRfGroups, flash_groups
from companion.hardware.serial_bridge import SerialBridge
from companion.hardware.serial_protocol import NO_SESSION, rf_digest
from companion.intents import DeviceFault, Intent
from companion.kiosk.display_env import check_video_driver, kiosk_environment


def _boot_off(box: Box, found: Findings, key: str, on: tuple[str, ...]) -> bool:
    """config.txt exists and leaves ``key`` off (not set, or set to something other than ``on``)."""
    if box.boot_config() is None:
        return False
    return boot_setting(box, key, found.pi or "") not in on


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
    yield rf_groups_flashed(config, stats.protocol, stats.rf)


def rf_groups_flashed(config: HardwareConfig, protocol: int, reported: str) -> Result:
    """Whether the bridge sweeps the RF groups this hardware file gives (protocol 4 reports them)."""
    flash = f"companion hardware flash --config {config.path}"
    if protocol < 4 or not reported:
        return na(
            "rf groups",
            f"the bridge speaks protocol {protocol}, which does not report its RF groups (4 does); its reader "
            f"count matches this file. To be sure: {flash}",
        )
    # "-": flashed before groups were required (bridge_config GROUPS = None), which sweeps one at a time.
    one_at_a_time = {NO_SESSION, rf_digest(flash_groups(config, one_at_a_time=True))}
    try:
        planned: str | None = rf_digest(flash_groups(config))
    except NoRfGroups:
        planned = None
    if reported == planned:
        return ok("rf groups", f"the bridge sweeps this file's {len(config.rf.groups)} RF groups")
    if reported in one_at_a_time:
        if planned is None:
            return ok(
                "rf groups",
                "the bridge sweeps one reader at a time (safe; for a faster sweep: companion hardware plan "
                "--write-config, then flash)",
            )
        return fail("rf groups", "the bridge sweeps one reader at a time, but this file has RF groups", flash)
    return fail("rf groups", "the bridge was flashed with other RF groups than this file's (it may read ghosts)", flash)


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
