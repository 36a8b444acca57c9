"""Issue 20's campaigns: hostile input and media faults per interface, counted (run by robustness.py).

Interfaces: data-set zips (``setup-box import`` and the store's list/show/export/delete around broken
data sets), the kiosk's environment and settings, broker messages (to the leaderboard's model and its
screen), hardware TOML with the new bounds, and journal media faults (bit flips and zeroed pages in the
main file and the ``-wal`` file at every offset class). Counted, all of which must be 0:

* ``tracebacks`` — an exception other than the interface's own clear error left it;
* ``hangs`` — one input took longer than ``HANG_SECONDS``;
* ``accepted`` — a bad input was silently accepted (imported, loaded, drawn as given, no warning);
* ``lost`` — acknowledged journal commands vanished without the journal reporting it;
* ``outside`` — bytes changed outside the state directory (or inside the store, after a refused import).
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import logging
import os
import random
import sys
import tempfile
import time
import warnings
import zipfile
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

HANG_SECONDS = 2.0


@dataclass
class Tally:
    """The counts of one interface."""

    interface: str
    inputs: int = 0
    tracebacks: int = 0
    hangs: int = 0
    accepted: int = 0
    lost: int = 0
    outside: int = 0
    classes: Counter[str] = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)

    def fail(self, kind: str, example: str) -> None:
        setattr(self, kind, getattr(self, kind) + 1)
        if len(self.examples) < 5:
            self.examples.append(f"{kind}: {example[:300]}")

    @property
    def clean(self) -> bool:
        return not (self.tracebacks or self.hangs or self.accepted or self.lost or self.outside)

    def line(self) -> str:
        return (
            f"{self.interface:<22} inputs {self.inputs:>6}  tracebacks {self.tracebacks}  hangs {self.hangs}  "
            f"accepted {self.accepted}  lost {self.lost}  outside {self.outside}  ({len(self.classes)} classes)"
        )

    def timed(self, kind: str, label: str, action: Callable[[], object]) -> tuple[bool, object]:
        """Run one input: (True, result) or (False, exception); a slow one counts as a hang."""
        self.inputs += 1
        self.classes[kind] += 1
        started = time.perf_counter()
        try:
            result: object = action()
            ok = True
        except Exception as exc:
            result, ok = exc, False
        if time.perf_counter() - started > HANG_SECONDS:
            self.fail("hangs", f"{kind}: {label}: {time.perf_counter() - started:.1f} s")
        return ok, result


def tree_digest(root: Path) -> str:
    """Every path and byte under ``root`` (symlinks as their target): equal digests, equal trees."""
    digest = hashlib.sha256()
    if not root.exists():
        return "absent"
    for path in sorted(root.rglob("*")):
        digest.update(str(path.relative_to(root)).encode("utf-8", "surrogateescape"))
        if path.is_symlink():
            digest.update(b"->" + os.readlink(path).encode("utf-8", "surrogateescape"))
        elif path.is_file():
            digest.update(path.read_bytes())
    return digest.hexdigest()


# -- data-set zips -------------------------------------------------------------------------------


def _zip(members: list[tuple[str, bytes]], compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with warnings.catch_warnings(), zipfile.ZipFile(buffer, "w", compression=compression) as archive:
        warnings.simplefilter("ignore")  # a duplicate member is one of the faults
        for name, data in members:
            archive.writestr(name, data)
    return buffer.getvalue()


def _manifest(game_name: str, name: str, files: dict[str, bytes], **changes: object) -> bytes:
    manifest: dict[str, object] = {"format": 1, "kind": "companion data set", "game": game_name, "name": name,
                                   "created": "2026-12-01T00:00:00Z",
                                   "files": {n: hashlib.sha256(b).hexdigest() for n, b in files.items()}}  # fmt: skip
    manifest.update(changes)
    return json.dumps(manifest).encode()


def _patch_flag(data: bytes, name: bytes, *, flag: int | None = None, method: int | None = None) -> bytes:
    """Set the general-purpose flag or the compression method of member ``name`` in both headers."""
    out = bytearray(data)
    for signature, flag_at, method_at, name_len_at, name_at in ((b"PK\x03\x04", 6, 8, 26, 30),
                                                                (b"PK\x01\x02", 8, 10, 28, 46)):  # fmt: skip
        start = 0
        while (start := out.find(signature, start)) >= 0:
            length = int.from_bytes(out[start + name_len_at : start + name_len_at + 2], "little")
            if bytes(out[start + name_at : start + name_at + length]) == name:
                if flag is not None:
                    out[start + flag_at : start + flag_at + 2] = flag.to_bytes(2, "little")
                if method is not None:
                    out[start + method_at : start + method_at + 2] = method.to_bytes(2, "little")
            start += 4
    return bytes(out)


def bad_zips(game: str, good: dict[str, bytes], rng: random.Random) -> Iterator[tuple[str, bytes, str | None]]:
    """(fault class, zip bytes, --game) for one round: every class once, with seeded variations."""
    board = next(n for n in good if n.endswith(".board.toml"))
    name = f"set {rng.randrange(10**6)}"

    def members(files: dict[str, bytes], **changes: object) -> list[tuple[str, bytes]]:
        return [("manifest.json", _manifest(game, name, files, **changes)), *files.items()]

    def with_file(file_name: str, data: bytes) -> bytes:
        files = dict(good)
        files[file_name] = data
        return _zip(members(files))

    blob = rng.randbytes(rng.randrange(0, 4000))
    yield "not a zip", blob, None
    whole = _zip(members(good))
    yield "truncated zip", whole[: rng.randrange(10, len(whole) - 1)], None
    yield "no manifest", _zip(list(good.items())), None
    yield "manifest not JSON", _zip([("manifest.json", rng.randbytes(200)), *good.items()]), None
    depth = rng.choice([2000, 20_000, 60_000])
    yield "deep JSON manifest", _zip([("manifest.json", b"[" * depth + b"]" * depth), *good.items()]), None
    yield "manifest too large", _zip([("manifest.json", b" " * rng.randrange(70_000, 3_000_000) + b"{}"),
                                      *good.items()]), None  # fmt: skip
    yield "unlisted member", _zip([*members(good), (f"extra{rng.randrange(99)}.bin", rng.randbytes(4096))]), None
    many = [*members(good), *((f"f{i}.toml", b"x") for i in range(rng.randrange(8, 40)))]
    yield "too many members", _zip(many), None
    yield "member too large", with_file(board, b"# " + b"x" * (4 * 1024 * 1024 + rng.randrange(1, 1000))), None
    yield "encrypted member", _patch_flag(whole, board.encode(), flag=1), None
    method = rng.choice([zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA])
    yield "unsupported compression", _zip(members(good), compression=method), None
    yield "unknown compression method", _patch_flag(whole, board.encode(), method=rng.choice([1, 6, 97, 99])), None
    long_name = "a" * rng.randrange(300, 5000) + ".toml"
    yield "over-long member name", _zip([*members(good), (long_name, b"x")]), None
    yield "over-long data set name", _zip([("manifest.json", _manifest(game, "n" * rng.randrange(81, 5000), good)),
                                           *good.items()]), None  # fmt: skip
    bad_name = rng.choice(["a\x00b", "x\u202ey", "z\u200bw", "", "   ", "line\nbreak", "reference", "Reference"])
    yield "bad data set name", _zip([("manifest.json", _manifest(game, bad_name, good)), *good.items()]), None
    traversal = rng.choice(["../evil.toml", "/etc/evil", "sub/evil.toml", ".hidden", "a\\b.toml", "nul\x00.toml"])
    files = {**good, traversal: b"x"}
    yield "path in member name", _zip(members(files)), None
    files = dict(good)
    yield "checksum mismatch", _zip([("manifest.json", _manifest(game, name, files)),
                                     *((n, b + b"\n# changed") for n, b in files.items())]), None  # fmt: skip
    for label, tags in (
        ("tags not TOML", b"cards = = 5\n["),
        ("tags wrong shape", rng.choice([b"cards = 5\n", b"readers = [1, 2]\n", b"[cards]\nx = 5\n", b"other = 1\n"])),
        ("tags nested deep", b"cards = " + b"[" * 5000 + b"]" * 5000 + b"\n"),
        ("tags unknown card", b'[cards]\n"04AA000000000F" = "no such card"\n'),
        (
            "tags bad characters",
            rng.choice(
                [
                    '[cards]\n"04AA" = "a\\u0000b"\n',
                    '[readers]\n"r\\u202e" = "x"\n',
                    '[readers]\n"r" = "' + "c" * 5000 + '"\n',
                ]
            ).encode(),
        ),
        ("tags unknown city", b'[readers]\n"channel 1" = "Atlantis"\n'),
    ):
        yield label, with_file("tags.toml", tags), None
    text = good[board].decode()
    broken = rng.choice([text.replace("[board]", "[board"), text + "\n[[cities]]\nname = 5\n", "", "x = 1\n"])
    yield "board fails check", with_file(board, broken.encode()), None
    yield "board not UTF-8", with_file(board, b"\xff\xfe" + rng.randbytes(50)), None
    yield "unknown game", _zip([("manifest.json", _manifest(rng.choice(["chess", "", "../x"]), name, good)),
                                *good.items()]), None  # fmt: skip
    yield "game not text", _zip([("manifest.json", _manifest(game, name, good, game=[game])), *good.items()]), None
    yield "wrong format", _zip([("manifest.json", _manifest(game, name, good, format=rng.choice([0, 2, "1", None]))),
                                *good.items()]), None  # fmt: skip
    yield "missing member", _zip(members(good)[:-1]), None
    yield "duplicate member", _zip([*members(good), (board, good[board])]), None
    other = next(g for g in ("on-the-way", "auf-achse") if g != game)
    yield "--game of another game", whole, other


def _reference_files(game: str) -> dict[str, bytes]:
    from companion.setup_box.datasets import DataSets

    with tempfile.TemporaryDirectory() as temp:
        path = DataSets(temp).export(game, "reference", Path(temp))
        with zipfile.ZipFile(path) as archive:
            return {n: archive.read(n) for n in archive.namelist() if n != "manifest.json"}


def datasets_campaign(size: int, seed: int) -> Tally:
    """``size`` hostile zips through ``import`` (half each game), then list/show/export/delete in a
    store with broken data sets. A refused zip must leave the store and everything outside it as they were."""
    from companion import games
    from companion.setup_box.datasets import DataSetError, DataSets

    tally = Tally("data-set zips")
    rng = random.Random(seed)
    package_data = [role.reference.parent for g in games.names() for role in games.get(g).data_roles]
    package_before = {p: tree_digest(p) for p in set(package_data)}
    with tempfile.TemporaryDirectory() as temp:
        world = Path(temp)
        state, inbox = world / "state", world / "inbox"
        inbox.mkdir()
        sets = DataSets(state)
        goods = {g: _reference_files(g) for g in games.names()}
        # A good store to keep intact: one imported data set per game.
        for g, files in goods.items():
            good_zip = inbox / f"good-{g}.zip"
            good_zip.write_bytes(_zip([("manifest.json", _manifest(g, f"good {g}", files)), *files.items()]))
            sets.import_file(good_zip)
        done = 0
        while done < size:
            g = rng.choice(games.names())
            for kind, data, only in bad_zips(g, goods[g], rng):
                if done >= size:
                    break
                done += 1
                path = inbox / f"bad{done}.zip"
                path.write_bytes(data)
                before, inbox_before = tree_digest(state), tree_digest(inbox)

                def import_bad(p: Path = path, o: str | None = only) -> object:
                    return sets.import_file(p, game=o)

                ok, result = tally.timed(kind, path.name, import_bad)
                if ok:
                    tally.fail("accepted", f"{kind}: imported as {result}")
                    continue
                if not isinstance(result, DataSetError):
                    tally.fail("tracebacks", f"{kind}: {type(result).__name__}: {result}")
                elif "Traceback" in str(result):
                    tally.fail("tracebacks", f"{kind}: {result}")
                if tree_digest(state) != before or tree_digest(inbox) != inbox_before:
                    tally.fail("outside", f"{kind}: a refused import changed the store or the zip's folder")
                path.unlink()
        _broken_store_rounds(tally, sets, world, rng, max(4, size // 50))
    for path, digest in package_before.items():
        if tree_digest(path) != digest:
            tally.fail("outside", f"the installed package's data {path} changed")
    return tally


def _broken_store_rounds(tally: Tally, sets: object, world: Path, rng: random.Random, rounds: int) -> None:
    """A store holding broken data sets (damaged meta.json / tags.toml, a symlink out of the store, a
    file where a folder belongs): the good data sets still list, show and export; delete removes only
    folders the store made; ``reference`` is never deleted."""
    from companion.cli import main as cli_main

    state = world / "state"
    outside = world / "outside"
    outside.mkdir(exist_ok=True)
    (outside / "precious.txt").write_text("keep me")
    game_dir = state / "datasets" / "on-the-way"

    def meta_is_a_folder(f: Path) -> None:
        (f / "meta.json").unlink()
        (f / "meta.json").mkdir()

    damage: list[tuple[str, Callable[[Path], object]]] = [
        ("meta not JSON", lambda f: (f / "meta.json").write_bytes(rng.randbytes(64))),
        ("meta wrong game", lambda f: (f / "meta.json").write_text(json.dumps({"game": "auf-achse"}))),
        ("meta deep", lambda f: (f / "meta.json").write_text("[" * 50_000 + "]" * 50_000)),
        ("tags not TOML", lambda f: (f / "tags.toml").write_text("cards = = [")),
        ("tags cards = 5", lambda f: (f / "tags.toml").write_text("cards = 5\n")),
        ("board missing", lambda f: next(f.glob("*.board.toml")).unlink()),
        ("meta is a folder", meta_is_a_folder),
    ]
    good = [d.name for d in sets.list("on-the-way")]  # type: ignore[attr-defined]
    for n in range(rounds):
        kind, hurt = damage[n % len(damage)]
        folder = game_dir / f"broken-{n}"
        source = game_dir / good[0].replace(" ", "-")
        folder.mkdir()
        for item in source.iterdir():
            (folder / item.name).write_bytes(item.read_bytes())
        hurt(folder)
        link = game_dir / f"link-{n}"
        if not link.exists():
            link.symlink_to(outside, target_is_directory=True)
        before_outside = tree_digest(outside)
        argv_sets = [
            ("list", ["setup-box", "list"]),
            ("show good", ["setup-box", "show", "--game", "on-the-way", good[0]]),
            ("show broken", ["setup-box", "show", "--game", "on-the-way", f"broken-{n}"]),
            ("export good", ["setup-box", "export", "--game", "on-the-way", good[0], str(world / "out.zip")]),
            ("delete link", ["setup-box", "delete", "--game", "on-the-way", f"link-{n}"]),
            ("delete reference", ["setup-box", "delete", "--game", "on-the-way", rng.choice(["reference", "Reference",
                                                                                            " reference "])]),
        ]  # fmt: skip
        for label, argv in argv_sets:
            buffer_out, buffer_err = io.StringIO(), io.StringIO()

            def run_store(a: list[str] = argv) -> object:
                return cli_main([*a, "--state-dir", str(state)])

            with _redirect(buffer_out, buffer_err):
                ok, result = tally.timed(f"store {label}", kind, run_store)
            if not ok:
                tally.fail("tracebacks", f"{label} with {kind}: {type(result).__name__}: {result}")
                continue
            good_run = label in ("list", "show good", "export good")
            if good_run and result != 0:
                tally.fail("tracebacks", f"{label} failed beside a broken data set ({kind}): {buffer_err.getvalue()}")
            if label == "list" and good[0] not in buffer_out.getvalue():
                tally.fail("accepted", f"list lost the good data set beside {kind}")
            if not good_run and result == 0:
                tally.fail("accepted", f"{label} succeeded ({kind})")
        if tree_digest(outside) != before_outside or not (outside / "precious.txt").exists():
            tally.fail("outside", f"a store command changed a folder outside the store ({kind})")
        buffer_out, buffer_err = io.StringIO(), io.StringIO()

        def delete_broken(k: int = n) -> object:
            return cli_main(["setup-box", "delete", "--game", "on-the-way", f"broken-{k}", "--state-dir", str(state)])

        with _redirect(buffer_out, buffer_err):
            ok, result = tally.timed("store delete broken", kind, delete_broken)
        if not ok or result != 0 or folder.exists():
            tally.fail("tracebacks", f"a broken data set ({kind}) was not deleted: {result} {buffer_err.getvalue()}")


class _redirect:
    def __init__(self, out: io.StringIO, err: io.StringIO) -> None:
        self.out, self.err = out, err

    def __enter__(self) -> None:
        self.saved = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = self.out, self.err

    def __exit__(self, *exc: object) -> None:
        sys.stdout, sys.stderr = self.saved


# -- hardware TOML with the new bounds -------------------------------------------------------------


def set_key(text: str, section: str, key: str, literal: str) -> str:
    """``text`` with ``key = literal`` in ``[section]`` (replacing the key's line if it is there)."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.split("#")[0].strip() == f"[{section}]"), None)
    if start is None:
        return text + f"\n[{section}]\n{key} = {literal}\n"
    end = next((i for i in range(start + 1, len(lines)) if lines[i].lstrip().startswith("[")), len(lines))
    for i in range(start + 1, end):
        if lines[i].split("=")[0].strip().strip('"') == key:
            lines[i] = f"{key} = {literal}"
            return "\n".join(lines) + "\n"
    lines.insert(start + 1, f"{key} = {literal}")
    return "\n".join(lines) + "\n"


BAD_NAMES = ['"a\\u0000b"', '"x\\u202ey"', '"z\\u200bw"', '"line\\nbreak"', '"' + "c" * 5000 + '"', '"\\u001b[2J"',
             '"\\u2066iso"', '"\\ufeffbom"']  # fmt: skip


def bad_hardware(text: str, rng: random.Random) -> Iterator[tuple[str, str]]:
    """(fault class, hardware TOML) for one round: every bound and name class once."""
    tiny, huge = rng.choice(["1e-300", "0.0001", "0.004"]), rng.choice(["1e300", "1e9", "3600.0"])
    yield "poll_interval tiny", set_key(text, "hardware", "poll_interval", tiny)
    yield "poll_interval huge", set_key(text, "hardware", "poll_interval", huge)
    yield "retry_interval huge", set_key(text, "hardware", "retry_interval", huge)
    yield "long_press huge", set_key(text, "buttons", "long_press", huge)
    yield "long_press tiny", set_key(text, "buttons", "long_press", rng.choice(["0.01", "1e-300", "0.2"]))
    yield "bounce huge", set_key(text, "buttons", "bounce", rng.choice(["1.0", "1e300", "0.5"]))
    yield "baudrate", set_key(text, "serial", "baudrate", rng.choice(["1", "0", "-9600", "300", str(10**12)]))
    yield "serial retry", set_key(text, "serial", "retry_interval", rng.choice(["1e-300", "1e300", "0.01"]))
    for key in ("window", "place_votes", "lift_misses", "reverify_every"):
        yield f"debounce {key}", set_key(text, "debounce", key, rng.choice(["0", "-1", str(10**9), str(10**18)]))
    yield "card channel", set_key(text, "card_reader", "channel", rng.choice(["-1", "-5", str(10**9), "256"]))
    yield "spi bus", set_key(text, "spi", "bus", rng.choice(["-1", "-100", "7", str(10**9)]))
    yield "receive timeout", set_key(text, "spi", "receive_timeout_ms", rng.choice(["1e9", "1e-300", "500"]))
    yield "reader channel", set_key(text, "readers", rng.choice(['"-1"', '"²"', '"٣"', '"99999"', '"256"', '"1e3"']),
                                    '"Nowhere"')  # fmt: skip
    yield "reader name", set_key(text, "readers", str(rng.randrange(0, 40)), rng.choice(BAD_NAMES))
    yield "card id", set_key(text, "cards", f'"04AA{rng.randrange(16**10):010X}"', rng.choice(BAD_NAMES))
    yield "bank colour", set_key(text, "bank_cards", f'"04BB{rng.randrange(16**10):010X}"', rng.choice(BAD_NAMES))
    colour = rng.choice(BAD_NAMES)
    yield "marker colour", set_key(text, "markers", f'"04CC{rng.randrange(16**10):010X}"',
                                   f"{{ colour = {colour}, number = 1 }}")  # fmt: skip
    yield "marker number", set_key(text, "markers", f'"04DD{rng.randrange(16**10):010X}"',
                                   f'{{ colour = "red", number = {rng.choice([0, -1, 100, 10**9])} }}')  # fmt: skip
    yield "serial url", set_key(text, "serial", "url", rng.choice(['"/dev/tty\\u0000"', '"/dev/\\u202ex"']))


def hardware_campaign(size: int, seed: int) -> Tally:
    """``size`` hardware TOML files, each with one value out of its range or one unreadable name: each
    must be a ``ConfigError`` naming the field (file:line: [table] key), never accepted."""
    from companion.hardware.config import REFERENCE, parse
    from companion.hardware.errors import ConfigError

    tally = Tally("hardware TOML")
    rng = random.Random(seed)
    text = REFERENCE.read_text(encoding="utf-8")
    parse(text, "reference.toml", env={})  # the reference passes: the campaign's mutations are the faults
    done = 0
    while done < size:
        for kind, bad in bad_hardware(text, rng):
            if done >= size:
                break
            done += 1

            def parse_bad(b: str = bad) -> object:
                return parse(b, "hw.toml", env={})

            ok, result = tally.timed(kind, kind, parse_bad)
            if ok:
                tally.fail("accepted", f"{kind}: loaded")
            elif not isinstance(result, ConfigError):
                tally.fail("tracebacks", f"{kind}: {type(result).__name__}: {result}")
            elif "hw.toml:" not in str(result):
                tally.fail("accepted", f"{kind}: the error names no line: {result}")
    return tally


# -- the kiosk's environment ------------------------------------------------------------------------

BAD_ENV: dict[str, list[str]] = {
    "COMPANION_MQTT_BROKER": ["mqtt://[::1", "mqtt://host\n.evil", "mqtt://h:99999", "ftp://x", "mqtt://", "mqtt://a b",
                              "mqtt://h/path", "mqtt://h#frag", "mqtt://h?x=1", "mqtt://:pw@h", "mqtt://h:0",
                              "mqtt://u%00:p@h", "mqtt://-bad-.host", "mqtt://h:port"],
    "COMPANION_LANGUAGE": ["xx", "e\u202en", "EN-us", "\x00", "de\n", "klingon"],
    "COMPANION_GAMES": ["chess", "on-the-way,chess", " , ", "on\u200b-the-way"],
    "COMPANION_ADMIN_PIN": ["٣٣٣٣٣٣", "12", "1234567890123", "12a4", "²³⁴⁵", "2468", "1234\x00"],
    "COMPANION_ADMIN_REQUIRES_CARD": ["ture", "2", "\x00", "yes please"],
    "COMPANION_TABLE_ID": ["a/b", "x" * 100, "t+", "#", "\u202etable", "tab le"],
    "COMPANION_DATA_SET": ["no such set", "reference\x00", "a" * 5000, "../../etc"],
    "COMPANION_HARDWARE_FILE": ["/dev/null\x00x", "a" * 5000],
    "COMPANION_LANGAUGE": ["de"],
}  # fmt: skip


def _quietly(campaign: Callable[..., Tally]) -> Callable[..., Tally]:
    """The campaign's warnings are counted, not printed: ``companion``'s loggers are quiet while it
    runs, and as they were after (the test suite runs campaigns in its own process)."""

    @functools.wraps(campaign)
    def run(*args: Any, **kwargs: Any) -> Tally:
        logger = logging.getLogger("companion")
        level = logger.level
        logger.setLevel(logging.CRITICAL)
        try:
            return campaign(*args, **kwargs)
        finally:
            logger.setLevel(level)

    return run


@_quietly
def environment_campaign(size: int, seed: int) -> Tally:
    """``size`` kiosk environments with one to three bad settings each: ``read_environment`` never
    raises, names every bad setting in a warning and keeps none of the bad values."""
    from companion.kiosk.settings import read_environment

    tally = Tally("kiosk environment")
    rng = random.Random(seed)
    names = sorted(BAD_ENV)
    with tempfile.TemporaryDirectory() as temp:
        state = Path(temp) / "state"
        state.mkdir()
        before = tree_digest(state)
        for _ in range(size):
            chosen = rng.sample(names, rng.randint(1, 3))
            env = {name: rng.choice(BAD_ENV[name]) for name in chosen}
            kind = "+".join(sorted(chosen))

            def read_bad(e: dict[str, str] = env) -> object:
                return read_environment(e, state)

            ok, result = tally.timed(kind, repr(env)[:200], read_bad)
            if not ok:
                tally.fail("tracebacks", f"{kind}: {type(result).__name__}: {result}")
                continue
            warnings = " | ".join(result.warnings)  # type: ignore[attr-defined]
            for name in chosen:
                if name not in warnings:
                    tally.fail("accepted", f"{name}={env[name]!r} passed without a warning")
            kept = {v for v in vars(result).values() if isinstance(v, str)}
            if any(value in kept for value in env.values() if value not in ("de",)):
                tally.fail("accepted", f"a bad value was kept: {env}")
        if tree_digest(state) != before:
            tally.fail("outside", "reading the environment wrote to the state directory")
    return tally


CAMPAIGNS: list[Callable[[int, int], Tally]] = [datasets_campaign, environment_campaign, hardware_campaign]


# -- broker messages: to the board's model and its screen -------------------------------------------

EVIL_TEXT = ["a\x00b", "\u200b", "x\u202ey", "\u2066", "\ud800", "\x1b[2J", "line\nbreak", " ", "\ufeff",
             "c" * 5000, "\U000e0001", "\u0000" * 40, "é" * 200]  # fmt: skip
# Values no field of that kind may hold: out of every bound, or not a number of that kind at all.
EVIL_NUMBERS: list[object] = [10**300, -(10**13), 2**64, 1.5, True, None, "7", [], {}, 1e308]
EVIL_TIMES: list[object] = [1e308, -1.0, 5e9, -(10**13), True, None, "7", [], 10**300]


def _good_messages(table: str, n: int) -> list[tuple[str, dict[str, object]]]:
    player = {"place": 1, "colour": "red", "score": 12, "money": 340, "money_text": "340 R"}
    second = {"place": 2, "colour": "blue", "score": 9, "money": 120, "money_text": "120 R"}
    game = {"game": "on-the-way", "title": "On The Way", "score_label": "VP", "currency": "R"}
    result = {"v": 1, "kind": "result", "id": f"{table}/{n}", "table": table, **game, "finished_at": 1764547200.0,
              "standings": [player, second]}  # fmt: skip
    live = {"v": 1, "kind": "live", "table": table, "session": "s1", "seq": n, "at": 1764547100.5,
            "game": {"id": f"{table}/{n}", **game, "round": 3, "turn": "red", "finished": False,
                     "players": [player, second]}}  # fmt: skip
    online = {"v": 1, "kind": "online", "table": table, "online": True}
    return [(f"companion/v1/results/{table}/{n}", result), (f"companion/v1/tables/{table}/live", live),
            (f"companion/v1/tables/{table}/online", online)]  # fmt: skip


def _paths(data: object, prefix: tuple[object, ...] = ()) -> Iterator[tuple[tuple[object, ...], object]]:
    if isinstance(data, dict):
        for key, value in data.items():
            yield (*prefix, key), value
            yield from _paths(value, (*prefix, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield (*prefix, i), value
            yield from _paths(value, (*prefix, i))


def _set(data: object, path: tuple[object, ...], value: object) -> None:
    for key in path[:-1]:
        data = data[key]  # type: ignore[index]
    data[path[-1]] = value  # type: ignore[index]


def bad_messages(rng: random.Random, n: int) -> Iterator[tuple[str, str, bytes]]:
    """(fault class, topic, payload): one field of a good message made hostile, or the frame itself."""
    table = rng.choice(["A", "table-1", "t.9"])
    for topic, message in _good_messages(table, n):
        kind = str(message["kind"])
        texts = [(p, v) for p, v in _paths(message) if isinstance(v, str) and p[-1] not in ("kind",)]
        path, _ = rng.choice(texts)
        bad = json.loads(json.dumps(message))
        _set(bad, path, rng.choice(EVIL_TEXT))
        yield f"{kind} text {path[-1]}", topic, json.dumps(bad).encode()
        numbers = [(p, v) for p, v in _paths(message) if isinstance(v, int | float) and not isinstance(v, bool)
                   and p[-1] != "v"]  # fmt: skip
        if numbers:
            path, _ = rng.choice(numbers)
            bad = json.loads(json.dumps(message))
            evil = EVIL_TIMES if path[-1] in ("at", "finished_at") else EVIL_NUMBERS
            _set(bad, path, rng.choice([v for v in evil if not (v is None and path[-1] == "round")]))  # null: no round
            if json.dumps(bad) != json.dumps(message):
                yield f"{kind} number {path[-1]}", topic, json.dumps(bad).encode()
        bad = json.loads(json.dumps(message))
        rows = bad.get("standings") or (bad.get("game") or {}).get("players")
        if rows:
            change = rng.choice(["same colour", "places 2,2", "place 13", "13 players"])
            if change == "same colour":
                rows[1]["colour"] = rows[0]["colour"]
            elif change == "places 2,2":
                rows[0]["place"] = 2
            elif change == "place 13":
                rows[1]["place"] = 13
            else:
                rows.extend(dict(rows[0], colour=f"c{i}", place=1) for i in range(12))
            yield f"{kind} ranking {change}", topic, json.dumps(bad).encode()
        level = rng.choice([f"{table}\n", f"{table}\x00", "", "a" * 40, f"{table}+", "\u202e"])
        yield f"{kind} topic level", topic.replace(f"/{table}/", f"/{level}/"), json.dumps(message).encode()
        yield f"{kind} deep JSON", topic, b"[" * 100_000 + b"]" * 100_000
        nan = json.dumps(message).replace('"online": true', '"online": NaN').replace("1764547", 'NaN, "x": 1764547')
        yield f"{kind} NaN", topic, nan.encode()


@_quietly
def broker_campaign(size: int, seed: int) -> Tally:
    """``size`` hostile messages to the board's model (each must be dropped and counted, never raise)
    and, every few messages, the whole screen drawn from the model (never raise, no part failing),
    with hostile text also put straight into the model (the screen's own filter)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from companion.leaderboard import screen
    from companion.leaderboard.model import BoardModel
    from companion.leaderboard.topics import GameInfo, PlayerLine, Result

    tally = Tally("broker messages")
    rng = random.Random(seed)
    pygame.font.init()
    surface = pygame.Surface(screen.SIZE)
    fonts = screen.default_fonts()
    model = BoardModel()
    for topic, message in _good_messages("good", 1):
        model.apply(topic, json.dumps(message).encode(), 0.0)
    good = len(model.results)
    done = n = 0
    while done < size:
        n += 1
        for kind, topic, payload in bad_messages(rng, n):
            if done >= size:
                break
            done += 1
            before = (dict(model.results), dict(model.tables), dict(model.online))

            def apply_bad(t: str = topic, p: bytes = payload) -> object:
                return model.apply(t, p, 1.0)

            ok, changed = tally.timed(kind, topic, apply_bad)
            if not ok:
                tally.fail("tracebacks", f"{kind}: {type(changed).__name__}: {changed}")
            elif changed or (dict(model.results), dict(model.tables), dict(model.online)) != before:
                tally.fail("accepted", f"{kind}: {topic!r} {payload[:200]!r}")
            if done % 25 == 0:
                evil = rng.choice(EVIL_TEXT)
                line = PlayerLine(1, evil, 10**9, -(10**9), evil)
                info = GameInfo(evil, evil, evil, evil)
                model.results[f"x/{done}"] = Result(f"x/{done}", evil, info, 0.0, (line,))
                getattr(screen, "_FAILED", set()).clear()
                view = screen.BoardView(event=evil, connected=True, broker=evil, now=1764547200.0)

                def render_evil(v: screen.BoardView = view) -> None:
                    screen.render(surface, model, v, fonts)

                ok, error = tally.timed("screen", kind, render_evil)
                if not ok:
                    tally.fail("tracebacks", f"screen: {type(error).__name__}: {error}")
                elif getattr(screen, "_FAILED", None):
                    tally.fail("tracebacks", f"screen: a part failed to draw ({sorted(screen._FAILED)}) with {evil!r}")
                del model.results[f"x/{done}"]
    if len(model.results) != good:
        tally.fail("accepted", "the good result was replaced or withdrawn by bad messages")
    return tally


CAMPAIGNS.append(broker_campaign)


# -- journal media faults -----------------------------------------------------------------------------

PAGE = 4096  # SQLite's default page size (the journal does not change it)
WAL_HEADER, FRAME_HEADER = 32, 24  # sqlite.org/fileformat2.html#walformat


def _offset(kind: str, size: int, rng: random.Random) -> int:
    """A byte offset of one class in a file of ``size`` bytes (main file: pages; WAL: frames)."""
    if kind == "main header":
        return rng.randrange(0, 100)
    if kind == "main page header":
        return rng.randrange(1, max(size // PAGE, 2)) * PAGE + rng.randrange(0, 12)
    if kind == "main page body":
        return rng.randrange(0, max(size // PAGE, 1)) * PAGE + rng.randrange(100, PAGE)
    frames = max((size - WAL_HEADER) // (FRAME_HEADER + PAGE), 1)
    frame = WAL_HEADER + rng.randrange(frames) * (FRAME_HEADER + PAGE)
    if kind == "wal header":
        return rng.randrange(0, WAL_HEADER)
    if kind == "wal frame header":
        return frame + rng.randrange(FRAME_HEADER)
    if kind == "wal frame body":
        return frame + FRAME_HEADER + rng.randrange(PAGE)
    return WAL_HEADER + (frames - 1) * (FRAME_HEADER + PAGE) + rng.randrange(FRAME_HEADER + PAGE)  # last frame


OFFSET_CLASSES = {"main": ("main header", "main page header", "main page body"),
                  "wal": ("wal header", "wal frame header", "wal frame body", "wal last frame")}  # fmt: skip


def _make_journal(folder: Path, rng: random.Random) -> tuple[dict[int, list[str]], Path]:
    """A journal with games in its main file and more commands only in its WAL, left open as at a
    power cut: the files are copied while the store holds them. Returns what was acknowledged."""
    import shutil

    from companion.games.setup import GameSetup
    from companion.journal import JournalStore

    live = folder / "live" / "journal.sqlite"
    live.parent.mkdir(parents=True)
    acked: dict[int, list[str]] = {}

    def play(store: JournalStore, games: int, commands: int) -> None:
        for _ in range(games):
            game = store.create_game(GameSetup("on-the-way", ("red", "blue")))
            acked[game] = []
        for game in list(acked):
            for _ in range(rng.randrange(1, commands)):
                command: dict[str, object] = {
                    "player": "red",
                    "action": "move",
                    "to": f"city {rng.randrange(10**6)}",
                    "pad": "x" * 900,
                }
                store.append(game, len(acked[game]), command)
                acked[game].append(json.dumps(command, ensure_ascii=False, separators=(",", ":")))

    with JournalStore.open(live) as store:
        play(store, rng.randint(1, 3), 16)  # checkpointed into the main file at close
    store = JournalStore.open(live)
    play(store, rng.randint(1, 3), 30)  # these stay in the WAL
    snapshot = folder / "snapshot"
    snapshot.mkdir()
    for suffix in ("", "-wal", "-acks"):
        if live.with_name(live.name + suffix).exists():
            shutil.copyfile(live.with_name(live.name + suffix), snapshot / f"journal.sqlite{suffix}")
    store.close()
    return acked, snapshot


@_quietly
def journal_campaign(size: int, seed: int) -> Tally:
    """``size`` faulted journals: one bit flipped or one page zeroed in the main file or the WAL at one
    offset class. Opening must never raise anything but a journal error, and every acknowledged
    command must read back as it was written or be reported (a loss, a damaged command, a journal
    moved aside)."""
    import shutil

    from companion.journal import JournalError, JournalStore
    from companion.journal.store import CorruptionReport

    tally = Tally("journal media faults")
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as temp:
        base = Path(temp)
        done = 0
        while done < size:
            round_dir = base / f"round{done}"
            round_dir.mkdir()
            acked, snapshot = _make_journal(round_dir, rng)
            for _ in range(20):
                if done >= size:
                    break
                done += 1
                target = rng.choice(["main", "wal"])
                source = snapshot / ("journal.sqlite" + ("-wal" if target == "wal" else ""))
                if not source.exists() or source.stat().st_size == 0:
                    continue
                offset_class = rng.choice(OFFSET_CLASSES[target])
                fault = rng.choice(["bit flip", "zeroed page"])
                case = round_dir / f"case{done}"
                shutil.copytree(snapshot, case)
                path = case / source.name
                data = bytearray(path.read_bytes())
                at = min(_offset(offset_class, len(data), rng), len(data) - 1)
                if fault == "bit flip":
                    data[at] ^= 1 << rng.randrange(8)
                else:
                    start = at - at % PAGE if target == "main" else at
                    data[start : start + PAGE] = bytes(min(PAGE, len(data) - start))
                path.write_bytes(bytes(data))
                kind = f"{fault} / {offset_class}"
                journal = case / "journal.sqlite"

                def open_faulted(j: Path = journal) -> object:
                    return JournalStore.open(j)

                ok, store = tally.timed(kind, str(case), open_faulted)
                if not ok:
                    if not isinstance(store, JournalError):
                        tally.fail("tracebacks", f"{kind}: {type(store).__name__}: {store}")
                    continue  # refused to open, and said why: reported
                assert isinstance(store, JournalStore)
                try:
                    if isinstance(store.report, CorruptionReport):
                        continue  # moved aside whole, reported; nothing in it was deleted
                    lost_games = {x.game_id for x in store.losses}
                    for game_id, commands in acked.items():
                        try:
                            read, problem = store.readable_commands(game_id)
                        except Exception as exc:
                            if not isinstance(exc, JournalError):
                                tally.fail("tracebacks", f"{kind}: reading game {game_id}: {type(exc).__name__}")
                            continue
                        texts = [json.dumps(c, ensure_ascii=False, separators=(",", ":")) for c in read]
                        if texts != commands[: len(texts)]:
                            reported = problem is not None or game_id in lost_games
                            if not reported:
                                tally.fail("lost", f"{kind}: game {game_id} reads other commands, unreported")
                        elif len(texts) < len(commands) and problem is None and game_id not in lost_games:
                            tally.fail("lost", f"{kind}: game {game_id} has {len(texts)} of {len(commands)} "
                                               "acknowledged commands, unreported")  # fmt: skip
                    try:
                        store.games()
                    except JournalError:
                        pass
                    except Exception as exc:
                        tally.fail("tracebacks", f"{kind}: listing: {type(exc).__name__}: {exc}")
                finally:
                    store.close()
                outside = {p.name for p in case.iterdir()} - {"journal.sqlite", "journal.sqlite-wal",
                                                              "journal.sqlite-shm", "journal.sqlite-acks"}  # fmt: skip
                if any(not name.startswith("journal.sqlite.corrupt-") for name in outside):
                    tally.fail("outside", f"{kind}: unexpected files {sorted(outside)}")
            shutil.rmtree(round_dir)
    return tally


CAMPAIGNS.append(journal_campaign)
# ``robustness.py --quick``: each campaign's size for a run of a few seconds (every class at least once).
QUICK = {"datasets_campaign": 40, "environment_campaign": 40, "hardware_campaign": 40, "broker_campaign": 60,
         "journal_campaign": 16}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    """``python benchmarks/hostile.py [--size N] [--seed S] [--quick]``: issue 20's campaigns alone
    (``robustness.py`` runs them too, after its own)."""
    import argparse

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--size", type=int, default=1000, help="inputs per campaign (default 1000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="every campaign small: a few seconds")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    tallies = [c(QUICK[c.__name__] if args.quick else args.size, args.seed + n) for n, c in enumerate(CAMPAIGNS)]
    for tally in tallies:
        print(tally.line())
        for example in tally.examples:
            print("    " + example)
    failures = sum(t.tracebacks + t.hangs + t.accepted + t.lost + t.outside for t in tallies)
    print(f"hostile_inputs: {sum(t.inputs for t in tallies)} inputs")
    print(f"hostile_failures: {failures} inputs")
    print(f"hostile_seconds: {time.perf_counter() - started:.1f} s")
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
