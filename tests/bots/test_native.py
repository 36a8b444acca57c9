"""The compiled playout kernel (setup.py, mypyc) plays the same games as its Python sources, and is used
only while it was compiled from the sources beside it (``bots/native.py``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.games.on_the_way.bots import native
from tests.bots.helpers import fake_kernel_install

# Plays complete kernel games from the set-up with the greedy policy (what every playout runs) and
# prints which build ran and a hash of every action and the final scores.
GAMES = """
import hashlib, random
from companion.games.on_the_way.bots import native
from tests.bots.helpers import fake_kernel_install
from companion.games.on_the_way.bots.kernel import Kernel
from companion.games.on_the_way.bots.policy import policy_action
from companion.games.on_the_way.data import load_reference
from companion.games.on_the_way.engine import GameConfig
from companion.games.on_the_way.engine.state import initial_state

def canonical(value):  # a set's order differs between processes (string hashing): sort them
    if isinstance(value, frozenset):
        return ("set", sorted(map(repr, value)))
    if isinstance(value, tuple):
        return tuple(canonical(v) for v in value)
    return value


board, deck = load_reference()
digest = hashlib.sha256()
for players in (2, 3, 4):
    start = initial_state(GameConfig(board, deck, ("red", "blue", "green", "yellow")[:players]))
    for seed in range(25):
        k = Kernel.from_state(start)
        rng = random.Random(seed)
        while not k.finished:
            action = policy_action(k, rng)
            digest.update(repr(action).encode())
            k.step(action)
        digest.update(repr(canonical((k.scores(), k.snapshot()))).encode())
print(native.BUILD)
print(digest.hexdigest())
"""


def _play(pure: bool) -> tuple[str, str]:
    env = {k: v for k, v in os.environ.items() if k != native.PURE_ENV}
    if pure:
        env[native.PURE_ENV] = "1"
    done = subprocess.run(
        [sys.executable, "-c", GAMES], env=env, capture_output=True, text=True, timeout=300, check=True
    )
    build, digest = done.stdout.split("\n")[:2]
    return build, digest


def test_the_compiled_kernel_plays_the_same_games_as_its_python_sources() -> None:
    if native.why_not_compiled() is not None:
        pytest.skip(f"this install runs the kernel as {native.BUILD}: nothing compiled to compare")
    compiled_build, compiled = _play(pure=False)
    pure_build, pure = _play(pure=True)
    assert compiled_build == "compiled (mypyc)"
    assert pure_build.startswith("plain Python")
    assert compiled == pure


def test_a_compiled_kernel_runs_only_while_it_matches_its_sources(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    compiled = native.SUFFIX
    fake_kernel_install(tmp_path, stamped=False)
    assert "missing" in (native.why_not_compiled(tmp_path) or "")
    fake_kernel_install(tmp_path)
    assert native.why_not_compiled(tmp_path) is None
    # An edit or a checkout after the install: the compiled copy would run the old rules.
    (tmp_path / "policy.py").write_text("# policy, edited\n", encoding="utf-8")
    assert "sources changed" in (native.why_not_compiled(tmp_path) or "")
    fake_kernel_install(tmp_path)
    monkeypatch.setenv(native.PURE_ENV, "1")
    assert native.PURE_ENV in (native.why_not_compiled(tmp_path) or "")
    monkeypatch.delenv(native.PURE_ENV)
    (tmp_path / f"kernel{compiled}").unlink()
    assert "only policy compiled" in (native.why_not_compiled(tmp_path) or "")
    (tmp_path / f"policy{compiled}").unlink()
    assert "not compiled" in (native.why_not_compiled(tmp_path) or "")


def test_the_build_that_runs_is_the_one_the_selection_names() -> None:
    from companion.games.on_the_way.bots import kernel, policy

    compiled = native.why_not_compiled() is None
    expected = "compiled (mypyc)" if compiled else f"plain Python ({native.why_not_compiled()})"
    assert expected == native.BUILD
    for module in (kernel, policy):
        assert (Path(module.__file__ or "").suffix != ".py") is compiled


def test_an_edit_of_a_module_the_kernel_imports_also_counts(tmp_path: Path) -> None:
    """The compiled code relies on the types of the engine modules it imports (int fields of cards and
    state): an edit there, too, makes the compiled copy stale."""
    folder = tmp_path / "companion/games/on_the_way/bots"
    fake_kernel_install(folder)
    engine = tmp_path / "companion/games/on_the_way/engine/state.py"
    engine.parent.mkdir(parents=True)
    engine.write_text("TIME_END = 8\n", encoding="utf-8")
    importing = "from companion.games.on_the_way.engine.state import TIME_END\n"
    (folder / "kernel.py").write_text(importing, encoding="utf-8")
    (folder / native.stamp_name()).write_text(native.sources_digest(folder) + "\n", encoding="utf-8")
    assert engine in set(native.sources(folder))
    assert native.why_not_compiled(folder, environ={}) is None
    engine.write_text("TIME_END = 9\n", encoding="utf-8")
    assert "sources changed" in (native.why_not_compiled(folder, environ={}) or "")
    # A stamp is per Python: another interpreter's build beside this one's does not vouch for it.
    (folder / native.stamp_name(".cpython-399-x86_64-linux-gnu.so")).write_text(native.sources_digest(folder))
    assert "sources changed" in (native.why_not_compiled(folder, environ={}) or "")


def test_compiled_modules_that_do_not_load_give_way_to_the_sources(tmp_path: Path) -> None:
    """A copy of the package whose compiled modules lack their shared library (it lives outside the
    package): the plain-Python kernel runs, and says why."""
    if native.why_not_compiled() is not None:
        pytest.skip(f"this install runs the kernel as {native.BUILD}: nothing compiled to break")
    shutil.copytree(native.HERE.parents[2], tmp_path / "companion", ignore=shutil.ignore_patterns("__pycache__"))
    probe = (
        f"import sys; sys.path.insert(0, {str(tmp_path)!r})\n"
        "from companion.games.on_the_way.bots import kernel, native\n"
        "print(native.BUILD); print(kernel.__file__)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != native.PURE_ENV}
    done = subprocess.run(
        [sys.executable, "-S", "-c", probe], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    build, kernel_file = done.stdout.split("\n")[:2]
    assert build.startswith("plain Python (the compiled modules do not load")
    assert kernel_file == str(tmp_path / "companion/games/on_the_way/bots/kernel.py")
