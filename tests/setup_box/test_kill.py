"""The kill test: a forked child drives the wizard through the reference On The Way box and is
SIGKILLed at random moments; each time the saved progress holds at least every intent the child
had acknowledged (the state after exactly ``seq`` intents), and resuming finishes the box."""

from __future__ import annotations

import os
import random
import signal
import time
from pathlib import Path

from companion.games.digitise.model import Step, WizardState
from companion.games.digitise.profile import read_toml
from companion.setup_box.machine import start, step
from companion.setup_box.runner import WizardSession
from companion.setup_box.store import ProgressStore
from companion.setup_box.trace import owner_script
from companion.setup_box.writer import render
from tests.setup_box.conftest import normalised, reference

GAME = "on-the-way"


def _drive(state_dir: Path, name: str, cities: tuple[str, ...], script: list, ack: int) -> None:
    """The child: resume (or start), apply the rest of the script, acknowledge each saved intent."""
    session = WizardSession(state_dir, GAME, name, candidates=cities)
    for intent in script[session.state.seq :]:
        session.handle(intent)
        os.write(ack, session.state.seq.to_bytes(4, "big"))


def _kill_until_done(
    folder: Path,
    name: str,
    cities: tuple[str, ...],
    script: list,
    expected: list[WizardState],
    whole: float,
    rng: random.Random,
) -> tuple[int, int]:
    """Fork children that drive the wizard and SIGKILL each at a random moment until one finishes the
    box; after every death the saved progress holds every acknowledged intent. Returns (kills, lives)."""
    kills = 0
    lives = 0
    while True:
        lives += 1
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child
            code = 0
            try:
                os.close(read_end)
                _drive(folder, name, cities, script, write_end)
            except BaseException:
                code = 1
            finally:
                os._exit(code)
        os.close(write_end)
        time.sleep(rng.uniform(0.02, 0.5) * whole)
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        data = b""
        while chunk := os.read(read_end, 65536):
            data += chunk
        os.close(read_end)
        acked = max((int.from_bytes(data[i : i + 4], "big") for i in range(0, len(data), 4)), default=0)
        saved = ProgressStore(folder, GAME).load()
        assert saved is not None
        assert saved.seq >= acked, f"acknowledged {acked}, saved only {saved.seq}"
        assert saved == expected[saved.seq], f"life {lives}: the saved state is not the state after {saved.seq} intents"
        if os.WIFSIGNALED(status):
            kills += 1
        else:
            assert os.WEXITSTATUS(status) == 0
        if saved.step is Step.DONE:
            return kills, lives
        assert lives < 200


def test_sigkill_at_random_steps_loses_no_confirmed_entry(tmp_path: Path) -> None:
    ref = reference(GAME)
    board = read_toml(ref["board"])
    cities = tuple(c["name"] for c in board["cities"])
    name = board["board"]["name"]
    script, final = owner_script(GAME, ref)
    expected: list[WizardState] = [start(GAME, name, cities)]
    for intent in script:
        expected.append(step(expected[-1], intent))
    assert expected[-1] == final

    # How long one uninterrupted run takes on this machine: the kills land inside it, whatever its speed.
    t0 = time.perf_counter()
    _drive(tmp_path / "timing", name, cities, script, os.open(os.devnull, os.O_WRONLY))
    whole = time.perf_counter() - t0
    rng = random.Random(20261201)
    for attempt in range(4):
        # A machine busier while measuring than while killing lets the child finish first: then again,
        # in a fresh folder, with the kills twice as early (every invariant is checked each time).
        folder = tmp_path / f"attempt{attempt}"
        kills, lives = _kill_until_done(folder, name, cities, script, expected, whole, rng)
        print(f"{kills} kills in {lives} lives")
        if kills >= 3:
            break
        whole /= 2
    assert kills >= 3, "the child finished before it could be killed often enough"
    session = WizardSession(folder, GAME)
    assert session.resumed and session.state == final
    data_set = session.datasets.latest(GAME)
    assert data_set is not None and data_set.name == name
    assert normalised(dict(data_set.files)) == normalised(ref)
    assert render(final)  # the files render from the resumed state too
