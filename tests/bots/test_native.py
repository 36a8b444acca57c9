"""The compiled playout kernel (setup.py, mypyc) plays the same games as its Python sources, and is used
only while it was compiled from the sources beside it (``companion/native.py``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion import native
from companion.games.on_the_way.bots import KERNEL_BUILD
from tests.bots.helpers import KERNEL, fake_kernel_install

# Plays complete kernel games from the set-up with the greedy policy (what every playout runs) and
# prints which build ran and a hash of every action and the final state. Odd seeds start from a laid-out
# face-up offer, so that the offer's refills (``reveal_refills``, OTW-9) run compiled too.
GAMES = """
import hashlib, random
from companion.games.on_the_way.bots import KERNEL_BUILD
from companion.games.on_the_way.bots.kernel import Kernel
from companion.games.on_the_way.bots.policy import policy_action
from companion.games.on_the_way.data import load_reference
from companion.games.on_the_way.engine import GameConfig, LayOut, apply
from companion.games.on_the_way.engine.state import OFFER_SIZE, initial_state

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
        rng = random.Random(seed)
        state = start
        if seed % 2:
            for card in rng.sample([c.id for c in deck.contracts], OFFER_SIZE[players]):
                state, _ = apply(state, LayOut(card))
        k = Kernel.from_state(state)
        while not k.finished:
            action = policy_action(k, rng)
            digest.update(repr((action, k.offer)).encode())
            k.step(action)
        digest.update(repr(canonical((k.scores(), k.snapshot()))).encode())
print(KERNEL_BUILD)
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


def _compiled_here() -> None:
    if native.why_not_compiled(KERNEL) is not None:
        pytest.skip(f"this install runs the kernel as {KERNEL_BUILD}: nothing compiled to check")


def test_the_compiled_kernel_plays_the_same_games_as_its_python_sources() -> None:
    _compiled_here()
    compiled_build, compiled = _play(pure=False)
    pure_build, pure = _play(pure=True)
    assert compiled_build == "compiled (mypyc)"
    assert pure_build.startswith("plain Python")
    assert compiled == pure


def test_a_compiled_kernel_runs_only_while_it_matches_its_sources(tmp_path: Path) -> None:
    none: dict[str, str] = {}
    fake_kernel_install(tmp_path, stamped=False)
    assert "missing" in (native.why_not_compiled(KERNEL, tmp_path, none) or "")
    folder = fake_kernel_install(tmp_path)
    assert native.why_not_compiled(KERNEL, tmp_path, none) is None
    # An edit or a checkout after the install: the compiled copy would run the old rules.
    (folder / "policy.py").write_text("# policy, edited\n", encoding="utf-8")
    assert "sources changed" in (native.why_not_compiled(KERNEL, tmp_path, none) or "")
    fake_kernel_install(tmp_path)
    assert native.PURE_ENV in (native.why_not_compiled(KERNEL, tmp_path, {native.PURE_ENV: "1"}) or "")
    assert native.why_not_compiled(KERNEL, tmp_path, {native.PURE_ENV: "0"}) is None
    (folder / f"kernel{native.SUFFIX}").unlink()
    assert "only policy compiled" in (native.why_not_compiled(KERNEL, tmp_path, none) or "")
    (folder / f"policy{native.SUFFIX}").unlink()
    assert "not compiled" in (native.why_not_compiled(KERNEL, tmp_path, none) or "")


def test_an_edit_of_a_module_the_kernel_imports_also_counts(tmp_path: Path) -> None:
    """The compiled code relies on the types of the engine modules it imports (int fields of cards and
    state): an edit there, too, makes the compiled copy stale."""
    folder = native.folder_of(KERNEL, tmp_path)
    folder.mkdir(parents=True)
    (folder / "kernel.py").write_text("from companion.games.on_the_way.engine.state import END\n", encoding="utf-8")
    engine = tmp_path / "companion/games/on_the_way/engine/state.py"
    engine.parent.mkdir(parents=True)
    engine.write_text("END = 8\n", encoding="utf-8")
    fake_kernel_install(tmp_path)
    assert engine in set(native.sources(KERNEL, tmp_path))
    assert native.why_not_compiled(KERNEL, tmp_path, {}) is None
    engine.write_text("END = 9\n", encoding="utf-8")
    assert "sources changed" in (native.why_not_compiled(KERNEL, tmp_path, {}) or "")
    # A stamp is per Python: another interpreter's build beside this one's does not vouch for it.
    other = folder / native.stamp_name(".cpython-399-x86_64-linux-gnu.so")
    other.write_text(native.sources_digest(KERNEL, tmp_path), encoding="utf-8")
    assert "sources changed" in (native.why_not_compiled(KERNEL, tmp_path, {}) or "")


def test_the_build_that_runs_is_the_one_the_selection_names() -> None:
    from companion.games.on_the_way.bots import kernel, policy

    reason = native.why_not_compiled(KERNEL)
    expected = "compiled (mypyc)" if reason is None else f"plain Python ({reason})"
    assert expected == KERNEL_BUILD
    for module in (kernel, policy):
        assert (Path(module.__file__ or "").suffix != ".py") is (reason is None)


def test_compiled_modules_that_do_not_load_give_way_to_the_sources(tmp_path: Path) -> None:
    """A copy of the package whose compiled modules lack their shared library (it lies outside the
    package): the plain-Python kernel runs, and says why."""
    _compiled_here()
    shutil.copytree(native.ROOT / "companion", tmp_path / "companion", ignore=shutil.ignore_patterns("__pycache__"))
    probe = (
        f"import sys; sys.path.insert(0, {str(tmp_path)!r})\n"
        "from companion.games.on_the_way.bots import KERNEL_BUILD, kernel\n"
        "print(KERNEL_BUILD); print(kernel.__file__)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != native.PURE_ENV}
    done = subprocess.run(
        [sys.executable, "-S", "-c", probe], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    build, kernel_file = done.stdout.split("\n")[:2]
    assert build.startswith("plain Python (the compiled modules do not load")
    assert kernel_file == str(native.folder_of(KERNEL, tmp_path) / "kernel.py")
