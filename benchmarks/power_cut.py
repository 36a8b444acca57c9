"""Power-cut simulation: what survives when the writes that were not yet fsynced are lost.

    python benchmarks/power_cut.py [--cuts 400] [--seed 1] [--dir DIR]

``benchmarks/crash.py`` kills the app with SIGKILL: that proves *atomicity* (a commit is all or
nothing) but not *durability*, because the kernel's page cache survives SIGKILL — every write() the
app made still reaches the disk. A power cut loses what was written but not yet ``fsync``ed.

This harness records the real file I/O of a journaling child with ``strace`` (``pwrite64``,
``write``, ``ftruncate``, ``fsync``/``fdatasync``, ``unlink``, with the data) while it plays the
golden game (and acknowledges each command on stdout after ``append`` returned, as the table
acknowledges on the LEDs). It then rebuilds the files *as a power cut would leave them* at many
points of that trace: everything up to each file's last fsync, plus a random subset of the later
writes, each kept whole, dropped, or torn (a random 512-byte-aligned prefix) — any order the page
cache might have flushed them in. The ``-shm`` index is dropped (SQLite rebuilds it). On each image:

* the journal opens with no corruption report (SQLite's WAL recovery discards torn frames);
* every command acknowledged before the cut is there (0 lost), in script order (0 corrupted).

Limits (honest ones): the device is assumed to honour fsync (a card that lies about its write cache
defeats any software); a write is torn at 512-byte boundaries only; directory entries (creating or
unlinking the -wal file) are taken as durable when made. The child sets ``wal_autocheckpoint`` low
so the trace includes checkpoints (the WAL copied into the main file and reset).
Needs ``strace`` (Linux); prints a skip message and exits 0 without it.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "otw" / "golden" / "three-players-end-at-4.jsonl"

CHILD = r"""
import json, sys
from pathlib import Path
from companion.games.on_the_way.engine.serialize import command_from_json
from companion.journal import GameSetup, JournaledGame, JournalStore
path, golden, checkpoint, synchronous = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
commands = [command_from_json(json.loads(l)) for l in golden.read_text().splitlines()]
setup = GameSetup("on-the-way", ("red", "blue", "green"), end_at=4)
store = JournalStore.open(path)
store.conn.execute(f"PRAGMA wal_autocheckpoint={checkpoint}")
if synchronous != "store":  # the negative control: what the harness reports without the store's FULL
    store.conn.execute(f"PRAGMA synchronous={synchronous}")
out = sys.stdout
for round_ in range(2):
    game = JournaledGame.start(store, setup)
    out.write(f"GAME {game.game_id}\n"); out.flush()
    for command in commands:
        game.push(command)  # committed (fsynced) when this returns
        out.write(f"ACK {game.game_id} {len(game.log)}\n"); out.flush()
store.close()
"""

_LINE = re.compile(r"^(?:\[pid\s+\d+\]\s+|\d+\s+)?(\w+)\((.*)\)\s+=\s+(-?\d+|\?)")
_FD = re.compile(r"^(\d+)<([^>]*)>")
_STR = re.compile(r'"((?:\\x[0-9a-f]{2})*)"')


@dataclass
class Op:
    kind: str  # write | truncate | sync | unlink | ack | game
    name: str = ""  # file name (basename) for file ops
    offset: int = 0
    data: bytes = b""
    length: int = 0
    game: int = 0
    count: int = 0


@dataclass
class PowerCutReport:
    cuts: int = 0
    acked_at_cuts: int = 0  # summed over cuts
    lost: int = 0
    corrupted: int = 0
    reports: int = 0  # journals that opened with a corruption report
    ops: int = 0
    syncs: int = 0
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return (
            f"{self.cuts} simulated power cuts over a trace of {self.ops} file operations ({self.syncs} fsyncs): "
            f"{self.lost} acknowledged commands lost, {self.corrupted} corrupted games, "
            f"{self.reports} journals reported damaged; {self.acked_at_cuts} acknowledged commands checked; "
            f"{self.seconds:.1f} s"
        )


def _unhex(text: str) -> bytes:
    return bytes.fromhex(text.replace("\\x", ""))


def _path(text: str) -> str:
    """strace -y -xx prints the fd's path hex-escaped too."""
    return _unhex(text).decode(errors="replace") if text.startswith("\\x") else text


def parse_trace(trace: str, journal_name: str) -> list[Op]:
    ops: list[Op] = []
    for line in trace.splitlines():
        m = _LINE.match(line)
        if not m or m.group(3) == "?" or m.group(3).startswith("-"):
            continue
        call, args = m.group(1), m.group(2)
        fd = _FD.match(args)
        name = os.path.basename(_path(fd.group(2))) if fd else ""
        if call in ("write", "pwrite64") and fd:
            s = _STR.search(args)
            if s is None:
                continue
            data = _unhex(s.group(1))
            if name.startswith(journal_name):
                offset = int(args.rsplit(",", 1)[1]) if call == "pwrite64" else -1
                ops.append(Op("write", name, offset, data))
            elif fd.group(1) == "1":
                for text in data.decode().splitlines():
                    word, *nums = text.split()
                    if word == "ACK":
                        ops.append(Op("ack", game=int(nums[0]), count=int(nums[1])))
        elif call in ("fsync", "fdatasync") and fd and name.startswith(journal_name):
            ops.append(Op("sync", name))
        elif call == "ftruncate" and fd and name.startswith(journal_name):
            ops.append(Op("truncate", name, length=int(args.rsplit(",", 1)[1])))
        elif call in ("unlink", "unlinkat"):
            s = _STR.search(args)
            if s is not None and os.path.basename(_unhex(s.group(1)).decode()).startswith(journal_name):
                ops.append(Op("unlink", os.path.basename(_unhex(s.group(1)).decode())))
    return ops


def _apply(content: bytearray, op: Op, torn: int | None = None) -> None:
    if op.kind == "truncate":
        del content[op.length :]
        return
    data = op.data if torn is None else op.data[:torn]
    offset = len(content) if op.offset < 0 else op.offset
    if len(content) < offset:
        content.extend(b"\0" * (offset - len(content)))
    content[offset : offset + len(data)] = data


def image_at(ops: list[Op], cut: int, rng: random.Random) -> dict[str, bytes]:
    """The files as a power cut after ``ops[:cut]`` leaves them: synced state + a random subset of the rest."""
    durable: dict[str, bytearray] = {}
    pending: dict[str, list[Op]] = {}
    for op in ops[:cut]:
        if op.kind in ("write", "truncate"):
            pending.setdefault(op.name, []).append(op)
            durable.setdefault(op.name, bytearray())
        elif op.kind == "sync":
            content = durable.setdefault(op.name, bytearray())
            for p in pending.pop(op.name, []):
                _apply(content, p)
        elif op.kind == "unlink":
            durable.pop(op.name, None)
            pending.pop(op.name, None)
    for name, waiting in pending.items():
        content = durable[name]
        for p in waiting:
            roll = rng.random()
            if roll < 0.4:
                continue  # never reached the disk
            if roll < 0.55 and p.kind == "write" and len(p.data) > 512:
                _apply(content, p, torn=512 * rng.randrange(1, len(p.data) // 512 + 1))
            else:
                _apply(content, p)
    return {name: bytes(content) for name, content in durable.items() if not name.endswith("-shm")}


def acked_before(ops: list[Op], cut: int) -> dict[int, int]:
    acked: dict[int, int] = {}
    for op in ops[:cut]:
        if op.kind == "ack":
            acked[op.game] = op.count
    return acked


def check_image(files: dict[str, bytes], directory: Path, journal_name: str, acked: dict[int, int],
                script: list[dict[str, object]], report: PowerCutReport) -> None:  # fmt: skip
    from companion.journal import JournalError, JournalStore

    if directory.exists():
        shutil.rmtree(directory)
    directory.mkdir(parents=True)
    for name, data in files.items():
        (directory / name).write_bytes(data)
    path = directory / journal_name
    report.cuts += 1
    report.acked_at_cuts += sum(acked.values())
    if not path.exists():
        if acked:
            report.lost += sum(acked.values())
            report.problems.append(f"cut {report.cuts}: no journal file, {acked} acknowledged")
        return
    try:
        with JournalStore.open(path) as store:
            if store.report is not None:
                report.reports += 1
                report.problems.append(f"cut {report.cuts}: {store.report}")
            for game_id, count in acked.items():
                commands = store.commands(game_id) if store.game(game_id) else []
                if len(commands) < count:
                    report.lost += count - len(commands)
                    report.problems.append(f"cut {report.cuts}: game {game_id} has {len(commands)} of {count} acked")
                if commands != script[: len(commands)]:
                    report.corrupted += 1
                    report.problems.append(f"cut {report.cuts}: game {game_id} is not a prefix of the script")
    except JournalError as exc:
        report.reports += 1
        report.problems.append(f"cut {report.cuts}: {type(exc).__name__}: {exc}")


def run(
    cuts: int = 400, seed: int = 1, directory: Path | None = None, checkpoint: int = 40, synchronous: str = "store"
) -> PowerCutReport | None:
    """``synchronous``: "store" (the journal's own setting, FULL) or a SQLite value such as "OFF" to show
    that the harness does see lost commands when fsync is skipped."""
    strace = shutil.which("strace")
    if strace is None:
        return None
    report = PowerCutReport()
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as scratch:
        base = Path(directory or scratch)
        base.mkdir(parents=True, exist_ok=True)
        journal = base / "live" / "journal.sqlite"
        if journal.parent.exists():
            shutil.rmtree(journal.parent)
        journal.parent.mkdir(parents=True)
        trace_file = base / "trace.txt"
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        proc = subprocess.run(
            [strace, "-f", "-qq", "-y", "-xx", "-s", "1000000", "-o", str(trace_file),
             "-e", "trace=write,pwrite64,fsync,fdatasync,ftruncate,unlink,unlinkat",
             sys.executable, "-c", CHILD, str(journal), str(GOLDEN), str(checkpoint), synchronous],
            capture_output=True, text=True, env=env, check=False,
        )  # fmt: skip
        if proc.returncode != 0:
            raise RuntimeError(f"the traced child failed: {proc.stderr[-2000:]}")
        ops = parse_trace(trace_file.read_text(encoding="ascii", errors="replace"), journal.name)
        report.ops = len(ops)
        report.syncs = sum(op.kind == "sync" for op in ops)
        script = [json.loads(line) for line in GOLDEN.read_text().splitlines()]
        rng = random.Random(seed)
        ack_positions = [i for i, op in enumerate(ops) if op.kind == "ack"]
        if not ack_positions or (report.syncs == 0 and synchronous == "store"):
            raise RuntimeError("the trace holds no acknowledgements or no fsync: strace did not see the I/O")
        for _ in range(cuts):
            # Half the cuts right after an acknowledgement: the hardest moment for durability.
            cut = rng.choice(ack_positions) + 1 if rng.random() < 0.5 else rng.randrange(1, len(ops) + 1)
            files = image_at(ops, cut, rng)
            check_image(files, base / "cut", journal.name, acked_before(ops, cut), script, report)
    report.seconds = time.monotonic() - start
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cuts", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", type=Path, default=None)
    parser.add_argument("--synchronous", default="store", help="store (FULL), or OFF/NORMAL as a control")
    parser.add_argument(
        "--quick", action="store_true", help="small counts, for the test suite (tests/test_benchmarks.py)"
    )
    args = parser.parse_args()
    report = run(5 if args.quick else args.cuts, args.seed, args.dir, synchronous=args.synchronous)
    if report is None:
        print("skipped: strace is not installed")
        return 0
    print(report)
    for problem in report.problems[:20]:
        print(" -", problem, file=sys.stderr)
    return 0 if not (report.lost or report.corrupted or report.reports) else 1


if __name__ == "__main__":
    sys.exit(main())
