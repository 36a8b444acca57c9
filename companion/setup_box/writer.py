"""The wizard's result as the game's own TOML files (the reference files' formats), plus the tags.

A small TOML writer on purpose: the formats only need strings, integers, floats, booleans and flat
lists, and the output should read like the hand-written reference files (one block per city, road
and card), so an owner can still open and edit it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.digitise.model import WizardState
from companion.games.digitise.profile import GameProfile, profile
from companion.setup_box.layout import stress_layout
from companion.setup_box.machine import UNTAGGED


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(round(value, 4))
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a TOML basic string: same escapes
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} to TOML")


def toml_table(header: str, values: Mapping[str, Any]) -> str:
    lines = [header] + [f"{key} = {toml_value(value)}" for key, value in values.items()]
    return "\n".join(lines) + "\n"


def toml_document(comment: str, blocks: Sequence[tuple[str, Mapping[str, Any]]]) -> str:
    head = "".join(f"# {line}\n".replace("# \n", "#\n") for line in comment.splitlines())
    return head + "\n" + "\n".join(toml_table(header, values) for header, values in blocks)


def positions(state: WizardState) -> dict[str, tuple[float, float]]:
    """Where each city is on the screen map: the layout step's, or computed now."""
    known = {c: (x, y) for c, x, y in state.positions}
    if all(c in known for c in state.cities):
        return {c: known[c] for c in state.cities}
    fixed = {c: (x, y) for c, x, y in state.moved}
    return stress_layout(state.cities, [(r.a, r.b) for r in state.roads], fixed)


def board_toml(state: WizardState, prof: GameProfile, title: str | None = None) -> str:
    where = positions(state)
    blocks: list[tuple[str, Mapping[str, Any]]] = [("[board]", {"name": title or state.name, "game": state.game})]
    for city in state.cities:
        x, y = where[city]
        blocks.append(("[[cities]]", {"name": city, "x": round(x, 3), "y": round(y, 3)}))
    for road in state.roads:
        block: dict[str, Any] = {"between": [road.a, road.b]}
        if prof.road_details:
            block["spaces"] = road.spaces or 0
            if road.triangles:
                block["triangles"] = list(road.triangles)
            if not road.signs:
                block["signs"] = False
        blocks.append(("[[roads]]", block))
    if prof.setup_sizes:
        blocks.append(("[setup]", {f"players_{p}": list(state.setup_of(p)) for p in sorted(prof.setup_sizes)}))
    comment = (f"{state.game}: the board of {state.name!r}, digitised with `companion setup-box`.\n"
               "x, y: the screen map (0..1 from the left and the top), not measured on the printed board.")  # fmt: skip
    return toml_document(comment, blocks)


def cards_toml(state: WizardState, prof: GameProfile, section: str) -> str:
    kind = prof.kind(section)
    blocks = []
    for card in state.cards_of(section):
        assert card.id is not None
        blocks.append((f"[[{section}]]", kind.to_toml(card.id, card.as_dict, state)))
    comment = f"{state.game}: the {kind.label}s of {state.name!r}, digitised with `companion setup-box`."
    return toml_document(comment, blocks)


def tags_toml(state: WizardState) -> str:
    """The card tags (UID -> card id) and the readers (reader -> city) the wizard enrolled."""
    cards = {card.uid: card.id for card in state.cards if card.id and not card.uid.startswith(UNTAGGED)}
    readers = dict(state.readers)
    text = "# The tags enrolled by `companion setup-box`: card tag UID -> card id, reader -> city.\n\n[cards]\n"
    text += "".join(f"{toml_value(uid)} = {toml_value(cid)}\n" for uid, cid in cards.items())
    text += "\n[readers]\n" + "".join(f"{toml_value(r)} = {toml_value(c)}\n" for r, c in readers.items())
    return text


def render(state: WizardState, title: str | None = None) -> dict[str, str]:
    """File name -> text: the board, contracts and events files (the reference names) and tags.toml."""
    prof = profile(state.game)
    files = prof.files
    return {
        files["board"]: board_toml(state, prof, title),
        files["contracts"]: cards_toml(state, prof, prof.contracts.section),
        files["events"]: cards_toml(state, prof, prof.events.section),
        "tags.toml": tags_toml(state),
    }


def read_files(game: str, files: Mapping[str, Any], name: str, tags: Mapping[str, str] | None = None,
               readers: Mapping[str, str] | None = None) -> WizardState:  # fmt: skip
    """The wizard state that writes ``files`` back (role -> path): to correct an existing data set or
    the reference data instead of starting from nothing. Cities keep the readers of ``readers``
    (reader -> city), else none (desk style); cards keep their tags from ``tags`` (uid -> id)."""
    from companion.games.digitise.model import CardEntry, RoadEntry, Step
    from companion.games.digitise.profile import read_toml
    from companion.setup_box.machine import UNTAGGED

    prof = profile(game)
    board = read_toml(files["board"])
    by_city = {city: reader for reader, city in (readers or {}).items()}
    cities = [c["name"] for c in board.get("cities", ())]
    roads = []
    for road in board.get("roads", ()):
        a, b = road["between"]
        spaces = int(road.get("spaces", 0)) if prof.road_details else None
        roads.append(RoadEntry(a, b, spaces, tuple(road.get("triangles", ())), bool(road.get("signs", True))))
    setup = tuple((p, tuple(board.get("setup", {}).get(f"players_{p}", ()))) for p in sorted(prof.setup_sizes))
    uid_of = {card_id: uid for uid, card_id in (tags or {}).items()}
    cards = []
    untagged = 0
    for kind, role in ((prof.contracts, "contracts"), (prof.events, "events")):
        for data in read_toml(files[role]).get(kind.section, ()):
            uid = uid_of.get(data["id"])
            if uid is None:
                untagged += 1
                uid = f"{UNTAGGED}{untagged}"
            values = tuple(kind.from_toml(data).items())
            cards.append(CardEntry(kind.section, uid, values, data["id"]))
    positions = tuple((c["name"], float(c["x"]), float(c["y"])) for c in board.get("cities", ()))
    return WizardState(
        game=game, name=name, step=Step.CHECK, candidates=tuple(cities),
        readers=tuple((by_city.get(c, c), c) for c in cities), roads=tuple(roads), positions=positions,
        moved=positions, setup=setup, setup_players=min(prof.setup_sizes, default=0), cards=tuple(cards),
        message="Read from the files: go back to any step to change it.",
    )  # fmt: skip
