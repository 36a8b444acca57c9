"""The folder tree is the architecture (style points 1 and 17): imports flow one way.

    engine (platform core, pure)  ◀── games/<game>/engine (pure)
    data, intents, ledframe       ◀── games/<game>/{data, table, screen, simulator, plugin}
    table (platform), display (renders only), hardware
    games (registry)              ◀── journal, kiosk, simulator, cli

Checked two ways: statically (every ``companion.*`` import, including those inside functions, is in
an allowed direction and no two packages import each other), and dynamically (each game's engine
imports with every I/O library blocked).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "companion"
GAMES = sorted(p.name for p in (ROOT / "games").iterdir() if (p / "plugin.py").exists() or (p / "engine").is_dir())

# Who may import whom. A game's layer may import the same game's lower layers and the platform's
# layers named here; no game imports another game.
PLATFORM_ALLOWED: dict[str, set[str]] = {
    "engine": {"text"},
    "text": set(),  # what a name may hold (companion/text.py): a leaf every layer may use
    "native": set(),  # which build of the compiled modules runs (companion/native.py): a leaf
    "data": {"engine", "text"},
    "intents": {"text"},
    "ledframe": {"text"},
    "hardware": {"intents", "ledframe", "hardware", "text"},
    "table": {"engine", "intents", "ledframe", "table", "text"},
    "display": {"engine", "intents", "ledframe", "table.ui", "table.messages", "display", "text"},
    "games": {"engine", "data", "intents", "ledframe", "table", "display", "hardware", "games", "text"},
    "journal": {"engine", "games", "journal", "text"},
    "simulator": {
        *("engine", "intents", "ledframe", "table", "display", "hardware", "games", "simulator"),
        *("journal", "setup_box", "text"),  # where the box's state lives; the data set to play
    },
    "kiosk": {
        *("engine", "intents", "ledframe", "table", "display", "hardware", "games", "journal", "kiosk"),
        *("leaderboard", "setup_box", "simulator", "text"),  # a windowed kiosk: the simulator's table edge
    },
    # Needs no game: every message carries what it shows. display.names: the one rule for shortening a
    # name with meaning (both ends kept, never like another name), pure text over a width function.
    "leaderboard": {"leaderboard", "table.messages", "display.names", "text"},
    "setup_box": {"engine", "intents", "ledframe", "table.messages", "display", "games", "setup_box", "text"},
    # Reads the kiosk's settings, hardware and journal through their own code (read-only).
    "doctor": {"intents", "ledframe", "hardware", "journal", "kiosk", "leaderboard", "doctor", "native", "text"},
    "cli": {"*"},
    "__main__": {"*"},
}
GAME_LAYERS = {
    "engine": {"engine"},
    "data": {"engine", "data"},
    "table": {"engine", "intents", "ledframe", "table", "bots"},
    # pure: the advisor and the bot players search the game's own rules (``native``: compiled or not)
    "bots": {"engine", "bots", "native"},
    "screen": {"engine", "ledframe", "table.ui", "table.messages", "display"},
    "simulator": {"engine", "intents", "ledframe", "table", "display", "simulator", "hardware"},
}


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name == "companion" or name.startswith("companion.")}


def owner(module: str) -> str:
    """'companion.games.auf_achse.table.controller' -> 'games.auf_achse.table'; 'companion.table.ui' -> 'table'."""
    parts = module.split(".")[1:]
    if parts[:1] == ["games"] and len(parts) >= 3 and parts[1] in GAMES:
        layer = parts[2] if parts[2] in GAME_LAYERS else "plugin"
        return f"games.{parts[1]}.{layer}"
    return parts[0] if parts else ""


def allowed(source: str, target_module: str) -> bool:
    target = owner(target_module)
    dotted = target_module.removeprefix("companion.")
    if source.startswith("games.") and source.count(".") == 2:
        _, game, layer = source.split(".")
        if target.startswith("games."):
            _, other, other_layer = target.split(".")
            if other != game:
                return False  # a game never imports another game
            return other_layer == layer or other_layer in GAME_LAYERS.get(layer, set(GAME_LAYERS)) or layer == "plugin"
        platform = GAME_LAYERS.get(layer, {"engine", "data", "intents", "ledframe", "table", "display", "hardware",
                                           "simulator", "games"})  # fmt: skip
        return target in platform or dotted in platform or target == "games"
    rules = PLATFORM_ALLOWED.get(source, set())
    if "*" in rules:
        return True
    if target.startswith("games."):
        return False  # the platform reaches a game only through the registry
    return target == source or target in rules or any(dotted.startswith(r) for r in rules if "." in r)


def module_owner(path: Path) -> str:
    return owner("companion." + ".".join(path.relative_to(ROOT).with_suffix("").parts))


def test_every_import_goes_in_an_allowed_direction() -> None:
    wrong = []
    for path in ROOT.rglob("*.py"):
        source = module_owner(path)
        for target in imports_of(path):
            if target != "companion" and not allowed(source, target):
                wrong.append(f"{path.relative_to(ROOT.parent)}: {source} imports {target}")
    assert not wrong, "\n".join(sorted(wrong))


def test_no_two_packages_import_each_other() -> None:
    edges: set[tuple[str, str]] = set()
    for path in ROOT.rglob("*.py"):
        source = module_owner(path).split(".")[0]
        for target in imports_of(path):
            top = owner(target).split(".")[0]
            if top and top != source:
                edges.add((source, top))
    cycles = sorted(f"{a} <-> {b}" for a, b in edges if (b, a) in edges and a < b)
    assert not cycles, cycles


def test_the_display_package_only_renders() -> None:
    for path in (ROOT / "display").rglob("*.py"):
        for target in imports_of(path):
            assert owner(target) not in ("kiosk", "journal", "simulator", "cli"), f"{path.name} imports {target}"
            # The UI model and the message catalogues (data, standard library only): the words it draws.
            reads = ("companion.table.ui", "companion.table.messages")
            assert not target.startswith("companion.table.") or target in reads, (path.name, target)


BLOCKER = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in {blocked!r}:
            raise ImportError('blocked import: ' + name)
        return None
sys.meta_path.insert(0, Block())
"""


def run_with_blocked(modules: set[str], code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", BLOCKER.format(blocked=modules) + code], capture_output=True, text=True, check=False
    )


@pytest.mark.parametrize("game", GAMES)
def test_each_engine_imports_with_io_libraries_blocked(game: str) -> None:
    blocked = {"pygame", "serial", "gpiozero", "mfrc522", "spidev", "RPi", "lgpio", "sqlite3", "socket", "tomllib"}
    engine = ROOT / "games" / game / "engine"
    modules = [f"companion.games.{game}.engine.{p.stem}" for p in engine.glob("*.py") if p.stem != "__init__"]
    code = "import companion.engine\n" + "".join(f"import {m}\n" for m in modules)
    allowed_outside = ("companion.games", f"companion.games.{game}")
    code += (
        f"assert not [m for m in sys.modules if m.startswith('companion.') and '.engine' not in m "
        f"and m not in {allowed_outside!r}], sorted(sys.modules)\n"
    )
    proc = run_with_blocked(blocked, code)
    assert proc.returncode == 0, proc.stderr


def test_table_and_cli_import_without_pi_libraries() -> None:
    proc = run_with_blocked(
        {"mfrc522", "spidev", "RPi", "lgpio"},
        "import companion.games.on_the_way.table.controller, companion.cli; companion.cli.build_parser()",
    )
    assert proc.returncode == 0, proc.stderr


def module_imports(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Module → the companion modules it imports (also inside functions). ``from pkg import mod`` is an
    import of ``pkg.mod``; importing one's own parent package is not an edge (Python does it anyway)."""
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.update(
                    f"{node.module}.{alias.name}" if f"{node.module}.{alias.name}" in modules else node.module
                    for alias in node.names
                )
            elif isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
        graph[name] = {t for t in found if t in modules and t != name and not name.startswith(t + ".")}
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        cycles.append(sorted(component))
            elif target not in index:
                index[target] = low[target] = len(index)
                stack.append(target)
                on_stack.add(target)
                work.append((target, iter(sorted(graph[target]))))
            elif target in on_stack:
                low[node] = min(low[node], index[target])
    return cycles


def test_the_cycle_finder_finds_a_cycle_of_three() -> None:
    assert import_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert import_cycles({"a": {"b"}, "b": set()}) == []


def test_no_module_imports_itself_through_others() -> None:
    """No import cycle between modules either (the simulator's app and window imported each other)."""
    modules = {}
    for path in ROOT.rglob("*.py"):
        parts = ("companion", *path.relative_to(ROOT).with_suffix("").parts)
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    assert import_cycles(module_imports(modules)) == []
