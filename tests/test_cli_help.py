"""``companion --help`` and every command's ``--help``: complete, described, no sentence cut off."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys

from companion.cli import COMMANDS, build_parser, commands
from companion.simulator.app import build_parser as simulator_parser

# A help text that stops on one of these has lost its end (``--ca-file``: "... signed the broker's").
DANGLING = re.compile(r"(\b(the|a|an|of|and|or|that|its|their)|'s|,|:)$", re.IGNORECASE)


def _subparsers():  # type: ignore[no-untyped-def]
    parser = build_parser()
    return next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))


def test_every_command_has_a_line_in_the_list_and_a_description() -> None:
    found = list(commands(_subparsers()))
    names = {name for name, _, _ in found}
    assert {"games", "cards", "cards enroll", "hardware test", "kiosk", "leaderboard"} <= names
    for name, parser, help_line in found:
        assert len(help_line.split()) >= 3, f"`companion {name}`: no real line in the command list: {help_line!r}"
        assert parser.description, f"`companion {name} --help` has no description"


def test_no_help_text_is_cut_off() -> None:
    texts = []
    for name, parser, help_line in commands(_subparsers()):
        texts.append((name, help_line))
        texts += [(f"{name} {'/'.join(a.option_strings) or a.dest}", a.help or "") for a in parser._actions]
    cut = [f"{where}: {text!r}" for where, text in texts if text and DANGLING.search(text.strip())]
    assert not cut, "\n".join(cut)


def test_the_dangling_check_catches_the_old_ca_file_text() -> None:
    assert DANGLING.search("mqtts: the CA certificate that signed the broker's")
    assert not DANGLING.search("mqtts: the CA certificate that signed the broker's certificate")


def test_companion_help_shows_the_simulator_options() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "companion", "--help"], capture_output=True, text=True, check=True, timeout=60
    ).stdout
    options = [s for a in simulator_parser()._actions for s in a.option_strings if s not in ("-h", "--help")]
    assert {"--players", "--game", "--end-at", "--seed", "--emulated-readers"} <= set(options)
    missing = [option for option in options if option not in out]
    assert not missing, f"companion --help does not show {missing}"
    assert "simulator options" in out and "COMMAND" in out


def test_the_simulator_options_still_start_the_simulator_parser() -> None:
    """The listed options are the simulator's own: its parser takes them (no second copy to drift)."""
    args = simulator_parser().parse_args(["--players", "red,blue", "--end-at", "3", "--seed", "7"])
    assert (args.players, args.end_at, args.seed, args.size) == ("red,blue", 3, 7, "1280x800")


def test_no_command_prints_pygame_s_banner(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A newcomer's ``companion doctor`` (it imports pygame for the display check) shows the checks, not
    "pygame-ce 2.5 (SDL ...)" above them, even where the environment does not hide it."""
    import os

    env = {k: v for k, v in os.environ.items() if k != "PYGAME_HIDE_SUPPORT_PROMPT"}
    env["COMPANION_STATE_DIR"] = str(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "companion", "doctor"], capture_output=True, text=True, env=env, timeout=60
    )
    assert "platform" in done.stdout  # it ran its checks
    assert "pygame-ce" not in done.stdout + done.stderr


def test_a_sub_command_does_not_build_the_simulator_s_help() -> None:
    """Only ``companion --help`` (or no command) lists the simulator's options: a sub-command does not
    import the simulator to build a text it never shows (every command started 70 ms later)."""
    code = (
        "import sys; from companion.cli import main; code = main(['board', 'check']); "
        "print('companion.simulator.app' in sys.modules, code)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip().splitlines()[-1] == "False 0", done.stdout + done.stderr
    shown = subprocess.run([sys.executable, "-m", "companion", "--help"], capture_output=True, text=True, timeout=60)
    assert "--players" in shown.stdout and "--emulated-readers" in shown.stdout  # still listed where people look


def test_each_command_builds_from_its_own_module_alone() -> None:
    # ``companion CMD`` registers only COMMANDS[CMD]'s module: the map is what the modules really add,
    # and a command's parser built alone is the one in the whole list (same options, same help).
    whole = {name: parser for name, parser, _ in commands(_subparsers()) if " " not in name}
    assert set(COMMANDS) == set(whole)
    for name, module in COMMANDS.items():
        alone = build_parser(simulator_help=False, only=module)
        sub = next(a for a in alone._actions if isinstance(a, argparse._SubParsersAction))
        assert name in sub.choices and set(COMMANDS[n] for n in sub.choices) == {module}
        assert sub.choices[name].format_help() == whole[name].format_help()
