"""Issue 20, part 5: ``companion play``'s options are checked as strictly as its command lines:
each bad option is one clear line on stderr and exit 2, never a traceback, never a game."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from companion import games

BAD_PLAYERS = ["", "red", "red,blue,green,yellow,black", ":bot,blue", "red,purple", "Red,RED", "red,,blue",
               "red,red", "red,RED", " ,blue", "red,blue:", "red\u202e,blue", "red,blue:robot"]  # fmt: skip


def play(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "companion", "play", *args, "--script", "-"], input=b"",
                          capture_output=True, timeout=60)  # fmt: skip


@pytest.mark.parametrize("game", games.names())
@pytest.mark.parametrize("players", BAD_PLAYERS)
def test_bad_seats_are_refused_with_one_line(game: str, players: str) -> None:
    if players == "red,blue,green,yellow,black" and 5 in games.get(game).player_counts:
        players += ",white,orange,purple"  # more seats than any box has
    proc = play("--game", game, "--players", players)
    assert proc.returncode == 2 and proc.stdout == b"", proc.stdout[:200]
    err = proc.stderr.decode()
    assert err.startswith("companion play: ") and err.count("\n") == 1 and "Traceback" not in err


def test_every_seat_count_and_colour_of_the_box_plays() -> None:
    for name in games.names():
        plugin = games.get(name)
        for count in plugin.player_counts:
            proc = play("--game", name, "--players", ",".join(plugin.colours[:count]))
            assert proc.returncode == 0, proc.stderr


def test_a_data_file_that_is_a_symlink_loop_is_refused_as_board_check_refuses_it(tmp_path: Path) -> None:
    (tmp_path / "a.toml").symlink_to(tmp_path / "b.toml")
    (tmp_path / "b.toml").symlink_to(tmp_path / "a.toml")
    for flag in ("--board", "--contracts", "--events"):
        proc = play("--players", "red,blue", flag, str(tmp_path / "a.toml"))
        err = proc.stderr.decode()
        assert proc.returncode == 2 and "Traceback" not in err and "symbolic links" in err and flag in err
