"""What a :class:`~companion.hardware.plan.Plan` gives the builder: the report, its JSON, the hardware TOML
tables and bridge config it implies, and the 1:1 placement template (SVG in real millimetres)."""

from __future__ import annotations

import json
import math
from html import escape
from typing import Any

from companion.hardware.plan import (
    ANTENNA_MA_MAX,
    ANTENNA_MA_TYP,
    GROUP_MS,
    READER_MS,
    SUPPLY_MARGIN,
    Plan,
)
from companion.hardware.plan_inputs import CARD

# one stroke colour per RF group on the template (cycled), readable on white paper and in greyscale
GROUP_COLOURS = ("#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf", "#7f7f7f", "#bcbd22", "#e377c2")
SCALE_BAR_MM = 100.0


def _toml_str(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


def hardware_toml(plan: Plan) -> str:
    """``[readers]``, ``[card_reader]`` and ``[rf]`` for the hardware file (``close`` = the geometric
    pairs, so any later colouring keeps them apart too; ``groups`` = this plan's)."""
    lines = [f"# written by `companion hardware plan` ({plan.antenna.kind} antennas, "
             f"{plan.board_size_mm[0]:g} x {plan.board_size_mm[1]:g} mm board)", "[readers]"]  # fmt: skip
    lines += [f"{room.channel} = {_toml_str(room.name)}" for room in plan.rooms]
    if plan.card_channel is not None:
        lines += ["", "[card_reader]", f"channel = {plan.card_channel}"]
    pairs = [(a, b) for a, b, _ in plan.close]
    known = {frozenset(p) for p in pairs}
    for pair in plan.extra_close:
        if frozenset(pair) not in known:
            known.add(frozenset(pair))
            pairs.append(pair)
    lines += ["", "[rf]", "rf_safe = true", "close = ["]
    lines += [f"  [{_toml_str(a)}, {_toml_str(b)}]," for a, b in pairs]
    lines += ["]", "groups = ["]
    lines += ["  [" + ", ".join(_toml_str(n) for n in group) + "]," for group in plan.groups]
    lines += ["]"]
    return "\n".join(lines) + "\n"


def bridge_config(plan: Plan) -> str:
    """The lines ``companion hardware flash`` writes into the Pico's ``bridge_config.py`` for this plan."""
    channels = [room.channel for room in plan.rooms] + ([plan.card_channel] if plan.card_channel is not None else [])
    return (
        "\n".join(
            [
                f"READERS = {max(channels, default=-1) + 1}",
                f"CARD_CHANNEL = {plan.card_channel if plan.card_channel is not None else -1}",
                f"GROUPS = {plan.group_channels!r}",
            ]
        )
        + "\n"
    )


def to_json(plan: Plan) -> dict[str, Any]:
    power = plan.power
    return {
        "board_size_mm": list(plan.board_size_mm),
        "positions": plan.position_sources,
        "antenna": {
            "kind": plan.antenna.kind,
            "coil_mm": plan.antenna.coil_mm,
            "module_mm": list(plan.antenna.module_mm) if plan.antenna.module_mm else None,
            "min_room_mm": round(plan.antenna.min_room_mm, 1),
            "close_mm": round(plan.antenna.close_mm, 1),
            "source": plan.antenna.source,
        },
        "cities": [
            {
                "name": r.name,
                "channel": r.channel,
                "bank": r.bank,
                "x_mm": round(r.position.x_mm, 1),
                "y_mm": round(r.position.y_mm, 1),
                "position": r.position.source,
                "room_mm": round(r.room_mm, 1) if math.isfinite(r.room_mm) else None,
                "nearest": r.nearest,
                "fits": r.fits,
                **({} if r.fits else {"advice": plan.advice(r)}),
            }
            for r in plan.rooms
        ],
        "cannot_hold": [r.name for r in plan.cannot_hold],
        "fit_by_kind": plan.fit_by_kind,
        "scale_to_fit": round(plan.scale_to_fit, 3),
        "too_close_pairs": [[a, b, round(d, 1)] for a, b, d in plan.too_close],
        "close_pairs": len(plan.close),
        "close_not_neighbours": len(plan.adjacency_misses),
        "card_channel": plan.card_channel,
        "card_position_mm": (
            [round(plan.card_position.x_mm, 1), round(plan.card_position.y_mm, 1)] if plan.card_position else None
        ),
        "per_bank": plan.per_bank,
        "max_on": plan.max_on or None,
        "groups": plan.groups,
        "group_channels": plan.group_channels,
        "group_count": len(plan.groups),
        "sweep_ms": round(plan.sweep_ms, 1),
        "power": {
            "antenna_ma_typ": ANTENNA_MA_TYP,
            "antenna_ma_max": ANTENNA_MA_MAX,
            "bank_ma": {str(b): round(v, 1) for b, v in power.bank_ma.items()},
            "regulator_ma": {str(b): v for b, v in power.regulator_ma.items()},
            "ldo_watts": {str(b): round(v, 2) for b, v in power.ldo_watts.items()},
            "worst_bank": power.worst_bank,
            "worst_bank_ma": round(power.bank_ma.get(power.worst_bank, 0.0), 1),
            "supply_worst_a": round(power.supply_worst_a, 2),
            "supply_a": power.supply_a,
            "all_antennas_on_a": round(power.all_on_a, 2),
        },
        "hardware_toml": hardware_toml(plan),
        "bridge_config": bridge_config(plan),
    }


def report(plan: Plan) -> str:
    """The plan as text for a person at a workbench."""
    a, power = plan.antenna, plan.power
    sources = ", ".join(f"{n} {'measured (mm file)' if s == 'measured' else 'from the board file x,y scaled'}"
                        for s, n in sorted(plan.position_sources.items()))  # fmt: skip
    out = [
        f"Board {plan.board_size_mm[0]:g} x {plan.board_size_mm[1]:g} mm; positions: {sources}.",
        f"Antenna {a.kind}: coil {a.coil_mm:g} mm"
        + (f" on a {a.module_mm[0]:g} x {a.module_mm[1]:g} mm board" if a.module_mm else "")
        + f" ({a.source}).",
        f"  needs {a.min_room_mm:.0f} mm to the nearest antenna; antennas closer than {a.close_mm:.0f} mm"
        " are never on together.",
        "",
        "City                      ch bank  x mm   y mm  room mm  nearest",
    ]
    for r in plan.rooms:
        flag = "" if r.fits else "  CANNOT HOLD"
        out.append(
            f"{r.name[:24]:24} {r.channel:3d} {r.bank:4d} {r.position.x_mm:6.1f} {r.position.y_mm:6.1f}"
            f" {r.room_mm:8.1f}  {r.nearest}{flag}"
        )
    out.append("")
    if plan.cannot_hold:
        out.append(f"{len(plan.cannot_hold)} of {len(plan.rooms)} cities cannot hold a {a.kind} antenna:")
        out += [f"  {r.name} ({r.room_mm:.0f} mm to {r.nearest}): {plan.advice(r)}" for r in plan.cannot_hold]
    else:
        out.append(f"Every city holds a {a.kind} antenna.")
    if plan.cannot_hold:
        scale, (width, height) = plan.scale_to_fit, plan.board_size_mm
        out.append(
            f"  or print the board {scale:.2f} times larger ({width * scale:.0f} x {height * scale:.0f} mm):"
            f" then every city holds a {a.kind} antenna."
        )
    out.append("Fit by antenna kind (cities that cannot hold it):")
    for kind, names in plan.fit_by_kind.items():
        shown = ", ".join(names[:12]) + (", ..." if len(names) > 12 else "")
        out.append(f"  {kind:10} {len(names):3d}" + (f": {shown}" if names else ""))
    out.append(
        f"{len(plan.close)} pairs closer than {a.close_mm:.0f} mm"
        + (f" ({len(plan.adjacency_misses)} of them not neighbours on the board)" if plan.adjacency_misses else "")
        + (f", plus {len(plan.extra_close)} [rf] close pairs" if plan.extra_close else "")
        + "."
    )
    if plan.card_channel is not None and plan.card_position is None:
        out.append(
            f"Card reader (channel {plan.card_channel}): no position given (card = [x, y] in --positions), so only"
            " [rf] close pairs keep it apart from the cities beside it."
        )
    cap = f", at most {plan.max_on} in all" if plan.max_on else ""
    out.append(f"RF groups: {len(plan.groups)} (at most {plan.per_bank} antennas of one bank on at once{cap})")
    channels = plan.channels
    for number, group in enumerate(plan.groups, start=1):
        out.append(f"  G{number}: " + ", ".join(f"{n} ({channels[n]})" for n in group))
    out.append(
        f"Sweep: {plan.sweep_ms:.1f} ms = {len(plan.groups)} groups x {GROUP_MS:.1f} ms (guard + receive window)"
        f" + {len(channels)} readers x {READER_MS:.2f} ms"
    )
    out.append(f"Power (MFRC522 DS §4 Table 1: {ANTENNA_MA_TYP:g} mA typ, {ANTENNA_MA_MAX:g} mA max per antenna on):")
    for bank, ma in power.bank_ma.items():
        out.append(
            f"  bank {bank}: worst {ma:.0f} mA at 3.3 V -> {power.regulator_ma[bank]} mA LDO, "
            f"{power.ldo_watts[bank]:.2f} W in it"
        )
    out.append(
        f"  5 V supply: worst {power.supply_worst_a:.2f} A (worst group, every chip, every LED) x {SUPPLY_MARGIN:g}"
        f" -> buy {power.supply_a:g} A; every antenna on at once would ask {power.all_on_a:.2f} A (the"
        " regulators limit it: the box browns out, nothing burns)"
    )
    out += ["", "Hardware TOML:", hardware_toml(plan), "Bridge config (companion hardware flash writes it):",
            bridge_config(plan)]  # fmt: skip
    return "\n".join(out)


def template_svg(plan: Plan) -> str:
    """A 1:1 placement template: the board outline, each antenna's coil (and module outline) at its
    city with channel and group, pairs that are too close in red, and a 100 mm bar to check the scale."""
    width, height = plan.board_size_mm
    margin = 20.0
    a = plan.antenna
    group_of = {n: i for i, g in enumerate(plan.groups) for n in g}
    too_close = {n for p in plan.too_close for n in p[:2]}
    parts = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width + 2 * margin:g}mm" height="{height + 2 * margin:g}mm"'
        f' viewBox="{-margin:g} {-margin:g} {width + 2 * margin:g} {height + 2 * margin:g}"'
        ' font-family="DejaVu Sans, Arial, sans-serif">',
        f"<title>Antenna placement, {escape(a.kind)} antennas, {width:g} x {height:g} mm: print at 100 %</title>",
        f'<rect x="0" y="0" width="{width:g}" height="{height:g}" fill="none" stroke="#000" stroke-width="0.4"/>',
        f'<line x1="0" y1="{height + 8:g}" x2="{SCALE_BAR_MM:g}" y2="{height + 8:g}" stroke="#000" stroke-width="1"/>',
        f'<text x="{SCALE_BAR_MM + 3:g}" y="{height + 10:g}" font-size="4">this bar must measure'
        f" {SCALE_BAR_MM:g} mm</text>",
        f'<text x="0" y="{-6:g}" font-size="5">{escape(a.kind)} antennas: coil {a.coil_mm:g} mm; red = cannot hold'
        " (dashed, see the plan); label = channel / RF group</text>",
    ]
    for r in plan.rooms:
        x, y = r.position.x_mm, r.position.y_mm
        colour = "#d00" if r.name in too_close else GROUP_COLOURS[group_of.get(r.name, 0) % len(GROUP_COLOURS)]
        dash = ' stroke-dasharray="2,1"' if r.name in too_close else ""
        if a.module_mm:
            long, short = a.module_mm
            parts.append(
                f'<rect x="{x - short / 2:.2f}" y="{y - long / 2:.2f}" width="{short:g}" height="{long:g}"'
                ' fill="none" stroke="#999" stroke-width="0.2" stroke-dasharray="1,1"/>'
            )
        parts += [
            f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{a.coil_mm / 2:g}" fill="none" stroke="{colour}"'
            f' stroke-width="0.5"{dash}/>',
            f'<path d="M{x - 2:.2f} {y:.2f}H{x + 2:.2f}M{x:.2f} {y - 2:.2f}V{y + 2:.2f}"'
            ' stroke="#000" stroke-width="0.2"/>',
            f'<text x="{x:.2f}" y="{y - a.coil_mm / 2 - 1:.2f}" font-size="3.2" text-anchor="middle">{r.channel} / G'
            f"{group_of.get(r.name, 0) + 1}</text>",
            f'<text x="{x:.2f}" y="{y + a.coil_mm / 2 + 3:.2f}" font-size="2.4" text-anchor="middle">'
            f"{escape(r.name)}</text>",
        ]
    if plan.card_position is not None and plan.card_channel is not None:
        x, y = plan.card_position.x_mm, plan.card_position.y_mm
        parts.append(
            f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{a.coil_mm / 2:g}" fill="none" stroke="#000" stroke-width="0.5"/>'
            f'<text x="{x:.2f}" y="{y:.2f}" font-size="3.2" text-anchor="middle">{plan.card_channel} / G'
            f"{group_of.get(CARD, 0) + 1} card</text>"
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
