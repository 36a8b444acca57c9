"""Crash test: SIGKILL the journaling app at random moments and check that nothing is lost.

    python benchmarks/crash.py [--game on-the-way|auf-achse] [--kills 200] [--seed 1] [--max-delay 0.04]
                               [--controller] [--dir DIR]

Any registered game (``--game``, default on-the-way): a child process (forked, so a restart costs
milliseconds, not an interpreter start-up) opens the journal, resumes the unfinished game (or starts
a new one), and applies the next commands of a scripted game — the game's seeded playout
(``plugin.sample_game``) with undos mixed in; a script that stops before the game is over is ended
early by the admin path (``end_early``), as a kiosk would. With ``--controller`` the commands go
through the game's table controller with emulated LEDs (headless: ``SDL_VIDEODRIVER=dummy``), the
path the table uses. After each command is back from the journaled push (committed) the child writes an ack
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
import json
import os
import random
import select
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from companion import games
from companion.games.protocol import GamePlugin
from companion.journal import ENDED, GameSetup, JournaledGame, JournalStore
from companion.table.tags import TagDirectory

SETUPS = {  # a short game of each: the On The Way time track ends at 5; Auf Achse's script is cut at 300
    "on-the-way": GameSetup("on-the-way", ("red", "blue"), end_at=5),
    "auf-achse": GameSetup("auf-achse", ("red", "blue"), seed=3),
}
SCRIPT_LIMIT = 300
ACK_WAIT_S = 30.0  # a child silent this long after its start hangs: a problem, not a slow machine


@dataclass
class CrashReport:
    kills: int = 0
    acked: int = 0  # acknowledged commands, summed over all children
    recorded: int = 0  # commands in the journal at the end
    games_finished: int = 0
    lost: int = 0
    corrupted: int = 0
    unacked_but_kept: int = 0  # committed when the kill came, before the ack: fine (never acknowledged)
    in_play: int = 0  # kills that came after the child had acknowledged a command (not during start-up)
    timed: int = 0  # kills timed from the child's first acknowledged command (half of them)
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)
    seen: dict[int, int] = field(default_factory=dict, repr=False)  # game id -> commands at the last check

    def __str__(self) -> str:
        return (
            f"{self.kills} kills, {self.acked} commands acknowledged, {self.recorded} recorded, "
            f"{self.games_finished} games finished, {self.lost} lost, {self.corrupted} corrupted, "
            f"{self.unacked_but_kept} committed-but-unacknowledged at a kill, {self.in_play} kills during play, "
            f"in {self.seconds:.1f} s"
        )


def setup_for(game: str) -> GameSetup:
    return SETUPS.get(game) or GameSetup(game, games.get(game).colours[:2])


def make_script(plugin: GamePlugin, setup: GameSetup, seed: int) -> list[object]:
    """A game from a seeded playout, with an undo and a redo every few commands."""
    played = plugin.sample_game(setup, seed, SCRIPT_LIMIT)
    undo = plugin.command_from_json({"action": "undo"})
    script: list[object] = []
    for i, command in enumerate(played):
        script.append(command)
        if i % 11 == 5 and i + 1 < len(played):
            script += [undo, command]
    return script


def reference_states(plugin: GamePlugin, setup: GameSetup, script: list[object]) -> list[Any]:
    """states[k]: the state after the first k script commands, by a plain (unjournaled) replay."""
    game = plugin.new_game(setup)
    states = [game.state]
    for command in script:
        game.push(command)
        states.append(game.state)
    return states


class _AckLeds:
    """Emulated LEDs: counts frames (the acknowledgement the players see)."""

    def __init__(self) -> None:
        self.frames = 0

    def show(self, frame: object, now: float) -> None:
        self.frames += 1


def child(
    path: Path, plugin: GamePlugin, setup: GameSetup, script: list[object], ack_fd: int, controller: bool
) -> None:
    """Runs until killed: resume or start, then apply the next scripted command, ack, repeat."""
    store = JournalStore.open(path)
    while True:
        record = store.unfinished()
        game = JournaledGame.start(store, setup) if record is None else JournaledGame.resume(store, record)
        push = game.push
        if controller:
            ctl = plugin.table(game, TagDirectory({}), leds=_AckLeds())

            def push(command: object, ctl: Any = ctl) -> list[object]:
                events = ctl._push(command)  # the controller's own push: journal, then screen + LEDs
                ctl._refresh()
                if events is None:
                    raise RuntimeError(f"refused: {ctl.ui.refusal}")
                return events

        os.write(ack_fd, b"READY\n")  # set up: the parent's kill clock starts now (see run)
        while len(game.log) < len(script):
            seq = len(game.log)
            push(script[seq])
            os.write(ack_fd, f"{game.game_id} {seq}\n".encode())
        if not game.finished:  # the script stops before the game's end: the admin ends it, it is kept
            game.end_early()
        # finished or ended (recorded): the next loop starts a new game


def _acknowledged(data: bytes) -> bool:
    """A complete line other than READY or ERROR: an acknowledged command. A child that resumes a game
    whose script is done ends it and starts the next one, so READY can come twice before any command."""
    return any(line and line != b"READY" and not line.startswith(b"ERROR") for line in data.split(b"\n")[:-1])


def _read_until(fd: int, marker: bytes | None, timeout: float) -> bytes:
    """What the child wrote until ``marker`` (None: its first acknowledged command),
    the child's exit or ``timeout`` seconds: the bytes read, for the caller to parse with the rest."""
    data = b""
    deadline = time.monotonic() + timeout
    while True:
        done = marker in data if marker is not None else _acknowledged(data) or b"ERROR" in data
        left = deadline - time.monotonic()
        if done or left <= 0 or not select.select([fd], [], [], left)[0]:
            return data
        chunk = os.read(fd, 4096)
        if not chunk:  # the child exited
            return data
        data += chunk


def run(
    game: str = games.DEFAULT_GAME,
    kills: int = 200,
    seed: int = 1,
    max_delay: float = 0.1,
    directory: Path | None = None,
    controller: bool = False,
    time_budget: float | None = None,
) -> CrashReport:
    plugin = games.get(game)
    setup = setup_for(game)
    script = make_script(plugin, setup, seed)
    states = reference_states(plugin, setup, script)
    expected = [plugin.command_to_json(c) for c in script]
    rng = random.Random(seed)
    if controller:  # import and build the table once here, so that every forked child starts warm
        plugin.table(plugin.new_game(setup), TagDirectory({}), leds=_AckLeds())
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
                    child(path, plugin, setup, script, write_fd, controller)
                except BaseException as exc:  # a crash that is not our SIGKILL is a failure
                    os.write(write_fd, f"ERROR {type(exc).__name__}: {exc}\n".encode())
                    os._exit(3)
                os._exit(0)
            os.close(write_fd)
            # Of every four kills one lands anywhere (start-up included), one is timed from the child's
            # READY, two from its first acknowledged command: on a loaded machine (a slow start, a
            # slow first command) half the kills still land during play, whatever the speed.
            head = b""
            phase = report.kills % 4
            if phase:
                head = _read_until(read_fd, b"READY\n" if phase == 1 else None, ACK_WAIT_S)
                report.timed += phase >= 2
            in_play = _acknowledged(head)
            if phase >= 2 and not in_play and b"ERROR" not in head:  # an ERROR line is reported below
                report.problems.append(f"kill {report.kills + 1}: no acknowledged command within {ACK_WAIT_S} s")
            time.sleep(rng.uniform(0, max_delay))
            os.kill(pid, signal.SIGKILL)
            _, status = os.waitpid(pid, 0)
            report.kills += 1
            with os.fdopen(read_fd, "rb") as pipe:
                lines = (head + pipe.read()).decode().splitlines()
            report.in_play += in_play
            for line in lines:
                if line == "READY":
                    continue
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
            report.games_finished = sum(r.status in ("finished", ENDED) for r in store.games())
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
    parser.add_argument("--game", default=games.DEFAULT_GAME, choices=games.names())
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-delay", type=float, default=0.1, help="longest life of a child, seconds")
    parser.add_argument("--controller", action="store_true", help="push through the game's table (emulated LEDs)")
    parser.add_argument("--dir", type=Path, help="where the journal lives (default: a temporary directory)")
    parser.add_argument(
        "--quick", action="store_true", help="a few kills, for the test suite (tests/test_benchmarks.py)"
    )
    args = parser.parse_args()
    if args.quick:
        args.kills = 5
    report = run(args.game, args.kills, args.seed, args.max_delay, args.dir, args.controller)
    print(report)
    for problem in report.problems:
        print("  " + problem, file=sys.stderr)
    print(
        json.dumps({"kills": report.kills, "acked": report.acked, "lost": report.lost, "corrupted": report.corrupted})
    )
    return 0 if not report.problems and report.lost == 0 and report.corrupted == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
