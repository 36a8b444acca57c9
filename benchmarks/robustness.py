"""Robustness campaign: thousands of generated bad inputs per interface, counted.

    .venv/bin/python benchmarks/robustness.py [--size 10000] [--seed 1] [--no-cli]

Four interfaces: ``companion play`` for On The Way and for Auf Achse (bad script lines), and the
board / deck TOML files of both games (bad data files, as ``companion board check`` and the loaders
read them). For each, ``size`` bad inputs are generated from the golden scripts and the reference
files by seeded mutations, one class of fault each (encoding, syntax, limits, types, typos, unknown
names, missing fields, duplicates, deep nesting, other game's files, too-small decks...).

Counted, all of which must be 0:

* ``tracebacks`` — an exception left the interface (the play loop, ``check_files``, a loader);
* ``hangs`` — one input took longer than ``HANG_SECONDS``;
* ``accepted`` — a bad input was silently accepted (a play line answered ``ok: true``; a data file
  with no problem reported, or a loader that returned);
* ``internal`` — a play line answered with the last-resort ``internal`` error (a class not fixed);
* ``diverged`` — the valid lines of the golden game, interleaved with the bad lines, did not give
  byte for byte the answers they give alone (a refused line changed the game);
* ``mislocated`` — the problem of a mutated data line was not reported on that line (TOML lines).

With the CLI check (default), the whole play campaign also runs once through ``python -m companion
play`` as a subprocess: exit 0, empty stderr, one line per command. ``tests/robustness`` runs this
module at a small size.

Last full run (``--size 10000 --seed 1``, CLI included): 40 000 bad inputs in 407 s; for each of the
four interfaces tracebacks 0, hangs 0, accepted 0, internal 0, diverged 0, mislocated 0 (18-32
fault classes each).

Issue 20's campaigns (``benchmarks/hostile.py``: data-set zips, the kiosk's environment, hardware TOML
bounds, broker messages to the board's model and screen, journal media faults) run after these,
``--hostile-size`` inputs each (default ``--size`` / 5); ``--hostile-only`` runs only them and
``--quick`` runs everything small in about 10 s. Last runs (2026-12-01, a loaded 2-core machine):
``--hostile-only --hostile-size 1000 --seed 1``: 5 180 inputs in 155 s, every count 0 on all five
interfaces; environment, hardware and broker campaigns at 10 000 inputs each (seed 2): every count 0.
"""

from __future__ import annotations

import argparse
import io
import json
import random
import subprocess
import sys
import tempfile
import time
import tomllib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from companion import games  # noqa: E402
from companion.cli.play import run_script  # noqa: E402
from companion.engine.errors import DataError  # noqa: E402
from companion.games.setup import GameSetup  # noqa: E402

HANG_SECONDS = 2.0
QUICK_SIZE = 15  # --quick: every campaign small (the issue-20 ones: hostile.QUICK), in < 15 s
GOLDEN: dict[str, tuple[Path, tuple[str, ...], dict[str, Any]]] = {
    "on-the-way": (ROOT / "tests/otw/golden/three-players-end-at-4.jsonl", ("red", "blue", "green"), {"end_at": 4}),
    "auf-achse": (ROOT / "tests/aa/golden/two-players.jsonl", ("red", "blue"), {"seed": 7}),
}
# Every field name a command of either game has: a typo must not land on one of them.
FIELDS = {"player", "action", "card", "marker", "to", "from", "trucks", "city", "building", "space", "value",
          "size", "sign", "level"}  # fmt: skip
OPTIONAL = {"from", "trucks", "value"}  # fields a command may leave out
NAME_FIELDS = {"card", "to", "from", "city", "space"}
INT_FIELDS = {"marker", "trucks", "value", "level"}


@dataclass
class Tally:
    """The counts of one interface."""

    interface: str
    inputs: int = 0
    tracebacks: int = 0
    hangs: int = 0
    accepted: int = 0
    internal: int = 0
    diverged: int = 0
    mislocated: int = 0
    classes: Counter[str] = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)

    def fail(self, kind: str, example: str) -> None:
        setattr(self, kind, getattr(self, kind) + 1)
        if len(self.examples) < 5:
            self.examples.append(f"{kind}: {example[:300]}")

    @property
    def clean(self) -> bool:
        return not (self.tracebacks or self.hangs or self.accepted or self.internal or self.diverged or self.mislocated)

    def line(self) -> str:
        return (
            f"{self.interface:<22} inputs {self.inputs:>6}  tracebacks {self.tracebacks}  hangs {self.hangs}  "
            f"accepted {self.accepted}  internal {self.internal}  diverged {self.diverged}  "
            f"mislocated {self.mislocated}  ({len(self.classes)} classes)"
        )


# -- play: bad script lines ------------------------------------------------------------------------


def _typo(key: str, rng: random.Random, avoid: frozenset[str] = frozenset()) -> str:
    while True:
        choice = rng.randrange(5)
        if choice == 0:
            new = key + "s"
        elif choice == 1 and len(key) > 2:
            i = rng.randrange(len(key) - 1)
            new = key[:i] + key[i + 1] + key[i] + key[i + 2 :]
        elif choice == 2:
            new = key.upper()
        elif choice == 3:
            new = key[:-1] if len(key) > 1 else key + "x"
        else:
            new = rng.choice(["trucs", "cards", "plyer", "mraker", "colour", "extra", "xx"])
        if new != key and new not in FIELDS and new not in avoid:
            return new


def _dump(data: object) -> bytes:
    return json.dumps(data, ensure_ascii=False).encode("utf-8")


def bad_line(command: dict[str, Any], rng: random.Random) -> tuple[str, bytes, str | None]:
    """(class, line, the field the error must name or None) for a golden ``command``: always bad."""
    keys = [k for k in command if k != "action"]
    kind = rng.randrange(20)
    data = dict(command)
    if kind == 0:
        key = _typo(rng.choice(keys or ["action"]), rng)
        data[key] = rng.choice([5, "x", True, [1], {"a": 1}, 0])
        return "typo field", _dump(data), key
    if kind == 1 and keys:
        key = rng.choice(keys)
        data[key] = rng.choice([[], {}, 1.5, True, [key]] + ([] if key in INT_FIELDS else [7, -1]) + (
            ["1", "one"] if key in INT_FIELDS else []))  # fmt: skip
        return "wrong type", _dump(data), key
    if kind == 2:
        data["action"] = rng.choice(["fly", "", "PASS", "take", 5, None, ["pass"], "undo_"])
        return "unknown action", _dump(data), "action"
    if kind == 3:
        required = [k for k in keys if k not in OPTIONAL and not (k == "player" and command["action"] == "start")]
        if required:
            del data[rng.choice(required)]
            return "missing field", _dump(data), None
        data["action"] = "fly"
        return "unknown action", _dump(data), "action"
    if kind == 4:
        names = [k for k in keys if k in NAME_FIELDS]
        key = rng.choice(names) if names else "player"
        data[key] = rng.choice(["Atlantis", "ZZ99", "C9999", "E99", "Hamburg-Nowhere#1", "purple", "é" * 3])
        if "player" not in command and key == "player":
            data["action"] = "fly"
            return "unknown action", _dump(data), "action"
        return "unknown name", _dump(data), None
    if kind == 5:
        ints = [k for k in keys if k in INT_FIELDS]
        key = rng.choice(ints) if ints else _typo("marker", rng)
        data[key] = rng.choice([-1, -(10**6), 10**6, 10**17, 0, 99]) if ints else 1
        if not ints:
            return "typo field", _dump(data), key
        return "number out of range", _dump(data), None
    if kind == 6:
        digits = rng.choice([19, 100, 4301, 10_000, 50_000])
        key = rng.choice(keys or ["marker"])
        text = _dump(data)
        line = text[:-1] + b', "' + key.encode() + b'_n": ' + b"9" * digits + b"}"
        return "huge integer", line, None
    if kind == 7:
        key = rng.choice(keys or ["card"])
        line = _dump({**data, key: "SURROGATE"}).replace(b"SURROGATE", rng.choice([b"\\ud800", b"B\\udfff1"]))
        return "lone surrogate", line, key
    if kind == 8:
        depth = rng.choice([17, 100, 1000, 10_000, 30_000])
        key = rng.choice(keys or ["card"])
        return "deep nesting", _dump(data)[:-1] + f', "{key}x": '.encode() + b"[" * depth + b"]" * depth + b"}", None
    if kind == 9:
        raw = _dump(data)
        i = rng.randrange(1, len(raw))
        return (
            "invalid UTF-8",
            raw[:i] + rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xc0\xaf", b"\x80"]) + raw[i:],
            None,
        )
    if kind == 10:
        constant = rng.choice([b"NaN", b"Infinity", b"-Infinity"])
        return "NaN", _dump(data)[:-1] + b', "value": ' + constant + b"}", None
    if kind == 11:
        key = rng.choice(keys or ["action"])
        raw = _dump(data)
        return "duplicate key", raw[:-1] + b", " + _dump({key: data.get(key, 1)})[1:], key
    if kind == 12:
        raw = _dump(data)
        return "truncated JSON", raw[: rng.randrange(1, len(raw) - 1)], None
    if kind == 13:
        return "not an object", rng.choice([b"[]", b"1", b'"pass"', b"null", b"true", b"[{}]", b"-0.5e3"]), None
    if kind == 14:
        junk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 80))).replace(b"\n", b"").replace(b"\r", b"")
        return "random bytes", b"{" + junk, None
    if kind == 15:
        key = rng.choice(keys or ["card"])
        return "over-long line", _dump({**data, key: "x" * 70_000}), None
    if kind == 16:
        key = _typo(rng.choice(keys or ["card"]), rng)
        return "typo field", _dump({**data, key: None, "zz": 1}), key if key < "zz" else "zz"
    if kind == 17:
        return "float number", _dump({**data, rng.choice(keys or ["marker"]): rng.choice([1e308, -0.0, 2.5])}), None
    if kind == 18:
        return (
            "bad JSON syntax",
            rng.choice([b"{'action': 'pass'}", b'{"action": pass}', b"{,}", b'{"a" 1}', b"}"]),
            None,
        )
    data["player"] = rng.choice(["purple", "RED", " red", "", 7])
    if "player" not in command:
        data["action"] = "fly"
        return "unknown action", _dump(data), "action"
    return "bad player", _dump(data), None


def play_campaign(game_name: str, size: int, seed: int, cli: bool = True) -> Tally:
    """``size`` bad lines spread over the golden game of ``game_name``; see the module docstring."""
    tally = Tally(f"play {game_name}")
    path, colours, options = GOLDEN[game_name]
    golden = path.read_text(encoding="utf-8").splitlines()
    commands = [json.loads(line) for line in golden]
    rng = random.Random(seed)
    plugin = games.get(game_name)
    alone = io.StringIO()
    run_script(plugin, plugin.new_game(GameSetup.with_files(game_name, colours, **options)), golden, alone)
    expected = alone.getvalue().split("\n")[:-1]

    # Bad lines interleaved with the golden ones: (is_bad, class, line, field)
    script: list[tuple[bool, str, bytes, str | None]] = []
    per_gap = [0] * (len(golden) + 1)
    for _ in range(size):
        per_gap[rng.randrange(len(per_gap))] += 1
    for i in range(len(golden) + 1):
        for _ in range(per_gap[i]):
            near = commands[min(i, len(commands) - 1)] if rng.random() < 0.8 else rng.choice(commands)
            script.append((True, *bad_line(near, rng)))
        if i < len(golden):
            script.append((False, "golden", golden[i].encode("utf-8"), None))
    tally.inputs = size

    game = plugin.new_game(GameSetup.with_files(game_name, colours, **options))
    valid_out: list[str] = []
    for is_bad, kind, line, must_name in script:
        out = io.StringIO()
        started = time.perf_counter()
        try:
            run_script(plugin, game, [line], out)
        except Exception as exc:
            tally.fail("tracebacks", f"{kind}: {type(exc).__name__}: {exc} <- {line[:200]!r}")
            continue
        if time.perf_counter() - started > HANG_SECONDS:
            tally.fail("hangs", f"{kind}: {line[:200]!r}")
        answers = out.getvalue().split("\n")[:-2]  # then the state line, then the end of the text
        if not is_bad:
            valid_out.extend(answers)
            continue
        tally.classes[kind] += 1
        if len(answers) != 1:
            tally.fail("accepted", f"{kind}: {len(answers)} answers <- {line[:200]!r}")
            continue
        result = json.loads(answers[0])
        if result.get("ok") is not False:
            tally.fail("accepted", f"{kind}: {answers[0][:200]} <- {line[:200]!r}")
        elif result["error"].get("rule") == "internal":
            tally.fail("internal", f"{kind}: {answers[0][:200]} <- {line[:200]!r}")
        elif must_name is not None and result["error"].get("field") != must_name:
            tally.fail("accepted", f"{kind}: field {must_name!r} not named: {answers[0][:200]} <- {line[:200]!r}")
    final = io.StringIO()
    run_script(plugin, game, [], final)
    valid_out.append(final.getvalue()[:-1])
    if valid_out != expected:
        first = next((i for i, (a, b) in enumerate(zip(valid_out, expected, strict=False)) if a != b), len(expected))
        tally.fail("diverged", f"golden line {first + 1} answers differently with bad lines around it")
    if cli:
        _play_cli(tally, game_name, colours, options, script, expected)
    return tally


def _play_cli(
    tally: Tally, game_name: str, colours: tuple[str, ...], options: dict[str, Any],
    script: list[tuple[bool, str, bytes, str | None]], expected: list[str],
) -> None:  # fmt: skip
    """The same campaign through ``python -m companion play``, one process: no traceback, no hang."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "campaign.jsonl"
        path.write_bytes(b"\n".join(line for _, _, line, _ in script) + b"\n")
        argv = [sys.executable, "-m", "companion", "play", "--game", game_name, "--players", ",".join(colours),
                "--script", str(path)]  # fmt: skip
        if "end_at" in options:
            argv += ["--end-at", str(options["end_at"])]
        if "seed" in options:
            argv += ["--seed", str(options["seed"])]
        try:
            proc = subprocess.run(argv, capture_output=True, timeout=600, cwd=ROOT)
        except subprocess.TimeoutExpired:
            tally.fail("hangs", "the CLI run did not end in 600 s")
            return
    if proc.returncode != 0 or proc.stderr:
        tally.fail("tracebacks", f"CLI exit {proc.returncode}: {proc.stderr.decode('utf-8', 'replace')[-300:]}")
    lines = proc.stdout.decode("utf-8").split("\n")[:-1]
    if len(lines) != len(script) + 1:
        tally.fail("accepted", f"CLI: {len(lines)} output lines for {len(script)} commands")
    valid = [line for (is_bad, *_), line in zip(script, lines, strict=False) if not is_bad] + lines[-1:]
    if valid != expected:
        tally.fail("diverged", "CLI: the golden lines answer differently with bad lines around them")


# -- data files: bad board / deck TOML ---------------------------------------------------------------

GAME_FILES = {
    "on-the-way": ("board", "contracts", "events"),
    "auf-achse": ("board", "contracts", "events"),  # the events role holds the action cards
}
REQUIRED = {"id", "from", "to", "tier", "kind", "effect", "name", "x", "y", "between", "distance", "trucks",
            "pay", "goods", "payout", "costs", "spaces", "game", "players_2", "players_3", "players_4"}  # fmt: skip
ENUM_OR_CITY = {"from", "to", "tier", "kind", "effect", "game"}
NO_LINE_CHECK = {"name"}  # a renamed city is reported where it is used (roads, set-up), not where named


def toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, float):
        return (
            "nan" if value != value else ("inf" if value > 0 else "-inf") if abs(value) == float("inf") else repr(value)
        )
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(value)


def _key_lines(text: str) -> list[tuple[int, str, object]]:
    """(line index, key, value) of every one-line ``key = value`` of a TOML text."""
    found = []
    for i, line in enumerate(text.split("\n")):
        if "=" not in line or line.lstrip().startswith("#"):
            continue
        try:
            parsed = tomllib.loads(line)
        except tomllib.TOMLDecodeError:
            continue
        if len(parsed) == 1:
            ((key, value),) = parsed.items()
            if not isinstance(value, dict):
                found.append((i, key, value))
    return found


def _bad_value(key: str, value: object, rng: random.Random) -> tuple[str, str]:
    """(class, TOML text) of a value that is wrong for ``key`` whatever the rest of the file says."""
    choice = rng.randrange(8)
    if choice == 0:
        return "huge integer", "1" * rng.choice([30, 5000])
    if choice == 1:
        depth = rng.choice([9, 50, 2000, 100_000])
        return "deep nesting", "[" * depth + "]" * depth
    if choice == 2:
        return "wrong type", toml_value(rng.choice([{"a": 1}, [[1], [2]]]))
    if isinstance(value, bool):
        return "wrong type", toml_value(rng.choice(["yes", 1, [True]]))
    if isinstance(value, int | float) and key in ("x", "y"):
        return "out of range", toml_value(rng.choice([-0.1, 1.5, float("nan"), float("inf"), 10**23, "0.5", True]))
    if isinstance(value, int):
        bad: list[object] = [-1, -500, 10**23, 10**12, "5", 2.5, True, [1], float("nan")]
        return "absurd number", toml_value(rng.choice(bad))
    if isinstance(value, str):
        bad = [42, True, [], "", "x" * 300, 1.5]
        if key in ENUM_OR_CITY:
            bad += ["Atlantis", "cheap", "chess"]
        return "bad text", toml_value(rng.choice(bad))
    if isinstance(value, list):
        if key == "triangles":
            return "bad list", toml_value(rng.choice([[0], [999], ["a"], "1", [1, 1]]))
        if key == "costs":
            return "bad list", toml_value(rng.choice([[], [1, 2], [500, 400, 300, 200, 100], ["a"], [10**23] * 5]))
        return "bad list", toml_value(rng.choice([[], "Bremen", [1, 2], ["Atlantis", "Nowhere"], [[]], ["x" * 300]]))
    return "wrong type", "{a = 1}"


def bad_data_file(text: str, rng: random.Random) -> tuple[str, str, int | None]:
    """(class, mutated text, the 1-based line the problem must be on, or None): always a bad file."""
    lines = text.split("\n")
    keyed = _key_lines(text)
    kind = rng.randrange(10)
    if kind <= 3:  # a bad value, after a comment holding line separators that splitlines would count
        i, key, value = rng.choice(keyed)
        cls, new = _bad_value(key, value, rng)
        shift = rng.random() < 0.3
        lines[i] = f"{key} = {new}"
        if shift:
            lines.insert(0, "# a comment with\u2028line\u2029separators\u2028")
            i += 1
        where = None if key in NO_LINE_CHECK and cls not in ("huge integer", "deep nesting") else i + 1
        return cls + (" (U+2028 above)" if shift else ""), "\n".join(lines), where
    if kind == 4:  # a misspelled key
        i, key, value = rng.choice(keyed)
        avoid = frozenset(k for _, k, _ in keyed)
        lines[i] = f"{_typo(key, rng, avoid)} = {toml_value(value)}"
        return "typo key", "\n".join(lines), i + 1
    if kind == 5:  # a required key deleted
        candidates = [(i, k) for i, k, _ in keyed if k in REQUIRED]
        i, _ = rng.choice(candidates)
        del lines[i]
        return "missing key", "\n".join(lines), None
    if kind == 6:  # invalid UTF-8 or a NUL or a syntax error on one line
        i = rng.choice([i for i, line in enumerate(lines) if line.strip() and not line.lstrip().startswith("#")])
        junk = rng.choice(["\udcff", "\x00", "= = =", "[[[", 'x = "unterminated', "[board]\n[board]", "\x7f"])
        lines[i] = junk + lines[i]
        return "syntax / encoding", "\n".join(lines), None
    if kind == 7:  # a duplicated block: duplicate id, city, road
        starts = [i for i, line in enumerate(lines) if line.startswith("[[")]
        a = rng.randrange(len(starts))
        end = starts[a + 1] if a + 1 < len(starts) else len(lines)
        block = lines[starts[a] : end]
        return "duplicate block", "\n".join([*lines, "", *block]), None
    if kind == 8:  # an unknown section
        return (
            "unknown section",
            text + rng.choice(["\n[[contract]]\nid = 1\n", "\n[extra]\na = 1\n", "\ntitle = 'x'\n"]),
            None,
        )
    # most blocks of one section removed: an empty or too-small deck, a board without roads
    section = rng.choice(sorted({line[2:-2] for line in lines if line.startswith("[[") and line.endswith("]]")}))
    keep = 0 if section == "actions" else rng.choice([0, 1, 2])  # Auf Achse reshuffles any action deck (AA-12)
    out, seen, skipping = [], 0, False
    for line in lines:
        if line.startswith("["):
            skipping = False
            if line == f"[[{section}]]":
                seen += 1
                skipping = seen > keep
        if not skipping:
            out.append(line)
    if seen <= keep:
        return "unknown section", text + "\n[[contract]]\nid = 1\n", None
    return f"{section} cut to {keep}", "\n".join(out) + ("\n" + section + " = []\n" if keep == 0 else ""), None


def data_campaign(game_name: str, size: int, seed: int) -> Tally:
    """``size`` mutated data files (one of the game's three files, the other two as shipped)."""
    tally = Tally(f"data {game_name}")
    plugin = games.get(game_name)
    references = {role.field: role.reference for role in plugin.data_roles}
    texts = {name: path.read_text(encoding="utf-8") for name, path in references.items()}
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(size):
            role = rng.choice(GAME_FILES[game_name])
            kind, text, line = bad_data_file(texts[role], rng)
            if n % 97 == 0:  # now and then: a device, a directory, the other game's file
                kind, text, line = "not a data file", "", None
            tally.inputs += 1
            tally.classes[kind] += 1
            path = Path(tmp) / f"{n}.{role}.toml"
            if kind == "not a data file":
                choice = (n // 97) % 3
                path = [Path("/dev/zero"), Path(tmp), _other_game_file(game_name, role)][choice]
            else:
                path.write_bytes(text.encode("utf-8", "surrogateescape"))
            paths = {**references, role: path}
            started = time.perf_counter()
            try:
                problems = plugin.check_files([paths["board"], paths["contracts"], paths["events"]]).problems
            except Exception as exc:
                tally.fail("tracebacks", f"{kind}: check: {type(exc).__name__}: {exc}")
                continue
            try:
                setup = GameSetup.with_files(game_name, plugin.colours[:2], **paths)
                plugin.new_game(setup)
                loaded = True
            except (DataError, ValueError):
                loaded = False
            except Exception as exc:
                tally.fail("tracebacks", f"{kind}: load: {type(exc).__name__}: {exc}")
                continue
            if time.perf_counter() - started > HANG_SECONDS:
                tally.fail("hangs", f"{kind} in {role}")
            if not problems:
                tally.fail("accepted", f"{kind} in {role}: no problem reported")
            elif loaded and not _per_player_count_only(problems):
                tally.fail("accepted", f"{kind} in {role}: the game loaded it: {problems[0]}")
            if line is not None and problems and not any(_line_of(p, path) == line for p in problems):
                tally.fail("mislocated", f"{kind} in {role}: wanted line {line}, got {problems[:2]}")
            if path.parent == Path(tmp) and path.is_file():
                path.unlink()
    return tally


def _per_player_count_only(problems: tuple[str, ...]) -> bool:
    """Deck-size problems name a player count: a 2-player game may still load such a deck."""
    return all(" players: " in p for p in problems)


def _line_of(problem: str, path: Path) -> int | None:
    prefix = f"{path}:"
    if not problem.startswith(prefix):
        return None
    number = problem[len(prefix) :].split(":", 1)[0]
    return int(number) if number.isdigit() else None


def _other_game_file(game_name: str, role: str) -> Path:
    other = next(name for name in GAME_FILES if name != game_name)
    return next(r.reference for r in games.get(other).data_roles if r.field == role)


# -- the report ----------------------------------------------------------------------------------------


def run(size: int, seed: int = 1, cli: bool = True) -> list[Tally]:
    tallies: list[Tally] = []
    for n, name in enumerate(GOLDEN):
        tallies.append(play_campaign(name, size, seed + n, cli=cli))
    for n, name in enumerate(GAME_FILES):
        tallies.append(data_campaign(name, size, seed + 10 + n))
    return tallies


def run_hostile(size: int | None, seed: int = 1) -> list[Any]:
    """Issue 20's campaigns (``benchmarks/hostile.py``): data-set zips, the kiosk's environment,
    hardware TOML bounds, broker messages, journal media faults. ``size`` None: the quick sizes."""
    import hostile

    return [campaign(hostile.QUICK[campaign.__name__] if size is None else size, seed + 20 + n)
            for n, campaign in enumerate(hostile.CAMPAIGNS)]  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=10_000, help="bad inputs per interface (default 10000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-cli", action="store_true", help="skip the subprocess run of companion play")
    parser.add_argument("--hostile-size", type=int, default=None,
                        help="inputs per issue-20 campaign (default: --size / 5)")  # fmt: skip
    parser.add_argument("--quick", action="store_true", help="every campaign at a small size, in < 15 s")
    parser.add_argument("--hostile-only", action="store_true", help="only issue 20's campaigns (hostile.py)")
    args = parser.parse_args(argv)
    if args.quick:
        args.size, args.no_cli = QUICK_SIZE, True
    started = time.perf_counter()
    tallies: list[Any] = [] if args.hostile_only else run(args.size, args.seed, cli=not args.no_cli)
    tallies += run_hostile(None if args.quick else args.hostile_size or max(args.size // 5, 1), args.seed)
    for tally in tallies:
        print(tally.line())
        for example in tally.examples:
            print("    " + example)
    total = sum(t.inputs for t in tallies)
    print(f"{total} bad inputs in {time.perf_counter() - started:.0f} s; "
          f"{'all clean' if all(t.clean for t in tallies) else 'FAILURES'}")  # fmt: skip
    return 0 if all(t.clean for t in tallies) else 1


def classes(tallies: list[Tally]) -> Iterator[tuple[str, str, int]]:
    for tally in tallies:
        for kind, count in sorted(tally.classes.items()):
            yield tally.interface, kind, count


if __name__ == "__main__":
    sys.exit(main())
