"""A hostile wire between the host's :class:`SerialBridge` and a :class:`BridgeLink`, in memory; and
a bridge that reboots under a host (:func:`simulate_reboots`).

Used by the link property test and by ``benchmarks/readers.py``: random table changes on the bridge
side, and on both directions of the wire random drops, duplicates, reorderings, bit flips, cut lines
and garbage. :func:`simulate` then checks, poll by poll, that every intent the host emitted is a state
the table really went through, in order (no phantom ``TagPlaced``/``TagLifted``/``CardScanned``, no
step backwards), and that once the wire is clean the host's view equals the true table within one
snapshot period.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from companion.hardware.serial_bridge import SerialBridge
from companion.hardware.serial_protocol import NO_SESSION, BridgeLink, Line
from companion.intents import CardScanned, Intent, TagLifted, TagPlaced

FAULTS = ("drop", "duplicate", "reorder", "flip", "cut", "garbage")


@dataclass
class FaultRates:
    """Probability per line of each fault (a line suffers at most one)."""

    drop: float = 0.0
    duplicate: float = 0.0
    reorder: float = 0.0
    flip: float = 0.0
    cut: float = 0.0
    garbage: float = 0.0


@dataclass
class Wire:
    """One direction: lines written are held until :meth:`deliver`, which applies the faults."""

    rnd: random.Random
    rates: FaultRates
    faulty: bool = True
    lines: list[bytes] = field(default_factory=list)
    injected: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FAULTS, 0))

    def write(self, data: bytes) -> None:
        self.lines.append(bytes(data))

    def deliver(self) -> bytes:
        lines, self.lines = self.lines, []
        if not self.faulty:
            return b"".join(lines)
        out: list[bytes] = []
        i = 0
        while i < len(lines):
            line = lines[i]
            fault = self._pick()
            if fault is not None:
                self.injected[fault] += 1
            if fault == "drop":
                pass
            elif fault == "duplicate":
                out += [line, line]
            elif fault == "reorder" and i + 1 < len(lines):
                out += [lines[i + 1], line]
                i += 1
            elif fault == "flip":
                data = bytearray(line)
                for _ in range(self.rnd.randint(1, 3)):
                    bit = self.rnd.randrange(len(data) * 8)
                    data[bit // 8] ^= 1 << (bit % 8)
                out.append(bytes(data))
            elif fault == "cut" and len(line) > 1:
                out.append(line[: self.rnd.randrange(1, len(line))])
            elif fault == "garbage":
                out.append(bytes(self.rnd.randrange(256) for _ in range(self.rnd.randint(1, 40))))
                out.append(line)
            else:
                out.append(line)
            i += 1
        return b"".join(out)

    def _pick(self) -> str | None:
        x = self.rnd.random()
        for name in FAULTS:
            x -= getattr(self.rates, name)
            if x < 0:
                return name
        return None


class _Port:
    """What :class:`SerialBridge` sees of a serial port."""

    def __init__(self, outbound: Wire) -> None:
        self.inbound = bytearray()
        self.outbound = outbound

    def read(self, size: int) -> bytes:
        data, self.inbound = bytes(self.inbound[:size]), self.inbound[size:]
        return data

    def write(self, data: bytes) -> int:
        self.outbound.write(data)
        return len(data)

    def close(self) -> None:
        pass


@dataclass
class SimResult:
    phantoms: list[str] = field(default_factory=list)
    converged_after_s: float | None = None
    host_view: dict[str, str] = field(default_factory=dict)
    true_view: dict[str, str] = field(default_factory=dict)
    cards_true: list[str] = field(default_factory=list)
    cards_host: list[str] = field(default_factory=list)
    injected: dict[str, int] = field(default_factory=dict)
    intents: int = 0


def simulate(
    seed: int,
    rates: FaultRates,
    *,
    cities: Mapping[int, str] | None = None,
    fault_s: float = 6.0,
    quiet_s: float = 3.0,
    step_s: float = 0.05,
    change_p: float = 0.15,
    card_p: float = 0.03,
    snapshot_ms: int = 2000,
    host_hook: Callable[[SerialBridge], None] | None = None,
    host_class: type[SerialBridge] = SerialBridge,
) -> SimResult:
    """Run one hostile session; see the module docstring for what is checked."""
    rnd = random.Random(seed)
    cities = dict(cities or {0: "A", 1: "B", 2: "C", 3: "D", 4: "E", 5: "F"})
    card_channel = 9
    uids = ["04A1B2C3D4E501", "04A1B2C3D4E502", "DEADBEEF", "04A1B2C3D4E5F60718A9"]
    to_host, to_bridge = Wire(rnd, rates), Wire(rnd, rates)
    link = BridgeLink(len(cities) + 1, "sim/3", "B1", to_host.write, snapshot_ms=snapshot_ms, card_channel=card_channel)
    for ch in cities:  # this run is about the wire: every reader has settled, empty, before it starts
        link.set_tag(ch, None)
    got: list[Intent] = []
    port = _Port(to_bridge)
    bridge = host_class(got.append, "sim://", cities=cities, card_channel=card_channel, opener=lambda: port).open(0.0)
    if host_hook is not None:
        host_hook(bridge)
    result = SimResult()
    history: dict[int, list[str | None]] = {ch: [None] for ch in cities}
    position = dict.fromkeys(cities, 0)
    host: dict[int, str] = {}
    card_pos = 0
    by_city = {city: ch for ch, city in cities.items()}
    now = 0.0
    while now < fault_s + quiet_s:
        faulty = now < fault_s
        to_host.faulty = to_bridge.faulty = faulty
        if faulty and rnd.random() < change_p:
            ch = rnd.choice(list(cities))
            uid = rnd.choice([None, *uids])
            if link.tags.get(ch) != uid:
                link.set_tag(ch, uid)
                history[ch].append(uid)
        if faulty and rnd.random() < card_p:
            uid = rnd.choice(uids)
            if link.session != NO_SESSION:  # before any HELLO arrived, a card predates the link
                result.cards_true.append(uid)
            link.card(uid)
        ms = round(now * 1000)
        link.feed(to_bridge.deliver(), ms)
        link.tick(ms)
        port.inbound += to_host.deliver()
        bridge.poll(now)
        # --- check what came out of this poll ---
        changed: set[int] = set()
        for intent in got:
            result.intents += 1
            match intent:
                case TagLifted(city, uid):
                    ch = by_city[city]
                    if host.get(ch) != uid:
                        result.phantoms.append(f"{now:.2f}: {intent!r} but the host had {host.get(ch)}")
                    host.pop(ch, None)
                    changed.add(ch)
                case TagPlaced(city, uid):
                    ch = by_city[city]
                    if ch in host:
                        result.phantoms.append(f"{now:.2f}: {intent!r} over {host[ch]}")
                    host[ch] = uid
                    changed.add(ch)
                case CardScanned(uid):
                    result.cards_host.append(uid)
                    if card_pos >= len(result.cards_true) or result.cards_true[card_pos] != uid:
                        result.phantoms.append(f"{now:.2f}: {intent!r} is not the next card scanned")
                    card_pos += 1
        got.clear()
        for ch in changed:
            state = host.get(ch)
            later = [j for j in range(position[ch] + 1, len(history[ch])) if history[ch][j] == state]
            if not later:
                result.phantoms.append(f"{now:.2f}: reader {ch} shown as {state}, never true after that")
            else:
                position[ch] = later[0]
        true_view = {cities[ch]: uid for ch, uid in link.tags.items()}
        if not faulty and result.converged_after_s is None and bridge.present() == true_view:
            result.converged_after_s = now - fault_s
        if not faulty and result.converged_after_s is not None and bridge.present() != true_view:
            result.converged_after_s = None  # must stay converged
        now = round(now + step_s, 6)
    result.host_view = bridge.present()
    result.true_view = {cities[ch]: uid for ch, uid in link.tags.items()}
    result.injected = {k: to_host.injected[k] + to_bridge.injected[k] for k in FAULTS}
    bridge.close()
    return result


class ForgetfulBridge(SerialBridge):
    """A deliberately broken host that applies every state line, as protocol version 1 did (no
    sequence-number or generation checks): the property test shows the checker catches it."""

    def _accept(self, line: Line) -> None:
        self._rx_seq = None
        self._ver.clear()
        self._card_n = min(self._card_n, 0)
        super()._accept(line)


# --- reboots ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class RebootPlan:
    """One run of :func:`simulate_reboots`: when and how the bridge reboots and how the host polls."""

    kinds: tuple[str, ...]  # one reboot each, in order (serial_peer.REBOOT_KINDS)
    gaps_s: tuple[float, ...]  # time from one reboot to the next (a boot loop when short)
    off_s: float = 0.0  # how long a power cut / pulled cable lasts
    markers: int = 4  # markers lying on the board throughout
    moved: int = 0  # of them, moved to another reader while the bridge was down
    poll_s: float = 0.02  # the host's loop period
    phase_s: float = 0.0  # the host's first poll after the bridge's first boot
    retry_s: float = 2.0  # how soon the host reopens a port that went away
    hello_s: float = 1.0  # how often the host repeats an unanswered HELLO
    read_errors: float = 0.0  # chance a reader's sample is a read error
    wire: FaultRates = field(default_factory=FaultRates)  # what the USB line does to lines, both ways
    seed: int = 0


@dataclass
class RebootResult:
    phantoms: list[str] = field(default_factory=list)  # intents for markers that did not move
    wrong: list[str] = field(default_factory=list)  # moves reported otherwise than they happened
    host_view: dict[str, str] = field(default_factory=dict)
    true_view: dict[str, str] = field(default_factory=dict)
    unsettled_seen: int = 0  # readers snapshots listed as unsettled (the HELLO came before they settled)
    hellos: int = 0


CONVERGE_LIMIT_S = 20.0  # a HELLO every second, each lost with the wire's fault rate


class _DevicePort:
    """The host's end of a USB serial port to a :class:`BridgeDevice`; it fails while the device's
    USB is gone (a power cut, a pulled cable, a watchdog reset re-enumerating)."""

    def __init__(self, outbound: Wire) -> None:
        self.inbound = bytearray()
        self.outbound = outbound
        self.alive = True

    def read(self, size: int) -> bytes:
        import serial

        if not self.alive:
            raise serial.SerialException("device reports readiness to read but returned no data")
        data, self.inbound = bytes(self.inbound[:size]), self.inbound[size:]
        return data

    def write(self, data: bytes) -> int:
        import serial

        if not self.alive:
            raise serial.SerialException("write failed: device disconnected")
        self.outbound.write(data)
        return len(data)

    def close(self) -> None:
        self.alive = False


def simulate_reboots(
    plan: RebootPlan, *, readers: int = 12, settle_s: float = 3.0, host_class: type[SerialBridge] = SerialBridge
) -> RebootResult:
    """Markers lie on the board; the bridge reboots as ``plan`` says (some markers moved meanwhile).
    Every TagPlaced/TagLifted the host emits for a marker that did not move is a phantom; the moved
    ones must come out as exactly their lift and placement; in the end the host sees the table."""
    import serial

    from companion.hardware.serial_peer import SOFT_REBOOT_TEXT, BridgeDevice

    rnd = random.Random(plan.seed)
    cities = {ch: f"City{ch}" for ch in range(readers)}
    to_host, to_bridge = Wire(rnd, plan.wire), Wire(rnd, plan.wire)
    device = BridgeDevice(readers + 1, to_host.write, card_channel=readers, read_errors=plan.read_errors, rnd=rnd)
    channels = rnd.sample(range(readers), plan.markers)
    for i, channel in enumerate(channels):
        device.table[channel] = f"04A1B2C3D4E5{i:02X}"
    usb_back_at = 0.0
    port: _DevicePort | None = None

    def opener() -> _DevicePort:
        nonlocal port
        if now < usb_back_at:
            raise serial.SerialException(f"could not open port /dev/ttyACM0 at {now:.2f} s: no such device")
        to_host.lines.clear()
        port = _DevicePort(to_bridge)
        return port

    got: list[Intent] = []
    now = plan.phase_s
    bridge = host_class(
        got.append,
        "sim://",
        cities=cities,
        card_channel=readers,
        opener=opener,
        retry_interval_s=plan.retry_s,
        hello_interval_s=plan.hello_s,
    ).open(now)
    # before the reboots: the board as it was set up, once everything settled
    step = 0.005  # the device runs on a finer clock than the host polls
    next_poll = now

    def table_view() -> dict[str, str]:
        return {cities[ch]: uid for ch, uid in device.table.items()}

    def run_until(until: float, *, or_converged: bool = False) -> None:
        """Run to ``until``; with ``or_converged`` on until the host sees the table (a hostile wire may
        eat several HELLOs in a row), at most ``CONVERGE_LIMIT_S`` more."""
        nonlocal now, next_poll
        limit = until + CONVERGE_LIMIT_S
        while now < until or (or_converged and now < limit and bridge.present() != table_view()):
            now = round(now + step, 6)
            device.run(now)
            if port is not None and port.alive and device.running(now):
                device.feed(to_bridge.deliver(), now)
                device.run(now)
                port.inbound += to_host.deliver()
            else:
                to_bridge.lines.clear()  # nobody at the other end
            if now >= next_poll:
                bridge.poll(now)
                next_poll = now + plan.poll_s

    run_until(plan.phase_s + settle_s, or_converged=True)
    before = dict(bridge.present())
    result = RebootResult()
    if before != table_view():
        result.wrong.append(f"before any reboot the host saw {before}, the table is {device.table}")
    got.clear()
    # the reboots; markers move while the first one is down
    moves: dict[int, tuple[str, int]] = {}  # old channel -> (uid, new channel)
    free = [ch for ch in range(readers) if ch not in device.table]
    for channel in channels[: plan.moved]:
        moves[channel] = (device.table[channel], free.pop(rnd.randrange(len(free))))
    for i, kind in enumerate(plan.kinds):
        off = plan.off_s if kind in ("power", "replug") else 0.0
        if kind == "soft":
            to_host.write(SOFT_REBOOT_TEXT)
        else:
            if port is not None:
                port.alive = False
            usb_back_at = now + off
        device.reboot(now, off)
        if i == 0:
            for old, (uid, new) in moves.items():
                del device.table[old]
                device.table[new] = uid
        run_until(now + plan.gaps_s[i] if i < len(plan.gaps_s) else now)
    run_until(now + plan.off_s + plan.retry_s + settle_s, or_converged=True)
    # judge
    expected: dict[str, list[Intent]] = {}
    for old, (uid, new) in moves.items():
        expected.setdefault(cities[old], []).append(TagLifted(cities[old], uid))
        expected.setdefault(cities[new], []).append(TagPlaced(cities[new], uid))
    seen: dict[str, list[Intent]] = {}
    for intent in got:
        if isinstance(intent, TagPlaced | TagLifted):
            seen.setdefault(intent.city, []).append(intent)
    for city, intents in seen.items():
        if city not in expected:
            result.phantoms += [repr(intent) for intent in intents]
        elif intents != expected[city]:
            result.wrong.append(f"{city}: {intents!r}, expected {expected[city]!r}")
    result.wrong += [f"{city}: {want!r} never reported" for city, want in expected.items() if city not in seen]
    result.host_view = bridge.present()
    result.true_view = {cities[ch]: uid for ch, uid in device.table.items()}
    result.unsettled_seen = bridge.stats.unsettled
    result.hellos = bridge.stats.hellos
    bridge.close()
    return result


class UnsettledBlindBridge(SerialBridge):
    """A deliberately broken host that ignores the snapshot's unsettled readers, as a version 2 host
    (or a bridge without the field) does: the reboot property test shows the checker catches it."""

    def _snapshot(self, line: Line, gen: int) -> None:
        super()._snapshot(Line(line.seq, line.verb, line.args[:5]), gen)
