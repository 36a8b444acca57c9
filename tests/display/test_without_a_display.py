"""Every window works without a Pi (issue 21 §2): with no display a window command says what is
wrong and how to fix it and exits non-zero instead of running invisibly in SDL's offscreen driver;
a command that needs the box's GPIO names the option that works on a laptop instead of ending in a
gpiozero traceback. The end-to-end cases run the real commands against the real SDL and gpiozero."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.display.visible import display_problem_after, display_problem_before

NOWHERE = (Path("/nonexistent/dri"), Path("/nonexistent/fb0"))


def test_no_display_no_console_is_a_problem_on_linux() -> None:
    assert display_problem_before({}, platform="linux", devices=NOWHERE) is not None
    assert display_problem_before({"DISPLAY": ":0"}, platform="linux", devices=NOWHERE) is None
    assert display_problem_before({"WAYLAND_DISPLAY": "wayland-0"}, platform="linux", devices=NOWHERE) is None
    assert display_problem_before({}, platform="darwin", devices=NOWHERE) is None


def test_a_driver_asked_for_by_name_is_left_to_sdl(tmp_path: Path) -> None:
    assert display_problem_before({"SDL_VIDEODRIVER": "dummy"}, platform="linux", devices=NOWHERE) is None
    fb = tmp_path / "fb0"
    fb.write_bytes(b"")
    assert display_problem_before({}, platform="linux", devices=(fb,)) is None  # a framebuffer console


def test_an_invisible_driver_is_refused_unless_asked_for() -> None:
    assert display_problem_after("offscreen", {}) is not None
    assert display_problem_after("dummy", {}) is not None
    assert display_problem_after("offscreen", {"SDL_VIDEODRIVER": "x11"}) is not None
    assert display_problem_after("dummy", {"SDL_VIDEODRIVER": "dummy"}) is None
    assert display_problem_after("x11", {}) is None
    assert display_problem_after("kmsdrm", {}) is None


def _run(args: list[str], env: dict[str, str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {**env, "COMPANION_STATE_DIR": str(tmp_path), "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    code = "import sys; from companion.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL)  # fmt: skip


def _no_display_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY")}
    env["DISPLAY"] = ":97"  # an X display nobody serves: SDL's X11 fails and it falls back, as on a bare server
    return env


@pytest.mark.parametrize(
    "args", [[], ["kiosk", "--windowed", "800x480"], ["leaderboard", "--broker", "mqtt://127.0.0.1:9"]]
)
def test_window_commands_without_a_display_say_so_and_exit(args: list[str], tmp_path: Path) -> None:
    done = _run(args, _no_display_env(), tmp_path)
    assert done.returncode != 0
    assert "invisibl" in done.stderr and "SDL_VIDEODRIVER=dummy" in done.stderr
    assert "Traceback" not in done.stderr


def test_asked_for_invisibility_still_runs(tmp_path: Path) -> None:
    """The tests' way (SDL_VIDEODRIVER=dummy): the leaderboard runs its seconds and takes its picture."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy"}
    shot = tmp_path / "board.png"
    done = _run(["leaderboard", "--broker", "mqtt://127.0.0.1:9", "--seconds", "0.5", "--screenshot", str(shot)],
                env, tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert shot.exists()


GPIO_LIBRARIES = ("lgpio", "RPi", "pigpio")


@pytest.mark.skipif(
    any(importlib.util.find_spec(m) is not None for m in GPIO_LIBRARIES), reason="this machine has a GPIO library"
)
@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["hardware", "test", "--seconds", "0"], "COMPANION_HARDWARE=emulated"),
        (["cards", "enroll", "--config", "COMPANION_REFERENCE", "--count", "1"], "COMPANION_HARDWARE=emulated"),
        (["setup-box", "run", "--game", "on-the-way"], "--input window"),
    ],
)
def test_gpio_commands_on_a_laptop_name_the_option_that_works(args: list[str], option: str, tmp_path: Path) -> None:
    from companion.hardware.config import REFERENCE

    config = tmp_path / "box.toml"
    config.write_text(REFERENCE.read_text(encoding="utf-8"), encoding="utf-8")  # enroll writes to it
    args = [str(config) if a == "COMPANION_REFERENCE" else a for a in args]
    env = {k: v for k, v in os.environ.items() if k != "COMPANION_HARDWARE"}
    done = _run(args, env, tmp_path)
    assert done.returncode == 1, done.stderr
    assert option in done.stderr
    assert "Traceback" not in done.stderr and "BadPinFactory" not in done.stderr
    assert config.read_text(encoding="utf-8") == REFERENCE.read_text(encoding="utf-8")  # nothing changed


BOARD = ["leaderboard", "--broker", "mqtt://127.0.0.1:9"]


@pytest.mark.parametrize(
    ("args", "env_language", "said"),
    [
        (["--language", "fr"], "", "--language 'fr' is not a language"),
        ([], "xx", "$COMPANION_LANGUAGE 'xx' is not a language"),
        ([*BOARD, "--language", "fr"], "", "--language 'fr' is not a language"),
        (BOARD, "xx", "$COMPANION_LANGUAGE 'xx' is not a language"),
    ],
)
def test_a_language_the_box_does_not_speak_is_refused_before_any_window(
    args: list[str], env_language: str, said: str, tmp_path: Path
) -> None:
    """The simulator and the leaderboard take ``--language``, else ``$COMPANION_LANGUAGE`` (the kiosk's
    setting): one they do not speak is named, with the ones they do, and nothing opens (exit 2)."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "COMPANION_LANGUAGE": env_language}
    done = _run(args, env, tmp_path)
    assert done.returncode == 2, done
    assert said in done.stdout + done.stderr and "en, cs, de, pl" in done.stdout + done.stderr


def test_the_simulator_speaks_companion_language_when_no_option_names_one(monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.table.messages import chosen_language as language_of

    monkeypatch.setenv("COMPANION_LANGUAGE", "PL ")
    assert language_of(None) == "pl" and language_of("de") == "de"
    monkeypatch.setenv("COMPANION_LANGUAGE", "")
    assert language_of(None) == "en"
