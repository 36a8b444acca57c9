"""Helpers for the bot tests: reference configurations and a state-to-values view of the engine."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from companion import native
from companion.games.on_the_way.data import load_reference
from companion.games.on_the_way.engine import GameConfig, HouseRules, LayOut, apply
from companion.games.on_the_way.engine.state import GameState


@cache
def config_for(players: int = 2, rules: HouseRules | None = None, end_at: int | None = None) -> GameConfig:
    board, deck = load_reference()
    colours = ("red", "blue", "green", "yellow")[:players]
    return GameConfig(board, deck, colours, rules or HouseRules(), end_at)


def engine_snapshot(state: GameState) -> tuple[object, ...]:
    """The engine state as plain values, in the shape of ``Kernel.snapshot`` (the ledger is left out:
    its balances equal ``money``, which is compared)."""
    players = tuple(
        (
            p.colour,
            p.money,
            p.vp,
            p.contracts,
            tuple((t.marker, t.city, t.trucks, t.loaded) for t in p.transports),
        )
        for p in state.players
    )
    return (
        players,
        state.buildings,
        state.builders,
        state.idle,
        (state.supply_trucks, state.supply_warehouses, state.supply_logistics_centres),
        state.time,
        state.event,
        state.revealed,
        state.strip,
        state.used_contracts,
        state.jams,
        (state.turn.seat, state.turn.round, state.turn.steps_used),
        state.awaiting_event,
        state.last_round,
        state.finished,
    )


def laid_out(state: GameState, *cards: str) -> GameState:
    """``state`` with ``cards`` laid out face up (OTW-9), as the table scans them."""
    for card in cards:
        state, _ = apply(state, LayOut(card))
    return state


KERNEL = "companion.games.on_the_way.bots"  # the package whose modules the install compiles


def fake_kernel_install(root: Path, stamped: bool = True) -> Path:
    """The bots package under ``root`` as an install that compiled the kernel leaves it: the sources, a
    compiled file per module (empty: only its presence is read) and, when ``stamped``, the hash of the
    sources. Returns the package's folder."""
    folder = native.folder_of(KERNEL, root)
    folder.mkdir(parents=True, exist_ok=True)
    for name in native.COMPILED[KERNEL].modules:
        if not (folder / f"{name}.py").exists():
            (folder / f"{name}.py").write_text(f"# {name}\n", encoding="utf-8")
        (folder / f"{name}{native.SUFFIX}").write_bytes(b"")
    if stamped:
        (folder / native.stamp_name()).write_text(native.sources_digest(KERNEL, root) + "\n", encoding="utf-8")
    return folder
