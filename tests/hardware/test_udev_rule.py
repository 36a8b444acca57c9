"""The udev rule shipped for the reader bridge (issue 19 §6): the Pico's serial port, ModemManager told
to keep off it. Parsed the way udev reads a rule line: comma-separated ``KEY op "value"`` pairs."""

from __future__ import annotations

import re
from pathlib import Path

RULES = Path(__file__).parents[2] / "systemd" / "99-companion-pico.rules"
PAIR = re.compile(r'\s*([A-Z_]+(?:\{[^}]+\})?)\s*(==|!=|\+=|-=|:=|=)\s*"([^"]*)"\s*')
MATCH_KEYS = {"ACTION", "SUBSYSTEM", "ATTRS{idVendor}", "ATTRS{idProduct}"}
ASSIGN_KEYS = {"ENV{ID_MM_DEVICE_IGNORE}", "GROUP", "MODE", "SYMLINK"}


def rules() -> list[dict[str, tuple[str, str]]]:
    out = []
    for line in RULES.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        pairs: dict[str, tuple[str, str]] = {}
        for item in line.split(","):
            match = PAIR.fullmatch(item)
            assert match, f'not a udev KEY op "value" pair: {item!r}'
            key, op, value = match.groups()
            assert key in MATCH_KEYS | ASSIGN_KEYS, key
            assert (op == "==") == (key in MATCH_KEYS), f"{key} {op}: a match key needs ==, an assignment =/+="
            pairs[key] = (op, value)
        out.append(pairs)
    return out


def test_the_pico_rule_matches_micropythons_usb_id_and_keeps_modemmanager_off() -> None:
    (rule,) = rules()
    assert rule["SUBSYSTEM"] == ("==", "tty")
    assert rule["ATTRS{idVendor}"] == ("==", "2e8a") and rule["ATTRS{idProduct}"] == ("==", "0005")
    assert rule["ENV{ID_MM_DEVICE_IGNORE}"] == ("=", "1")
    assert rule["GROUP"] == ("=", "dialout") and rule["SYMLINK"] == ("+=", "companion-pico")
