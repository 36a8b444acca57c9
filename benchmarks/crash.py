"""Crash test: SIGKILL the journaling app at random moments and check that nothing is lost.

    python benchmarks/crash.py [--kills 200] [--seed 1] [--max-delay 0.04] [--controller] [--dir DIR]

A child process (forked, so a restart costs milliseconds, not an interpreter start-up) opens the
journal, resumes the unfinished game (or starts a new one), and applies the next commands of a
scripted game — a seeded random playout with undos mixed in. With ``--controller`` the commands go
through a ``TableController`` with emulated LEDs (headless: ``SDL_VIDEODRIVER=dummy``), the path the
table uses. After each command is back from the journaled push (committed) the child writes an ack
line to a pipe. The parent kills it with SIGKILL after a random delay, reads every ack that made it,
re-opens the journal and checks:

* the journal opens clean (``PRAGMA integrity_check``, no corruption report);
* every acknowledged command is there, in order, equal to the script (0 lost);
* every recorded game is a prefix of the script (0 corrupted), finished games are complete;
* the resumed state equals a fresh replay of the same prefix (ledger included).

Numbers go in the issue notes; tests/journal/test_crash.py runs it with a time budget.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import random
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from companion.games.on_the_way.data import load_reference
from companion.games.on_the_way.engine import GameConfig, Undo, new_game
from companion.games.on_the_way.engine.commands import Command
from companion.games.on_the_way.engine.playout import play_out
from companion.games.on_the_way.engine.serialize import command_to_json
from companion.games.on_the_way.engine.state import initial_state
from companion.games.on_the_way.table.controller import TableController  # imported before forking: fast restarts
from companion.journal import GameSetup, JournaledGame, JournalStore
from companion.table.tags import TagDirectory

SETUP = GameSetup("on-the-way", ("red", "blue"), end_at=5)


@dataclass
class CrashReport:
    kills: int = 0
    acked: int = 0  # acknowledged commands, summed over all children
    recorded: int = 0  # commands in the journal at the end
    games_finished: int = 0
    lost: int = 0
    corrupted: int = 0
    unacked_but_kept: int = 0  # committed when the kill came, before the ack: fine (never acknowledged)
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)
    seen: dict[int, int] = field(default_factory=dict, repr=False)  # game id -> commands at the last check

    def __str__(self) -> str:
        return (
            f"{self.kills} kills, {self.acked} commands acknowledged, {self.recorded} recorded, "
            f"{self.games_finished} games finished, {self.lost} lost, {self.corrupted} corrupted, "
            f"{self.unacked_but_kept} committed-but-unacknowledged at a kill, in {self.seconds:.1f} s"
        )


def make_script(seed: int) -> list[Command]:
    """A whole short game from a seeded playout, with an undo and a redo every few commands."""
    board, deck = load_reference()
    config = GameConfig(board, deck, SETUP.players, end_at=SETUP.end_at)
    rng = random.Random(seed)
    played = play_out(initial_state(config), rng).commands
    script: list[Command] = []
    for i, command in enumerate(played):
        script.append(command)
        if i % 11 == 5 and i + 1 < len(played):
            script += [Undo(), command]
    return script


def reference_states(script: list[Command]) -> list[Any]:
    """states[k]: the state after the first k script commands, by a plain (unjournaled) replay."""
    game = new_game(_config())
    states = [game.state]
    for command in script:
        game.push(command)
        states.append(game.state)
    return states


@functools.cache
def _config() -> GameConfig:
    board, deck = load_reference()
    return GameConfig(board, deck, SETUP.players, end_at=SETUP.end_at)


class _AckLeds:
    """Emulated LEDs: counts frames (the acknowledgement the players see)."""

    def __init__(self) -> None:
        self.frames = 0

    def show(self, frame: object, now: float) -> None:
        self.frames += 1


def child(path: Path, script: list[Command], ack_fd: int, controller: bool) -> None:
    """Runs until killed: resume or start, then apply the next scripted command, ack, repeat."""
    store = JournalStore.open(path)
    while True:
        record = store.unfinished()
        game = JournaledGame.start(store, SETUP) if record is None else JournaledGame.resume(store, record)
        push = game.push
        if controller:
            config = _config()
            ctl = TableController(config, TagDirectory({}), leds=_AckLeds(), game=game)

            def push(command: Command, ctl: TableController = ctl) -> list[object]:
                events = ctl._push(command)  # the controller's own push: journal, then screen + LEDs
                ctl._refresh()
                if events is None:
                    raise RuntimeError(f"refused: {ctl.ui.refusal}")
                return events

        while len(game.log) < len(script):
            seq = len(game.log)
            push(script[seq])
            os.write(ack_fd, f"{game.game_id} {seq}\n".encode())
        # finished (recorded with its last command): the next loop starts a new game


def run(
    kills: int = 200,
    seed: int = 1,
    max_delay: float = 0.1,
    directory: Path | None = None,
    controller: bool = False,
    time_budget: float | None = None,
) -> CrashReport:
    script = make_script(seed)
    states = reference_states(script)
    expected = [command_to_json(c) for c in script]
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        path = (directory or Path(tmp)) / "journal.sqlite"
        report = CrashReport()
        acked: dict[int, int] = {}  # game id -> highest acknowledged seq
        t0 = time.perf_counter()
        while report.kills < kills:
            if time_budget is not None and time.perf_counter() - t0 > time_budget:
                report.problems.append(f"time budget of {time_budget} s reached")
                break
            read_fd, write_fd = os.pipe()
            pid = os.fork()
            if pid == 0:  # the child: never returns
                os.close(read_fd)
                try:
                    child(path, script, write_fd, controller)
                except BaseException as exc:  # a crash that is not our SIGKILL is a failure
                    os.write(write_fd, f"ERROR {type(exc).__name__}: {exc}\n".encode())
                    os._exit(3)
                os._exit(0)
            os.close(write_fd)
            time.sleep(rng.uniform(0, max_delay))
            os.kill(pid, signal.SIGKILL)
            _, status = os.waitpid(pid, 0)
            report.kills += 1
            with os.fdopen(read_fd, "rb") as pipe:
                lines = pipe.read().decode().splitlines()
            for line in lines:
                if line.startswith("ERROR"):
                    report.problems.append(f"kill {report.kills}: child failed: {line}")
                    continue
                game_id, seq = (int(x) for x in line.split())
                acked[game_id] = max(acked.get(game_id, -1), seq)
                report.acked += 1
            if os.WIFEXITED(status):
                report.problems.append(f"kill {report.kills}: child exited by itself ({os.WEXITSTATUS(status)})")
            _verify(path, expected, states, acked, report)
            if report.problems:
                break
        report.seconds = time.perf_counter() - t0
        with JournalStore.open(path) as store:
            report.recorded = sum(r.commands for r in store.games())
            report.games_finished = sum(r.status == "finished" for r in store.games())
    return report


def _verify(
    path: Path, expected: list[dict[str, object]], states: list[Any], acked: dict[int, int], report: CrashReport
) -> None:
    with JournalStore.open(path) as store:
        if store.report is not None:
            report.corrupted += 1
            report.problems.append(str(store.report))
            return
        records = {r.id: r for r in store.games()}
        for game_id, top in acked.items():
            if game_id not in records or records[game_id].commands <= top:
                have = records[game_id].commands if game_id in records else 0
                report.lost += top + 1 - have
                report.problems.append(f"game {game_id}: {top + 1} acknowledged, {have} recorded")
        for record in records.values():
            commands = store.commands(record.id)
            if commands != expected[: len(commands)]:
                report.corrupted += 1
                report.problems.append(f"game {record.id}: the record differs from the script")
            if record.status == "finished" and len(commands) != len(expected):
                report.corrupted += 1
                report.problems.append(f"game {record.id}: finished after {len(commands)} commands")
        playing = store.unfinished()
        if playing is not None:
            seen = report.seen.get(playing.id, 0)
            if playing.commands > max(acked.get(playing.id, -1) + 1, seen):
                report.unacked_but_kept += 1  # this kill came after a commit, before its ack
            report.seen[playing.id] = playing.commands
            resumed = JournaledGame.resume(store, playing)
            if resumed.state != states[playing.commands]:
                report.corrupted += 1
                report.problems.append(f"game {playing.id}: resumed state differs from a fresh replay")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-delay", type=float, default=0.1, help="longest life of a child, seconds")
    parser.add_argument("--controller", action="store_true", help="push through a TableController (emulated LEDs)")
    parser.add_argument("--dir", type=Path, help="where the journal lives (default: a temporary directory)")
    args = parser.parse_args()
    report = run(args.kills, args.seed, args.max_delay, args.dir, args.controller)
    print(report)
    for problem in report.problems:
        print("  " + problem, file=sys.stderr)
    print(
        json.dumps({"kills": report.kills, "acked": report.acked, "lost": report.lost, "corrupted": report.corrupted})
    )
    return 0 if not report.problems and report.lost == 0 and report.corrupted == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
