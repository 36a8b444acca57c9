"""``companion play``: scripted play, one JSON command per line in, one JSON result per line out.

This interface is used by tools outside the repo; its flags, actions and field names are stable.
Every game plugs in through the registry (``companion.games``); the loop here is shared.

Besides the game's commands, two read-only queries change nothing and are not part of the game:
``{"action": "legal", "player": "red"}`` answers ``{"ok": true, "legal": {...}}`` (the legal
commands now, and where each piece may go), ``{"action": "view", "player": "red"}`` what that
player may see.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import stat
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, BinaryIO, TextIO

from companion import games
from companion.engine.errors import DataError, GameError, IllegalAction
from companion.engine.game import Game
from companion.engine.jsonio import MAX_LINE_BYTES, parse_command_line
from companion.games.base import unknown_field
from companion.games.protocol import GamePlugin
from companion.games.seats import BotPlayer, bot_player, check_bots, check_seats, parse_seats
from companion.games.setup import GameSetup
from companion.table.base import ADVICE_BUDGET_S

log = logging.getLogger(__name__)

QUERIES = ("legal", "view", "advise")
MAX_BOT_COMMANDS = 20_000  # a whole game of bots, with room; a loop past it stops (and says so)


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("play", help="play a scripted game: JSON commands in, JSON results out")
    p.add_argument(
        "--game", default=games.DEFAULT_GAME, help=f"one of: {', '.join(games.names())} (default {games.DEFAULT_GAME})"
    )
    p.add_argument(
        "--players",
        required=True,
        help="seat order, comma separated, e.g. red,blue[,green,yellow]; a seat played by the box: blue:bot "
        "(medium), blue:bot-easy, blue:bot-medium, blue:bot-hard",
    )
    p.add_argument("--board", type=Path, help="board TOML (default: the reference board)")
    p.add_argument("--contracts", type=Path, help="contracts TOML (default: the reference deck)")
    p.add_argument("--events", type=Path, help="event / action cards TOML (default: the reference deck)")
    p.add_argument(
        "--end-at", type=int, help="short game: the time-track position that ends it (games with a time track)"
    )
    p.add_argument("--seed", type=int, help="seed for the game's random state (games that roll dice)")
    p.add_argument(
        "--rule", action="append", default=[], metavar="NAME=VALUE", help="a house rule (see docs/rules-notes.md)"
    )
    p.add_argument("--script", required=True, help="file with one JSON command per line, or - for stdin")
    p.set_defaults(handler=run)


def house_rules(args: argparse.Namespace) -> dict[str, str]:
    rules: dict[str, str] = {}
    for item in args.rule:
        name, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"--rule wants NAME=VALUE, not {item!r}")
        rules[name.strip()] = value.strip()
    return rules


def setup_from_args(args: argparse.Namespace) -> GameSetup:
    """The ``GameSetup`` the flags describe (data paths made absolute, as the journal keeps them),
    with the seats the box plays (``red,blue:bot-hard``)."""
    colours, bots = parse_seats(args.players)
    check_seats(games.get(args.game), colours)
    return GameSetup.with_files(
        args.game,
        colours,
        board=data_file("--board", args.board),
        contracts=data_file("--contracts", args.contracts),
        events=data_file("--events", args.events),
        end_at=args.end_at,
        rules=house_rules(args),
        seed=args.seed,
        bots=bots,
    )


def data_file(flag: str, path: Path | None) -> Path | None:
    """A data file option: it must be a readable regular file (not a symlink loop, a directory, a
    device). ValueError says which option and why, as ``board check`` does."""
    if path is None:
        return None
    try:
        mode = os.stat(path).st_mode
        resolved = Path(path).resolve(strict=True)
    except (OSError, RuntimeError) as exc:  # ELOOP, ENOENT, EACCES; RuntimeError: a symlink loop (pathlib)
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise ValueError(f"{flag} {path}: cannot read it ({why})") from None
    if not stat.S_ISREG(mode):
        raise ValueError(f"{flag} {path}: cannot read it (not a regular file)")
    return resolved


def _query(
    plugin: GamePlugin, game: Game[Any], data: Mapping[str, Any], seed: int = 0, bots: Mapping[str, str] | None = None
) -> dict[str, Any] | None:
    """A read-only query line's answer, or None if the line is a game command (advice is
    deterministic given the run's ``seed``; its chance is against the run's ``bots`` and people)."""
    action = data.get("action")
    if action not in QUERIES:
        return None
    player = data.get("player")
    if player is not None and (not isinstance(player, str) or game.state.config.seat_of(player) is None):
        return {"ok": False, "error": {"rule": "input", "field": "player",
                                        "message": f"no player {player!r} at this table"}}  # fmt: skip
    unknown = sorted(set(data) - {"action", "player"})
    if unknown:
        return {"ok": False, "error": {"rule": "input", "field": unknown[0],
                                        "message": f"{action} takes only 'player', not {unknown[0]!r}"}}  # fmt: skip
    if action == "advise":  # like "legal", the player to move unless one is named
        history = (game.initial, game.applied(game.depth))  # the turn so far: no circles (docs/bots.md)
        advice = plugin.advise(game.state, player, budget_s=ADVICE_BUDGET_S, seed=seed, history=history, opponents=bots)
        return {"ok": True, "advice": advice}
    if action == "legal":
        return {"ok": True, "legal": plugin.legal(game.state, player)}
    return {"ok": True, "view": plugin.view_for(game.state, player)}


def script_lines(stream: BinaryIO) -> Iterator[bytes]:
    """The lines of a script read as bytes, decoded later one by one (a bad byte costs one line).

    Line breaks are ``\\n``, ``\\r\\n`` or ``\\r`` as in a text file. A line is read at most
    ``MAX_LINE_BYTES`` + 1 bytes at a time, so an endless line costs bounded memory: its first chunk
    is yielded (and refused as too long) and the rest is skipped up to the next line break.
    """
    limit = MAX_LINE_BYTES + 1
    while True:
        chunk = stream.readline(limit)
        if not chunk:
            return
        if len(chunk) == limit and not chunk.endswith(b"\n"):
            while True:  # the rest of an over-long line
                more = stream.readline(limit)
                if not more or more.endswith(b"\n"):
                    break
        yield from chunk.rstrip(b"\n").split(b"\r")


def _text_lines(stream: TextIO) -> Iterator[bytes]:
    for line in stream:  # a text stream (tests replace stdin with one): same lines as bytes
        yield from line.rstrip("\n").encode("utf-8", "surrogatepass").split(b"\r")


def play_bots(game: Game[Any], bot: BotPlayer | None, finished: Callable[[Any], bool]) -> int:
    """Let the bot seats act for as long as it is a bot's to act; returns how many commands they played.
    A bot plays by the same commands as a person (pushed, validated); none is ever refused, and a
    refusal would stop the bots (it is logged: a bug, not a game state)."""
    played = 0
    while bot is not None and not finished(game.state) and played < MAX_BOT_COMMANDS:
        command = bot(game.state)
        if command is None:
            return played  # a person's turn (or a card a person must scan)
        try:
            game.push(command)
        except IllegalAction as exc:
            log.error("a bot's command was refused (%s): %r", exc.rule, command)
            return played
        played += 1
    return played


def run_script(
    plugin: GamePlugin,
    game: Game[Any],
    lines: Iterable[bytes | str],
    out: TextIO,
    *,
    bots: Mapping[str, str] | None = None,
    seed: int = 0,
) -> dict[str, Any]:
    """Apply each non-blank line; write one result line per command and the final state line. Bot
    seats (``bots``: colour -> level) act whenever it is theirs to act, before the first line and after
    each one; their commands get no result lines (one line per command of the script).

    No exception leaves the loop: a line that is not a command gets an ``input`` error, a command
    the game refuses its rule's error, and anything unexpected an ``internal`` error line.
    """
    bot = bot_player(plugin, bots or {}, seed, game)
    play_bots(game, bot, plugin.finished)
    for raw in lines:
        if _blank(raw):
            continue
        try:
            text = _dumps(_result(plugin, game, raw, seed, bots))
        except RecursionError:
            text = _dumps({"ok": False, "error": {"rule": "input", "message": "not a command: nested too deeply"}})
        except Exception as exc:  # last resort, in addition to the checks in _result
            error = {"rule": "internal", "message": f"unexpected {type(exc).__name__} on this line; nothing changed"}
            text = _dumps({"ok": False, "error": error})
        out.write(text + "\n")
        out.flush()
        play_bots(game, bot, plugin.finished)
    final = {"state": plugin.state_to_json(game.state)}
    out.write(_dumps(final) + "\n")
    return final


def _blank(raw: bytes | str) -> bool:
    """Blank as a text line is (``str.strip``: also U+2028, U+0085...); undecodable bytes are not."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            return False
    return not raw.strip()


def _result(
    plugin: GamePlugin, game: Game[Any], raw: bytes | str, seed: int = 0, bots: Mapping[str, str] | None = None
) -> dict[str, Any]:
    try:
        data = parse_command_line(raw)
        answer = _query(plugin, game, data, seed, bots) if isinstance(data, Mapping) else None
        if answer is not None:
            return answer
        command = plugin.command_from_json(data)
        if isinstance(data, Mapping):
            typo = unknown_field(data, command, plugin.command_from_json, plugin.command_to_json)
            if typo is not None:
                raise typo
        events = game.push(command)
        return {"ok": True, "events": [plugin.event_to_json(e) for e in events]}
    except IllegalAction as exc:
        return {"ok": False, "error": exc.to_json()}
    except GameError as exc:  # a malformed command: names the field
        to_json = getattr(exc, "to_json", None)
        error = to_json() if callable(to_json) else {"rule": "input", "message": str(exc)}
        return {"ok": False, "error": error}


# Characters that JSON leaves raw but that line readers (``str.splitlines``, JavaScript) take for line
# breaks: escaped, so one result is always one line. They only ever occur inside JSON strings.
_LINE_BREAKS = {"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}
_LINE_BREAK_TABLE = str.maketrans(_LINE_BREAKS)


def _dumps(result: dict[str, Any]) -> str:
    text = json.dumps(result, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate got through: escape it rather than fail the write
        return json.dumps(result)
    return text.translate(_LINE_BREAK_TABLE)


def open_script(name: str) -> BinaryIO:
    """The script as a binary stream: ``-`` is stdin; a file must be a file or a pipe, not a device
    (``/dev/zero`` has no line breaks) or a directory."""
    if name == "-":
        return sys.stdin.buffer
    mode = os.stat(name).st_mode
    if not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)):
        raise OSError(f"{name} is not a regular file or a pipe")
    return open(name, "rb")


def run(args: argparse.Namespace) -> int:
    try:
        plugin = games.get(args.game)  # an unknown game: ValueError naming the games there are
        setup = setup_from_args(args)
        check_bots(plugin, setup.bots)
        game = plugin.new_game(setup)
    except (DataError, ValueError) as exc:
        print(f"companion play: {exc}", file=sys.stderr)
        return 2
    options: dict[str, Any] = {"bots": setup.bots, "seed": args.seed or 0}
    try:
        if args.script == "-" and not hasattr(sys.stdin, "buffer"):
            run_script(plugin, game, _text_lines(sys.stdin), sys.stdout, **options)
            return 0
        stream = open_script(args.script)
    except OSError as exc:
        print(f"companion play: cannot read the script: {exc}", file=sys.stderr)
        return 2
    try:
        run_script(plugin, game, script_lines(stream), sys.stdout, **options)
    except OSError as exc:
        print(f"companion play: cannot read the script: {exc}", file=sys.stderr)
        return 2
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()
    return 0
